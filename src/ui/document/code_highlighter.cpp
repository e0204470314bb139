// SPDX-License-Identifier: Apache-2.0
#include "ui/document/code_highlighter.h"

#include <QSet>

namespace poslab::ui {

namespace {

const QSet<QString>& cppKeywords()
{
    static const QSet<QString> k{"alignas",       "alignof",     "auto",         "break",
                                 "case",          "catch",       "class",        "const",
                                 "constexpr",     "consteval",   "constinit",    "const_cast",
                                 "continue",      "co_await",    "co_return",    "co_yield",
                                 "decltype",      "default",     "delete",       "do",
                                 "dynamic_cast",  "else",        "enum",         "explicit",
                                 "export",        "extern",      "false",        "final",
                                 "for",           "friend",      "goto",         "if",
                                 "inline",        "mutable",     "namespace",    "new",
                                 "noexcept",      "nullptr",     "operator",     "override",
                                 "private",       "protected",   "public",       "reinterpret_cast",
                                 "requires",      "return",      "sizeof",       "static",
                                 "static_assert", "static_cast", "struct",       "switch",
                                 "template",      "this",        "thread_local", "throw",
                                 "true",          "try",         "typedef",      "typeid",
                                 "typename",      "union",       "using",        "virtual",
                                 "volatile",      "while",       "concept"};
    return k;
}

const QSet<QString>& cppTypes()
{
    static const QSet<QString> k{"bool",    "char",    "char8_t",  "char16_t", "char32_t", "double",
                                 "float",   "int",     "long",     "short",    "signed",   "unsigned",
                                 "void",    "wchar_t", "size_t",   "int8_t",   "int16_t",  "int32_t",
                                 "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "ptrdiff_t",
                                 "std",     "vector",  "string",   "array",    "span"};
    return k;
}

const QSet<QString>& pythonKeywords()
{
    static const QSet<QString> k{"False",   "None",     "True",     "and",    "as",   "assert", "async",  "await",
                                 "break",   "class",    "continue", "def",    "del",  "elif",   "else",   "except",
                                 "finally", "for",      "from",     "global", "if",   "import", "in",     "is",
                                 "lambda",  "nonlocal", "not",      "or",     "pass", "raise",  "return", "try",
                                 "while",   "with",     "yield",    "match",  "case"};
    return k;
}

const QSet<QString>& pythonBuiltins()
{
    static const QSet<QString> k{"print",  "range",      "len",   "int",  "float", "str", "list",      "dict", "tuple",
                                 "set",    "abs",        "min",   "max",  "sum",   "zip", "enumerate", "map",  "filter",
                                 "sorted", "isinstance", "super", "self", "torch", "np",  "math"};
    return k;
}

const QSet<QString>& shellKeywords()
{
    static const QSet<QString> k{"if",   "then",  "else", "elif", "fi",       "for",    "in",    "do",
                                 "done", "while", "case", "esac", "function", "export", "local", "return"};
    return k;
}

bool isIdentStart(QChar c)
{
    return c.isLetter() || c == u'_';
}
bool isIdentChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_';
}

// Length of a number literal at i (digits, '.', exponent, hex, suffixes, digit separators).
int numberLength(const QString& s, int i)
{
    const int n = s.size();
    int j = i;
    if (j + 1 < n && s[j] == u'0' && (s[j + 1] == u'x' || s[j + 1] == u'X')) {
        j += 2;
        while (j < n && (s[j].isDigit() || QStringLiteral("abcdefABCDEF'_").contains(s[j]))) ++j;
    } else {
        while (j < n && (s[j].isDigit() || s[j] == u'.' || s[j] == u'\'' || s[j] == u'_')) ++j;
        if (j < n && (s[j] == u'e' || s[j] == u'E')) {
            int k = j + 1;
            if (k < n && (s[k] == u'+' || s[k] == u'-')) ++k;
            if (k < n && s[k].isDigit()) {
                j = k;
                while (j < n && s[j].isDigit()) ++j;
            }
        }
    }
    while (j < n && QStringLiteral("uUlLfFjJ").contains(s[j])) ++j;
    return j - i;
}

// Length of a quoted string at i that starts with `quote` (escapes honoured;
// an unterminated string ends at the line end).
int stringLength(const QString& s, int i, QChar quote)
{
    const int n = s.size();
    int j = i + 1;
    while (j < n) {
        if (s[j] == u'\\' && j + 1 < n) {
            j += 2;
            continue;
        }
        if (s[j] == quote) return j + 1 - i;
        if (s[j] == u'\n') return j - i;
        ++j;
    }
    return n - i;
}

int lineEnd(const QString& s, int i)
{
    const int e = s.indexOf(u'\n', i);
    return e < 0 ? s.size() : e;
}

using Token = CodeHighlighter::Token;
using TokenKind = CodeHighlighter::TokenKind;
using Language = CodeHighlighter::Language;

void add(QList<Token>& out, int start, int len, TokenKind kind)
{
    if (len > 0) out.append(Token{start, len, kind});
}

// The tokens below read the token at i (not white space), add it to `out`
// when it is not plain, and return where it ends; i when there is none.

// C++: // and /* */ comments, a preprocessor line, a string or character.
int cppToken(const QString& s, int i, bool atLineStart, QList<Token>& out)
{
    const int n = s.size();
    const QChar c = s[i];
    if (c == u'/' && i + 1 < n && s[i + 1] == u'/') {
        const int e = lineEnd(s, i);
        add(out, i, e - i, TokenKind::Comment);
        return e;
    }
    if (c == u'/' && i + 1 < n && s[i + 1] == u'*') {
        int e = s.indexOf(QStringLiteral("*/"), i + 2);
        e = e < 0 ? n : e + 2;
        add(out, i, e - i, TokenKind::Comment);
        return e;
    }
    if (c == u'#' && atLineStart) {
        const int e = lineEnd(s, i);
        // A trailing // comment on a preprocessor line stays a comment.
        const int cm = s.indexOf(QStringLiteral("//"), i);
        const int pe = (cm >= 0 && cm < e) ? cm : e;
        add(out, i, pe - i, TokenKind::Preprocessor);
        return pe;
    }
    if (c == u'"' || c == u'\'') {
        const int len = stringLength(s, i, c);
        add(out, i, len, TokenKind::String);
        return i + len;
    }
    return i;
}

// Python: a # comment, a decorator, a string with its prefix (f, r, b, rb,
// ...), triple-quoted or not.
int pythonToken(const QString& s, int i, bool atLineStart, QList<Token>& out)
{
    const int n = s.size();
    const QChar c = s[i];
    if (c == u'#') {
        const int e = lineEnd(s, i);
        add(out, i, e - i, TokenKind::Comment);
        return e;
    }
    if (c == u'@' && atLineStart) {
        int e = i + 1;
        while (e < n && (isIdentChar(s[e]) || s[e] == u'.')) ++e;
        add(out, i, e - i, TokenKind::Decorator);
        return e;
    }
    // String prefixes (f, r, b, rb, ...) then ''' / """ / ' / ".
    int j = i;
    while (j < n && j - i < 2 && QStringLiteral("rRbBuUfF").contains(s[j])) ++j;
    if (j < n && (s[j] == u'"' || s[j] == u'\'') && (j == i || !isIdentChar(i > 0 ? s[i - 1] : QChar(u' ')))) {
        const QChar q = s[j];
        const QString triple(3, q);
        if (s.mid(j, 3) == triple) {
            int e = s.indexOf(triple, j + 3);
            e = e < 0 ? n : e + 3;
            add(out, i, e - i, TokenKind::String);
            return e;
        }
        const int len = stringLength(s, j, q);
        add(out, i, j + len - i, TokenKind::String);
        return j + len;
    }
    return i;
}

// Shell: a # comment (at a word start), a string.
int shellToken(const QString& s, int i, QList<Token>& out)
{
    const QChar c = s[i];
    if (c == u'#' && (i == 0 || s[i - 1].isSpace())) {
        const int e = lineEnd(s, i);
        add(out, i, e - i, TokenKind::Comment);
        return e;
    }
    if (c == u'"' || c == u'\'') {
        const int len = stringLength(s, i, c);
        add(out, i, len, TokenKind::String);
        return i + len;
    }
    return i;
}

// JSON: a string; a key (string followed by ':') reads better as a keyword.
int jsonToken(const QString& s, int i, QList<Token>& out)
{
    const int n = s.size();
    if (s[i] != u'"') return i;
    const int len = stringLength(s, i, s[i]);
    int k = i + len;
    while (k < n && s[k] == u' ') ++k;
    add(out, i, len, (k < n && s[k] == u':') ? TokenKind::Keyword : TokenKind::String);
    return i + len;
}

int languageToken(const QString& s, int i, Language lang, bool atLineStart, QList<Token>& out)
{
    switch (lang) {
        case Language::Cpp: return cppToken(s, i, atLineStart, out);
        case Language::Python: return pythonToken(s, i, atLineStart, out);
        case Language::Shell: return shellToken(s, i, out);
        case Language::Json: return jsonToken(s, i, out);
        case Language::None: break;
    }
    return i;
}

// The kind of a word: a keyword, type or builtin of the language, else plain.
TokenKind wordKind(const QString& word, Language lang)
{
    switch (lang) {
        case Language::Cpp:
            if (cppKeywords().contains(word)) return TokenKind::Keyword;
            if (cppTypes().contains(word)) return TokenKind::Type;
            break;
        case Language::Python:
            if (pythonKeywords().contains(word)) return TokenKind::Keyword;
            if (pythonBuiltins().contains(word)) return TokenKind::Builtin;
            break;
        case Language::Shell:
            if (shellKeywords().contains(word)) return TokenKind::Keyword;
            break;
        case Language::Json:
            if (word == u"true" || word == u"false" || word == u"null") return TokenKind::Keyword;
            break;
        case Language::None: break;
    }
    return TokenKind::Plain;
}

// What every language shares, at i: a number, a word, else one character.
// Returns where it ends (always past i).
int commonToken(const QString& s, int i, Language lang, QList<Token>& out)
{
    const int n = s.size();
    const QChar c = s[i];
    if (c.isDigit() || (c == u'.' && i + 1 < n && s[i + 1].isDigit())) {
        // Not the tail of an identifier like x2.
        if (i == 0 || !isIdentChar(s[i - 1])) {
            const int len = numberLength(s, i);
            add(out, i, len, TokenKind::Number);
            return i + len;
        }
    }
    if (c == u'-' && lang == Language::Json && i + 1 < n && s[i + 1].isDigit()) {
        const int len = 1 + numberLength(s, i + 1);
        add(out, i, len, TokenKind::Number);
        return i + len;
    }
    if (isIdentStart(c)) {
        int e = i + 1;
        while (e < n && isIdentChar(s[e])) ++e;
        const TokenKind kind = wordKind(s.mid(i, e - i), lang);
        if (kind != TokenKind::Plain) add(out, i, e - i, kind);
        return e;
    }
    return i + 1;
}

}  // namespace

CodeHighlighter::Language CodeHighlighter::languageFromName(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == u"cpp" || n == u"c++" || n == u"c" || n == u"h" || n == u"hpp" || n == u"cxx" || n == u"cc")
        return Language::Cpp;
    if (n == u"python" || n == u"py" || n == u"python3") return Language::Python;
    if (n == u"sh" || n == u"bash" || n == u"shell" || n == u"console") return Language::Shell;
    if (n == u"json") return Language::Json;
    return Language::None;
}

QList<CodeHighlighter::Token> CodeHighlighter::tokenize(const QString& s, Language lang)
{
    QList<Token> out;
    if (lang == Language::None) return out;
    const int n = s.size();
    bool lineStart = true;  // only whitespace seen since the last newline
    int i = 0;
    while (i < n) {
        const QChar c = s[i];
        if (c == u'\n') {
            lineStart = true;
            ++i;
            continue;
        }
        if (c.isSpace()) {
            ++i;
            continue;
        }
        const bool atLineStart = lineStart;
        lineStart = false;
        const int end = languageToken(s, i, lang, atLineStart, out);
        i = end > i ? end : commonToken(s, i, lang, out);
    }
    return out;
}

CodeHighlighter::CodeHighlighter(bool darkBackground) : m_dark(darkBackground) {}

QTextCharFormat CodeHighlighter::format(TokenKind kind) const
{
    // Colours chosen to stay readable when printed in grey scale too:
    // comments lighter and italic, keywords bold.
    QTextCharFormat f;
    switch (kind) {
        case TokenKind::Plain: break;
        case TokenKind::Keyword:
            f.setForeground(m_dark ? QColor(0xc5, 0x86, 0xc0) : QColor(0x0b, 0x3d, 0x91));
            f.setFontWeight(QFont::Bold);
            break;
        case TokenKind::Type: f.setForeground(m_dark ? QColor(0x4e, 0xc9, 0xb0) : QColor(0x00, 0x6d, 0x77)); break;
        case TokenKind::Comment:
            f.setForeground(m_dark ? QColor(0x8a, 0x99, 0x8a) : QColor(0x5f, 0x6f, 0x5f));
            f.setFontItalic(true);
            break;
        case TokenKind::String: f.setForeground(m_dark ? QColor(0xce, 0x91, 0x78) : QColor(0xa3, 0x15, 0x15)); break;
        case TokenKind::Number: f.setForeground(m_dark ? QColor(0xb5, 0xce, 0xa8) : QColor(0x09, 0x86, 0x58)); break;
        case TokenKind::Preprocessor:
            f.setForeground(m_dark ? QColor(0x9b, 0x9b, 0xff) : QColor(0x6f, 0x42, 0xc1));
            break;
        case TokenKind::Decorator: f.setForeground(m_dark ? QColor(0xdc, 0xdc, 0xaa) : QColor(0x79, 0x5e, 0x26)); break;
        case TokenKind::Builtin: f.setForeground(m_dark ? QColor(0x9c, 0xdc, 0xfe) : QColor(0x26, 0x5b, 0x8c)); break;
    }
    return f;
}

}  // namespace poslab::ui
