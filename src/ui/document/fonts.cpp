// SPDX-License-Identifier: Apache-2.0
#include "ui/document/fonts.h"

#include <QFontDatabase>
#include <QMutex>
#include <QMutexLocker>
#include <QSet>

namespace poslab::ui::fonts {

namespace {

QSet<QString> installedFamilies()
{
    static QMutex mutex;
    static QSet<QString> cache;
    static bool filled = false;
    QMutexLocker lock(&mutex);
    if (!filled) {
        for (const QString& f : QFontDatabase::families()) cache.insert(f.toLower());
        filled = true;
    }
    return cache;
}

// The first candidate that is installed; the first candidate itself when none
// is (Qt then substitutes, which is the best that can be done).
QString firstInstalled(const QStringList& candidates)
{
    const QSet<QString> installed = installedFamilies();
    for (const QString& c : candidates)
        if (installed.contains(c.toLower())) return c;
    return candidates.first();
}

}  // namespace

bool hasFamily(const QString& family)
{
    return installedFamilies().contains(family.toLower());
}

QString latinSerifFamily()
{
    static const QString f =
        firstInstalled({QStringLiteral("DejaVu Serif"), QStringLiteral("Liberation Serif"),
                        QStringLiteral("Noto Serif"), QStringLiteral("FreeSerif"), QStringLiteral("DejaVu Sans")});
    return f;
}

QString latinSansFamily()
{
    static const QString f = firstInstalled({QStringLiteral("DejaVu Sans"), QStringLiteral("Liberation Sans"),
                                             QStringLiteral("Noto Sans"), QStringLiteral("FreeSans")});
    return f;
}

QString monospaceFamily()
{
    static const QString f = firstInstalled({QStringLiteral("DejaVu Sans Mono"), QStringLiteral("Liberation Mono"),
                                             QStringLiteral("Noto Sans Mono"), QStringLiteral("FreeMono")});
    return f;
}

QString cjkFamily()
{
    // WenQuanYi first: Noto CJK extracts as Kangxi radicals from Qt's PDFs
    // (docs/qt-notes.md, PDF fonts). Noto SC (not JP) is the fallback so at
    // least the glyph shapes are the simplified Chinese ones.
    static const QString f = firstInstalled({QStringLiteral("WenQuanYi Micro Hei"), QStringLiteral("WenQuanYi Zen Hei"),
                                             QStringLiteral("Noto Sans CJK SC"), QStringLiteral("Source Han Sans SC"),
                                             QStringLiteral("Droid Sans Fallback")});
    return f;
}

QStringList families(Role role, const QString& lang)
{
    QString latin;
    switch (role) {
        case Role::Body:
            // A serif reads like a book in English; Chinese running text is set in
            // a Hei (sans) face, so its Latin companion is the sans to match.
            latin = lang == QLatin1String("zh") ? latinSansFamily() : latinSerifFamily();
            break;
        case Role::Heading:
        case Role::Ui: latin = latinSansFamily(); break;
        case Role::Code: latin = monospaceFamily(); break;
    }
    QStringList list{latin, cjkFamily()};
    list.removeDuplicates();
    return list;
}

namespace {
qreal g_screenTextScale = 1.0;  // GUI thread only
}  // namespace

qreal screenTextScale()
{
    return g_screenTextScale;
}

void setScreenTextScale(qreal scale)
{
    g_screenTextScale = scale;
}

QFont font(Role role, const QString& lang, qreal pointSize)
{
    QFont f;
    f.setFamilies(families(role, lang));
    qreal size = pointSize;
    if (size <= 0) {
        switch (role) {
            case Role::Body: size = 11; break;
            case Role::Heading: size = 11; break;
            case Role::Code: size = 9.5; break;
            case Role::Ui: size = 9; break;
        }
    }
    f.setPointSizeF(size);
    if (role == Role::Heading) f.setWeight(QFont::Bold);
    if (role == Role::Code) {
        f.setStyleHint(QFont::Monospace);
        f.setFixedPitch(true);
    }
    f.setHintingPreference(QFont::PreferNoHinting);
    // No shaping for Latin/CJK text means no ligatures: with them "offset" is
    // extracted from the PDF as "o\uFB00set" and cannot be searched for.
    f.setStyleStrategy(QFont::PreferNoShaping);
    return f;
}

}  // namespace poslab::ui::fonts
