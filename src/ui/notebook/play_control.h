// SPDX-License-Identifier: Apache-2.0
// play_control.h — the play control under a run block with a `play:` line.
//
// Play runs the block once per frame (lessons/play_frames.h), each frame
// after the previous one is drawn and has been on screen a moment; Pause
// stops; ◀ and ▶ step one frame (also the Left and Right keys, Space plays
// and pauses, Home and End jump to the first and the last frame). The card
// owns the runs: the control asks for a frame (frameRequested) and is told
// when it is drawn (frameShown), so a slow run is never skipped.
//
// With reduced motion (View ▸ Reduce Motion, motionReduced()) nothing moves
// by itself: Play is hidden and the frames are stepped by hand.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTimer;

namespace poslab::ui {

// Whether the reader asked for less motion; remembered by the window.
bool motionReduced();
void setMotionReduced(bool reduced);

class PlayControl : public QWidget {
    Q_OBJECT
public:
    // `name`: the parameter's words ("Shift"); `values`: what each frame sets
    // it to, as shown ("8").
    PlayControl(const QString& name, const QStringList& values, QWidget* parent = nullptr);

    int frameCount() const { return int(m_values.size()); }
    int frame() const { return m_frame; }  // −1: none yet (the lesson's setting)
    bool isPlaying() const { return m_playing; }
    QPushButton* playButton() const { return m_play; }
    QPushButton* backButton() const { return m_back; }
    QPushButton* forwardButton() const { return m_forward; }
    QString statusText() const;

public slots:
    void play();
    void pause();
    void stepBy(int frames);  // pauses; clamped to the first and the last frame
    // The frame asked for last is on screen: while playing, the next one
    // follows after a short hold; after the last, playing stops.
    void frameShown();

signals:
    void frameRequested(int index);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void request(int index);
    void retranslateUi();

    QString m_name;
    QStringList m_values;
    int m_frame = -1;
    bool m_playing = false;
    QPushButton* m_play = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_forward = nullptr;
    QLabel* m_status = nullptr;
    QTimer* m_hold = nullptr;
};

}  // namespace poslab::ui
