// SPDX-License-Identifier: Apache-2.0
// output_table.cpp — a module output as a table on screen: the model (OutputTableModel),
// numeric sorting and the copyable view.
#include "ui/charts/chart_parts.h"

#include "ui/charts/color_map.h"
#include "util/number_format.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QKeyEvent>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

using modules::Output;
using modules::OutputKind;

OutputTableModel::OutputTableModel(std::vector<Output> outputs, bool keyValue, QObject* parent)
    : QAbstractTableModel(parent)
{
    if (keyValue) {
        m_columns = {tr("name"), tr("value")};
        for (const Output& o : outputs) {
            if (o.kind == OutputKind::Scalar)
                m_rows.push_back({o.name, o.value});
            else if (o.kind == OutputKind::Text)
                m_rows.push_back({o.name, o.text});
        }
        return;
    }
    if (outputs.empty()) return;
    const Output& o = outputs.front();
    switch (o.kind) {
        case OutputKind::Table:
            m_columns = o.columns;
            m_rows = o.tableRows;
            break;
        case OutputKind::Series:
            if (o.xLabels.isEmpty()) {
                m_columns = {QStringLiteral("x"), o.name};
                for (std::size_t k = 0; k < o.y.size(); ++k)
                    m_rows.push_back({k < o.x.size() ? o.x[k] : double(k), o.y[k]});
            } else {
                // Same order as the CSV export: x, value, label.
                m_columns = {QStringLiteral("x"), o.name, tr("label")};
                for (std::size_t k = 0; k < o.y.size(); ++k)
                    m_rows.push_back({k < o.x.size() ? o.x[k] : double(k), o.y[k], o.xLabels.value(qsizetype(k))});
            }
            break;
        case OutputKind::Matrix:
            m_columns << QString();
            for (int c = 0; c < o.cols; ++c)
                m_columns << (c < o.colLabels.size() ? o.colLabels[c] : QString::number(c));
            for (int r = 0; r < o.rows; ++r) {
                QVariantList row;
                row << (r < o.rowLabels.size() ? QVariant(o.rowLabels[r]) : QVariant(qlonglong(r)));
                for (int c = 0; c < o.cols; ++c) {
                    const std::size_t k = std::size_t(r) * o.cols + c;
                    row << (k < o.data.size() ? o.data[k] : double(NAN));
                }
                m_rows.push_back(row);
            }
            break;
        case OutputKind::Scalar:
            m_columns = {tr("name"), tr("value")};
            m_rows.push_back({o.name, o.value});
            break;
        case OutputKind::Text:
            m_columns = {tr("name"), tr("value")};
            m_rows.push_back({o.name, o.text});
            break;
    }
    chooseNumberStyles();
}

// m_powersOfTen: a column of numbers some of which read plainly and some not.
void OutputTableModel::chooseNumberStyles()
{
    m_powersOfTen.assign(std::size_t(m_columns.size()), false);
    for (qsizetype c = 0; c < m_columns.size(); ++c) {
        bool plain = false, powers = false;
        for (const QVariantList& row : m_rows) {
            const QVariant v = row.value(c);
            if (v.typeId() != QMetaType::Double && v.typeId() != QMetaType::Float) continue;
            const double d = v.toDouble();
            if (!std::isfinite(d) || d == 0) continue;
            (readsPlainly(d) ? plain : powers) = true;
        }
        m_powersOfTen[std::size_t(c)] = plain && powers;
    }
}

int OutputTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int OutputTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant OutputTableModel::rawValue(int row, int col) const
{
    if (row < 0 || row >= int(m_rows.size())) return {};
    return m_rows[std::size_t(row)].value(col);
}

QVariant OutputTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    const QVariant v = rawValue(index.row(), index.column());
    switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            if (v.typeId() == QMetaType::Double || v.typeId() == QMetaType::Float) {
                if (role == Qt::ToolTipRole) return util::formatNumber(v.toDouble());  // every digit
                const bool powers =
                    index.column() < int(m_powersOfTen.size()) && m_powersOfTen[std::size_t(index.column())];
                return powers ? formatPowerOfTen(v.toDouble()) : formatNumber(v.toDouble());
            }
            if (v.typeId() == QMetaType::Bool) return v.toBool() ? tr("yes") : tr("no");
            return v.toString();
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(isNumber(v) ? (Qt::AlignRight | Qt::AlignVCenter)
                                                   : (Qt::AlignLeft | Qt::AlignVCenter));
        case Qt::UserRole: return v;
        default: return {};
    }
}

QVariant OutputTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (role != Qt::DisplayRole) return {};
    if (o == Qt::Horizontal) return m_columns.value(section);
    return section + 1;
}

bool NumericSortProxy::lessThan(const QModelIndex& a, const QModelIndex& b) const
{
    const QVariant va = sourceModel()->data(a, Qt::UserRole);
    const QVariant vb = sourceModel()->data(b, Qt::UserRole);
    if (isNumber(va) && isNumber(vb)) {
        const double x = va.toDouble(), y = vb.toDouble();
        if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);  // NaN last
        return x < y;
    }
    if (isNumber(va) != isNumber(vb)) return isNumber(va);  // numbers before text
    return QString::localeAwareCompare(va.toString(), vb.toString()) < 0;
}

CopyableTableView::CopyableTableView(QWidget* parent) : QTableView(parent)
{
    setSortingEnabled(true);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSelectionBehavior(QAbstractItemView::SelectItems);
    setAlternatingRowColors(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    horizontalHeader()->setStretchLastSection(false);
    verticalHeader()->setVisible(false);
    setAccessibleName(tr("Data table"));
}

QString CopyableTableView::selectionAsText() const
{
    QModelIndexList sel = selectionModel() ? selectionModel()->selectedIndexes() : QModelIndexList();
    if (sel.isEmpty()) return {};
    std::sort(sel.begin(), sel.end(), [](const QModelIndex& a, const QModelIndex& b) {
        return a.row() != b.row() ? a.row() < b.row() : a.column() < b.column();
    });
    QString out;
    int row = sel.front().row();
    bool firstInRow = true;
    for (const QModelIndex& i : sel) {
        if (i.row() != row) {
            out += QLatin1Char('\n');
            row = i.row();
            firstInRow = true;
        }
        if (!firstInRow) out += QLatin1Char('\t');
        out += i.data(Qt::DisplayRole).toString();
        firstInRow = false;
    }
    return out + QLatin1Char('\n');
}

void CopyableTableView::copySelection() const
{
    if (QClipboard* cb = QGuiApplication::clipboard()) cb->setText(selectionAsText());
}

void CopyableTableView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

}  // namespace poslab::ui
