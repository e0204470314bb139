// SPDX-License-Identifier: Apache-2.0
// play_frames.h — the values a run block's `play:` line steps through.
//
// `play: NAME [frames=N]` names a parameter the reader may vary; playing
// runs the module once per frame with NAME set to the frame's value and the
// other parameters as the panel has them. The window plays them in turn
// (RunBlockCard), the PDF draws a few of them side by side (small multiples).
// Frames spread evenly over the vary range (its own MIN..MAX, or the
// parameter's bounds), geometrically for a `log` range; a whole-number
// parameter takes whole numbers (every one of a range short enough), a
// choice every value offered, a switch off then on.
#pragma once

#include "lessons/course.h"
#include "modules/module.h"

#include <QStringList>

namespace poslab::lessons {

// Frames when `play:` gives no frames=N: every whole number of a range of at
// most kEveryWholeNumberUpTo of them, else kDefaultPlayFrames values.
constexpr int kDefaultPlayFrames = 24;
constexpr int kEveryWholeNumberUpTo = 60;

// The frames' values as parameter text ("0", "2.5", "rope"), first to last;
// empty when the block has no play: line or it names no varied parameter.
QStringList playFrameValues(const RunBlock& run, const modules::ModuleSpec& module);

// `count` frames picked evenly from `frames`, first and last included
// (all of them when there are no more): what the PDF draws.
QStringList pickFrames(const QStringList& frames, int count);

// The frames a printed figure shows beside the block's own chart: `count` of
// the play values spread evenly, leaving out the block's own setting (the
// figure shows it already) when it is one of them. 0..48, own 0: 12, 24, 36,
// 48; when the own setting is the first value, the frames after it evenly
// spaced, `count` or else count − 1 of them where the steps divide evenly
// (0..6, own 0: 2, 4, 6).
QStringList printedFrames(const RunBlock& run, const modules::ModuleSpec& module, int count);

}  // namespace poslab::lessons
