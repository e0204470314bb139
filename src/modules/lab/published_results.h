// SPDX-License-Identifier: Apache-2.0
// published_results.h — numbers the course quotes from papers, for the
// reproduction cards (module lab.reproduction): each table as printed in its
// source, with the exact place (paper, arXiv version, table or figure, rows
// and columns), the setting (model size, data, unit, evaluation protocol) and
// what differs from a laptop run.
//
// Every cell is the source's text, copied and checked against the source
// (docs/reproduction-sources.md says how each was read); a cell that is not a
// plain number ("> 1000", printed "> 10³") stays text and is never drawn. Nothing here is
// computed, except where a row says so (the NoPE card's means of three seeds,
// from the authors' released per-seed results).
#pragma once

#include "util/text2.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace poslab::lab {

struct PublishedRow {
    QString scheme;                  // the lab's row id it corresponds to ("rope", "rope+linear", "sinusoidal", ...)
    util::Text2 label;               // the source's own name for it ("Rotary", "APE (sinusoidal)")
    QStringList cells;               // one per column, as printed
    double value(int column) const;  // the cell as a number; NaN when it is not a plain number
};

struct PublishedTable {
    util::Text2 source;   // authors, title, venue, arXiv id and version; the table or figure
    util::Text2 setting;  // model size, data, unit, evaluation protocol
    util::Text2 unit;     // what the cells measure ("validation perplexity")
    // A length axis (lengths in the source's tokens, trainLength the trained
    // one), or none: then `columns` name the columns.
    double trainLength = 0.0;
    std::vector<double> lengths;
    QStringList columns;  // column ids ("L=1024", or "owt2_loss" without a length axis)
    std::vector<PublishedRow> rows;
    const PublishedRow* row(const QString& scheme) const;
};

// Press, Smith and Lewis (ICLR 2022), Table 3: trained at 1024 tokens,
// evaluated at 1024, 2024, 4024, 8024 (≈ 1, 2, 4, 8 times).
const PublishedTable& alibiExtrapolationTable();
// Kazemnejad et al. (NeurIPS 2023), the released results behind appendix
// Figure F.4, Copy Variant 3 (random tokens copied in order): trained on
// lengths up to 20, exact match at 20, 24, 28, 32, 40 (means of three seeds).
const PublishedTable& nopeCopyTable();
// Biderman et al. (EleutherAI blog, 2021): validation loss at the training
// length, OWT2 (125M) and the Pile (1.4B).
const PublishedTable& rotaryVersusLearnedTable();
// Chen et al. (2023), Tables 1 and 3: LLaMA 7B (trained at 2048) on PG19
// without fine-tuning: direct extrapolation and Position Interpolation at
// step 0.
const PublishedTable& interpolationWithoutFineTuningTable();

}  // namespace poslab::lab
