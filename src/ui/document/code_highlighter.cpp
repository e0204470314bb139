#include "ui/document/code_highlighter.h"

#include <QSet>

namespace poslab::ui {

namespace {

const QSet<QString>& cppKeywords()
{
    static const QSet<QString> k{
        "alignas", "alignof", "auto", "break", "case", "catch", "class", "const", "constexpr", "consteval",
        "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default",
        "delete", "do", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "final",
        "for", "friend", "goto", "if", "inline", "mutable", "namespace", "new", "noexcept", "nullptr",
        "operator", "override", "private", "protected", "public", "reinterpret_cast", "requires", "return",
        "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
        "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "using",
        "virtual", "volatile", "while", "concept"};
    return k;
}

const QSet<QString>& cppTypes()
{
    static const QSet<QString> k{"bool", "char", "char8_t", "char16_t", "char32_t", "double", "float", "int",
                                 "long", "short", "signed", "unsigned", "void", "wchar_t", "size_t",
                                 "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
                                 "uint64_t", "ptrdiff_t", "std", "vector", "string", "array", "span"};
    return k;
}

const QSet<QString>& pythonKeywords()
{
    static const QSet<QString> k{"False", "None", "True", "and", "as", "assert", "async", "await", "break",
                                 "class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
                                 "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
                                 "pass", "raise", "return", "try", "while", "with", "yield", "match", "case"};
    return k;
}

const QSet<QString>& pythonBuiltins()
{
    static const QSet<QString> k{"print", "range", "len", "int", "float", "str", "list", "dict", "tuple", "set",
                                 "abs", "min", "max", "sum", "zip", "enumerate", "map", "filter", "sorted",
                                 "isinstance", "super", "self", "torch", "np", "math"};
    return k;
}

const QSet<QString>& shellKeywords()
{
    static const QSet<QString> k{"if", "then", "else", "elif", "fi", "for", "in", "do", "done", "while",
                                 "case", "esac", "function", "export", "local", "return"};
    return k;
}

bool isIdentStart(QChar c) { return c.isLetter() || c == u'_'; }
bool isIdentChar(QChar c) { return c.isLetterOrNumber() || c == u'_'; }

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

}  // namespace

CodeHighlighter::Language CodeHighlighter::languageFromName(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == u"cpp" || n == u"c++" || n == u"c" || n == u"h" || n == u"hpp" || n == u"cxx" || n == u"cc")
        return Language::Cpp;
    if (n == u"python" || n == u"py" || n == u"python3")
        return Language::Python;
    if (n == u"sh" || n == u"bash" || n == u"shell" || n == u"console")
        return Language::Shell;
    if (n == u"json")
        return Language::Json;
    return Language::None;
}

QList<CodeHighlighter::Token> CodeHighlighter::tokenize(const QString& s, Language lang)
{
    QList<Token> out;
    if (lang == Language::None) return out;
    const int n = s.size();
    auto add = [&](int start, int len, TokenKind kind) {
        if (len > 0) out.append(Token{start, len, kind});
    };
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
        switch (lang) {
        case Language::Cpp:
            if (c == u'/' && i + 1 < n && s[i + 1] == u'/') {
                const int e = lineEnd(s, i);
                add(i, e - i, TokenKind::Comment);
                i = e;
                continue;
            }
            if (c == u'/' && i + 1 < n && s[i + 1] == u'*') {
                int e = s.indexOf(QStringLiteral("*/"), i + 2);
                e = e < 0 ? n : e + 2;
                add(i, e - i, TokenKind::Comment);
                i = e;
                continue;
            }
            if (c == u'#' && atLineStart) {
                const int e = lineEnd(s, i);
                // A trailing // comment on a preprocessor line stays a comment.
                const int cm = s.indexOf(QStringLiteral("//"), i);
                const int pe = (cm >= 0 && cm < e) ? cm : e;
                add(i, pe - i, TokenKind::Preprocessor);
                i = pe;
                continue;
            }
            if (c == u'"' || c == u'\'') {
                const int len = stringLength(s, i, c);
                add(i, len, TokenKind::String);
                i += len;
                continue;
            }
            break;
        case Language::Python:
            if (c == u'#') {
                const int e = lineEnd(s, i);
                add(i, e - i, TokenKind::Comment);
                i = e;
                continue;
            }
            if (c == u'@' && atLineStart) {
                int e = i + 1;
                while (e < n && (isIdentChar(s[e]) || s[e] == u'.')) ++e;
                add(i, e - i, TokenKind::Decorator);
                i = e;
                continue;
            }
            {
                // String prefixes (f, r, b, rb, ...) then ''' / """ / ' / ".
                int j = i;
                while (j < n && j - i < 2 && QStringLiteral("rRbBuUfF").contains(s[j])) ++j;
                if (j < n && (s[j] == u'"' || s[j] == u'\'') && (j == i || !isIdentChar(i > 0 ? s[i - 1] : QChar(u' ')))) {
                    const QChar q = s[j];
                    const QString triple(3, q);
                    if (s.mid(j, 3) == triple) {
                        int e = s.indexOf(triple, j + 3);
                        e = e < 0 ? n : e + 3;
                        add(i, e - i, TokenKind::String);
                        i = e;
                    } else {
                        const int len = stringLength(s, j, q);
                        add(i, j + len - i, TokenKind::String);
                        i = j + len;
                    }
                    continue;
                }
            }
            break;
        case Language::Shell:
            if (c == u'#' && (i == 0 || s[i - 1].isSpace())) {
                const int e = lineEnd(s, i);
                add(i, e - i, TokenKind::Comment);
                i = e;
                continue;
            }
            if (c == u'"' || c == u'\'') {
                const int len = stringLength(s, i, c);
                add(i, len, TokenKind::String);
                i += len;
                continue;
            }
            break;
        case Language::Json:
            if (c == u'"') {
                const int len = stringLength(s, i, c);
                // A key (string followed by ':') reads better as a keyword.
                int k = i + len;
                while (k < n && s[k] == u' ') ++k;
                add(i, len, (k < n && s[k] == u':') ? TokenKind::Keyword : TokenKind::String);
                i += len;
                continue;
            }
            break;
        case Language::None:
            break;
        }
        if (c.isDigit() || (c == u'.' && i + 1 < n && s[i + 1].isDigit())) {
            // Not the tail of an identifier like x2.
            if (i == 0 || !isIdentChar(s[i - 1])) {
                const int len = numberLength(s, i);
                add(i, len, TokenKind::Number);
                i += len;
                continue;
            }
        }
        if (c == u'-' && lang == Language::Json && i + 1 < n && s[i + 1].isDigit()) {
            const int len = 1 + numberLength(s, i + 1);
            add(i, len, TokenKind::Number);
            i += len;
            continue;
        }
        if (isIdentStart(c)) {
            int e = i + 1;
            while (e < n && isIdentChar(s[e])) ++e;
            const QString word = s.mid(i, e - i);
            TokenKind kind = TokenKind::Plain;
            switch (lang) {
            case Language::Cpp:
                if (cppKeywords().contains(word)) kind = TokenKind::Keyword;
                else if (cppTypes().contains(word)) kind = TokenKind::Type;
                break;
            case Language::Python:
                if (pythonKeywords().contains(word)) kind = TokenKind::Keyword;
                else if (pythonBuiltins().contains(word)) kind = TokenKind::Builtin;
                break;
            case Language::Shell:
                if (shellKeywords().contains(word)) kind = TokenKind::Keyword;
                break;
            case Language::Json:
                if (word == u"true" || word == u"false" || word == u"null") kind = TokenKind::Keyword;
                break;
            case Language::None:
                break;
            }
            if (kind != TokenKind::Plain) add(i, e - i, kind);
            i = e;
            continue;
        }
        ++i;
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
    case TokenKind::Plain:
        break;
    case TokenKind::Keyword:
        f.setForeground(m_dark ? QColor(0xc5, 0x86, 0xc0) : QColor(0x0b, 0x3d, 0x91));
        f.setFontWeight(QFont::Bold);
        break;
    case TokenKind::Type:
        f.setForeground(m_dark ? QColor(0x4e, 0xc9, 0xb0) : QColor(0x00, 0x6d, 0x77));
        break;
    case TokenKind::Comment:
        f.setForeground(m_dark ? QColor(0x8a, 0x99, 0x8a) : QColor(0x5f, 0x6f, 0x5f));
        f.setFontItalic(true);
        break;
    case TokenKind::String:
        f.setForeground(m_dark ? QColor(0xce, 0x91, 0x78) : QColor(0xa3, 0x15, 0x15));
        break;
    case TokenKind::Number:
        f.setForeground(m_dark ? QColor(0xb5, 0xce, 0xa8) : QColor(0x09, 0x86, 0x58));
        break;
    case TokenKind::Preprocessor:
        f.setForeground(m_dark ? QColor(0x9b, 0x9b, 0xff) : QColor(0x6f, 0x42, 0xc1));
        break;
    case TokenKind::Decorator:
        f.setForeground(m_dark ? QColor(0xdc, 0xdc, 0xaa) : QColor(0x79, 0x5e, 0x26));
        break;
    case TokenKind::Builtin:
        f.setForeground(m_dark ? QColor(0x9c, 0xdc, 0xfe) : QColor(0x26, 0x5b, 0x8c));
        break;
    }
    return f;
}

}  // namespace poslab::ui
