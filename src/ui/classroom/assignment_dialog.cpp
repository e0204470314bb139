// SPDX-License-Identifier: Apache-2.0
#include "ui/classroom/assignment_dialog.h"

#include "ui/notebook/exercise_widget.h"
#include "ui/notebook/toc_panel.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace poslab::ui {

namespace {

constexpr int kExerciseIdRole = Qt::UserRole + 1;

// A file name from the title: letters and digits of any script, '-' between words.
QString fileNameFor(const QString& title)
{
    QString name;
    for (QChar c : title.trimmed()) {
        if (c.isLetterOrNumber())
            name += c;
        else if (!name.isEmpty() && !name.endsWith(u'-'))
            name += u'-';
    }
    while (name.endsWith(u'-')) name.chop(1);
    if (name.isEmpty()) name = QStringLiteral("assignment");
    return name.left(80) + QLatin1String(lessons::kAssignmentSuffix);
}

}  // namespace

AssignmentDialog::AssignmentDialog(const lessons::Course& course, const QString& courseDir, const QString& lang,
                                   const QString& saveDir, QWidget* parent)
    : QDialog(parent), m_course(course), m_courseDir(courseDir), m_lang(lang), m_saveDir(saveDir)
{
    setObjectName(QStringLiteral("newAssignmentDialog"));
    setWindowTitle(tr("New Assignment"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);
    addTitleAndDueRows(form);
    addChapterBox(layout);
    addExerciseList(layout);
    addSaveRow(layout);
    addErrorAndButtons(layout);
    resize(640, 680);
}

// The title, and the due date (off until checked).
void AssignmentDialog::addTitleAndDueRows(QFormLayout* form)
{
    m_title = new QLineEdit(this);
    m_title->setPlaceholderText(tr("e.g. Week 3: RoPE"));
    m_title->setAccessibleName(tr("Title"));
    form->addRow(tr("&Title:"), m_title);
    connect(m_title, &QLineEdit::textEdited, this, &AssignmentDialog::onTitleEdited);

    auto* dueRow = new QHBoxLayout;
    m_hasDue = new QCheckBox(tr("Due by"), this);
    m_due = new QDateTimeEdit(this);
    m_due->setCalendarPopup(true);
    m_due->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    // A week from today, at the end of the day (local time).
    m_due->setDateTime(QDateTime(QDate::currentDate().addDays(7), QTime(23, 59)));
    m_due->setEnabled(false);
    m_due->setAccessibleName(tr("Due date"));
    connect(m_hasDue, &QCheckBox::toggled, m_due, &QWidget::setEnabled);
    dueRow->addWidget(m_hasDue);
    dueRow->addWidget(m_due);
    dueRow->addStretch(1);
    form->addRow(tr("Due date:"), dueRow);
}

// A check box per chapter, in two columns; chapters without exercises are disabled.
void AssignmentDialog::addChapterBox(QVBoxLayout* layout)
{
    auto* chapterBox = new QGroupBox(tr("Chapters"), this);
    auto* chapterGrid = new QGridLayout(chapterBox);
    const int rows = int((m_course.chapters.size() + 1) / 2);
    for (int i = 0; i < m_course.chapters.size(); ++i) {
        const lessons::Chapter& ch = m_course.chapters[i];
        auto* check = new QCheckBox(tr("%1. %2").arg(ch.number).arg(ch.title), chapterBox);
        check->setEnabled(!exerciseIds(ch).isEmpty());
        if (!check->isEnabled()) check->setToolTip(tr("This chapter has no exercises."));
        connect(check, &QCheckBox::toggled, this, &AssignmentDialog::rebuildExercises);
        chapterGrid->addWidget(check, rows > 0 ? i % rows : 0, rows > 0 ? i / rows : 0);
        m_chapters << check;
    }
    layout->addWidget(chapterBox);
}

// The exercises of the checked chapters, each with a check box.
void AssignmentDialog::addExerciseList(QVBoxLayout* layout)
{
    layout->addWidget(new QLabel(tr("Exercises of the checked chapters:"), this));
    m_exercises = new QListWidget(this);
    m_exercises->setAccessibleName(tr("Exercises"));
    m_exercises->setMinimumHeight(180);
    connect(m_exercises, &QListWidget::itemChanged, this, &AssignmentDialog::onExerciseToggled);
    layout->addWidget(m_exercises, 1);
}

// Where the assignment is saved, with a Browse button.
void AssignmentDialog::addSaveRow(QVBoxLayout* layout)
{
    auto* pathRow = new QHBoxLayout;
    m_path = new QLineEdit(this);
    m_path->setAccessibleName(tr("Save to"));
    m_path->setText(QDir(m_saveDir).filePath(fileNameFor(QString())));
    connect(m_path, &QLineEdit::textEdited, this, [this] { m_pathEdited = true; });
    auto* browseButton = new QPushButton(tr("Browse\u2026"), this);
    connect(browseButton, &QPushButton::clicked, this, &AssignmentDialog::browse);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browseButton);
    auto* pathForm = new QFormLayout;
    pathForm->addRow(tr("&Save to:"), pathRow);
    layout->addLayout(pathForm);
}

// The line that says why Create was refused, and Create / Cancel.
void AssignmentDialog::addErrorAndButtons(QVBoxLayout* layout)
{
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont f = m_error->font();
    f.setBold(true);
    m_error->setFont(f);
    m_error->hide();
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    connect(buttons, &QDialogButtonBox::accepted, this, &AssignmentDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QList<int> AssignmentDialog::checkedChapters() const
{
    QList<int> numbers;
    for (int i = 0; i < m_chapters.size(); ++i)
        if (m_chapters[i]->isChecked()) numbers << m_course.chapters[i].number;
    return numbers;
}

QStringList AssignmentDialog::checkedExerciseIds() const
{
    QStringList ids;
    for (int i = 0; i < m_exercises->count(); ++i) {
        const QListWidgetItem* item = m_exercises->item(i);
        const QString id = item->data(kExerciseIdRole).toString();
        if (!id.isEmpty() && item->checkState() == Qt::Checked) ids << id;
    }
    return ids;
}

void AssignmentDialog::rebuildExercises()
{
    showError(QString());
    QSignalBlocker block(m_exercises);
    m_exercises->clear();
    for (int i = 0; i < m_chapters.size(); ++i) {
        if (!m_chapters[i]->isChecked()) continue;
        const lessons::Chapter& ch = m_course.chapters[i];
        auto* heading = new QListWidgetItem(tr("%1. %2").arg(ch.number).arg(ch.title), m_exercises);
        heading->setFlags(Qt::ItemIsEnabled);
        QFont f = heading->font();
        f.setBold(true);
        heading->setFont(f);
        for (const lessons::Step& step : ch.steps) {
            for (const lessons::Block& b : step.blocks) {
                if (b.kind != lessons::Block::Kind::Exercise) continue;
                const QString question = plainTextOf(b.exercise.question);
                auto* item = new QListWidgetItem(
                    tr("%1 \u2014 %2")
                        .arg(b.exercise.id, question.size() > 60 ? question.left(59) + u'\u2026' : question),
                    m_exercises);
                item->setToolTip(question);
                item->setData(kExerciseIdRole, b.exercise.id);
                item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
                item->setCheckState(m_unchecked.contains(b.exercise.id) ? Qt::Unchecked : Qt::Checked);
            }
        }
    }
}

void AssignmentDialog::onExerciseToggled(QListWidgetItem* item)
{
    const QString id = item->data(kExerciseIdRole).toString();
    if (id.isEmpty()) return;
    if (item->checkState() == Qt::Checked)
        m_unchecked.remove(id);
    else
        m_unchecked.insert(id);
}

void AssignmentDialog::onTitleEdited(const QString& title)
{
    showError(QString());  // what was wrong may be fixed now
    if (!m_pathEdited) m_path->setText(QDir(m_saveDir).filePath(fileNameFor(title)));
}

void AssignmentDialog::browse()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save Assignment"), chosenPath(),
                                     tr("PosLab assignments (*%1)").arg(QLatin1String(lessons::kAssignmentSuffix)));
    if (path.isEmpty()) return;
    m_path->setText(QDir::toNativeSeparators(path));
    m_pathEdited = true;
}

QString AssignmentDialog::chosenPath() const
{
    QString path = QDir::fromNativeSeparators(m_path->text().trimmed());
    if (!path.isEmpty() && !path.endsWith(QLatin1String(lessons::kAssignmentSuffix)))
        path += QLatin1String(lessons::kAssignmentSuffix);
    return path;
}

QString AssignmentDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void AssignmentDialog::showError(const QString& message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

bool AssignmentDialog::createAndSave()
{
    showError(QString());
    const QString path = chosenPath();
    if (path.isEmpty()) {
        showError(tr("Choose where to save the assignment."));
        return false;
    }
    if (checkedExerciseIds().isEmpty() && !checkedChapters().isEmpty()) {
        showError(tr("Check at least one exercise."));
        return false;
    }
    lessons::AssignmentCreateOptions options;
    options.courseDir = m_courseDir;
    options.chapters = checkedChapters();
    options.exerciseIds = checkedExerciseIds();
    options.title = m_title->text();
    if (m_hasDue->isChecked()) options.due = m_due->dateTime().toUTC();
    lessons::Assignment assignment;
    QString error;
    if (!lessons::createAssignment(options, &assignment, &error, m_lang)) {
        showError(tr("The assignment could not be made: %1.").arg(error));
        return false;
    }
    const lessons::FileProblem problem = lessons::writeAssignment(path, &assignment);
    if (!problem.ok()) {
        showError(tr("The assignment could not be saved: %1.").arg(lessons::describeProblem(problem, m_lang)));
        return false;
    }
    m_assignment = assignment;
    m_savedPath = path;
    return true;
}

void AssignmentDialog::accept()
{
    const QString path = chosenPath();
    if (!path.isEmpty() && QFileInfo::exists(path) &&
        QMessageBox::question(this, tr("New Assignment"),
                              tr("%1 exists already. Replace it?").arg(QDir::toNativeSeparators(path)),
                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Yes)
        return;
    if (createAndSave()) QDialog::accept();
}

}  // namespace poslab::ui
