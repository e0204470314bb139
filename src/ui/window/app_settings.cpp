// SPDX-License-Identifier: Apache-2.0
#include "ui/window/app_settings.h"

#include <QCoreApplication>
#include <QSettings>

#include <algorithm>

namespace poslab::ui {

namespace {
const QString kLanguage = QStringLiteral("ui/language");
const QString kChapter = QStringLiteral("position/chapter");
const QString kStep = QStringLiteral("position/step");
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
}  // namespace

AppSettings::AppSettings(const QString& filePath)
{
    if (filePath.isEmpty()) {
        const QString org = QCoreApplication::organizationName().isEmpty() ? QStringLiteral("PosLab")
                                                                           : QCoreApplication::organizationName();
        const QString app = QCoreApplication::applicationName().isEmpty() ? QStringLiteral("PosLab")
                                                                          : QCoreApplication::applicationName();
        m_settings = std::make_unique<QSettings>(QSettings::IniFormat, QSettings::UserScope, org, app);
    } else {
        m_settings = std::make_unique<QSettings>(filePath, QSettings::IniFormat);
    }
}

AppSettings::~AppSettings() = default;

QString AppSettings::language() const
{
    return normalizeLanguage(m_settings->value(kLanguage).toString());
}

void AppSettings::setLanguage(const QString& lang)
{
    m_settings->setValue(kLanguage, lang);
}

QList<int> AppSettings::visitedSteps(const QString& chapterId) const
{
    QList<int> out;
    const QStringList items = m_settings->value(QStringLiteral("visited/") + chapterId).toStringList();
    for (const QString& s : items) {
        bool ok = false;
        const int i = s.toInt(&ok);
        if (ok && i >= 0 && !out.contains(i)) out << i;
    }
    std::sort(out.begin(), out.end());
    return out;
}

void AppSettings::markVisited(const QString& chapterId, int step)
{
    QList<int> v = visitedSteps(chapterId);
    if (v.contains(step)) return;
    v << step;
    std::sort(v.begin(), v.end());
    QStringList items;
    for (int i : v) items << QString::number(i);
    m_settings->setValue(QStringLiteral("visited/") + chapterId, items);
}

QString AppSettings::lastChapterId() const
{
    return m_settings->value(kChapter).toString();
}

int AppSettings::lastStep() const
{
    return qMax(0, m_settings->value(kStep, 0).toInt());
}

void AppSettings::setLastPosition(const QString& chapterId, int step)
{
    m_settings->setValue(kChapter, chapterId);
    m_settings->setValue(kStep, step);
}

QString AppSettings::chosenRunId() const
{
    return m_settings->value(QStringLiteral("lab/chosenRun")).toString();
}

void AppSettings::setChosenRunId(const QString& id)
{
    if (id.isEmpty())
        m_settings->remove(QStringLiteral("lab/chosenRun"));
    else
        m_settings->setValue(QStringLiteral("lab/chosenRun"), id);
}

double AppSettings::textScale() const
{
    bool ok = false;
    const double scale = m_settings->value(QStringLiteral("appearance/textScale")).toDouble(&ok);
    return ok && scale > 0 ? scale : 1.0;
}

void AppSettings::setTextScale(double scale)
{
    m_settings->setValue(QStringLiteral("appearance/textScale"), scale);
}

QString AppSettings::theme() const
{
    return m_settings->value(QStringLiteral("appearance/theme")).toString();
}

void AppSettings::setTheme(const QString& theme)
{
    m_settings->setValue(QStringLiteral("appearance/theme"), theme);
}

bool AppSettings::reduceMotion() const
{
    return m_settings->value(QStringLiteral("appearance/reduceMotion"), false).toBool();
}

void AppSettings::setReduceMotion(bool reduce)
{
    m_settings->setValue(QStringLiteral("appearance/reduceMotion"), reduce);
}

QByteArray AppSettings::geometry() const
{
    return m_settings->value(kGeometry).toByteArray();
}

void AppSettings::setGeometry(const QByteArray& g)
{
    m_settings->setValue(kGeometry, g);
}

QByteArray AppSettings::windowState() const
{
    return m_settings->value(kState).toByteArray();
}

void AppSettings::setWindowState(const QByteArray& s)
{
    m_settings->setValue(kState, s);
}

void AppSettings::sync()
{
    m_settings->sync();
}

QString AppSettings::fileName() const
{
    return m_settings->fileName();
}

QString AppSettings::languageForLocale(const QLocale& locale)
{
    return locale.language() == QLocale::Chinese ? QStringLiteral("zh") : QStringLiteral("en");
}

QString AppSettings::normalizeLanguage(const QString& lang)
{
    const QString l = lang.trimmed().toLower();
    if (l.startsWith(QLatin1String("zh"))) return QStringLiteral("zh");
    if (l.startsWith(QLatin1String("en"))) return QStringLiteral("en");
    return {};
}

QString AppSettings::startLanguage(const QString& override, const QLocale& system) const
{
    const QString o = normalizeLanguage(override);
    if (!o.isEmpty()) return o;
    const QString saved = language();
    if (!saved.isEmpty()) return saved;
    return languageForLocale(system);
}

}  // namespace poslab::ui
