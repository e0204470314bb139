// SPDX-License-Identifier: Apache-2.0
// course_loader.cpp — parses chapter files (front matter + md4c) into the model.
//
// md4c finds the structure (top-level headings, fenced blocks, images) and
// hands out pointers into our buffer, from which we derive line numbers; the
// text between structural markers is kept verbatim as Markdown blocks. The
// bodies of `run` and `exercise` blocks are our own small `key: value`
// format, parsed here line by line.
#include "lessons/course_loader.h"

#include "lessons/block_parse.h"
#include "lessons/did_you_mean.h"
#include "lessons/fences.h"
#include "lessons/image_format.h"
#include "lessons/markdown_scan.h"
#include "modules/registry.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringDecoder>
#include <QUrl>

#include <algorithm>

namespace poslab::lessons {

using poslab::modules::Registry;
using poslab::modules::T2;
using poslab::modules::Text2;

namespace {

constexpr qsizetype kMaxChapterBytes = 4 * 1024 * 1024;
constexpr qsizetype kMaxLineChars = 100000;
QString stripAtx(const QString& line)
{
    static const QRegularExpression lead(QStringLiteral("^\\s{0,3}#{1,6}(\\s+|$)"));
    static const QRegularExpression trail(QStringLiteral("\\s+#+\\s*$"));
    QString t = line;
    t.remove(lead);
    t.remove(trail);
    if (t.trimmed().startsWith(u'#') && t.trimmed().count(u'#') == t.trimmed().size()) t.clear();
    return t.trimmed();
}

struct ChapterParser {
    const QString& file;
    const QString& courseDir;
    const Registry& registry;
    ChapterParseResult result;

    void diag(int line, const Text2& message) { result.diagnostics.append(Diagnostic::of(file, line, message)); }
};

const QStringList kFrontMatterKeys = {QStringLiteral("id"), QStringLiteral("title"), QStringLiteral("summary"),
                                      QStringLiteral("minutes")};

// One problem: where the unclosed block opened. Whatever was found after it
// was read out of place (the rest of the file swallowed, or the blocks after
// it shifted by one fence), so it is left unsaid.
void reportUnclosedFence(ChapterParser& p, int line, const Text2& text)
{
    QList<Diagnostic>& ds = p.result.diagnostics;
    ds.erase(std::remove_if(ds.begin(), ds.end(), [&](const Diagnostic& d) { return d.line > line; }), ds.end());
    p.diag(line, text);
    p.result.chapter.unclosedFenceLine = line;
}

// One known front-matter key's value into the chapter (an unknown key gets "did you mean").
void readFrontMatterValue(ChapterParser& p, const QString& key, const QString& value, int lineNo)
{
    static const QRegularExpression idRe(QStringLiteral("^[a-z0-9-]+$"));
    Chapter& ch = p.result.chapter;
    if (key == QLatin1String("id")) {
        if (!idRe.match(value).hasMatch())
            p.diag(lineNo,
                   T2("front matter: id '%1' must match [a-z0-9-]+", "文件头：id“%1”只能由小写字母、数字和 - 组成")
                       .arg(value));
        ch.id = value;
    } else if (key == QLatin1String("title")) {
        if (value.isEmpty()) p.diag(lineNo, T2("front matter: title is empty", "文件头：title 是空的"));
        ch.title = value;
    } else if (key == QLatin1String("summary")) {
        if (value.isEmpty()) p.diag(lineNo, T2("front matter: summary is empty", "文件头：summary 是空的"));
        ch.summary = value;
    } else if (key == QLatin1String("minutes")) {
        bool ok = false;
        const int v = value.toInt(&ok);
        if (!ok || v <= 0 || v > 1000)
            p.diag(lineNo, T2("front matter: minutes must be a positive integer, got '%1'",
                              "文件头：minutes 必须是正整数，这里是“%1”")
                               .arg(value));
        else
            ch.minutes = v;
    } else {
        p.diag(lineNo, withSuggestion(T2("front matter: unknown key '%1' (expected id, title, summary, minutes)",
                                         "文件头：没有“%1”这个键（可用 id、title、summary、minutes）")
                                          .arg(key),
                                      key, kFrontMatterKeys));
    }
}

bool parseFrontMatter(ChapterParser& p, const QStringList& lines, int* bodyStart)
{
    if (lines.isEmpty() || (lines.size() == 1 && lines[0].trimmed().isEmpty())) {
        p.diag(1, T2("empty file: a chapter starts with front matter ('---', id, title, summary, minutes, '---')",
                     "文件是空的：每章要以文件头开始（'---'、id、title、summary、minutes、'---'）"));
        return false;
    }
    if (lines[0].trimmed() != QLatin1String("---")) {
        p.diag(1, T2("missing front matter: the file must start with a '---' line",
                     "缺少文件头：文件的第一行必须是 '---'"));
        return false;
    }
    int end = -1;
    for (int i = 1; i < lines.size(); ++i) {
        if (lines[i].trimmed() == QLatin1String("---")) {
            end = i;
            break;
        }
    }
    if (end < 0) {
        p.diag(1, T2("unterminated front matter: no closing '---' line", "文件头没有结束：缺少结尾的 '---' 行"));
        return false;
    }
    static const QRegularExpression keyValue(QStringLiteral("^([A-Za-z_][A-Za-z0-9_-]*)\\s*:\\s*(.*)$"));
    QHash<QString, int> seen;
    for (int i = 1; i < end; ++i) {
        const QString raw = lines[i];
        const int lineNo = i + 1;
        if (raw.trimmed().isEmpty() || raw.trimmed().startsWith(u'#')) continue;
        const auto m = keyValue.match(raw.trimmed());
        if (!m.hasMatch()) {
            p.diag(lineNo, T2("front matter: expected 'key: value', got '%1'", "文件头：应写成“键: 值”，这里是“%1”")
                               .arg(raw.trimmed().left(80)));
            continue;
        }
        const QString key = m.captured(1);
        QString value = m.captured(2).trimmed();
        if (value.size() >= 2 &&
            ((value.startsWith(u'"') && value.endsWith(u'"')) || (value.startsWith(u'\'') && value.endsWith(u'\''))))
            value = value.mid(1, value.size() - 2);
        if (seen.contains(key)) {
            p.diag(lineNo, T2("front matter: '%1' is given twice (first on line %2)",
                              "文件头：“%1”写了两次（第一次在第 %2 行）")
                               .arg(key)
                               .arg(seen[key]));
            continue;
        }
        seen.insert(key, lineNo);
        if (const Text2 problem = invisibleCharacterText(value, T2("front matter: the %1", "文件头的 %1").arg(key));
            !problem.isEmpty())
            p.diag(lineNo, problem);
        readFrontMatterValue(p, key, value, lineNo);
    }
    for (const QString& k : kFrontMatterKeys)
        if (!seen.contains(k)) p.diag(1, T2("front matter: missing '%1'", "文件头：缺少 %1").arg(k));
    *bodyStart = end + 1;
    return true;
}

QString resolveInside(const QString& courseDir, const QString& chapterFile, const QString& reference, const Text2& what,
                      bool mustExist, Text2* error);

void checkImage(ChapterParser& p, const PathReference& img)
{
    Text2 error;
    const QString path = resolveInside(p.courseDir, p.file, img.src, T2("image", "图片"), true, &error);
    if (!error.isEmpty()) {
        p.diag(img.line, error);
        return;
    }
    const ImageFormatProblem problem = imageFileProblem(path, img.src);
    if (!problem.message.isEmpty())
        p.result.diagnostics.append(
            Diagnostic::of(p.file, img.line, problem.message,
                           problem.isError ? Diagnostic::Severity::Error : Diagnostic::Severity::Warning));
}

// Links may go to the web (http, https), to a place in the page (#...), or to
// a file inside the course (a chapter, an image); nothing else is followed.
void checkLink(ChapterParser& p, const PathReference& link)
{
    const QString href = link.src.trimmed();
    if (href.isEmpty() || href.startsWith(u'#')) return;
    const QUrl url(href);
    const QString scheme = url.scheme().toLower();
    if (scheme == QLatin1String("http") || scheme == QLatin1String("https")) {
        if (!url.isValid() || url.host().isEmpty())
            p.diag(link.line, T2("link '%1' is not a valid web address", "链接“%1”不是有效的网址").arg(href));
        return;
    }
    if (!scheme.isEmpty() || href.startsWith(u'/') || href.startsWith(u'\\') || QDir::isAbsolutePath(href)) {
        p.diag(
            link.line,
            T2("link '%1' is not allowed: links go to http(s) addresses or to files inside the course (relative paths)",
               "不允许链接“%1”：链接只能指向 http(s) 网址，或课程文件夹里的文件（相对路径）")
                .arg(href));
        return;
    }
    Text2 error;
    resolveInside(p.courseDir, p.file, url.path(QUrl::FullyDecoded), T2("link", "链接"), false, &error);
    if (!error.isEmpty()) p.diag(link.line, error);
}

}  // namespace

namespace {
// The first top-level fence that is never closed (line 0: none).
struct UnclosedFence {
    int line = 0;
    Text2 text;
};

// Finds where a fence closes (the CommonMark rule) and notes the first one
// that is never closed. True for a run or exercise block to parse; false for
// ordinary code, which stays in the Markdown text, and for a block refused here.
bool resolveFence(ChapterParser& p, const QStringList& lines, Marker& m, UnclosedFence& unclosed)
{
    if (m.startLine <= 0) return false;
    const int close = findClosingFence(lines, m.startLine - 1);
    m.endLine = close >= 0 ? close + 1 : int(lines.size());
    m.closed = close >= 0;
    const QString word = m.info.section(u' ', 0, 0, QString::SectionSkipEmpty);
    const bool ours = word == QLatin1String("run") || word == QLatin1String("exercise");
    if (ours && !m.topLevel) {
        // (Its closing fence carries the quote/list prefix, so no
        // unterminated-fence check here.)
        p.diag(m.startLine,
               T2("a ```%1 block must not be inside a list or quote", "```%1 块不能放在列表或引用里").arg(word));
        return false;
    }
    if (m.topLevel && unclosed.line == 0) {
        unclosed.text = unclosedFenceProblem(lines, m.startLine - 1, close, word);
        if (!unclosed.text.isEmpty()) unclosed.line = m.startLine;
    }
    return ours;
}

// The chapter's bytes as lines of text (BOM dropped, line endings made LF),
// into *bytes and *lines; false, with the problem reported, when the file is
// too large, not UTF-8 text, or has a line too long to be prose.
bool readChapterLines(ChapterParser& p, const QByteArray& input, QByteArray* bytesOut, QStringList* linesOut)
{
    if (input.size() > kMaxChapterBytes) {
        p.diag(0, T2("file is too large (%1 bytes; at most %2)", "文件太大（%1 字节，最多 %2 字节）")
                      .arg(input.size())
                      .arg(kMaxChapterBytes));
        return false;
    }
    QByteArray& bytes = *bytesOut;
    bytes = input;
    if (bytes.startsWith("\xEF\xBB\xBF")) bytes.remove(0, 3);  // BOM: harmless, drop it
    if (bytes.contains('\0')) {
        p.diag(0, T2("not a text file (contains NUL bytes)", "这不是文本文件（含有 NUL 字节）"));
        return false;
    }
    {
        QStringDecoder dec(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        const QString probe = dec.decode(bytes);
        if (dec.hasError()) {
            // Find the line of the first bad byte for a useful message.
            int line = 1;
            const QList<QByteArray> rawLines = bytes.split('\n');
            for (const QByteArray& l : rawLines) {
                QStringDecoder d2(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
                const QString decoded = d2.decode(l);  // DecodedData is lazy: convert to run it
                Q_UNUSED(decoded);
                if (d2.hasError()) break;
                ++line;
            }
            p.diag(line, T2("not valid UTF-8 text (chapters must be UTF-8)",
                            "不是有效的 UTF-8 文本（章节文件必须用 UTF-8 编码）"));
            return false;
        }
    }
    // Line endings: CRLF and lone CR become LF (line numbers unchanged).
    bytes.replace("\r\n", "\n");
    bytes.replace('\r', '\n');

    const QString text = QString::fromUtf8(bytes);
    QStringList& lines = *linesOut;
    lines = text.split(u'\n');
    if (!lines.isEmpty() && lines.last().isEmpty() && lines.size() > 1) lines.removeLast();
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].size() > kMaxLineChars) {
            p.diag(i + 1, T2("line is too long (%1 characters; at most %2)", "这一行太长（%1 个字符，最多 %2 个）")
                              .arg(lines[i].size())
                              .arg(kMaxLineChars));
            return false;
        }
    }

    return true;
}

// Runs md4c over the body (from line index bodyStart) into *scan; false, with
// the problem reported, when it fails.
bool scanMarkdownBody(ChapterParser& p, const QByteArray& bytes, int bodyStart, Md4cScan* scanOut)
{
    if (scanMarkdown(bytes, bodyStart, scanOut)) return true;
    p.diag(bodyStart + 1, T2("the Markdown parser failed on this chapter", "Markdown 解析器无法处理这一章"));
    return false;
}

// Gives a heading marker its line and reports headings a step cannot start
// with; false when the heading is not found or does not start a step.
bool placeHeading(ChapterParser& p, const QStringList& lines, int bodyStart, Marker& m)
{
    if (m.startLine == 0) {
        // An empty heading ("##") gives md4c no text to point into:
        // find its line, the next empty ATX heading of that level.
        const QRegularExpression emptyAtx(QStringLiteral("^\\s{0,3}#{%1}(\\s+#*)?\\s*$").arg(m.level));
        for (int i = std::max(m.searchFrom, bodyStart + 1); i <= lines.size(); ++i)
            if (emptyAtx.match(lines[i - 1]).hasMatch()) {
                m.startLine = m.endLine = i;
                break;
            }
        if (m.startLine == 0) return false;
    }
    if (m.startLine < 1 || m.startLine > lines.size()) return false;
    static const QRegularExpression atxRe(QStringLiteral("^\\s{0,3}#"));
    // Nested headings (in lists, quotes) carry a prefix; only top-level
    // ones can be told apart as ATX or setext from their line.
    const bool atx = !m.topLevel || atxRe.match(lines[m.startLine - 1]).hasMatch();
    if (m.level == 1 && atx)
        p.diag(
            m.startLine,
            T2("'#' (level-1) heading in the body: the chapter title comes from the front matter; use '##' for steps",
               "正文里有 '#'（一级）标题：章节标题来自文件头；每一步请用 '##'"));
    else if (m.level <= 2 && !atx)
        // A line of '=' or '-' right under a paragraph turns it into a
        // heading (setext); in a formula this silently breaks the text.
        p.diag(
            m.endLine + 1,
            T2("this line of '%1' turns the text above it (line %2) into a level-%3 heading (Markdown setext heading); "
               "leave a blank line before it, or keep '=' inside the $$...$$ formula line",
               "这一行 '%1' 会把上面的文字（第 %2 行）变成 %3 级标题（Markdown 的 setext 标题）；"
               "请在它前面空一行，或把 '=' 留在 $$...$$ 公式那一行里")
                .arg(m.level == 1 ? QStringLiteral("=") : QStringLiteral("-"))
                .arg(m.startLine)
                .arg(m.level));
    return m.level == 2 && m.topLevel;
}

// The headings and fences that split the body, in line order.
std::vector<Marker> bodyMarkers(ChapterParser& p, const QStringList& lines, int bodyStart, const Md4cScan& scan,
                                UnclosedFence& unclosed)
{
    std::vector<Marker> markers;
    for (Marker m : scan.markers) {
        const bool keep =
            m.kind == Marker::Fence ? resolveFence(p, lines, m, unclosed) : placeHeading(p, lines, bodyStart, m);
        if (keep) markers.push_back(m);
    }
    std::sort(markers.begin(), markers.end(),
              [](const Marker& a, const Marker& b) { return a.startLine < b.startLine; });
    return markers;
}

// Walks the body: headings start steps, fences become run and exercise
// blocks, the text between them Markdown blocks.
void buildSteps(ChapterParser& p, const QStringList& lines, int bodyStart, const std::vector<Marker>& markers,
                const UnclosedFence& unclosed)
{
    Chapter& ch = p.result.chapter;
    const QString& file = ch.file;
    Step current;
    current.title = ch.title;
    current.isIntroduction = true;
    current.location = {file, bodyStart + 1};
    bool haveStep = true;
    auto flushText = [&](int fromLine, int toLine) {  // 1-based inclusive
        int a = fromLine, b = toLine;
        while (a <= b && lines[a - 1].trimmed().isEmpty()) ++a;
        while (b >= a && lines[b - 1].trimmed().isEmpty()) --b;
        if (a > b) return;
        Block blk;
        blk.kind = Block::Kind::Markdown;
        blk.location = {file, a};
        blk.markdown = lines.mid(a - 1, b - a + 1).join(u'\n');
        current.blocks.append(blk);
    };
    auto flushStep = [&]() {
        if (!haveStep) return;
        if (current.isIntroduction && current.blocks.isEmpty()) return;  // empty introduction
        if (current.isIntroduction) current.location = current.blocks.first().location;
        ch.steps.append(current);
    };

    int cursor = bodyStart + 1;  // next unconsumed line (1-based)
    for (const Marker& m : markers) {
        if (m.startLine < cursor) continue;  // overlapping (should not happen)
        flushText(cursor, m.startLine - 1);
        if (m.kind == Marker::Heading) {
            flushStep();
            current = Step();
            QString title;
            if (QRegularExpression(QStringLiteral("^\\s{0,3}#")).match(lines[m.startLine - 1]).hasMatch())
                title = stripAtx(lines[m.startLine - 1]);
            else
                title = lines.mid(m.startLine - 1, m.endLine - m.startLine + 1).join(u' ').trimmed();
            int endLine = m.endLine;
            // Setext heading: the underline follows the text.
            if (!QRegularExpression(QStringLiteral("^\\s{0,3}#")).match(lines[m.startLine - 1]).hasMatch() &&
                endLine < lines.size())
                ++endLine;
            if (title.isEmpty())
                p.diag(m.startLine, T2("step heading '##' has no title", "步骤标题 '##' 后面没有文字"));
            current.title = title;
            current.location = {file, m.startLine};
            haveStep = true;
            cursor = endLine + 1;
        } else {
            // Body: the lines between the opening fence (line S) and the closing one.
            const int count = m.closed ? m.endLine - 1 - m.startLine : m.endLine - m.startLine;
            const QStringList body = lines.mid(m.startLine, std::max(0, count));
            // An unclosed block's body is the rest of the file (or up to the
            // next block's fence): its problems would only be follow-ons.
            QList<Diagnostic> followOns;
            const bool isUnclosed = m.startLine == unclosed.line;
            Block blk = parseSpecialBlock(m.info, body, file, m.startLine, p.registry,
                                          isUnclosed ? &followOns : &p.result.diagnostics);
            if (isUnclosed) blk.error = unclosed.text.en;
            current.blocks.append(blk);
            cursor = m.endLine + 1;
        }
    }
    flushText(cursor, int(lines.size()));
    flushStep();
}

ChapterParseResult parseChapterTextUnsorted(const QByteArray& input, const QString& file, const QString& courseDir,
                                            const QString& lang, const Registry& registry)
{
    ChapterParser p{file, courseDir, registry, {}};
    Chapter& ch = p.result.chapter;
    ch.file = file;
    ch.lang = lang;
    ch.location = {file, 1};
    static const QRegularExpression nameRe(QStringLiteral("^(\\d\\d)-[a-z0-9-]+\\.md$"));
    const auto nm = nameRe.match(QFileInfo(file).fileName());
    if (nm.hasMatch()) ch.number = nm.captured(1).toInt();

    QByteArray bytes;
    QStringList lines;
    if (!readChapterLines(p, input, &bytes, &lines)) return p.result;
    int bodyStart = 0;  // 0-based index of the first body line
    if (!parseFrontMatter(p, lines, &bodyStart)) return p.result;
    Md4cScan scan;
    if (!scanMarkdownBody(p, bytes, bodyStart, &scan)) return p.result;

    for (const PathReference& img : scan.images) checkImage(p, img);
    for (const PathReference& link : scan.links) checkLink(p, link);
    for (const PathReference& html : scan.rawHtml)
        p.result.diagnostics.append(Diagnostic::of(
            p.file, html.line,
            T2("'%1' is HTML, which lessons show as typed: write Markdown instead (lessons/README.md, "
               "\"Markdown\")",
               "“%1”是 HTML，课程会把它按原样显示成文字：请改用 Markdown（见 lessons/README.zh.md 的“Markdown”一节）")
                .arg(html.src),
            Diagnostic::Severity::Warning));
    for (const PendingProblem& problem : scan.problems)
        p.diag(problem.line > 0 ? problem.line : bodyStart + 1, problem.message);

    // Fence extents follow the CommonMark closing rule.
    UnclosedFence unclosed;
    const std::vector<Marker> markers = bodyMarkers(p, lines, bodyStart, scan, unclosed);
    buildSteps(p, lines, bodyStart, markers, unclosed);
    if (unclosed.line > 0)
        reportUnclosedFence(p, unclosed.line, unclosed.text);
    else if (ch.steps.isEmpty())
        p.diag(bodyStart + 1 <= lines.size() ? bodyStart + 1 : int(lines.size()),
               T2("chapter has no content (no introduction and no '##' steps)",
                  "这一章没有内容（既没有引言，也没有 '##' 步骤）"));
    return p.result;
}

}  // namespace

ChapterParseResult parseChapterText(const QByteArray& input, const QString& file, const QString& courseDir,
                                    const QString& lang, const Registry& registry)
{
    ChapterParseResult r = parseChapterTextUnsorted(input, file, courseDir, lang, registry);
    std::stable_sort(r.diagnostics.begin(), r.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    return r;
}

ChapterParseResult parseChapterFile(const QString& file, const QString& courseDir, const QString& lang,
                                    const Registry& registry)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        ChapterParseResult r;
        r.chapter.file = file;
        r.chapter.lang = lang;
        r.diagnostics.append(
            Diagnostic::of(file, 0, T2("cannot read the file: %1", "无法读取文件：%1").arg(f.errorString())));
        return r;
    }
    // Read at most a little more than the limit, so a huge file is reported,
    // not loaded (and a small one does not reserve the whole limit).
    const qint64 size = f.size();
    const QByteArray bytes = f.read(size > 0 && size < kMaxChapterBytes ? size + 1 : kMaxChapterBytes + 1);
    return parseChapterText(bytes, file, courseDir, lang, registry);
}

namespace {

// resolveInsideCourse, with its message in both languages.
QString resolveInside(const QString& courseDir, const QString& chapterFile, const QString& reference, const Text2& what,
                      bool mustExist, Text2* error)
{
    auto fail = [&](const Text2& msg) {
        if (error) *error = msg;
        return QString();
    };
    if (error) *error = {};
    const QString ref = QUrl::fromPercentEncoding(reference.trimmed().toUtf8());
    if (ref.isEmpty()) return fail(argIn(T2("%1 with an empty path", "%1的路径是空的"), what));
    if (ref.contains(QLatin1String("://")) || ref.startsWith(QLatin1String("data:")) || ref.startsWith(u'/') ||
        ref.startsWith(u'\\') || QDir::isAbsolutePath(ref))
        return fail(
            argIn(T2("%1 '%2' must be a relative path inside the course folder", "%1“%2”必须是课程文件夹里的相对路径"),
                  what)
                .arg(reference));
    const QString root = QFileInfo(courseDir).canonicalFilePath();
    if (root.isEmpty()) return fail(T2("course folder '%1' does not exist", "课程文件夹“%1”不存在").arg(courseDir));
    const QString chapterDir = QFileInfo(chapterFile).absolutePath();
    const QString canonicalChapterDir = QFileInfo(chapterDir).canonicalFilePath();
    const QString lexical =
        QDir::cleanPath(QDir(canonicalChapterDir.isEmpty() ? chapterDir : canonicalChapterDir).filePath(ref));
    // Only after this test is anything about the path asked of the file system.
    if (!lexical.startsWith(root + u'/'))
        return fail(argIn(T2("%1 '%2' is outside the course folder", "%1“%2”在课程文件夹之外"), what).arg(reference));
    const QFileInfo fi(lexical);
    if (!fi.exists()) {
        if (!mustExist) return lexical;
        // "did you mean" among the files of the folder it points into (inside the course).
        QStringList siblings;
        const QString folder = fi.absolutePath();
        if (QFileInfo(folder).canonicalFilePath().startsWith(root + u'/'))
            siblings = QDir(folder).entryList(QDir::Files, QDir::Name);
        const QString written = QFileInfo(ref).fileName();
        QStringList close;
        const QString prefix = ref.left(ref.size() - written.size());
        for (const QString& c : closeNames(written, siblings)) close << prefix + c;
        const Text2 m = argIn(T2("%1 not found: '%2'", "找不到%1：“%2”"), what).arg(reference);
        const Text2 hint = suggestionText(close);
        return fail({m.en + hint.en, m.zh + hint.zh});
    }
    const QString canonical = fi.canonicalFilePath();
    if (!canonical.startsWith(root + u'/'))
        return fail(argIn(T2("%1 '%2' leads outside the course folder (through a symbolic link)",
                             "%1“%2”（通过符号链接）指向了课程文件夹之外"),
                          what)
                        .arg(reference));
    if (mustExist && !fi.isFile())
        return fail(argIn(T2("%1 '%2' is not a file", "%1“%2”不是文件"), what).arg(reference));
    return canonical;
}

Text2 whatText(const QString& what)
{
    if (what == QLatin1String("image")) return T2("image", "图片");
    if (what == QLatin1String("link")) return T2("link", "链接");
    return {what, what};
}

}  // namespace

QString resolveInsideCourse(const QString& courseDir, const QString& chapterFile, const QString& reference,
                            const QString& what, bool mustExist, QString* error)
{
    Text2 message;
    const QString path = resolveInside(courseDir, chapterFile, reference, whatText(what), mustExist, &message);
    if (error) *error = message.en;
    return path;
}

QString resolveCourseImage(const QString& courseDir, const QString& chapterFile, const QString& reference,
                           QString* error)
{
    return resolveInsideCourse(courseDir, chapterFile, reference, QStringLiteral("image"), true, error);
}

namespace {

// Chapter ids and numbers must be unique in a language, exercise ids in the course.
void checkUniqueIds(const Chapter& chapter, QHash<QString, SourceLocation>* chapterIds, QHash<int, QString>* numbers,
                    QHash<QString, SourceLocation>* exerciseIds, QList<Diagnostic>* out)
{
    if (const auto first = numbers->constFind(chapter.number); chapter.number > 0 && first != numbers->cend())
        out->append(Diagnostic::of(chapter.file, 0,
                                   T2("chapter number %1 is also %2's: the number sets the order, so each chapter "
                                      "needs its own",
                                      "章节号 %1 与 %2 重复：章节号决定顺序，每一章都要有自己的号")
                                       .arg(chapter.number, 2, 10, QLatin1Char('0'))
                                       .arg(QFileInfo(*first).fileName())));
    else if (chapter.number > 0)
        numbers->insert(chapter.number, chapter.file);
    if (const auto first = chapterIds->constFind(chapter.id); !chapter.id.isEmpty() && first != chapterIds->cend())
        out->append(Diagnostic::of(chapter.file, 2,
                                   T2("duplicate chapter id '%1' (also in %2)", "章节 id“%1”重复了（%2 也用了它）")
                                       .arg(chapter.id, first->file)));
    else if (!chapter.id.isEmpty())
        chapterIds->insert(chapter.id, {chapter.file, 1});
    for (const Step& s : chapter.steps)
        for (const Block& b : s.blocks) {
            if (b.kind != Block::Kind::Exercise || b.exercise.id.isEmpty()) continue;
            if (const auto first = exerciseIds->constFind(b.exercise.id); first != exerciseIds->cend())
                out->append(Diagnostic::of(
                    b.location.file, b.location.line,
                    T2("duplicate exercise id '%1' (first at %2:%3)", "练习题 id“%1”重复了（第一次出现在 %2:%3）")
                        .arg(b.exercise.id, first->file)
                        .arg(first->line)));
            else
                exerciseIds->insert(b.exercise.id, b.location);
        }
}

}  // namespace

CourseLoadResult loadCourse(const QString& dir, const QString& lang)
{
    return loadCourse(dir, lang, Registry::builtin());
}

CourseLoadResult loadCourse(const QString& dir, const QString& lang, const Registry& registry)
{
    CourseLoadResult r;
    const QString root = QFileInfo(dir).canonicalFilePath();
    r.course.dir = root.isEmpty() ? QFileInfo(dir).absoluteFilePath() : root;
    r.course.lang = lang;
    const QString langDir = QDir(r.course.dir).filePath(lang);
    if (root.isEmpty()) {
        r.diagnostics.append(
            Diagnostic::of(QFileInfo(dir).absoluteFilePath(), 0, T2("course folder not found", "找不到课程文件夹")));
        return r;
    }
    if (!QFileInfo(langDir).isDir()) {
        r.diagnostics.append(
            Diagnostic::of(langDir, 0, T2("no '%1' folder in the course", "课程里没有“%1”文件夹").arg(lang)));
        return r;
    }
    // Nothing outside the course folder is read: a language folder or chapter
    // that is a symbolic link must point inside it.
    auto leadsOutside = [&](const QString& path) {
        return !QFileInfo(path).canonicalFilePath().startsWith(r.course.dir + u'/');
    };
    if (leadsOutside(langDir)) {
        r.diagnostics.append(
            Diagnostic::of(langDir, 0,
                           T2("the '%1' folder leads outside the course folder (through a symbolic link); "
                              "PosLab reads only files inside the course",
                              "“%1”文件夹（通过符号链接）指向了课程文件夹之外；PosLab 只读取课程里的文件")
                               .arg(lang)));
        return r;
    }
    static const QRegularExpression nameRe(QStringLiteral("^\\d\\d-[a-z0-9-]+\\.md$"));
    const QStringList files = QDir(langDir).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
    QHash<QString, SourceLocation> exerciseIds;
    QHash<QString, SourceLocation> chapterIds;
    QHash<int, QString> numbers;
    for (const QString& name : files) {
        const QString path = QDir(langDir).filePath(name);
        if (!nameRe.match(name).hasMatch()) {
            if (name.compare(QLatin1String("README.md"), Qt::CaseInsensitive) != 0)
                r.diagnostics.append(
                    Diagnostic::of(path, 0,
                                   T2("chapter file names must look like NN-slug.md (two digits, lowercase slug)",
                                      "章节文件名必须形如 NN-slug.md（两位数字，加小写的名字）")));
            continue;
        }
        if (leadsOutside(path)) {
            r.diagnostics.append(
                Diagnostic::of(path, 0,
                               T2("the chapter leads outside the course folder (through a symbolic link); "
                                  "PosLab reads only files inside the course",
                                  "这一章（通过符号链接）指向了课程文件夹之外；PosLab 只读取课程里的文件")));
            continue;
        }
        ChapterParseResult cr = parseChapterFile(path, r.course.dir, lang, registry);
        r.diagnostics.append(cr.diagnostics);
        checkUniqueIds(cr.chapter, &chapterIds, &numbers, &exerciseIds, &r.diagnostics);
        r.course.chapters.append(cr.chapter);
    }
    return r;
}

QString defaultCourseDir()
{
    const QString env = qEnvironmentVariable("POSLAB_COURSE_DIR");
    if (!env.isEmpty()) return env;
#ifdef POSLAB_SOURCE_COURSE_DIR
    return QStringLiteral(POSLAB_SOURCE_COURSE_DIR);
#else
    return QStringLiteral("lessons");
#endif
}

QStringList courseLanguages()
{
    return {QStringLiteral("en"), QStringLiteral("zh")};
}

}  // namespace poslab::lessons
