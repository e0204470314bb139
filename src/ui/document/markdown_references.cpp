// SPDX-License-Identifier: Apache-2.0
// markdown_references.cpp — the links and images a lesson may use
// (markdown_references.h).
#include "ui/document/markdown_references.h"

#include "ui/document/markdown_document.h"

#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QUrl>

namespace poslab::ui {

bool lessonLinkAllowed(const MarkdownDocument& owner, const QString& href)
{
    if (href.startsWith(u'#')) return true;
    const QUrl url(href);
    const QString scheme = url.scheme().toLower();
    if (scheme == u"http" || scheme == u"https") return url.isValid() && !url.host().isEmpty();
    if (!scheme.isEmpty()) return false;  // javascript:, file:, mailto:, data: ...
    const QString path = url.path();
    if (path.isEmpty()) return true;
    const QString resolved = owner.resolveInsideCourse(path);
    if (resolved.isEmpty()) return false;
    const QFileInfo target(resolved);
    if (!target.exists()) return true;  // a missing chapter: harmless, the window reports it
    const QString course = QFileInfo(owner.context().courseDir).canonicalFilePath();
    return !course.isEmpty() && target.canonicalFilePath().startsWith(course + u'/');
}

QString loadLessonImage(const MarkdownDocument& owner, const QString& src, QImage* image, QString* canonical)
{
    const QString resolved = owner.resolveInsideCourse(QUrl(src).path());
    if (resolved.isEmpty() || !QUrl(src).scheme().isEmpty())
        return MarkdownDocument::tr("image not allowed: %1").arg(src);
    QFileInfo info(resolved);
    // The canonical path (symlinks resolved) must stay inside the course too.
    *canonical = info.canonicalFilePath();
    if (!info.exists() || canonical->isEmpty()) return MarkdownDocument::tr("image missing: %1").arg(src);
    const QString courseCanonical = QFileInfo(owner.context().courseDir).canonicalFilePath();
    if (courseCanonical.isEmpty() || !canonical->startsWith(courseCanonical + u'/'))
        return MarkdownDocument::tr("image not allowed: %1").arg(src);
    QImageReader reader(*canonical);
    reader.setAutoTransform(true);
    *image = reader.read();
    if (image->isNull()) return MarkdownDocument::tr("image unreadable: %1").arg(src);
    return QString();
}

}  // namespace poslab::ui
