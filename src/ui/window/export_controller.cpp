// SPDX-License-Identifier: Apache-2.0
#include "ui/window/export_controller.h"

#include "modules/lab/run_list.h"

#include "lessons/progress_store.h"
#include "ui/report/pdf_export.h"
#include "ui/window/course_navigator.h"
#include "ui/window/window_dialogs.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLineEdit>
#include <QMainWindow>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QStatusBar>
#include <QVBoxLayout>

namespace poslab::ui {

namespace {

// What goes into the report besides the lessons (the teacher's options), and the paper.
struct ContentChoices {
    QCheckBox* noHints;
    QCheckBox* answerKey;
    QCheckBox* compact;
    QComboBox* paper;
};

ContentChoices addContentChoices(QDialog* dialog, QFormLayout* form)
{
    ContentChoices c{new QCheckBox(ExportController::tr("Leave out the &hints (a worksheet)"), dialog),
                     new QCheckBox(ExportController::tr("&Answer key: only the exercises and their solutions"), dialog),
                     new QCheckBox(ExportController::tr("Leave out the appendi&x (module runs and software)"), dialog),
                     nullptr};
    // An answer key prints the hints with the solutions.
    QCheckBox* noHints = c.noHints;
    QObject::connect(c.answerKey, &QCheckBox::toggled, noHints, [noHints](bool key) {
        if (key) noHints->setChecked(false);
        noHints->setEnabled(!key);
    });
    auto* content = new QVBoxLayout;
    content->addWidget(c.noHints);
    content->addWidget(c.answerKey);
    content->addWidget(c.compact);
    form->addRow(ExportController::tr("Contents:"), content);
    c.paper = new QComboBox(dialog);
    c.paper->addItem(ExportController::tr("A4"), int(ExportOptions::Paper::A4));
    c.paper->addItem(ExportController::tr("US Letter"), int(ExportOptions::Paper::Letter));
    form->addRow(ExportController::tr("&Paper:"), c.paper);
    return c;
}

}  // namespace

ExportController::ExportController(QMainWindow* window, QAction* exportAction, const CourseNavigator* navigator,
                                   lessons::ProgressStore* store, QObject* parent)
    : QObject(parent), m_window(window), m_action(exportAction), m_navigator(navigator), m_store(store)
{}

bool ExportController::isRunning() const
{
    return m_process || m_progress;
}

void ExportController::setAvailable(bool available)
{
    m_available = available;
    m_action->setEnabled(m_available && !isRunning());
}

void ExportController::exportPdf()
{
    if (isRunning()) return;  // one export at a time
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Export PDF"));
    auto* form = new QFormLayout(&dialog);
    auto* current = new QRadioButton(&dialog);
    auto* whole = new QRadioButton(tr("The whole course"), &dialog);
    const bool haveChapter = m_navigator->chapterIndex() >= 0;
    if (haveChapter) {
        const int chapter = m_navigator->chapterIndex();
        const lessons::Chapter& ch = m_navigator->course().chapters[chapter];
        current->setText(tr("Current chapter: %1. %2").arg(chapter + 1).arg(ch.title));
    } else {
        current->setText(tr("Current chapter"));
        current->setEnabled(false);
    }
    (haveChapter ? current : whole)->setChecked(true);
    auto* scope = new QVBoxLayout;
    scope->addWidget(current);
    scope->addWidget(whole);
    form->addRow(tr("Export:"), scope);
    auto* student = new QLineEdit(&dialog);
    student->setPlaceholderText(tr("optional"));
    student->setAccessibleName(tr("Student name"));
    form->addRow(tr("&Student name:"), student);
    const ContentChoices choices = addContentChoices(&dialog, form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export…"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return;

    const QString lang = m_navigator->language();
    const bool chapterOnly = current->isChecked() && haveChapter;
    const QString base =
        chapterOnly ? m_navigator->course().chapters[m_navigator->chapterIndex()].id : QStringLiteral("course");
    const QString dir = defaultExportDir();
    const QString suggested = QDir(dir).filePath(QStringLiteral("poslab-%1-%2.pdf").arg(base, lang));
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export PDF"), suggested, tr("PDF documents (*.pdf)"));
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".pdf");

    ExportOptions options;
    options.lang = lang;
    options.outputPath = path;
    options.studentName = student->text().trimmed();
    options.hints = !choices.noHints->isChecked();
    options.answersOnly = choices.answerKey->isChecked();
    options.compact = choices.compact->isChecked();
    options.paper = ExportOptions::Paper(choices.paper->currentData().toInt());
    if (chapterOnly) options.chapters = {m_navigator->course().chapters[m_navigator->chapterIndex()].number};
    startExport(options);
}

void ExportController::startExport(const ExportOptions& given)
{
    if (isRunning()) return;
    ExportOptions options = given;
    if (options.courseDir.isEmpty()) options.courseDir = m_navigator->courseDir();
    if (options.lang.isEmpty()) options.lang = m_navigator->language();
    if (options.trainingRunId.isEmpty() && poslab::lab::runFileExists(m_trainingRunId))
        options.trainingRunId = m_trainingRunId;
    m_store->save();  // every change is saved already; this makes sure the file exists
    if (options.answersFile.isEmpty() && QFileInfo::exists(m_store->filePath()))
        options.answersFile = m_store->filePath();
    const QString path = options.outputPath;

    m_exporting = tr("Exporting %1…").arg(QFileInfo(path).fileName());
    m_output.clear();
    m_clock.start();
    m_progress = new QProgressDialog(m_exporting, tr("Cancel"), 0, 0, m_window);
    m_progress->setWindowTitle(tr("Export PDF"));
    m_progress->setMinimumDuration(0);
    m_progress->setWindowModality(Qt::WindowModal);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    m_progress->setAccessibleName(tr("Export progress"));
    m_action->setEnabled(false);
    m_window->statusBar()->showMessage(tr("Exporting %1…").arg(QDir::toNativeSeparators(path)));

    // In PosLab's window program (poslab-gui, src/app/drawing.h): `poslab-gui
    // export` as a child process, so the window keeps painting and answering
    // while the report is laid out.
    const QString self = QCoreApplication::applicationFilePath();
    if (const QString name = QFileInfo(self).fileName(); name == u"poslab-gui" || name == u"poslab") {
        startChildProcess(self, options);
        return;
    }

    // Elsewhere (tests, other hosts): in-process; the exporter must run in the GUI thread.
    m_progress->setCancelButton(nullptr);
    m_progress->show();
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    options.progress = [this](int done, int total) {
        takeOutputLine(QStringLiteral("progress %1/%2").arg(done).arg(total));
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    };
    const ExportResult r = poslab::ui::exportPdf(options);
    finish(r.ok(), r.message, path);
}

void ExportController::startChildProcess(const QString& program, const ExportOptions& options)
{
    const QString path = options.outputPath;
    QStringList args{QStringLiteral("export"), QStringLiteral("--course"), options.courseDir, QStringLiteral("--lang"),
                     options.lang};
    if (!options.chapters.isEmpty()) {
        QStringList numbers;
        for (int n : options.chapters) numbers << QString::number(n);
        args << QStringLiteral("--chapters") << numbers.join(QLatin1Char(','));
    }
    if (!options.studentName.isEmpty()) args << QStringLiteral("--student") << options.studentName;
    if (!options.answersFile.isEmpty()) args << QStringLiteral("--answers") << options.answersFile;
    if (!options.trainingRunId.isEmpty()) args << QStringLiteral("--run") << options.trainingRunId;
    if (!options.hints) args << QStringLiteral("--no-hints");
    if (options.answersOnly) args << QStringLiteral("--answers-only");
    if (options.compact) args << QStringLiteral("--compact");
    if (options.paper == ExportOptions::Paper::Letter) args << QStringLiteral("--paper") << QStringLiteral("letter");
    args << QStringLiteral("--progress") << QStringLiteral("-o") << path;
    auto* process = new QProcess(this);
    m_process = process;
    process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_progress, &QProgressDialog::canceled, process, [process] { process->kill(); });
    connect(process, &QProcess::readyRead, this, [this, process] {
        while (process->canReadLine()) takeOutputLine(QString::fromUtf8(process->readLine()).trimmed());
    });
    connect(process, &QProcess::finished, this, [this, process, path](int code, QProcess::ExitStatus status) {
        for (const QString& line : QString::fromUtf8(process->readAll()).split(u'\n')) takeOutputLine(line.trimmed());
        const QString output = m_output.join(u'\n').trimmed();
        process->deleteLater();
        if (status != QProcess::NormalExit)
            finish(false, tr("The export was cancelled."), path);
        else
            finish(code == 0, output.isEmpty() ? tr("Exit status %1").arg(code) : output, path);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process, path](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        process->deleteLater();
        finish(false, process->errorString(), path);
    });
    process->start(program, args);
}

void ExportController::takeOutputLine(const QString& line)
{
    static const QRegularExpression progress(QStringLiteral("^progress (\\d+)/(\\d+)$"));
    const QRegularExpressionMatch m = progress.match(line);
    if (!m.hasMatch()) {
        if (!line.isEmpty()) m_output << line;
        return;
    }
    const int done = m.captured(1).toInt(), total = m.captured(2).toInt();
    if (!m_progress || total <= 0 || done < 0 || done > total) return;
    m_progress->setMaximum(total);
    m_progress->setValue(done);
    // The chapters left take as long as the ones done, on average.
    const qint64 leftSeconds = done > 0 ? (m_clock.elapsed() * (total - done) / done + 999) / 1000 : -1;
    QString text = m_exporting + u'\n' + tr("Chapter %1 of %2 done").arg(done).arg(total);
    if (leftSeconds > 0) text += u'\n' + tr("About %n second(s) left", nullptr, int(leftSeconds));
    m_progress->setLabelText(text);
    emit progressed(done, total, text);
}

void ExportController::finish(bool ok, const QString& message, const QString& path)
{
    if (m_progress) {
        m_progress->close();
        m_progress->deleteLater();
        m_progress = nullptr;
    }
    m_process = nullptr;
    m_action->setEnabled(m_available);
    if (ok) {
        m_window->statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 10000);
    } else {
        m_window->statusBar()->showMessage(tr("Export failed: %1").arg(message), 10000);
        showMessageBox(m_window, QMessageBox::Warning, tr("Export PDF"),
                       tr("The PDF could not be written.\n\n%1").arg(message));
    }
    emit finished(ok, message);
}

}  // namespace poslab::ui
