// SPDX-License-Identifier: Apache-2.0
// code_highlighter.h — a small syntax highlighter for the code blocks of a
// lesson (```cpp, ```python, plus c/c++/py/sh/json/text aliases).
//
// It splits a whole code block into tokens (so /* ... */ and """ ... """ that
// span lines are handled) and maps each token kind to a character format.
// Used by MarkdownDocument while it inserts a fenced code block, for the
// window and the PDF alike. Deliberately small: keywords, types, comments,
// strings, numbers, preprocessor lines and decorators — enough to read code,
// not a full lexer.
#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QTextCharFormat>

namespace poslab::ui {

class CodeHighlighter {
public:
    enum class TokenKind { Plain, Keyword, Type, Comment, String, Number, Preprocessor, Decorator, Builtin };

    struct Token {
        int start = 0;
        int length = 0;
        TokenKind kind = TokenKind::Plain;
        bool operator==(const Token& o) const { return start == o.start && length == o.length && kind == o.kind; }
    };

    enum class Language { None, Cpp, Python, Shell, Json };

    // "cpp", "c++", "c", "h", "hpp", "cxx" -> Cpp; "python", "py" -> Python;
    // "sh", "bash", "shell", "console" -> Shell; "json" -> Json; else None.
    static Language languageFromName(const QString& name);

    // Non-plain tokens of `code`, in order, non-overlapping. Text between
    // them is plain. Language::None gives no tokens.
    static QList<Token> tokenize(const QString& code, Language language);

    // Colours for a light background (paper) or a dark one (dark palette).
    explicit CodeHighlighter(bool darkBackground = false);
    // A format to merge over the code font for a token kind (colour, weight, italic).
    QTextCharFormat format(TokenKind kind) const;

private:
    bool m_dark = false;
};

}  // namespace poslab::ui
