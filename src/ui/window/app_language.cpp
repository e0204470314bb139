// SPDX-License-Identifier: Apache-2.0
#include "ui/window/app_language.h"

#include "ui/document/fonts.h"

#include <QApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace poslab::ui {

namespace {
QTranslator* g_appTranslator = nullptr;
QTranslator* g_qtTranslator = nullptr;
}  // namespace

bool installUiTranslator(const QString& lang)
{
    bool changed = false;
    for (QTranslator** t : {&g_appTranslator, &g_qtTranslator}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
            changed = true;
        }
    }
    bool ok = true;
    if (lang == u"zh") {
        auto* qt = new QTranslator(qApp);
        // Qt's own strings (standard buttons, file dialogs), if the package is installed.
        if (qt->load(QStringLiteral("qtbase_zh_CN"), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            g_qtTranslator = qt;
            QCoreApplication::installTranslator(qt);
            changed = true;
        } else {
            delete qt;
        }
        auto* app = new QTranslator(qApp);
        if (app->load(QStringLiteral(":/i18n/poslab_zh_CN.qm"))) {
            g_appTranslator = app;
            QCoreApplication::installTranslator(app);
            changed = true;
        } else {
            delete app;
            ok = false;
        }
    }
    // QApplication posts LanguageChange to top-level widgets; deliver it now so
    // the whole UI speaks the new language when this returns.
    if (changed) QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
    return ok;
}

QFont uiFont(const QString& lang)
{
    QFont font = QApplication::font();
    font.setFamilies(fonts::families(fonts::Role::Ui, lang));
    return font;
}

}  // namespace poslab::ui
