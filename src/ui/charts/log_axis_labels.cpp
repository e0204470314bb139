// SPDX-License-Identifier: Apache-2.0
// log_axis_labels.cpp — a log axis's tick labels and title, written as a
// reader writes numbers (labelLogAxis in chart_parts.h).
#include "ui/charts/chart_parts.h"

#include "ui/charts/color_map.h"
#include "util/tex_to_unicode.h"

#include <QGraphicsItem>
#include <QLogValueAxis>
#include <QPainter>

#include <cmath>

namespace poslab::ui {

namespace {

constexpr double kTick = 6;  // px between the plot's edge and a label
constexpr double kGap = 4;   // px between the labels and the title

// The powers of the axis's base inside its range, with their labels: plain
// numbers when every one reads well plainly (64, 128, 256; 0.01 … 1000),
// else every one as a power (10⁻⁶ … 10⁸).
struct Ticks {
    std::vector<double> values;
    QStringList labels;
};

Ticks ticksOf(const QLogValueAxis* axis)
{
    Ticks t;
    const double base = axis->base(), logBase = std::log(base);
    const int first = int(std::ceil(std::log(axis->min()) / logBase - 1e-9));
    const int last = int(std::floor(std::log(axis->max()) / logBase + 1e-9));
    std::vector<int> powers;
    for (int k = first; k <= last && powers.size() < 64; ++k) {
        powers.push_back(k);
        t.values.push_back(std::pow(base, k));
    }
    const bool plain = std::all_of(t.values.begin(), t.values.end(), [](double v) { return readsPlainly(v); });
    for (std::size_t i = 0; i < powers.size(); ++i)
        t.labels << (plain || base != 10 ? formatNumber(t.values[i])
                                         : util::mathToUnicode(QStringLiteral("10^{%1}").arg(powers[i])));
    return t;
}

// Draws the labels and the title where Qt would, in paint(), so they follow
// every resize, zoom and pan and print as vector text.
class LogAxisLabels : public QGraphicsItem {
public:
    LogAxisLabels(QChart* chart, QLogValueAxis* axis, QString title, const ChartStyle& style)
        : QGraphicsItem(chart),
          m_chart(chart),
          m_axis(axis),
          m_title(std::move(title)),
          m_labelFont(chartFont(style)),
          m_titleFont(axisTitleFont(style, m_title)),
          m_color(style.text),
          m_upright(!style.print && m_title.contains(QRegularExpression(QStringLiteral("\\p{Han}"))))
    {
        if (m_upright) m_titleFont.setBold(false);
    }

    bool vertical() const { return m_axis->orientation() == Qt::Vertical; }

    // Room the labels and the title need beside (vertical) or below the plot.
    double room() const
    {
        const QFontMetricsF labels(m_labelFont), title(m_titleFont);
        double widest = 0;
        for (const QString& l : ticksOf(m_axis).labels) widest = std::max(widest, labels.horizontalAdvance(l));
        const double titleRoom =
            m_title.isEmpty() ? 0 : (vertical() && m_upright ? uprightTitleSize().width() : title.height()) + kGap;
        return kTick + (vertical() ? widest : labels.height()) + titleRoom;
    }

    QRectF boundingRect() const override { return m_chart->rect(); }

    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override
    {
        const QRectF plot = m_chart->plotArea();
        const Ticks t = ticksOf(m_axis);
        const double lo = std::log(m_axis->min()), span = std::log(m_axis->max()) - lo;
        if (!(span > 0)) return;
        p->save();
        p->setPen(m_color);
        p->setFont(m_labelFont);
        const QFontMetricsF fm(m_labelFont);
        double widest = 0;
        for (int i = 0; i < t.labels.size(); ++i) {
            const double f = (std::log(t.values[std::size_t(i)]) - lo) / span;
            const double w = fm.horizontalAdvance(t.labels[i]);
            widest = std::max(widest, w);
            if (vertical()) {
                const double y = plot.bottom() - f * plot.height();
                p->drawText(QRectF(plot.left() - kTick - w, y - fm.height() / 2, w, fm.height()), Qt::AlignRight,
                            t.labels[i]);
            } else {
                const double x = plot.left() + f * plot.width();
                p->drawText(QRectF(x - w / 2, plot.bottom() + kTick, w, fm.height()), Qt::AlignHCenter, t.labels[i]);
            }
        }
        if (!m_title.isEmpty()) paintTitle(p, plot, vertical() ? widest : fm.height());
        p->restore();
    }

private:
    QSizeF uprightTitleSize() const
    {
        const QFontMetricsF fm(m_titleFont);
        const QStringList lines = stackedLines(m_title).split(u'\n');
        double w = 0;
        for (const QString& l : lines) w = std::max(w, fm.horizontalAdvance(l));
        return {w, fm.height() * lines.size()};
    }

    void paintTitle(QPainter* p, const QRectF& plot, double labelRoom)
    {
        p->setFont(m_titleFont);
        const QFontMetricsF fm(m_titleFont);
        if (!vertical()) {
            const QRectF box(plot.left(), plot.bottom() + kTick + labelRoom + kGap, plot.width(), fm.height());
            p->drawText(box, Qt::AlignHCenter, m_title);
        } else if (m_upright) {  // Chinese on screen stands upright (standChineseTitleUpright)
            const QSizeF size = uprightTitleSize();
            const QRectF box(plot.left() - kTick - labelRoom - kGap - size.width(),
                             plot.center().y() - size.height() / 2, size.width(), size.height());
            p->drawText(box, Qt::AlignHCenter, stackedLines(m_title));
        } else {
            p->save();
            p->translate(plot.left() - kTick - labelRoom - kGap - fm.height(), plot.center().y());
            p->rotate(-90);
            p->drawText(QRectF(-plot.height() / 2, 0, plot.height(), fm.height()), Qt::AlignHCenter, m_title);
            p->restore();
        }
    }

    QChart* m_chart;
    QLogValueAxis* m_axis;
    QString m_title;
    QFont m_labelFont, m_titleFont;
    QColor m_color;
    bool m_upright;
};

}  // namespace

void labelLogAxis(QChart* chart, QAbstractAxis* axis, const ChartStyle& style)
{
    auto* log = qobject_cast<QLogValueAxis*>(axis);
    if (!log) return;
    const QString title = log->isTitleVisible() ? log->titleText() : QString();
    log->setLabelsVisible(false);
    log->setTitleVisible(false);
    auto* item = new LogAxisLabels(chart, log, title, style);
    item->setZValue(3);
    QMargins m = chart->margins();
    const int room = int(std::ceil(item->room()));
    if (item->vertical()) {
        m.setLeft(m.left() + room);
    } else {
        m.setBottom(m.bottom() + room);
        // The last label is centred on the plot's right end: room for its half.
        const QStringList labels = ticksOf(log).labels;
        if (!labels.isEmpty())
            m.setRight(std::max(
                m.right(), int(std::ceil(QFontMetricsF(chartFont(style)).horizontalAdvance(labels.back()) / 2)) + 4));
        // Qt lays a bottom legend where its own (hidden) labels would be: above, it stays clear of ours.
        chart->legend()->setAlignment(Qt::AlignTop);
    }
    chart->setMargins(m);
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [item](const QRectF&) { item->update(); });
    QObject::connect(log, &QLogValueAxis::rangeChanged, chart, [item](qreal, qreal) { item->update(); });
}

}  // namespace poslab::ui
