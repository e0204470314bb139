// SPDX-License-Identifier: Apache-2.0
// app_language.h — the language the UI speaks: the installed translations and
// the font for that language's script. These are the application's, not one
// window's: the window switches them with its language switch, and
// `poslab assignment open` uses them before any window exists.
#pragma once

#include <QFont>
#include <QString>

namespace poslab::ui {

// Installs the UI translation for lang ("zh": :/i18n/poslab_zh_CN.qm plus
// Qt's own qtbase_zh_CN when present; "en": none), replacing the previous
// one. Widgets get a LanguageChange event and retranslate themselves.
// Returns false if the Chinese translation could not be loaded.
bool installUiTranslator(const QString& lang);

// The application font with the UI font families for lang (fonts::Role::Ui).
QFont uiFont(const QString& lang);

}  // namespace poslab::ui
