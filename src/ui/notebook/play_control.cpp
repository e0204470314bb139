// SPDX-License-Identifier: Apache-2.0
// play_control.cpp — play, pause and step through a run block's frames (play_control.h).
#include "ui/notebook/play_control.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QTimer>

#include <algorithm>

namespace poslab::ui {

namespace {
bool g_motionReduced = false;
// How long a frame stays on screen before the next is asked for (once drawn).
constexpr int kFrameHoldMs = 450;
}  // namespace

bool motionReduced()
{
    return g_motionReduced;
}

void setMotionReduced(bool reduced)
{
    g_motionReduced = reduced;
}

PlayControl::PlayControl(const QString& name, const QStringList& values, QWidget* parent)
    : QWidget(parent), m_name(name), m_values(values)
{
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    m_back = new QPushButton(QStringLiteral("\u25C0"), this);
    m_play = new QPushButton(this);
    m_forward = new QPushButton(QStringLiteral("\u25B6"), this);
    m_status = new QLabel(this);
    for (QPushButton* b : {m_back, m_forward}) b->setFixedWidth(b->sizeHint().height() * 2);
    row->addWidget(m_back);
    row->addWidget(m_play);
    row->addWidget(m_forward);
    row->addWidget(m_status, 1);
    m_play->setVisible(!motionReduced());
    m_hold = new QTimer(this);
    m_hold->setSingleShot(true);
    m_hold->setInterval(kFrameHoldMs);
    connect(m_hold, &QTimer::timeout, this, [this] {
        if (m_playing) request(m_frame + 1);
    });
    connect(m_play, &QPushButton::clicked, this, [this] { m_playing ? pause() : play(); });
    connect(m_back, &QPushButton::clicked, this, [this] { stepBy(-1); });
    connect(m_forward, &QPushButton::clicked, this, [this] { stepBy(1); });
    setFocusPolicy(Qt::StrongFocus);
    retranslateUi();
}

QString PlayControl::statusText() const
{
    if (m_frame < 0) return tr("%1: %2 frames").arg(m_name).arg(m_values.size());
    return tr("%1 = %2 · frame %3 of %4").arg(m_name, m_values[m_frame]).arg(m_frame + 1).arg(m_values.size());
}

void PlayControl::play()
{
    if (m_values.isEmpty() || motionReduced()) return;
    m_playing = true;
    retranslateUi();
    request(m_frame < 0 || m_frame + 1 >= m_values.size() ? 0 : m_frame + 1);
}

void PlayControl::pause()
{
    m_playing = false;
    m_hold->stop();
    retranslateUi();
}

void PlayControl::stepBy(int frames)
{
    pause();
    if (m_values.isEmpty()) return;
    const int from = m_frame < 0 ? (frames > 0 ? -1 : int(m_values.size())) : m_frame;
    request(std::clamp(from + frames, 0, int(m_values.size()) - 1));
}

void PlayControl::frameShown()
{
    if (!m_playing) return;
    if (m_frame + 1 >= m_values.size()) {
        pause();
        return;
    }
    m_hold->start();
}

void PlayControl::request(int index)
{
    if (index < 0 || index >= m_values.size()) return;
    m_frame = index;
    retranslateUi();
    emit frameRequested(index);
}

void PlayControl::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
        case Qt::Key_Space: m_playing ? pause() : play(); break;
        case Qt::Key_Left: stepBy(-1); break;
        case Qt::Key_Right: stepBy(1); break;
        case Qt::Key_Home: stepBy(-int(m_values.size())); break;
        case Qt::Key_End: stepBy(int(m_values.size())); break;
        default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void PlayControl::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void PlayControl::retranslateUi()
{
    m_play->setText(m_playing ? tr("Pause") : tr("Play"));
    m_play->setAccessibleName(m_playing ? tr("Pause") : tr("Play through %1").arg(m_name));
    m_back->setAccessibleName(tr("Previous frame"));
    m_back->setToolTip(tr("Previous frame (Left)"));
    m_forward->setAccessibleName(tr("Next frame"));
    m_forward->setToolTip(tr("Next frame (Right)"));
    m_status->setText(statusText());
    setAccessibleName(tr("Play %1").arg(m_name));
    setToolTip(motionReduced() ? tr("Motion is reduced: step with the buttons or Left and Right")
                               : tr("Space plays and pauses; Left and Right step one frame"));
}

}  // namespace poslab::ui
