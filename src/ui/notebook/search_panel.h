// SPDX-License-Identifier: Apache-2.0
// search_panel.h — the search field and its list of matches (Ctrl+F).
//
// Typing lists the steps that contain the text (SearchIndex, current
// language); Enter in the field or on a match asks the window to jump there,
// and the window highlights the text in the lesson pane. Esc clears the field.
#pragma once

#include "ui/notebook/search_index.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QTimer;

namespace poslab::ui {

class SearchPanel : public QWidget {
    Q_OBJECT
public:
    explicit SearchPanel(QWidget* parent = nullptr);

    void setCourse(const lessons::Course& course);
    QLineEdit* field() const { return m_field; }
    QListWidget* results() const { return m_results; }
    QString query() const;
    const QList<SearchHit>& hits() const { return m_hits; }
    // Runs the search now (the field otherwise waits a moment after typing).
    void search();
    // Focuses the field and selects its text.
    void activate();

signals:
    // A match was chosen; query is the text to highlight.
    void hitActivated(int chapter, int step, const QString& query);
    // The field became empty or non-empty (the window shows the TOC or the matches).
    void activeChanged(bool active);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslateUi();
    void activateItem(QListWidgetItem* item);

    QLineEdit* m_field = nullptr;
    QLabel* m_status = nullptr;
    QListWidget* m_results = nullptr;
    QTimer* m_timer = nullptr;
    SearchIndex m_index;
    QList<SearchHit> m_hits;
    bool m_active = false;
};

}  // namespace poslab::ui
