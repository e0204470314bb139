// SPDX-License-Identifier: Apache-2.0
// progress_store.h — the learner's saved state: answers, attempts, revealed
// hints, solved flags, and the last chapter and step.
//
// Stored as one JSON file in the user's data folder and rewritten atomically
// (QSaveFile) on every change, so a killed process loses nothing that was
// typed and never leaves a half-written file. A corrupt or truncated file is
// kept aside as "<file>.corrupt-<UTC timestamp>" and reported; the store then
// starts empty — it never crashes. Exercises are keyed by their id, which is
// the same in both languages, so an answer survives a language switch.
#pragma once

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QStringList>

namespace poslab::lessons {

struct ExerciseProgress {
    QString answer;         // number / text answers, as typed
    QList<int> selected;    // choice / multiple: selected option indices
    QStringList runParams;  // run exercises: the learner's "name=value" settings
    int attempts = 0;       // times "check" was pressed
    int hintsRevealed = 0;
    bool solved = false;
    bool solutionShown = false;  // gave up / "show solution"
    bool lastCheckCorrect = false;
    bool operator==(const ExerciseProgress& o) const;
};

class ProgressStore : public QObject {
    Q_OBJECT
public:
    // `filePath` empty = defaultFilePath(). Call load() before use.
    explicit ProgressStore(const QString& filePath = {}, QObject* parent = nullptr);

    // <QStandardPaths::AppDataLocation>/progress.json
    static QString defaultFilePath();
    QString filePath() const { return m_path; }

    // Reads the file. Missing file: empty progress, returns true. Corrupt file:
    // moved aside, lastError() says so, corruptFileFound() is emitted, returns false.
    bool load();
    QString lastError() const;
    QString corruptBackupPath() const;  // where the last corrupt file was moved

    ExerciseProgress exercise(const QString& id) const;
    QStringList exerciseIds() const;
    void setAnswer(const QString& id, const QString& answer);
    void setSelected(const QString& id, const QList<int>& selected);
    void setRunParams(const QString& id, const QStringList& params);
    void recordAttempt(const QString& id, bool correct);  // solved stays true once set
    void revealHint(const QString& id);
    void showSolution(const QString& id);
    void resetExercise(const QString& id);

    QString lastChapter() const;
    int lastStep() const;  // 0-based, -1 if none
    void setLastPosition(const QString& chapterId, int step);

    // Writes now (every setter already does). Returns false and emits
    // saveFailed() when the file cannot be written; the previous file stays.
    bool save();

signals:
    void changed();
    void saveFailed(const QString& message);
    void corruptFileFound(const QString& message);

private:
    bool saveLocked(QString* error);

    QString m_path;
    mutable QMutex m_mutex;  // the store may be updated from several threads
    QHash<QString, ExerciseProgress> m_exercises;
    QString m_lastChapter;
    int m_lastStep = -1;
    QString m_lastError;
    QString m_corruptBackup;
};

}  // namespace poslab::lessons
