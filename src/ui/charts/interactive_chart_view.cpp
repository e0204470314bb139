// SPDX-License-Identifier: Apache-2.0
// interactive_chart_view.cpp — the chart interactions: the nearest data point,
// tooltips (with how the value came about, its formula typeset once per
// chart), rubber-band and wheel zoom, panning, keys and the context menu.
#include "ui/charts/chart_parts.h"

#include "ui/charts/color_map.h"
#include "ui/charts/heatmap_chart.h"
#include "ui/formula/formula_renderer.h"
#include "util/tex_to_unicode.h"

#include <QAccessible>
#include <QBuffer>
#include <QCursor>
#include <QFontInfo>
#include <QGraphicsRectItem>
#include <QKeyEvent>
#include <QPainter>
#include <QScatterSeries>
#include <QToolTip>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

std::optional<PointHit> nearestPoint(const QChart* chart, const QPointF& chartPos, double maxDistance)
{
    if (!chart || qobject_cast<const HeatmapChart*>(chart)) return std::nullopt;
    if (!chart->plotArea().adjusted(-4, -4, 4, 4).contains(chartPos)) return std::nullopt;
    std::optional<PointHit> best;
    double bestD = maxDistance * maxDistance;
    for (QAbstractSeries* s : chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(s);
        if (!xy || !xy->isVisible()) continue;
        const QList<QPointF> pts = xy->points();
        const QStringList labels = xy->property("poslabPointLabels").toStringList();
        // Where each drawn point sits in its output (buildLineChart leaves out non-finite points).
        const QList<int> indices = xy->property("poslabPointIndices").value<QList<int>>();
        for (qsizetype i = 0; i < pts.size(); ++i) {
            const QPointF& pt = pts[i];
            const QPointF pos = const_cast<QChart*>(chart)->mapToPosition(pt, xy);
            const double dx = pos.x() - chartPos.x(), dy = pos.y() - chartPos.y();
            const double d = dx * dx + dy * dy;
            if (d <= bestD) {
                bestD = d;
                best = PointHit{xy->name(), pt.x(),          pt.y(),
                                pos,        labels.value(i), indices.isEmpty() ? int(i) : indices.value(i, -1)};
            }
        }
    }
    return best;
}

InteractiveChartView::InteractiveChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::RectangleRubberBand);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
}

QString InteractiveChartView::hoverText(const QPointF& viewPos) const
{
    const QString value = plainHoverText(viewPos);
    const ValueExplanation e = value.isEmpty() ? ValueExplanation{} : explanationAt(viewPos);
    if (e.isEmpty()) return value;
    return value + u'\n' + util::mathToUnicode(e.formula) + u'\n' + e.numbers;
}

QString InteractiveChartView::formulaKey(const QString& tex)
{
    return FormulaRenderer::normalizeTex(tex);
}

void InteractiveChartView::setExplainer(Explainer explain)
{
    m_explain = std::move(explain);
    if (m_cursor) showCursor();
}

ValueExplanation InteractiveChartView::explanationAt(const QPointF& viewPos) const
{
    QChart* c = chart();
    if (!c || !m_explain) return {};
    const QPointF pos = c->mapFromScene(mapToScene(viewPos.toPoint()));
    if (auto* heat = qobject_cast<HeatmapChart*>(c)) {
        const std::optional<HeatmapCell> cell = heat->cellAt(pos);
        return cell ? m_explain(QString(), cell->row, cell->col) : ValueExplanation{};
    }
    const std::optional<PointHit> hit = nearestPoint(c, pos);
    return hit && hit->index >= 0 ? m_explain(hit->series, hit->index, 0) : ValueExplanation{};
}

QString InteractiveChartView::hoverHtml(const QPointF& viewPos)
{
    const QString value = plainHoverText(viewPos);
    const ValueExplanation e = value.isEmpty() ? ValueExplanation{} : explanationAt(viewPos);
    return e.isEmpty() ? value : richText(value, e);
}

// The value, the formula (typeset when ready, Unicode until then) and the numbers.
QString InteractiveChartView::richText(const QString& value, const ValueExplanation& e)
{
    typeset(e.formula);
    const QString tag = m_typesetTags.value(formulaKey(e.formula));
    const QString formula =
        tag.isEmpty() ? QStringLiteral("<p>%1</p>").arg(util::mathToUnicode(e.formula).toHtmlEscaped()) : tag;
    return QStringLiteral("<p style=\"white-space:pre\">%1</p>%2<p>%3</p>")
        .arg(value.toHtmlEscaped(), formula, e.numbers.toHtmlEscaped());
}

// Asks FormulaRenderer for `tex` once for this chart: from a cache now, or
// rendered in the background (formulaReady). Every later hover reads the
// image kept here.
void InteractiveChartView::typeset(const QString& tex)
{
    const QString key = formulaKey(tex);
    if (key.isEmpty() || m_asked.contains(key)) return;
    m_asked.insert(key);
    FormulaRenderer& renderer = FormulaRenderer::instance();
    Formula f;
    if (!renderer.lookup(key, true, &f)) {
        if (!m_listening) {
            connect(&renderer, &FormulaRenderer::formulaReady, this, &InteractiveChartView::formulaReady);
            m_listening = true;
        }
        renderer.prefetch({key}, true);
        return;
    }
    keepTypeset(key, f);
}

void InteractiveChartView::formulaReady(const QString& tex, bool display)
{
    const QString key = formulaKey(tex);
    if (!display || !m_asked.contains(key) || m_typesetTags.contains(key)) return;
    Formula f;
    if (!FormulaRenderer::instance().lookup(key, true, &f)) return;
    keepTypeset(key, f);
    // The hover still showing this chart's value: show it again, typeset.
    if (QToolTip::isVisible() && underMouse()) {
        const QString html = hoverHtml(mapFromGlobal(QCursor::pos()));
        if (!html.isEmpty()) QToolTip::showText(QCursor::pos(), html, this);
    }
}

// The formula drawn once into an image in the tooltip's colours and size,
// kept as the <img> tag every hover of this chart uses.
void InteractiveChartView::keepTypeset(const QString& key, const Formula& f)
{
    if (!f.ok || f.isNull()) {
        m_typesetTags.insert(key, QString());  // a TeX error: the Unicode form stays
        return;
    }
    // A little larger than the text, as a displayed formula is: indices stay legible.
    const QSizeF size = f.sizeForEm(1.2 * QFontInfo(QToolTip::font()).pixelSize());
    const qreal dpr = std::max<qreal>(devicePixelRatioF(), 2.0);  // sharp on any screen
    QImage image((size * dpr).toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(dpr, dpr);
        FormulaRenderer::paint(&p, QRectF(QPointF(0, 0), size), f, QToolTip::palette().color(QPalette::ToolTipText));
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    m_typesetImages.insert(key, image);
    m_typesetTags.insert(key, QStringLiteral("<p><img src=\"data:image/png;base64,%1\" width=\"%2\" height=\"%3\"></p>")
                                  .arg(QString::fromLatin1(png.toBase64()))
                                  .arg(qRound(size.width()))
                                  .arg(qRound(size.height())));
}

// The value under the pointer alone: a heatmap's cell, a line's nearest point.
QString InteractiveChartView::plainHoverText(const QPointF& viewPos) const
{
    QChart* c = chart();
    if (!c) return {};
    const QPointF pos = c->mapFromScene(mapToScene(viewPos.toPoint()));
    if (auto* heat = qobject_cast<HeatmapChart*>(c)) {
        if (auto cell = heat->cellAt(pos)) return heat->describeCell(*cell);
        return {};
    }
    if (auto hit = nearestPoint(c, pos)) {
        const bool several = c->series().size() > 1;
        const QString x = hit->label.isEmpty() ? formatNumber(hit->x)
                                               : QStringLiteral("%1 (%2)").arg(formatNumber(hit->x), hit->label);
        const QString xy = QStringLiteral("x = %1\ny = %2").arg(x, formatNumber(hit->y));
        return several || !hit->series.isEmpty() ? hit->series + QLatin1Char('\n') + xy : xy;
    }
    return {};
}

void InteractiveChartView::resetZoom()
{
    if (chart()) chart()->zoomReset();
}

void InteractiveChartView::mouseMoveEvent(QMouseEvent* e)
{
    if (m_panning && chart()) {
        const QPoint d = e->pos() - m_lastPan;
        m_lastPan = e->pos();
        chart()->scroll(-d.x(), d.y());
        e->accept();
        return;
    }
    QChartView::mouseMoveEvent(e);
    if (e->buttons() != Qt::NoButton) return;
    const QString text = hoverHtml(e->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(e->globalPosition().toPoint(), text, this);
    std::optional<QPointF> at;
    if (chart() && !text.isEmpty())
        if (auto hit = nearestPoint(chart(), chart()->mapFromScene(mapToScene(e->position().toPoint()))))
            at = hit->position;
    showMarker(at);
}

void InteractiveChartView::showMarker(const std::optional<QPointF>& chartPos)
{
    if (!chart()) return;
    if (!chartPos) {
        if (m_marker) m_marker->hide();
        return;
    }
    if (!m_marker) {
        m_marker = new QGraphicsEllipseItem(QRectF(-5, -5, 10, 10), chart());
        QPen pen(palette().color(QPalette::Text), 1.5);
        m_marker->setPen(pen);
        m_marker->setBrush(Qt::NoBrush);
        m_marker->setZValue(100);
    }
    m_marker->setPos(*chartPos);
    m_marker->show();
}

void InteractiveChartView::leaveEvent(QEvent* e)
{
    showMarker(std::nullopt);
    QChartView::leaveEvent(e);
}

void InteractiveChartView::mousePressEvent(QMouseEvent* e)
{
    if (e->button() == Qt::MiddleButton) {
        m_panning = true;
        m_lastPan = e->pos();
        setCursor(Qt::ClosedHandCursor);
        e->accept();
        return;
    }
    if (e->button() == Qt::RightButton) {  // context menu, not Qt's zoom-out
        e->accept();
        return;
    }
    QChartView::mousePressEvent(e);
}

void InteractiveChartView::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() == Qt::MiddleButton) {
        m_panning = false;
        unsetCursor();
        e->accept();
        return;
    }
    if (e->button() == Qt::RightButton) {
        e->accept();
        return;
    }
    QChartView::mouseReleaseEvent(e);
}

void InteractiveChartView::mouseDoubleClickEvent(QMouseEvent* e)
{
    resetZoom();
    e->accept();
}

void InteractiveChartView::wheelEvent(QWheelEvent* e)
{
    QChart* c = chart();
    // Plain wheel scrolls the lesson (the event goes on to the scroll area);
    // Ctrl+wheel zooms, so reading never zooms a chart by accident.
    if (!c || e->angleDelta().y() == 0 || !(e->modifiers() & Qt::ControlModifier)) {
        e->ignore();
        return;
    }
    // Zoom about the cursor: the value under it stays where it is.
    const double f = e->angleDelta().y() > 0 ? 0.8 : 1.25;
    const QRectF r = c->plotArea();
    QPointF at = c->mapFromScene(mapToScene(e->position().toPoint()));
    if (!r.contains(at)) at = r.center();
    c->zoomIn(QRectF(at.x() - (at.x() - r.left()) * f, at.y() - (at.y() - r.top()) * f, r.width() * f, r.height() * f));
    e->accept();
}

bool InteractiveChartView::claimsKey(const QKeyEvent* e) const
{
    // Arrows, Esc and 0 belong to the window (step navigation) unless the
    // chart is zoomed, when they pan / reset it; +/- always zoom. On a
    // heatmap the arrows move the keyboard cursor from cell to cell.
    const bool zoomed = chart() && chart()->isZoomed();
    const bool arrow =
        e->key() == Qt::Key_Left || e->key() == Qt::Key_Right || e->key() == Qt::Key_Up || e->key() == Qt::Key_Down;
    if (arrow && qobject_cast<const HeatmapChart*>(chart())) return e->modifiers() == Qt::NoModifier;
    switch (e->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
        case Qt::Key_Minus:
            return e->modifiers() == Qt::NoModifier || e->modifiers() == Qt::ShiftModifier ||
                   e->modifiers() == Qt::KeypadModifier;
        case Qt::Key_Left:
        case Qt::Key_Right:
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_Escape:
        case Qt::Key_0: return zoomed && (e->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
        default: return false;
    }
}

bool InteractiveChartView::event(QEvent* e)
{
    if (e->type() == QEvent::ShortcutOverride && claimsKey(static_cast<QKeyEvent*>(e))) {
        e->accept();  // the key comes to keyPressEvent, not to a window shortcut
        return true;
    }
    return QChartView::event(e);
}

void InteractiveChartView::keyPressEvent(QKeyEvent* e)
{
    QChart* c = chart();
    if (!c || !claimsKey(e)) {
        e->ignore();  // let the window have it
        return;
    }
    if (qobject_cast<HeatmapChart*>(c)) {
        const int key = e->key();
        if (key == Qt::Key_Left || key == Qt::Key_Right || key == Qt::Key_Up || key == Qt::Key_Down) {
            moveCursor(key == Qt::Key_Down ? 1
                       : key == Qt::Key_Up ? -1
                                           : 0,
                       key == Qt::Key_Right  ? 1
                       : key == Qt::Key_Left ? -1
                                             : 0);
            e->accept();
            return;
        }
    }
    const QRectF r = c->plotArea();
    switch (e->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: c->zoom(1.25); break;
        case Qt::Key_Minus: c->zoom(0.8); break;
        case Qt::Key_Left: c->scroll(-r.width() / 10, 0); break;
        case Qt::Key_Right: c->scroll(r.width() / 10, 0); break;
        case Qt::Key_Up: c->scroll(0, r.height() / 10); break;
        case Qt::Key_Down: c->scroll(0, -r.height() / 10); break;
        default: resetZoom(); break;  // Esc, 0
    }
    e->accept();
}

void InteractiveChartView::focusInEvent(QFocusEvent* e)
{
    QChartView::focusInEvent(e);
    if (!m_cursor && qobject_cast<HeatmapChart*>(chart())) moveCursor(0, 0);  // the cursor starts at the first cell
}

void InteractiveChartView::moveCursor(int rowStep, int colStep)
{
    auto* heat = qobject_cast<HeatmapChart*>(chart());
    if (!heat || heat->matrix().rows <= 0 || heat->matrix().cols <= 0) return;
    if (m_name.isEmpty()) m_name = accessibleName();
    QPoint at = m_cursor.value_or(QPoint(0, 0));
    at.setX(std::clamp(at.x() + colStep, 0, heat->matrix().cols - 1));
    at.setY(std::clamp(at.y() + rowStep, 0, heat->matrix().rows - 1));
    m_cursor = at;
    showCursor();
}

// The frame around the cursor's cell, its description as the accessible name
// and, for those who see it, as a tooltip beside the cell.
void InteractiveChartView::showCursor()
{
    auto* heat = qobject_cast<HeatmapChart*>(chart());
    if (!heat || !m_cursor) return;
    if (!m_cursorBox) {
        m_cursorBox = new QGraphicsRectItem(heat);
        m_cursorBox->setZValue(5);
        m_cursorBox->setBrush(Qt::NoBrush);
        connect(heat, &QChart::plotAreaChanged, this, [this] { showCursor(); });
    }
    QPen pen(heat->style().text, 2);
    pen.setCosmetic(true);
    m_cursorBox->setPen(pen);
    const QRectF box = heat->cellRect(m_cursor->y(), m_cursor->x());
    m_cursorBox->setRect(box);
    const QString value = heat->describeCell(heat->cell(m_cursor->y(), m_cursor->x()));
    const ValueExplanation how = m_explain ? m_explain(QString(), m_cursor->y(), m_cursor->x()) : ValueExplanation{};
    const QString text = how.isEmpty() ? value : value + u'\n' + util::mathToUnicode(how.formula) + u'\n' + how.numbers;
    setAccessibleName(m_name.isEmpty() ? text : m_name + QStringLiteral(" — ") + text);
    QAccessibleEvent event(this, QAccessible::NameChanged);
    QAccessible::updateAccessibility(&event);
    if (hasFocus() && isVisible())
        QToolTip::showText(mapToGlobal(mapFromScene(heat->mapToScene(box.bottomRight()))),
                           how.isEmpty() ? text : richText(value, how), this);
}

void InteractiveChartView::contextMenuEvent(QContextMenuEvent* e)
{
    emit contextMenuWanted(e->globalPos());
    e->accept();
}

}  // namespace poslab::ui
