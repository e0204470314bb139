// SPDX-License-Identifier: Apache-2.0
// export_controller.h — the window's PDF export: the dialog that asks what
// to export (the current chapter or the whole course, an optional student
// name) and where, the export itself without blocking the window, its
// progress dialog, and what the window says when it ends (status bar, and a
// message box when it failed). One export at a time: the Export action is
// disabled while one runs, and while the controller is not available (in
// assignment mode the answers are handed in with Submit instead).
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QStringList>

class QAction;
class QMainWindow;
class QProcess;
class QProgressDialog;

namespace poslab::lessons {
class ProgressStore;
}  // namespace poslab::lessons

namespace poslab::ui {

struct ExportOptions;
class CourseNavigator;

class ExportController : public QObject {
    Q_OBJECT
public:
    // window: parent of the dialogs, its status bar reports; exportAction: the
    // window's Export action, enabled only when an export can start; the
    // navigator gives the course, chapter and language; the learner's answers
    // come from store.
    ExportController(QMainWindow* window, QAction* exportAction, const CourseNavigator* navigator,
                     lessons::ProgressStore* store, QObject* parent = nullptr);

    bool isRunning() const;
    // The stored training run the report shows (the Training Lab's choice;
    // empty: the default). A run removed since is left out: the default then.
    void setTrainingRunId(const QString& id) { m_trainingRunId = id; }
    // Whether exporting is offered at all (the Export action, also after an export).
    void setAvailable(bool available);

public slots:
    // Asks what to export and where, then startExport().
    void exportPdf();
    // Exports with these options (courseDir, answersFile: the window's when
    // empty; lang: pass the language wanted). In the poslab executable the
    // export runs as a `poslab export` child process, so the window stays
    // responsive and the export can be cancelled; elsewhere (tests) it runs
    // in-process behind a progress dialog. Ends with finished().
    void startExport(const poslab::ui::ExportOptions& options);

signals:
    void finished(bool ok, const QString& message);
    // The progress dialog moved: `done` of `total` chapters, and what it says.
    void progressed(int done, int total, const QString& text);

private:
    // `poslab export` (program) with these options, as a child process.
    void startChildProcess(const QString& program, const ExportOptions& options);
    void finish(bool ok, const QString& message, const QString& path);
    // A line of the child's output: `progress DONE/TOTAL` moves the progress
    // dialog (chapters done, time left); any other line is kept for the message.
    void takeOutputLine(const QString& line);

    QMainWindow* m_window;
    QAction* m_action;
    const CourseNavigator* m_navigator;
    lessons::ProgressStore* m_store;
    bool m_available = true;
    QString m_trainingRunId;
    QPointer<QProcess> m_process;
    QPointer<QProgressDialog> m_progress;
    QString m_exporting;    // the progress dialog's first line ("Exporting FILE…")
    QStringList m_output;   // the child's lines that are not progress
    QElapsedTimer m_clock;  // since the export started
};

}  // namespace poslab::ui
