// SPDX-License-Identifier: Apache-2.0
// progress_store.cpp — the learner's progress as an atomically written JSON file.
#include "lessons/progress_store.h"

#include "util/atomic_file.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace poslab::lessons {

namespace {
constexpr int kFormatVersion = 1;
constexpr qint64 kMaxProgressBytes = 16 * 1024 * 1024;

QJsonObject toJson(const ExerciseProgress& p)
{
    QJsonObject o;
    o[QStringLiteral("answer")] = p.answer;
    QJsonArray sel;
    for (int i : p.selected) sel.append(i);
    o[QStringLiteral("selected")] = sel;
    o[QStringLiteral("runParams")] = QJsonArray::fromStringList(p.runParams);
    o[QStringLiteral("attempts")] = p.attempts;
    o[QStringLiteral("hintsRevealed")] = p.hintsRevealed;
    o[QStringLiteral("solved")] = p.solved;
    o[QStringLiteral("solutionShown")] = p.solutionShown;
    o[QStringLiteral("lastCheckCorrect")] = p.lastCheckCorrect;
    return o;
}

ExerciseProgress fromJson(const QJsonObject& o)
{
    ExerciseProgress p;
    p.answer = o.value(QStringLiteral("answer")).toString();
    for (const QJsonValue& v : o.value(QStringLiteral("selected")).toArray())
        if (v.isDouble()) p.selected.append(v.toInt());
    for (const QJsonValue& v : o.value(QStringLiteral("runParams")).toArray())
        if (v.isString()) p.runParams.append(v.toString());
    p.attempts = std::max(0, o.value(QStringLiteral("attempts")).toInt());
    p.hintsRevealed = std::max(0, o.value(QStringLiteral("hintsRevealed")).toInt());
    p.solved = o.value(QStringLiteral("solved")).toBool();
    p.solutionShown = o.value(QStringLiteral("solutionShown")).toBool();
    p.lastCheckCorrect = o.value(QStringLiteral("lastCheckCorrect")).toBool();
    return p;
}
}  // namespace

bool ExerciseProgress::operator==(const ExerciseProgress& o) const
{
    return answer == o.answer && selected == o.selected && runParams == o.runParams && attempts == o.attempts &&
           hintsRevealed == o.hintsRevealed && solved == o.solved && solutionShown == o.solutionShown &&
           lastCheckCorrect == o.lastCheckCorrect;
}

ProgressStore::ProgressStore(const QString& filePath, QObject* parent)
    : QObject(parent), m_path(filePath.isEmpty() ? defaultFilePath() : filePath)
{}

QString ProgressStore::defaultFilePath()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty()) dir = QDir::homePath() + QStringLiteral("/.poslab");
    return QDir(dir).filePath(QStringLiteral("progress.json"));
}

bool ProgressStore::load()
{
    QString corruptMessage;
    {
        QMutexLocker lock(&m_mutex);
        m_exercises.clear();
        m_lastChapter.clear();
        m_lastStep = -1;
        m_lastError.clear();
        QFile f(m_path);
        if (!f.exists()) return true;
        if (!f.open(QIODevice::ReadOnly)) {
            m_lastError = QStringLiteral("cannot read %1: %2").arg(m_path, f.errorString());
            return false;
        }
        const QByteArray data = f.read(kMaxProgressBytes + 1);
        f.close();
        QString problem;
        QJsonParseError perr{};
        QJsonDocument doc;
        if (data.size() > kMaxProgressBytes) {
            problem = QStringLiteral("the file is too large");
        } else {
            doc = QJsonDocument::fromJson(data, &perr);
            if (perr.error != QJsonParseError::NoError)
                problem = QStringLiteral("%1 at byte %2").arg(perr.errorString()).arg(perr.offset);
            else if (!doc.isObject())
                problem = QStringLiteral("the top level is not a JSON object");
            else if (doc.object().value(QStringLiteral("version")).toInt() != kFormatVersion)
                problem = QStringLiteral("unknown format version %1")
                              .arg(doc.object().value(QStringLiteral("version")).toInt());
        }
        if (problem.isEmpty()) {
            const QJsonObject root = doc.object();
            const QJsonObject ex = root.value(QStringLiteral("exercises")).toObject();
            for (auto it = ex.begin(); it != ex.end(); ++it)
                if (it.value().isObject()) m_exercises.insert(it.key(), fromJson(it.value().toObject()));
            const QJsonObject last = root.value(QStringLiteral("last")).toObject();
            m_lastChapter = last.value(QStringLiteral("chapter")).toString();
            m_lastStep = last.value(QStringLiteral("step")).toInt(-1);
            return true;
        }
        // Keep the damaged file for inspection and start afresh; the next save
        // writes a new good file.
        const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
        m_corruptBackup = m_path + QStringLiteral(".corrupt-") + stamp;
        if (!QFile::rename(m_path, m_corruptBackup)) {
            if (QFile::copy(m_path, m_corruptBackup))
                QFile::remove(m_path);
            else
                m_corruptBackup.clear();
        }
        m_lastError =
            QStringLiteral("saved progress in %1 is damaged (%2); it was moved to %3 and progress starts empty")
                .arg(m_path, problem,
                     m_corruptBackup.isEmpty() ? QStringLiteral("(could not move it)") : m_corruptBackup);
        corruptMessage = m_lastError;
    }
    emit corruptFileFound(corruptMessage);
    return false;
}

QString ProgressStore::lastError() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastError;
}

QString ProgressStore::corruptBackupPath() const
{
    QMutexLocker lock(&m_mutex);
    return m_corruptBackup;
}

ExerciseProgress ProgressStore::exercise(const QString& id) const
{
    QMutexLocker lock(&m_mutex);
    return m_exercises.value(id);
}

QStringList ProgressStore::exerciseIds() const
{
    QMutexLocker lock(&m_mutex);
    QStringList ids = m_exercises.keys();
    ids.sort();
    return ids;
}

// Applies `change` to the progress of `id`, then saves and notifies.
#define POSLAB_UPDATE(id, body)                    \
    do {                                           \
        QString err;                               \
        bool ok;                                   \
        {                                          \
            QMutexLocker lock(&m_mutex);           \
            ExerciseProgress& p = m_exercises[id]; \
            body;                                  \
            ok = saveLocked(&err);                 \
        }                                          \
        if (!ok) emit saveFailed(err);             \
        emit changed();                            \
    } while (0)

void ProgressStore::setAnswer(const QString& id, const QString& answer)
{
    POSLAB_UPDATE(id, p.answer = answer);
}

void ProgressStore::setSelected(const QString& id, const QList<int>& selected)
{
    POSLAB_UPDATE(id, p.selected = selected);
}

void ProgressStore::setRunParams(const QString& id, const QStringList& params)
{
    POSLAB_UPDATE(id, p.runParams = params);
}

void ProgressStore::recordAttempt(const QString& id, bool correct)
{
    POSLAB_UPDATE(id, {
        ++p.attempts;
        p.lastCheckCorrect = correct;
        if (correct) p.solved = true;
    });
}

void ProgressStore::revealHint(const QString& id)
{
    POSLAB_UPDATE(id, ++p.hintsRevealed);
}

void ProgressStore::showSolution(const QString& id)
{
    POSLAB_UPDATE(id, p.solutionShown = true);
}

void ProgressStore::resetExercise(const QString& id)
{
    POSLAB_UPDATE(id, p = ExerciseProgress());
}

#undef POSLAB_UPDATE

QString ProgressStore::lastChapter() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastChapter;
}

int ProgressStore::lastStep() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastStep;
}

void ProgressStore::setLastPosition(const QString& chapterId, int step)
{
    QString err;
    bool ok;
    {
        QMutexLocker lock(&m_mutex);
        m_lastChapter = chapterId;
        m_lastStep = step;
        ok = saveLocked(&err);
    }
    if (!ok) emit saveFailed(err);
    emit changed();
}

bool ProgressStore::save()
{
    QString err;
    bool ok;
    {
        QMutexLocker lock(&m_mutex);
        ok = saveLocked(&err);
    }
    if (!ok) emit saveFailed(err);
    return ok;
}

bool ProgressStore::saveLocked(QString* error)
{
    QJsonObject root;
    root[QStringLiteral("version")] = kFormatVersion;
    QJsonObject ex;
    for (auto it = m_exercises.cbegin(); it != m_exercises.cend(); ++it) ex[it.key()] = toJson(it.value());
    root[QStringLiteral("exercises")] = ex;
    QJsonObject last;
    last[QStringLiteral("chapter")] = m_lastChapter;
    last[QStringLiteral("step")] = m_lastStep;
    root[QStringLiteral("last")] = last;

    // Whole or not at all (atomic_file.h): a crash, a kill or a full disk
    // leaves the previous good file.
    const QByteArray json = QJsonDocument(root).toJson(QJsonDocument::Indented);
    QString why;
    if (!util::writeFileAtomically(m_path, json, &why)) {
        *error = QStringLiteral("cannot write %1: %2").arg(m_path, why);
        m_lastError = *error;
        return false;
    }
    return true;
}

}  // namespace poslab::lessons
