// SPDX-License-Identifier: Apache-2.0
// clock_chart.h — angles drawn as hands on dials (`chart: clock`).
//
// A RoPE channel pair turns like the hand of a clock: pair j of a vector at
// position m is turned by m·θ_j. A clock chart draws one dial per x value of
// its series (fast pairs first, on the left) and every series as one hand on
// each dial (angle = y, in radians, 0 pointing right, counter-clockwise), so
// the hands of a query and a key can be watched keeping their angle while
// both positions move. The first two hands are joined by an arc: their
// difference. A matrix of angles (rows: positions, columns: dials) puts each
// row as a dot on the rim, light for the first row, dark for the last: the
// positions a pair has seen, and how Position Interpolation squeezes them.
//
// Like the heatmap, a QChart without series: one item paints the dials into
// the plot area, so the window (QChartView) and the PDF (drawChart) share it.
#pragma once

#include "modules/module.h"
#include "ui/charts/chart_spec.h"

#include <QChart>

#include <optional>
#include <vector>

namespace poslab::ui {

class ClockChart : public QChart {
    Q_OBJECT
public:
    // `outputs`: series (hands) and matrices (dots) of angles in radians.
    ClockChart(const std::vector<const modules::Output*>& outputs, const ChartSpec& spec, const ChartStyle& style,
               QGraphicsItem* parent = nullptr);

    int dialCount() const { return m_dials; }
    // Where dial i is drawn (chart coordinates; empty before layout).
    QRectF dialRect(int i) const;
    // Dial i in words: its label and every hand's angle in radians and
    // degrees, and the difference of the first two ("pair 3: query 1.20 rad
    // (68.8°), key …"). The hover text and the accessible description.
    QString describeDial(int i) const;
    // The turn from the second hand to the first on dial i, in (−π, π]
    // (the shaded wedge); nullopt with fewer than two hands there.
    std::optional<double> handTurn(int i) const;
    // Dial i's name: its point's label or x.
    QString dialValue(int i) const;
    // The lines written under dial i: its name ("pair j = 3") and, with two
    // hands, their difference to three significant digits ("Δ = 0.949 rad",
    // "Δ = 3.00 rad"). Compact, for small dials: "3" and "Δ = 0.949".
    QStringList dialCaption(int i, bool compact = false) const;
    // How many lines dialCaption() gives: the same for every dial.
    int captionLines() const { return m_hands.size() >= 2 ? 2 : 1; }
    // The dial under a point in chart coordinates, or −1.
    int dialAt(const QPointF& chartPos) const;

    const std::vector<modules::Output>& hands() const { return m_hands; }
    const std::vector<modules::Output>& dots() const { return m_dots; }
    const ChartStyle& style() const { return m_style; }
    const ChartSpec& spec() const { return m_spec; }

private:
    friend class ClockFaces;
    std::vector<modules::Output> m_hands;  // series
    std::vector<modules::Output> m_dots;   // matrices
    ChartSpec m_spec;
    ChartStyle m_style;
    int m_dials = 0;
};

}  // namespace poslab::ui
