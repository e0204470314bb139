// SPDX-License-Identifier: Apache-2.0
#include "lessons/markdown_scan.h"

#include <md4c.h>

#include <QRegularExpression>

#include <cstring>

namespace poslab::lessons {

using util::T2;

namespace {

// Lists and quotes inside each other; deeper is refused (the renderer flattens
// it, see markdown_document.cpp) rather than laid out frame in frame.
constexpr int kMaxNesting = 32;
// Tables the page and the PDF can lay out in reasonable time.
constexpr unsigned kMaxTableRows = 1000;
constexpr unsigned kMaxTableColumns = 64;

bool isContainer(MD_BLOCKTYPE type)
{
    return type == MD_BLOCK_QUOTE || type == MD_BLOCK_UL || type == MD_BLOCK_OL || type == MD_BLOCK_LI;
}

int enterBlock(MD_BLOCKTYPE type, void* detail, void* userdata)
{
    auto* s = static_cast<Md4cScan*>(userdata);
    if (isContainer(type) && ++s->containerDepth > kMaxNesting && !s->tooDeepReported) {
        s->tooDeepReported = true;
        s->problems.push_back({T2("lists and quotes are nested more than %1 levels deep here; flatten the structure",
                                  "列表和引用在这里嵌套超过了 %1 层；请减少嵌套")
                                   .arg(kMaxNesting)});
    }
    if (type == MD_BLOCK_TABLE) {
        auto* d = static_cast<MD_BLOCK_TABLE_DETAIL*>(detail);
        const unsigned rows = d->head_row_count + d->body_row_count;
        if (rows > kMaxTableRows || d->col_count > kMaxTableColumns)
            s->problems.push_back({T2("table of %1 rows and %2 columns; at most %3 rows and %4 columns "
                                      "(split it, or compute it with a run block)",
                                      "表格有 %1 行 %2 列，最多只能有 %3 行 %4 列（请拆开，或改用 run 块计算）")
                                       .arg(rows)
                                       .arg(d->col_count)
                                       .arg(kMaxTableRows)
                                       .arg(kMaxTableColumns)});
    }
    if (type == MD_BLOCK_H) {
        s->inHeading = true;
        s->headingLevel = int(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level);
        s->headingDepth = s->depth;
        s->headingFirst = 0;
        s->headingLast = 0;
    } else if (type == MD_BLOCK_CODE) {
        auto* d = static_cast<MD_BLOCK_CODE_DETAIL*>(detail);
        if (d->fence_char != 0) {
            s->inFence = true;
            s->fence = Marker();
            s->fence.kind = Marker::Fence;
            s->fence.topLevel = s->depth == 1;
            s->fence.info = QString::fromUtf8(d->info.text, qsizetype(d->info.size)).trimmed();
            s->fence.startLine = s->inside(d->info.text) && d->info.size > 0 ? s->lineOf(d->info.text) : 0;
            s->fenceLastText = 0;
        }
    }
    ++s->depth;
    return 0;
}

int leaveBlock(MD_BLOCKTYPE type, void*, void* userdata)
{
    auto* s = static_cast<Md4cScan*>(userdata);
    --s->depth;
    if (isContainer(type)) --s->containerDepth;
    if (type == MD_BLOCK_H && s->inHeading) {
        s->inHeading = false;
        Marker m;
        m.kind = Marker::Heading;
        m.level = s->headingLevel;
        m.topLevel = s->headingDepth == 1;
        m.startLine = s->headingFirst;  // 0 = empty heading, located later
        m.endLine = s->headingLast;
        m.searchFrom = s->lastLine;
        s->markers.push_back(m);
    } else if (type == MD_BLOCK_CODE && s->inFence) {
        s->inFence = false;
        if (s->fence.startLine == 0)  // empty info, or info not in our buffer
            s->fence.startLine = s->fenceLastText ? 0 : s->lastLine;
        s->fence.endLine = s->fenceLastText;  // refined later by the fence scanner
        s->markers.push_back(s->fence);
    }
    return 0;
}

int enterSpan(MD_SPANTYPE type, void* detail, void* userdata)
{
    auto* s = static_cast<Md4cScan*>(userdata);
    if (type == MD_SPAN_IMG) {
        auto* d = static_cast<MD_SPAN_IMG_DETAIL*>(detail);
        PathReference r;
        r.src = QString::fromUtf8(d->src.text, qsizetype(d->src.size));
        r.line = s->inside(d->src.text) && d->src.size > 0 ? s->lineOf(d->src.text) : s->lastLine;
        s->images.push_back(r);
    } else if (type == MD_SPAN_A) {
        auto* d = static_cast<MD_SPAN_A_DETAIL*>(detail);
        PathReference r;
        r.src = QString::fromUtf8(d->href.text, qsizetype(d->href.size));
        r.line = s->inside(d->href.text) && d->href.size > 0 ? s->lineOf(d->href.text) : s->lastLine;
        s->links.push_back(r);
    }
    return 0;
}

int leaveSpan(MD_SPANTYPE, void*, void*)
{
    return 0;
}

// An HTML tag or comment as a teacher might type one: a known element name
// alone or with name="value" attributes, a closing tag, or "<!--". Chapters
// are read without HTML (md4c's MD_FLAG_NOHTML), so it shows as typed; a
// bare "<" in "a < b" never matches.
const QRegularExpression& htmlTagPattern()
{
    static const QRegularExpression pattern(
        QStringLiteral(
            "<!--|</?(?:a|b|i|u|p|br|hr|em|strong|small|sub|sup|span|div|img|font|center|table|tr|td|th|ul|ol|li|"
            "h[1-6]|pre|code|kbd|details|summary|iframe|script|style|video|audio|figure|figcaption)"
            "(?:\\s+[A-Za-z-]+\\s*=\\s*(?:\"[^\"]*\"|'[^']*'|[^\\s>]+))*\\s*/?>"),
        QRegularExpression::CaseInsensitiveOption);
    return pattern;
}

void noteRawHtml(Md4cScan* s, const MD_CHAR* text, MD_SIZE size, int line)
{
    if (!std::memchr(text, '<', size)) return;  // most text: nothing to convert or match
    const QString chunk = QString::fromUtf8(text, qsizetype(size));
    const QRegularExpressionMatch m = htmlTagPattern().match(chunk);
    if (m.hasMatch()) s->rawHtml.push_back({m.captured(0), line});
}

int onText(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* userdata)
{
    auto* s = static_cast<Md4cScan*>(userdata);
    if (!s->inside(text) || size == 0) return 0;
    const int line = s->lineOf(text);
    s->lastLine = line;
    if (type == MD_TEXT_NORMAL && !s->inFence) noteRawHtml(s, text, size, line);
    for (PendingProblem& p : s->problems)
        if (p.line == 0) p.line = line;
    if (s->inHeading) {
        if (!s->headingFirst) s->headingFirst = line;
        s->headingLast = line;
    }
    if (s->inFence) {
        s->fenceLastText = s->lineOf(text + size - 1);
        if (s->fence.startLine == 0) s->fence.startLine = line - 1;
    }
    return 0;
}

}  // namespace

bool scanMarkdown(const QByteArray& bytes, int bodyStart, Md4cScan* scanOut)
{
    // Byte offsets of every line start (for md4c pointers).
    std::vector<qsizetype> lineStarts;
    lineStarts.push_back(0);
    for (qsizetype i = 0; i < bytes.size(); ++i)
        if (bytes[i] == '\n') lineStarts.push_back(i + 1);
    const qsizetype bodyOffset = bodyStart < int(lineStarts.size()) ? lineStarts[size_t(bodyStart)] : bytes.size();

    Md4cScan& scan = *scanOut;
    scan.base = bytes.constData();
    scan.size = bytes.size();
    scan.lineStarts = &lineStarts;
    scan.lastLine = bodyStart + 1;
    MD_PARSER parser{};
    parser.abi_version = 0;
    parser.flags = MD_DIALECT_GITHUB | MD_FLAG_LATEXMATHSPANS | MD_FLAG_NOHTML;
    parser.enter_block = enterBlock;
    parser.leave_block = leaveBlock;
    parser.enter_span = enterSpan;
    parser.leave_span = leaveSpan;
    parser.text = onText;
    const bool ok = md_parse(bytes.constData() + bodyOffset, MD_SIZE(bytes.size() - bodyOffset), &parser, &scan) == 0;
    scan.lineStarts = nullptr;  // points into this function
    return ok;
}

}  // namespace poslab::lessons
