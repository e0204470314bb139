// SPDX-License-Identifier: Apache-2.0
// worked_cell.cpp — one worked value under a chart of the PDF (worked_cell.h).
#include "ui/report/worked_cell.h"

#include "modules/registry.h"
#include "ui/charts/chart_view.h"
#include "ui/formula/formula_renderer.h"
#include "ui/report/pdf_pages.h"
#include "ui/report/report_document.h"
#include "util/number_format.h"
#include "util/tex_to_unicode.h"

#include <QTextBlockFormat>
#include <QTextCursor>
#include <QTextFrame>

#include <cmath>

namespace poslab::ui::report {

using modules::Output;
using modules::OutputKind;
using util::T2;

namespace {

bool workedValueTells(const std::optional<modules::CellExplanation>& e)
{
    return e && std::isfinite(e->value) && e->value != 0;
}

// The worked cell of the output `name` (the module's name of `o`, which
// selectOutputs shows by its label), or nullopt when the module does not explain it.
std::optional<WorkedCell> workedCellIn(const modules::ModuleSpec& module, const modules::Params& params,
                                       const QString& name, const Output& o)
{
    WorkedCell w;
    w.output = name;
    w.series = o.kind == OutputKind::Series;
    const int rows = w.series ? int(o.y.size()) : o.rows, cols = w.series ? 1 : o.cols;
    if (rows <= 0 || cols <= 0) return std::nullopt;
    // The middle, then places off the diagonal and the middle, until a value tells.
    const std::pair<int, int> places[] = {{rows / 2, cols / 2},
                                          {w.series ? rows / 3 : 2 * rows / 3, cols / 3},
                                          {rows / 3, 2 * cols / 3},
                                          {2 * rows / 3, 2 * cols / 3}};
    std::optional<modules::CellExplanation> e;
    for (const auto& [row, col] : places) {
        std::optional<modules::CellExplanation> here = module.explain(params, name, row, w.series ? 0 : col);
        if (!here || (e && !workedValueTells(here))) continue;
        e = here, w.row = row, w.col = w.series ? 0 : col;
        if (workedValueTells(e)) break;
    }
    if (!e) return std::nullopt;
    w.explanation = *e;
    if (w.series) w.x = w.row < int(o.x.size()) ? o.x[std::size_t(w.row)] : double(w.row);
    if (w.series && w.row < o.xLabels.size()) w.rowLabel = o.xLabels[w.row];
    if (!w.series && w.row < o.rowLabels.size()) w.rowLabel = o.rowLabels[w.row];
    if (!w.series && w.col < o.colLabels.size()) w.colLabel = o.colLabels[w.col];
    return w;
}

// `text`, smaller when the formula would be wider than the page at its size
// (a formula cannot wrap): T5's cases, RoPE's block matrix.
QTextCharFormat formulaFormat(ReportDocument& doc, const QString& tex, const QTextCharFormat& text)
{
    const Formula f = FormulaRenderer::instance().render(tex, false);  // blocking: the PDF waits for it anyway
    const qreal pt = text.fontPointSize() > 0 ? text.fontPointSize() : 8.5;
    // Width at this size in logical px (96 dpi), with the up to 20% that matches the font's x-height.
    const qreal width = f.sizeForEm(pt * kLogicalDpi / 72.0).width() * 1.2;
    const qreal room = 0.92 * doc.pages().textWidthLogical();
    QTextCharFormat smaller = text;
    if (f.ok && width > room) smaller.setFontPointSize(std::max(5.0, pt * room / width));
    return smaller;
}

// "title = value" for one axis of the chart: the point's label (without a
// "j=" of its own) or its number; an axis without a title says `untitled`
// with the number ("row 8").
QString axisValue(const QString& title, const QString& untitled, const QString& label, const QString& number)
{
    QString value = label.isEmpty() ? number : label.mid(label.indexOf(u'=') + 1).trimmed();
    if (value.startsWith(u'-')) value.replace(0, 1, QChar(0x2212));
    if (title.isEmpty()) return untitled.arg(value);
    return QStringLiteral("%1 = %2").arg(util::texToUnicode(title), value);
}

// Where the worked value is, in the chart's own words (`spec` is in `lang`):
// "Worked example — pe at position p = 8, channel i = 2: " (a series:
// "… at pair j = 2: ").
QString workedPlace(const ChartSpec& spec, const WorkedCell& w, const QString& lang)
{
    const QString name = spec.labels.value(w.output, w.output);
    QString at;
    if (w.series)
        at = axisValue(spec.xTitle, QStringLiteral("x = %1"), w.rowLabel, util::formatNumber(w.x));
    else
        at = axisValue(spec.yTitle, T2("row %1", "行 %1").in(lang), w.rowLabel, QString::number(w.row)) +
             (isChinese(lang) ? QStringLiteral("，") : QStringLiteral(", ")) +
             axisValue(spec.xTitle, T2("column %1", "列 %1").in(lang), w.colLabel, QString::number(w.col));
    return T2("Worked example — %1 at %2: ", "算例——%1，%2：").in(lang).arg(name, at);
}

}  // namespace

std::optional<WorkedCell> pickWorkedCell(const modules::ModuleSpec& module, const modules::Params& params,
                                         const ChartSpec& spec, const std::vector<Output>& outputs)
{
    if (!module.explain) return std::nullopt;
    std::vector<Output> shown;
    if (!selectOutputs(spec, outputs, &shown).isEmpty()) return std::nullopt;
    for (const Output& o : shown) {
        if (o.kind != OutputKind::Matrix && o.kind != OutputKind::Series) continue;
        if (std::optional<WorkedCell> w = workedCellIn(module, params, spec.labels.key(o.name, o.name), o)) return w;
    }
    return std::nullopt;
}

void appendWorkedCell(ReportDocument& doc, const ChartSpec& spec, const lessons::RunResult& result)
{
    const modules::ModuleSpec* module = modules::Registry::builtin().find(result.moduleId);
    if (!module || !module->explain) return;
    std::optional<WorkedCell> w;
    try {
        w = pickWorkedCell(*module, modules::parseParams(*module, result.params), spec, result.outputs);
    } catch (const std::exception&) {
        return;  // parameters the run accepted always parse; nothing to add otherwise
    }
    if (!w) return;
    const QString& lang = doc.lang();
    const QString where = workedPlace(spec, *w, lang);
    QTextCursor& cur = doc.cursor();  // at the end of the caption
    QTextBlockFormat caption;
    caption.setBottomMargin(3);  // the example follows close under it
    cur.mergeBlockFormat(caption);
    // A frame of its own: the page never splits a small frame (PagedDocument),
    // so the words, the formula and the numbers stay together, under the
    // caption or, when the page is full, at the top of the next.
    QTextFrameFormat ff;
    ff.setBorder(0);
    ff.setPadding(0);
    ff.setMargin(0);
    ff.setBottomMargin(14);
    QTextFrame* frame = cur.insertFrame(ff);
    QTextBlockFormat line;
    line.setAlignment(Qt::AlignHCenter);
    line.setLeftMargin(24);
    line.setRightMargin(24);
    line.setLineHeight(125, QTextBlockFormat::ProportionalHeight);
    cur.setBlockFormat(line);
    const QTextCharFormat text = doc.uiFormat(8.5, false, QColor(0x3c, 0x44, 0x4e));
    cur.insertText(where + QChar::LineSeparator, doc.uiFormat(8.5, true, QColor(0x3c, 0x44, 0x4e)));
    cur.setCharFormat(formulaFormat(doc, w->explanation.formula, text));
    FormulaTextObject::insertInline(cur, w->explanation.formula);
    cur.insertText(QChar::LineSeparator + w->explanation.substituted.in(lang), text);
    cur = frame->lastCursorPosition();
    cur.movePosition(QTextCursor::NextBlock);  // out of the frame, where the chapter goes on
}

}  // namespace poslab::ui::report
