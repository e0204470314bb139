// SPDX-License-Identifier: Apache-2.0
#include "ui/notebook/verdict_box.h"

#include "ui/charts/color_map.h"
#include "ui/notebook/lesson_view.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>

namespace poslab::ui {

namespace {

// The verdict's colour, readable on the palette's base colour: a darker hue
// on a light page, a lighter one on a dark page (contrast above 4.5:1 on
// white and on #202020 respectively).
QColor toneColour(VerdictBox::Tone tone, bool darkPage)
{
    switch (tone) {
        case VerdictBox::Tone::Right: return darkPage ? QColor(0x7d, 0xd8, 0x93) : QColor(0x1e, 0x6b, 0x2e);
        case VerdictBox::Tone::Wrong: return darkPage ? QColor(0xff, 0x9a, 0x8c) : QColor(0xa8, 0x26, 0x1b);
        case VerdictBox::Tone::Problem: return darkPage ? QColor(0xf2, 0xc1, 0x5c) : QColor(0x85, 0x5a, 0x0c);
        case VerdictBox::Tone::Busy: break;
    }
    return {};
}

// Setting a style sheet sends a palette change, which comes back here: set
// it only when it differs.
void setStyleIfChanged(QWidget* w, const QString& sheet)
{
    if (w->styleSheet() != sheet) w->setStyleSheet(sheet);
}

}  // namespace

VerdictBox::VerdictBox(const QString& lang, const QString& chapterFile, const QString& courseDir, QWidget* parent)
    : QFrame(parent), m_lang(lang), m_chapterFile(chapterFile), m_courseDir(courseDir)
{
    setObjectName(QStringLiteral("verdictBox"));
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(10, 6, 10, 6);
    grid->setHorizontalSpacing(8);
    m_mark = new QLabel(this);
    QFont markFont = m_mark->font();
    markFont.setBold(true);
    markFont.setPointSizeF(markFont.pointSizeF() * 1.3);
    m_mark->setFont(markFont);
    m_mark->setAlignment(Qt::AlignTop | Qt::AlignHCenter);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    QFont bold = m_text->font();
    bold.setBold(true);
    m_text->setFont(bold);
    m_detail = new MarkdownBrowser(this);
    m_detail->hide();
    grid->addWidget(m_mark, 0, 0);
    grid->addWidget(m_text, 0, 1);
    grid->addWidget(m_detail, 1, 1);
    grid->setColumnStretch(1, 1);
    hide();
}

QString VerdictBox::markOf(Tone tone)
{
    switch (tone) {
        case Tone::Right: return QStringLiteral("\u2713");
        case Tone::Wrong: return QStringLiteral("\u2717");
        case Tone::Problem: return QStringLiteral("\u26a0");
        case Tone::Busy: return QStringLiteral("\u2026");
    }
    return {};
}

void VerdictBox::showVerdict(Tone tone, const QString& text, const QString& detailMarkdown)
{
    m_tone = tone;
    m_mark->setText(markOf(tone));
    m_text->setText(text);
    m_detailMarkdown = detailMarkdown;
    if (!detailMarkdown.isEmpty()) m_detail->setMarkdown(detailMarkdown, m_lang, m_courseDir, m_chapterFile);
    m_detail->setVisible(!detailMarkdown.isEmpty());
    setAccessibleName(text);
    setAccessibleDescription(detailMarkdown);
    applyColours();
    show();
}

void VerdictBox::clear()
{
    m_text->clear();
    m_detailMarkdown.clear();
    m_detail->hide();
    hide();
}

QString VerdictBox::text() const
{
    return isHidden() ? QString() : m_text->text();
}

QString VerdictBox::detail() const
{
    return isHidden() ? QString() : m_detailMarkdown;
}

void VerdictBox::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) applyColours();
}

// A bar in the verdict's colour on the left, a faint wash of it behind the
// text; a run in progress keeps the palette's own colours.
void VerdictBox::applyColours()
{
    const QPalette pal = parentWidget() ? parentWidget()->palette() : palette();
    const QColor base = pal.color(QPalette::Base);
    const bool darkPage = base.lightnessF() < 0.5;
    const QColor colour = toneColour(m_tone, darkPage);
    const QString markColour = colour.isValid() ? colour.name() : pal.color(QPalette::Text).name();
    setStyleIfChanged(m_mark, QStringLiteral("color: %1;").arg(markColour));
    setStyleIfChanged(m_text, QStringLiteral("color: %1;").arg(markColour));
    if (!colour.isValid()) {
        setStyleIfChanged(this, QStringLiteral("QFrame#verdictBox { border: none; }"));
        return;
    }
    setStyleIfChanged(
        this, QStringLiteral("QFrame#verdictBox { background: %1; border-left: 4px solid %2; border-radius: 3px; }")
                  .arg(mixColors(base, colour, 0.10).name(), colour.name()));
}

}  // namespace poslab::ui
