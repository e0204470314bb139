// SPDX-License-Identifier: Apache-2.0
// markdown_references.h — what a lesson's links and images may point at.
//
// Lesson files are data (markdown_document.h): a link is live only for
// http(s) with a host, an anchor, or a relative path that stays inside the
// course folder (also through symbolic links); an image loads only from
// inside the course folder. Anything else becomes a note in the text
// (MarkdownRenderer, markdown_document.cpp).
//
// Internal to src/ui/document.
#pragma once

#include <QString>

class QImage;

namespace poslab::ui {

class MarkdownDocument;

// Whether the link `href` of a lesson rendered by `owner` may be live.
bool lessonLinkAllowed(const MarkdownDocument& owner, const QString& href);

// Loads the image `src` of a lesson rendered by `owner`. Returns the note to
// show instead ("image not allowed: ...", missing, unreadable), or an empty
// string with *image and *canonical (its canonical path) set.
QString loadLessonImage(const MarkdownDocument& owner, const QString& src, QImage* image, QString* canonical);

}  // namespace poslab::ui
