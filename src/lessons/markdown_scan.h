// SPDX-License-Identifier: Apache-2.0
// markdown_scan.h — one md4c pass over a chapter's body that finds its
// structure: top-level headings and fenced blocks (as markers with line
// numbers), images, links, raw HTML in running text, and what is refused
// (lists nested too deep, tables too big). course_loader.cpp builds the
// chapter's steps and blocks from it.
#pragma once

#include "util/text2.h"

#include <QByteArray>
#include <QString>

#include <algorithm>
#include <vector>

namespace poslab::lessons {

using util::Text2;

struct Marker {
    enum Kind { Heading, Fence } kind = Heading;
    int level = 0;      // heading level
    int startLine = 0;  // 1-based, inclusive
    int endLine = 0;    // 1-based, inclusive
    bool topLevel = true;
    QString info;        // fence info string
    bool closed = true;  // fence has its closing line
    int searchFrom = 0;  // empty heading: search its line from here
};

// An image source or a link target, with its line.
struct PathReference {
    QString src;
    int line = 0;
};

// Something md4c found that is refused, waiting for the line of its first text.
struct PendingProblem {
    Text2 message;
    int line = 0;  // 0 until known
};

// Collects markers from md4c callbacks.
struct Md4cScan {
    const char* base = nullptr;  // start of the whole (normalised) file
    qsizetype size = 0;
    const std::vector<qsizetype>* lineStarts = nullptr;
    int depth = 0;
    int lastLine = 1;
    std::vector<Marker> markers;
    std::vector<PathReference> images;
    std::vector<PathReference> links;    // href of every link
    std::vector<PathReference> rawHtml;  // HTML tags in running text, shown as typed
    std::vector<PendingProblem> problems;
    int containerDepth = 0;  // lists, items and quotes open around the current block
    bool tooDeepReported = false;
    // current heading
    bool inHeading = false;
    int headingLevel = 0;
    int headingDepth = 0;
    int headingFirst = 0;
    int headingLast = 0;
    // current fence
    bool inFence = false;
    Marker fence;
    int fenceLastText = 0;

    bool inside(const char* p) const { return p >= base && p < base + size; }
    int lineOf(const char* p) const
    {
        const qsizetype off = p - base;
        auto it = std::upper_bound(lineStarts->begin(), lineStarts->end(), off);
        return int(it - lineStarts->begin());  // 1-based
    }
};

// Runs md4c over `bytes` from line index `bodyStart` (0-based; the front
// matter above it is skipped) into *scan; false when md4c fails.
bool scanMarkdown(const QByteArray& bytes, int bodyStart, Md4cScan* scan);

}  // namespace poslab::lessons
