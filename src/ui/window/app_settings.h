// SPDX-License-Identifier: Apache-2.0
// app_settings.h — what the window remembers between sessions: language,
// window geometry and dock layout, the training run chosen in the Training
// Lab, the steps visited (progress marks in the
// table of contents), and the last chapter and step as a fallback (the
// progress store keeps them with the answers).
//
// A thin typed wrapper over QSettings. The window takes the settings file path
// from its options so tests can point it into a QTemporaryDir and never touch
// the learner's real configuration; the default is the platform's usual place
// (QSettings with the organisation/application names).
#pragma once

#include <QByteArray>
#include <QList>
#include <QLocale>
#include <QString>

#include <memory>

class QSettings;

namespace poslab::ui {

class AppSettings {
public:
    // filePath empty: the platform default (QSettings(organisation, application)).
    explicit AppSettings(const QString& filePath = {});
    ~AppSettings();
    AppSettings(const AppSettings&) = delete;
    AppSettings& operator=(const AppSettings&) = delete;

    // "zh" or "en"; empty if never saved.
    QString language() const;
    void setLanguage(const QString& lang);

    // Visited steps of a chapter (0-based step indexes).
    QList<int> visitedSteps(const QString& chapterId) const;
    void markVisited(const QString& chapterId, int step);

    QString lastChapterId() const;
    int lastStep() const;  // 0-based; 0 if never saved
    void setLastPosition(const QString& chapterId, int step);

    // The stored training run chosen in the Training Lab's run picker (its
    // id); empty: the default, the latest complete run.
    QString chosenRunId() const;
    void setChosenRunId(const QString& id);

    // The window's text size (1.0 = 100 %) and theme name ("system", "light",
    // "dark"; empty if never saved): ui/window/appearance.h.
    double textScale() const;
    void setTextScale(double scale);
    QString theme() const;
    // View ▸ Reduce Motion: play controls step only when asked (default off).
    bool reduceMotion() const;
    void setReduceMotion(bool reduce);
    void setTheme(const QString& theme);

    QByteArray geometry() const;
    void setGeometry(const QByteArray& g);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& s);

    void sync();
    QString fileName() const;

    // The course language for a system locale: any Chinese locale -> "zh", else "en".
    static QString languageForLocale(const QLocale& locale);
    // "zh"/"en" from an override such as "zh", "zh_CN", "en-US", "EN"; empty if not one of them.
    static QString normalizeLanguage(const QString& lang);
    // The language to start in: a valid override wins, then the saved setting, then the system locale.
    QString startLanguage(const QString& override, const QLocale& system = QLocale::system()) const;

private:
    std::unique_ptr<QSettings> m_settings;
};

}  // namespace poslab::ui
