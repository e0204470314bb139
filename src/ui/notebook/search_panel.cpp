// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/search_panel.h"

#include <QEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace poslab::ui {

SearchPanel::SearchPanel(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_field = new QLineEdit(this);
    m_field->setClearButtonEnabled(true);
    layout->addWidget(m_field);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->hide();
    layout->addWidget(m_status);
    m_results = new QListWidget(this);
    m_results->setWordWrap(true);
    m_results->setTextElideMode(Qt::ElideNone);
    m_results->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Wrapped results are measured at the list's width: a scroll bar that
    // appeared after they were measured (or a resized dock) would leave the
    // last line of a long result cut off. So the bar is always there, and a
    // new width measures them again.
    m_results->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    m_results->setResizeMode(QListView::Adjust);
    m_results->setSpacing(2);
    m_results->hide();
    layout->addWidget(m_results, 1);

    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(200);
    connect(m_timer, &QTimer::timeout, this, &SearchPanel::search);
    connect(m_field, &QLineEdit::textChanged, this, [this](const QString& text) {
        const bool active = !text.trimmed().isEmpty();
        if (active != m_active) {
            m_active = active;
            m_results->setVisible(active);
            m_status->setVisible(active);
            emit activeChanged(active);
        }
        m_timer->start();
    });
    connect(m_field, &QLineEdit::returnPressed, this, [this] {
        m_timer->stop();
        search();
        QListWidgetItem* item = m_results->currentItem() ? m_results->currentItem() : m_results->item(0);
        activateItem(item);
    });
    connect(m_results, &QListWidget::itemActivated, this, &SearchPanel::activateItem);
    connect(m_results, &QListWidget::itemClicked, this, &SearchPanel::activateItem);
    m_field->installEventFilter(this);
    m_results->installEventFilter(this);
    retranslateUi();
}

void SearchPanel::setCourse(const lessons::Course& course)
{
    m_index.setCourse(course);
    if (!query().isEmpty()) search();
}

QString SearchPanel::query() const
{
    return m_field->text().simplified();
}

void SearchPanel::search()
{
    m_hits = m_index.find(query());
    m_results->clear();
    for (const SearchHit& h : m_hits) {
        auto* item = new QListWidgetItem(m_results);
        item->setText(tr("%1 \u203a %2\n%3").arg(h.chapterTitle, h.stepTitle, h.snippet));
        item->setToolTip(tr("%n match(es) in this step", nullptr, h.count));
    }
    if (m_results->count() > 0) m_results->setCurrentRow(0);
    m_status->setText(query().isEmpty()  ? QString()
                      : m_hits.isEmpty() ? tr("No matches")
                                         : tr("%n step(s) found", nullptr, int(m_hits.size())));
}

void SearchPanel::activate()
{
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

void SearchPanel::activateItem(QListWidgetItem* item)
{
    if (!item) return;
    const int row = m_results->row(item);
    if (row < 0 || row >= m_hits.size()) return;
    emit hitActivated(m_hits[row].chapter, m_hits[row].step, query());
}

bool SearchPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Escape && !m_field->text().isEmpty()) {
            m_field->clear();
            m_field->setFocus();
            return true;
        }
        // Down from the field walks into the list of matches.
        if (watched == m_field && key->key() == Qt::Key_Down && m_results->count() > 0) {
            m_results->setFocus();
            if (!m_results->currentItem()) m_results->setCurrentRow(0);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void SearchPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void SearchPanel::retranslateUi()
{
    m_field->setPlaceholderText(tr("Search the course (Ctrl+F)"));
    m_field->setAccessibleName(tr("Search the course"));
    m_field->setToolTip(tr("Type to list matching steps; Enter opens the first; Esc clears"));
    m_results->setAccessibleName(tr("Search results"));
    if (!query().isEmpty()) search();
}

}  // namespace poslab::ui
