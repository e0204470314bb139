// SPDX-License-Identifier: Apache-2.0
// markdown_table.cpp — a GitHub table of lesson Markdown as a QTextTable
// (markdown_table.h).
#include "ui/document/markdown_table.h"

#include <QFont>
#include <QTextCursor>
#include <QTextTable>

#include <algorithm>
#include <climits>

namespace poslab::ui {

namespace {

// A lesson's table is cut after so many rows and columns (with a note), so
// that nothing in a lesson file can make the page or the PDF unusable.
constexpr int kMaxTableRows = 1000;
constexpr int kMaxTableColumns = 64;

QColor tableBorder(bool dark)
{
    return dark ? QColor(0x55, 0x58, 0x5e) : QColor(0xc8, 0xcc, 0xd2);
}
QColor tableHeaderBackground(bool dark)
{
    return dark ? QColor(0x30, 0x33, 0x38) : QColor(0xe9, 0xec, 0xf0);
}

}  // namespace

MarkdownTable::MarkdownTable(QTextCursor& cursor, const MD_BLOCK_TABLE_DETAIL& detail, const MarkdownContext& context)
    : m_dark(context.dark)
{
    const int allRows = int(std::min<unsigned>(detail.head_row_count + detail.body_row_count, INT_MAX));
    const int allCols = int(std::min<unsigned>(std::max(1u, detail.col_count), INT_MAX));
    const int rows = std::min(allRows, kMaxTableRows);
    const int cols = std::min(allCols, kMaxTableColumns);
    const bool zh = context.lang == QLatin1String("zh");
    m_cutNote = rows < allRows || cols < allCols
                    ? (zh ? QStringLiteral("表格过大：只显示了 %2 行中的 %1 行、%4 列中的 %3 列")
                          : QStringLiteral("table cut: %1 of %2 rows and %3 of %4 columns shown"))
                          .arg(rows)
                          .arg(allRows)
                          .arg(cols)
                          .arg(allCols)
                    : QString();
    QTextTableFormat tf;
    tf.setBorder(0.75);
    tf.setBorderBrush(tableBorder(m_dark));
    tf.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    // Not collapsed: with collapse Qt 6.4 draws only cell-format borders (none by default).
    tf.setCellPadding(5);
    tf.setCellSpacing(0);
    tf.setTopMargin(4);
    tf.setBottomMargin(12);
    tf.setHeaderRowCount(int(detail.head_row_count));
    tf.setAlignment(Qt::AlignLeft);
    m_table = cursor.insertTable(std::max(1, rows), cols, tf);
}

std::optional<QTextCharFormat> MarkdownTable::enterCell(QTextCursor& cursor, MD_ALIGN align, bool header,
                                                        const QTextCharFormat& body)
{
    if (m_row >= m_table->rows() || m_col >= m_table->columns()) return std::nullopt;
    const int row = std::min(m_row, m_table->rows() - 1);
    const int col = std::min(m_col, m_table->columns() - 1);
    QTextTableCell cell = m_table->cellAt(std::max(0, row), col);
    cursor = cell.firstCursorPosition();
    QTextBlockFormat bf;
    bf.setLineHeight(130, QTextBlockFormat::ProportionalHeight);
    switch (align) {
        case MD_ALIGN_CENTER: bf.setAlignment(Qt::AlignHCenter); break;
        case MD_ALIGN_RIGHT: bf.setAlignment(Qt::AlignRight); break;
        default: bf.setAlignment(Qt::AlignLeft); break;
    }
    cursor.setBlockFormat(bf);
    QTextCharFormat cf = body;
    if (header) {
        cf.setFontWeight(QFont::Bold);
        QTextTableCellFormat cellFormat = cell.format().toTableCellFormat();
        cellFormat.setBackground(tableHeaderBackground(m_dark));
        cell.setFormat(cellFormat);
    }
    return cf;
}

}  // namespace poslab::ui
