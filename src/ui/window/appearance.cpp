// SPDX-License-Identifier: Apache-2.0
// appearance.cpp — the window's text size and colour theme (appearance.h).
#include "ui/window/appearance.h"

#include "ui/notebook/play_control.h"

#include "ui/document/fonts.h"
#include "ui/window/app_settings.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusReply>
#include <QDBusVariant>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

QString themeName(Theme theme)
{
    switch (theme) {
        case Theme::Light: return QStringLiteral("light");
        case Theme::Dark: return QStringLiteral("dark");
        case Theme::System: break;
    }
    return QStringLiteral("system");
}

Theme themeFromName(const QString& name)
{
    if (name == u"light") return Theme::Light;
    if (name == u"dark") return Theme::Dark;
    return Theme::System;
}

std::optional<bool> darkFromPortalValue(uint value)
{
    if (value == 1) return true;
    if (value == 2) return false;
    return std::nullopt;
}

namespace {

// A D-Bus reply's value, unwrapped: Read() answers a variant that may hold
// another variant (the portal's older Read wraps twice).
QVariant unwrapped(QVariant v)
{
    while (v.canConvert<QDBusVariant>() && v.userType() == qMetaTypeId<QDBusVariant>())
        v = v.value<QDBusVariant>().variant();
    return v;
}

// The application's font before any text size was applied: taken once, so a
// second window (or a test's) does not scale an already scaled font.
QFont fontAt100Percent()
{
    static const QFont original = QApplication::font();
    return original;
}

}  // namespace

std::optional<bool> desktopPrefersDark()
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) return std::nullopt;
    QDBusMessage call = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.portal.Desktop"), QStringLiteral("/org/freedesktop/portal/desktop"),
        QStringLiteral("org.freedesktop.portal.Settings"), QStringLiteral("Read"));
    call << QStringLiteral("org.freedesktop.appearance") << QStringLiteral("color-scheme");
    const QDBusMessage reply = bus.call(call, QDBus::Block, 500);  // ms: a missing portal must not stall the start
    if (reply.type() != QDBusMessage::ReplyMessage || reply.arguments().isEmpty()) return std::nullopt;
    bool ok = false;
    const uint value = unwrapped(reply.arguments().front()).toUInt(&ok);
    return ok ? darkFromPortalValue(value) : std::nullopt;
}

QPalette themePalette(bool dark)
{
    if (!dark) return QApplication::style()->standardPalette();
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1f, 0x21, 0x24), text(0xe6, 0xe6, 0xe6);
    const QColor button(0x35, 0x38, 0x3d), highlight(0x3d, 0x7e, 0xd6), disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x27, 0x29, 0x2d));
    p.setColor(QPalette::ToolTipBase, button);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Link, QColor(0x7a, 0xb7, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xc0, 0x9b, 0xff));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, button.lighter(130));
    p.setColor(QPalette::Midlight, button.lighter(115));
    p.setColor(QPalette::Mid, button.darker(120));
    p.setColor(QPalette::Dark, button.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

QList<double> textScaleSteps()
{
    return {0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0};
}

Appearance::Appearance(AppSettings* settings, QObject* parent)
    : QObject(parent),
      m_settings(settings),
      m_stylePalette(QApplication::style()->standardPalette()),
      m_baseFont(fontAt100Percent())
{
    m_larger = new QAction(this);
    m_larger->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    connect(m_larger, &QAction::triggered, this, [this] { step(+1); });
    m_smaller = new QAction(this);
    m_smaller->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    connect(m_smaller, &QAction::triggered, this, [this] { step(-1); });
    m_actual = new QAction(this);
    m_actual->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_actual, &QAction::triggered, this, [this] { setTextScale(1.0); });

    m_themeGroup = new QActionGroup(this);
    m_system = new QAction(m_themeGroup);
    m_light = new QAction(m_themeGroup);
    m_dark = new QAction(m_themeGroup);
    const std::pair<QAction*, Theme> themes[] = {
        {m_system, Theme::System}, {m_light, Theme::Light}, {m_dark, Theme::Dark}};
    for (const auto& [action, theme] : themes) {
        action->setCheckable(true);
        connect(action, &QAction::triggered, this, [this, t = theme] { setTheme(t); });
    }

    m_reduceMotion = new QAction(this);
    m_reduceMotion->setCheckable(true);
    m_reduceMotion->setChecked(settings->reduceMotion());
    setMotionReduced(settings->reduceMotion());
    connect(m_reduceMotion, &QAction::toggled, this, [this](bool on) {
        setMotionReduced(on);
        m_settings->setReduceMotion(on);
        emit changed();  // pages are built again: their play controls follow
    });

    m_scale = std::clamp(settings->textScale(), textScaleSteps().front(), textScaleSteps().back());
    m_theme = themeFromName(settings->theme());
    applyFont();
    applyPalette();
    updateActions();
    retranslateUi();
}

bool Appearance::isDark() const
{
    if (m_theme != Theme::System) return m_theme == Theme::Dark;
    if (const std::optional<bool> desktop = desktopPrefersDark()) return *desktop;
    return m_stylePalette.color(QPalette::Window).lightnessF() < 0.5;
}

QList<QAction*> Appearance::themeActions() const
{
    return {m_system, m_light, m_dark};
}

void Appearance::setTextScale(double scale)
{
    scale = std::clamp(scale, textScaleSteps().front(), textScaleSteps().back());
    if (std::abs(scale - m_scale) < 1e-9) return;
    m_scale = scale;
    m_settings->setTextScale(scale);
    applyFont();
    updateActions();
    emit changed();
}

void Appearance::setTheme(Theme theme)
{
    m_theme = theme;
    m_settings->setTheme(themeName(theme));
    applyPalette();
    updateActions();
    emit changed();
}

// One step up or down the list of sizes, from wherever the size is now.
void Appearance::step(int direction)
{
    const QList<double> steps = textScaleSteps();
    double next = m_scale;
    if (direction > 0) {
        auto it = std::find_if(steps.begin(), steps.end(), [&](double s) { return s > m_scale + 1e-9; });
        if (it != steps.end()) next = *it;
    } else {
        auto it = std::find_if(steps.rbegin(), steps.rend(), [&](double s) { return s < m_scale - 1e-9; });
        if (it != steps.rend()) next = *it;
    }
    setTextScale(next);
}

// The window's fonts (the application's, which uiFont and the widgets start
// from) and the lesson text, at the chosen size.
void Appearance::applyFont()
{
    QFont font = m_baseFont;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(m_baseFont.pointSizeF() * m_scale);
    else
        font.setPixelSize(qRound(m_baseFont.pixelSize() * m_scale));
    QApplication::setFont(font);
    fonts::setScreenTextScale(m_scale);
}

void Appearance::applyPalette()
{
    QApplication::setPalette(isDark() ? themePalette(true) : m_stylePalette);
    // Widgets take the new palette from posted events: deliver them now, so a
    // page built right after (Appearance::changed) is built in the new colours.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::ApplicationPaletteChange);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::PaletteChange);
}

void Appearance::updateActions()
{
    m_larger->setEnabled(m_scale < textScaleSteps().back() - 1e-9);
    m_smaller->setEnabled(m_scale > textScaleSteps().front() + 1e-9);
    m_actual->setEnabled(std::abs(m_scale - 1.0) > 1e-9);
    m_system->setChecked(m_theme == Theme::System);
    m_light->setChecked(m_theme == Theme::Light);
    m_dark->setChecked(m_theme == Theme::Dark);
    m_actual->setText(tr("Actual Size (now %1 %)").arg(qRound(m_scale * 100)));
}

void Appearance::retranslateUi()
{
    m_larger->setText(tr("Larger Text"));
    m_smaller->setText(tr("Smaller Text"));
    updateActions();
    m_system->setText(tr("As the Desktop"));
    m_light->setText(tr("Light"));
    m_dark->setText(tr("Dark"));
    m_reduceMotion->setText(tr("Reduce Motion"));
    m_reduceMotion->setToolTip(tr("Charts with a play control change only when you step them"));
}

}  // namespace poslab::ui
