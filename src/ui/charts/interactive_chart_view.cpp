// SPDX-License-Identifier: Apache-2.0
// interactive_chart_view.cpp — the chart interactions: the nearest data point,
// tooltips, rubber-band and wheel zoom, panning, keys and the context menu.
#include "ui/charts/chart_parts.h"

#include "ui/charts/color_map.h"
#include "ui/charts/heatmap_chart.h"

#include <QCursor>
#include <QKeyEvent>
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
        for (qsizetype i = 0; i < pts.size(); ++i) {
            const QPointF& pt = pts[i];
            const QPointF pos = const_cast<QChart*>(chart)->mapToPosition(pt, xy);
            const double dx = pos.x() - chartPos.x(), dy = pos.y() - chartPos.y();
            const double d = dx * dx + dy * dy;
            if (d <= bestD) {
                bestD = d;
                best = PointHit{xy->name(), pt.x(), pt.y(), pos, labels.value(i)};
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
    const QString text = hoverText(e->position());
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
    // chart is zoomed, when they pan / reset it; +/- always zoom.
    const bool zoomed = chart() && chart()->isZoomed();
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

void InteractiveChartView::contextMenuEvent(QContextMenuEvent* e)
{
    emit contextMenuWanted(e->globalPos());
    e->accept();
}

}  // namespace poslab::ui
