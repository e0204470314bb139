// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/toc_panel.h"

#include "util/tex_to_unicode.h"

#include <QEvent>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace poslab::ui {

namespace {
constexpr int kChapterRole = Qt::UserRole + 1;
constexpr int kStepRole = Qt::UserRole + 2;  // -1 for a chapter item
}  // namespace

QStringList exerciseIds(const lessons::Step& step)
{
    QStringList ids;
    for (const lessons::Block& b : step.blocks)
        if (b.kind == lessons::Block::Kind::Exercise) ids << b.exercise.id;
    return ids;
}

QStringList exerciseIds(const lessons::Chapter& chapter)
{
    QStringList ids;
    for (const lessons::Step& s : chapter.steps) ids << exerciseIds(s);
    return ids;
}

TocPanel::TocPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(2);
    m_tree->setHeaderHidden(true);
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(false);
    m_tree->setWordWrap(true);
    m_tree->setTextElideMode(Qt::ElideRight);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    layout->addWidget(m_tree);
    connect(m_tree, &QTreeWidget::itemActivated, this, &TocPanel::onItemActivated);
    connect(m_tree, &QTreeWidget::itemClicked, this, &TocPanel::onItemActivated);
    retranslateUi();
}

void TocPanel::setCourse(const lessons::Course& course)
{
    m_course = course;
    rebuild();
}

void TocPanel::setProgress(const TocProgress& progress)
{
    m_progress = progress;
    updateMarks();
}

void TocPanel::rebuild()
{
    QSignalBlocker block(m_tree);
    m_tree->clear();
    for (int c = 0; c < m_course.chapters.size(); ++c) {
        const lessons::Chapter& ch = m_course.chapters[c];
        const QString title = util::texToUnicode(ch.title);  // tree items draw plain text
        auto* chapterItem = new QTreeWidgetItem(m_tree);
        chapterItem->setText(0, tr("%1. %2").arg(ch.number > 0 ? ch.number : c + 1).arg(title));
        chapterItem->setToolTip(
            0, ch.summary.isEmpty()
                   ? title
                   : tr("%1\n%2\nAbout %n minute(s)", nullptr, ch.minutes).arg(title, util::texToUnicode(ch.summary)));
        chapterItem->setData(0, kChapterRole, c);
        chapterItem->setData(0, kStepRole, -1);
        QFont f = chapterItem->font(0);
        f.setBold(true);
        chapterItem->setFont(0, f);
        for (int s = 0; s < ch.steps.size(); ++s) {
            auto* stepItem = new QTreeWidgetItem(chapterItem);
            stepItem->setText(0, util::texToUnicode(ch.steps[s].title));
            stepItem->setToolTip(0, stepItem->text(0));
            stepItem->setData(0, kChapterRole, c);
            stepItem->setData(0, kStepRole, s);
        }
        chapterItem->setExpanded(true);
    }
    updateMarks();
    setCurrent(m_chapter, m_step);
}

QString TocPanel::stepMark(int chapter, int step) const
{
    if (chapter < 0 || chapter >= m_course.chapters.size()) return {};
    const lessons::Chapter& ch = m_course.chapters[chapter];
    if (step < 0 || step >= ch.steps.size()) return {};
    const QStringList ids = exerciseIds(ch.steps[step]);
    QStringList parts;
    if (!ids.isEmpty()) {
        int solved = 0;
        for (const QString& id : ids) solved += m_progress.solvedExercises.contains(id) ? 1 : 0;
        // U+270E LOWER RIGHT PENCIL: exercises, kept short so titles keep their room.
        parts << tr("\u270e%1/%2").arg(solved).arg(ids.size());
    }
    // U+2713 CHECK MARK: in DejaVu and the CJK fonts alike.
    if (m_progress.visited.value(ch.id).contains(step)) parts << QStringLiteral("\u2713");
    return parts.join(QLatin1Char(' '));
}

QString TocPanel::chapterMark(int chapter) const
{
    if (chapter < 0 || chapter >= m_course.chapters.size()) return {};
    const lessons::Chapter& ch = m_course.chapters[chapter];
    const int visited = int(m_progress.visited.value(ch.id).size());
    return tr("%1/%2").arg(std::min<int>(visited, int(ch.steps.size()))).arg(ch.steps.size());
}

void TocPanel::updateMarks()
{
    for (int c = 0; c < m_tree->topLevelItemCount(); ++c) {
        QTreeWidgetItem* chapterItem = m_tree->topLevelItem(c);
        chapterItem->setText(1, chapterMark(c));
        chapterItem->setToolTip(1, tr("Steps visited"));
        for (int s = 0; s < chapterItem->childCount(); ++s) {
            QTreeWidgetItem* stepItem = chapterItem->child(s);
            stepItem->setText(1, stepMark(c, s));
            const lessons::Chapter& ch = m_course.chapters[c];
            QStringList tip;
            if (m_progress.visited.value(ch.id).contains(s)) tip << tr("Visited");
            const QStringList ids = exerciseIds(ch.steps[s]);
            if (!ids.isEmpty()) {
                int solved = 0;
                for (const QString& id : ids) solved += m_progress.solvedExercises.contains(id) ? 1 : 0;
                tip << (m_progress.countsAnswered ? tr("Exercises answered: %1 of %2")
                                                  : tr("Exercises solved: %1 of %2"))
                           .arg(solved)
                           .arg(ids.size());
            }
            stepItem->setToolTip(1, tip.join(QLatin1Char('\n')));
        }
    }
}

void TocPanel::setCurrent(int chapter, int step)
{
    m_chapter = chapter;
    m_step = step;
    if (chapter < 0 || chapter >= m_tree->topLevelItemCount()) return;
    QTreeWidgetItem* chapterItem = m_tree->topLevelItem(chapter);
    QTreeWidgetItem* item = (step >= 0 && step < chapterItem->childCount()) ? chapterItem->child(step) : chapterItem;
    QSignalBlocker block(m_tree);
    chapterItem->setExpanded(true);
    m_tree->setCurrentItem(item);
    m_tree->scrollToItem(item);
}

void TocPanel::onItemActivated(QTreeWidgetItem* item)
{
    if (!item) return;
    const int c = item->data(0, kChapterRole).toInt();
    const int s = item->data(0, kStepRole).toInt();
    emit stepActivated(c, s < 0 ? 0 : s);
}

void TocPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void TocPanel::retranslateUi()
{
    m_tree->setAccessibleName(tr("Table of contents"));
    m_tree->setToolTip(tr("Chapters and steps; Enter or a click opens a step"));
    if (!m_course.chapters.isEmpty()) rebuild();
}

}  // namespace poslab::ui
