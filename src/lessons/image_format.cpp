// SPDX-License-Identifier: Apache-2.0
#include "lessons/image_format.h"

#include <QFile>

namespace poslab::lessons {

using util::T2;
using util::Text2;

namespace {

// Formats a reader may have saved by mistake, told by their signatures.
QString knownUnsupportedFormat(const QByteArray& head)
{
    if (head.startsWith("RIFF") && head.mid(8, 4) == "WEBP") return QStringLiteral("WebP");
    if (head.mid(4, 4) == "ftyp") {
        const QByteArray brand = head.mid(8, 4);
        if (brand == "avif" || brand == "avis") return QStringLiteral("AVIF");
        if (brand.startsWith("hei") || brand.startsWith("mif1")) return QStringLiteral("HEIC");
    }
    if (head.startsWith("II*\0") || head.startsWith("MM\0*")) return QStringLiteral("TIFF");
    if (head.startsWith("%PDF")) return QStringLiteral("PDF");
    if (head.startsWith(QByteArray("\0\0\1\0", 4))) return QStringLiteral("ICO");
    return {};
}

bool looksLikeSvg(const QByteArray& head)
{
    const QByteArray start = head.trimmed().left(512).toLower();
    return start.startsWith("<svg") ||
           ((start.startsWith("<?xml") || start.startsWith("<!--") || start.startsWith("<!doctype")) &&
            head.toLower().contains("<svg"));
}

Text2 cutShort(const QString& name, const char* format)
{
    return T2("image '%1' looks cut short: the %2 file has no end marker, so part of it may not show",
              "图片“%1”似乎不完整：这个 %2 文件没有结束标记，可能只显示一部分")
        .arg(name, QString::fromLatin1(format));
}

}  // namespace

ImageFormatProblem imageFormatProblem(const QByteArray& head, const QByteArray& tail, const QString& name)
{
    if (head.startsWith("\x89PNG\r\n\x1a\n")) return {tail.contains("IEND") ? Text2() : cutShort(name, "PNG"), false};
    if (head.startsWith("\xff\xd8\xff")) return {tail.contains("\xff\xd9") ? Text2() : cutShort(name, "JPEG"), false};
    if (head.startsWith("GIF87a") || head.startsWith("GIF89a"))
        return {tail.contains(';') ? Text2() : cutShort(name, "GIF"), false};
    if (head.startsWith("BM") || looksLikeSvg(head)) return {};
    const QString other = knownUnsupportedFormat(head);
    const Text2 message =
        other.isEmpty() ? T2("image '%1' is in no format PosLab shows: use PNG, JPEG or SVG (GIF and BMP work too)",
                             "图片“%1”的格式 PosLab 无法显示：请用 PNG、JPEG 或 SVG（GIF 和 BMP 也可以）")
                              .arg(name)
                        : T2("image '%1' is a %2 file: use PNG, JPEG or SVG (GIF and BMP work too)",
                             "图片“%1”是 %2 格式，PosLab 无法显示：请用 PNG、JPEG 或 SVG（GIF 和 BMP 也可以）")
                              .arg(name, other);
    return {message, true};
}

ImageFormatProblem imageFileProblem(const QString& path, const QString& name)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {T2("image '%1' cannot be read: %2", "无法读取图片“%1”：%2").arg(name, f.errorString()), true};
    const QByteArray head = f.read(4096);
    const qint64 size = f.size();
    QByteArray tail;
    if (size > 16 && f.seek(size - 16))
        tail = f.read(16);
    else
        tail = head.right(16);
    return imageFormatProblem(head, tail, name);
}

}  // namespace poslab::lessons
