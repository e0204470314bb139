// SPDX-License-Identifier: Apache-2.0
// chart_spec.cpp — kind names and the screen/print chart styles.
#include "ui/charts/chart_spec.h"

#include "ui/charts/color_map.h"

#include "modules/display_labels.h"
#include "modules/output_declarations.h"
#include "modules/registry.h"
#include "util/tex_to_unicode.h"

namespace poslab::ui {

namespace {

// The module's words for its outputs and table columns, in `lang` (ChartSpec::labels).
void addModuleLabels(const modules::ModuleSpec& module, const QString& lang, QMap<QString, QString>* labels)
{
    for (const modules::OutputSpec& o : module.outputs) {
        for (const QString& name : modules::memberNames(o)) {
            labels->insert(name, modules::outputLabel(module, name).in(lang));
            for (const QString& c : o.columns)
                labels->insert(name + u'.' + c, modules::columnLabel(module, c).in(lang));
        }
    }
}

}  // namespace

ChartSpec moduleChartSpec(const QString& moduleId, const QString& lang)
{
    ChartSpec spec;
    spec.lang = lang;
    spec.module = modules::Registry::builtin().find(moduleId);
    if (spec.module) addModuleLabels(*spec.module, lang, &spec.labels);
    return spec;
}

ChartSpec chartSpecFor(const lessons::RunBlock& block, const QString& lang)
{
    ChartSpec spec = moduleChartSpec(block.moduleId, lang);
    spec.kind = block.chart;
    spec.outputs = block.outputs;
    spec.caption = modules::fillSettings(block.moduleId, block.caption, block.params, lang);
    spec.xTitle = block.xTitle;
    spec.yTitle = block.yTitle;
    spec.logX = block.logX;
    spec.logY = block.logY;
    spec.height = block.height;
    for (const auto& l : block.labels) spec.labels.insert(l.first, l.second);  // the lesson's words win
    spec.marks = block.marks;
    return spec;
}

QString blockParameterLabel(const lessons::RunBlock& block, const QString& name, const QString& lang)
{
    for (const auto& [target, text] : block.labels)
        if (target == name) return util::texToUnicode(text);
    const modules::ModuleSpec* module = modules::Registry::builtin().find(block.moduleId);
    return module ? modules::parameterLabel(*module, name).in(lang) : name;
}

ChartKind chartKindFromName(const QString& name, bool* ok)
{
    const QString n = name.trimmed().toLower();
    const ChartKind kinds[] = {ChartKind::Auto, ChartKind::Line,  ChartKind::Heatmap,
                               ChartKind::Bar,  ChartKind::Table, ChartKind::Clock};
    for (ChartKind k : kinds) {
        if (chartKindName(k) == n) {
            if (ok) *ok = true;
            return k;
        }
    }
    if (ok) *ok = false;
    return ChartKind::Auto;
}

namespace {

// Okabe–Ito colours: distinguishable for colour-blind readers, on light and
// dark backgrounds alike (black replaced by grey-blue).
QList<QColor> lightSeries()
{
    return {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00), QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
            QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9), QColor(0x99, 0x88, 0x22), QColor(0x55, 0x55, 0x77)};
}
QList<QColor> darkSeries()
{
    return {QColor(0x56, 0xB4, 0xE9), QColor(0xE6, 0x9F, 0x00), QColor(0x2E, 0xC4, 0x9A), QColor(0xE0, 0x8E, 0xBF),
            QColor(0xF0, 0xE4, 0x42), QColor(0xFF, 0x7F, 0x50), QColor(0xB0, 0xB0, 0xFF), QColor(0xC0, 0xC0, 0xC0)};
}

}  // namespace

ChartStyle ChartStyle::fromPalette(const QPalette& palette, const QFont& font)
{
    ChartStyle s;
    s.font = font;
    // Widget fonts are usually in points; charts want px for the same look on
    // screen and paper. 1 pt = 96/72 px at the logical DPI Qt uses.
    if (font.pixelSize() > 0)
        s.pixelSize = font.pixelSize();
    else if (font.pointSizeF() > 0)
        s.pixelSize = qMax(9, qRound(font.pointSizeF() * 96.0 / 72.0));
    s.background = palette.color(QPalette::Base);
    s.text = palette.color(QPalette::Text);
    const bool dark = s.background.lightnessF() < 0.5;
    s.plotBackground = s.background;
    s.grid = mixColors(s.background, s.text, dark ? 0.22 : 0.14);
    s.axisLine = mixColors(s.background, s.text, 0.55);
    s.nanColor = mixColors(s.background, s.text, 0.35);
    s.seriesColors = dark ? darkSeries() : lightSeries();
    s.print = false;
    return s;
}

ChartStyle ChartStyle::forPrint(const QFont& font, int pixelSize)
{
    ChartStyle s;
    s.font = font;
    s.pixelSize = pixelSize;
    s.background = Qt::white;
    s.plotBackground = Qt::white;
    s.text = QColor(0x20, 0x20, 0x20);
    s.grid = QColor(0xDD, 0xDD, 0xDD);
    s.axisLine = QColor(0x80, 0x80, 0x80);
    s.nanColor = QColor(0xB0, 0xB0, 0xB0);
    s.seriesColors = lightSeries();
    s.print = true;
    return s;
}

}  // namespace poslab::ui
