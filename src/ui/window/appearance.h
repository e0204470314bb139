// SPDX-License-Identifier: Apache-2.0
// appearance.h — the window's text size and colour theme, remembered between
// sessions (View ▸ Text Size, View ▸ Theme, View ▸ Reduce Motion).
//
// Text size scales the window's fonts and the lesson text (never the PDF):
// Ctrl+= larger, Ctrl+- smaller, Ctrl+0 back to 100 %. The theme is light,
// dark, or the desktop's. Qt 6.4 cannot ask the desktop for its colour
// scheme (QStyleHints::colorScheme came in 6.5), so "system" reads the
// freedesktop settings portal (org.freedesktop.appearance color-scheme) over
// D-Bus where one answers, and otherwise judges from the style's palette.
#pragma once

#include <QFont>
#include <QObject>
#include <QPalette>

#include <optional>

class QAction;
class QActionGroup;

namespace poslab::ui {

class AppSettings;

enum class Theme { System, Light, Dark };
QString themeName(Theme theme);  // "system", "light", "dark"
// The theme of a name; anything else is System.
Theme themeFromName(const QString& name);

// The portal's color-scheme value: 1 prefers dark, 2 prefers light, 0 (or
// anything else) has no preference.
std::optional<bool> darkFromPortalValue(uint value);
// What the desktop prefers, from the portal; nullopt when no portal answers
// (no session bus, no portal, no preference) within a short time.
std::optional<bool> desktopPrefersDark();
// A light or a dark palette for every widget (Fusion's roles, our colours).
QPalette themePalette(bool dark);

// The text sizes offered, in steps: 80 % … 200 %.
QList<double> textScaleSteps();

class Appearance : public QObject {
    Q_OBJECT
public:
    // Reads the remembered size and theme from `settings` (not owned).
    Appearance(AppSettings* settings, QObject* parent);

    double textScale() const { return m_scale; }
    Theme theme() const { return m_theme; }
    // Whether the palette in use is dark (the theme, or the desktop's choice).
    bool isDark() const;

    QAction* largerAction() const { return m_larger; }
    QAction* smallerAction() const { return m_smaller; }
    QAction* actualSizeAction() const { return m_actual; }
    QList<QAction*> themeActions() const;  // System, Light, Dark (checkable, one of them checked)
    // View ▸ Reduce Motion (checkable, remembered): play controls then never
    // advance by themselves (ui/notebook/play_control.h).
    QAction* reduceMotionAction() const { return m_reduceMotion; }

    void setTextScale(double scale);  // clamped to textScaleSteps()' range; remembered
    void setTheme(Theme theme);       // remembered
    void retranslateUi();

signals:
    // The size or the palette changed: pages rebuild with the new fonts and colours.
    void changed();

private:
    void step(int direction);
    void applyPalette();
    void applyFont();
    void updateActions();

    AppSettings* m_settings;
    double m_scale = 1.0;
    Theme m_theme = Theme::System;
    QPalette m_stylePalette;  // the style's own, for "system" without a portal
    QFont m_baseFont;         // the application's font at 100 %
    QAction* m_larger = nullptr;
    QAction* m_smaller = nullptr;
    QAction* m_actual = nullptr;
    QActionGroup* m_themeGroup = nullptr;
    QAction* m_system = nullptr;
    QAction* m_light = nullptr;
    QAction* m_dark = nullptr;
    QAction* m_reduceMotion = nullptr;
};

}  // namespace poslab::ui
