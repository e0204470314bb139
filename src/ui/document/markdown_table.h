// SPDX-License-Identifier: Apache-2.0
// markdown_table.h — a GitHub table of lesson Markdown as a QTextTable.
//
// MarkdownRenderer (markdown_document.cpp) makes one when md4c enters a
// table and hands it the rows and cells as md4c walks them. The table has
// thin ruled borders, a shaded bold header row (repeated on a new page) and
// each column's alignment; its cells hold inline content only. Lesson files
// are data: a table is cut after kMaxTableRows rows and kMaxTableColumns
// columns — cells past the cut are read and dropped, and cutNote() says what
// was left out (`poslab check` refuses such tables, course_loader.cpp).
//
// Internal to src/ui/document.
#pragma once

#include "ui/document/markdown_document.h"

#include <QString>
#include <QTextCharFormat>

#include <md4c.h>

#include <optional>

class QTextCursor;
class QTextTable;

namespace poslab::ui {

class MarkdownTable {
public:
    // Inserts the table at `cursor` (which sits in an empty block of its
    // own); the cursor ends in the first cell.
    MarkdownTable(QTextCursor& cursor, const MD_BLOCK_TABLE_DETAIL& detail, const MarkdownContext& context);

    QTextTable* table() const { return m_table; }
    // The note under a cut table in the document's language; empty when
    // nothing was cut.
    const QString& cutNote() const { return m_cutNote; }

    void nextRow()
    {
        ++m_row;
        m_col = 0;
    }
    // Moves `cursor` into the cell md4c enters and formats it (alignment;
    // a header cell bold on a shaded background). Returns the character
    // format its text starts in, or nullopt for a cell past the cut.
    std::optional<QTextCharFormat> enterCell(QTextCursor& cursor, MD_ALIGN align, bool header,
                                             const QTextCharFormat& body);
    void leaveCell() { ++m_col; }

private:
    QTextTable* m_table = nullptr;
    bool m_dark = false;
    int m_row = -1;  // of the row md4c is in
    int m_col = 0;   // of the cell md4c enters next
    QString m_cutNote;
};

}  // namespace poslab::ui
