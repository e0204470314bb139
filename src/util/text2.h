// SPDX-License-Identifier: Apache-2.0
// text2.h — text in both course languages, rendered in the reader's language
// at the edge (the window, a command's --lang, a PDF's language).
//
// Qt's tr() words the window's widgets; everything else a person reads —
// errors and warnings of the engine, the modules and the commands, module and
// parameter labels, report text — is a Text2: the English and the Chinese
// sentence side by side, with the same %1 %2 … placeholders, filled by arg()
// on both at once and picked by in(lang) only when shown:
//
//     const Text2 m = T2("the file %1 is missing", "找不到文件 %1").arg(path);
//     stderr << m.in(lang);                      // "zh" → Chinese, else English
//
// core and lm have no Qt: they report an error as a code and its arguments
// (core/coded_error.h), which modules/error_messages.h turns into a Text2.
// docs/architecture.md, "Text in two languages", tells the whole story.
#pragma once

#include <QString>

namespace poslab::util {

// The one rule for a language code: "zh" is Chinese, anything else English.
inline bool isChinese(const QString& lang)
{
    return lang == QLatin1String("zh");
}

// A string in both course languages.
struct Text2 {
    QString en;
    QString zh;
    // The text in `lang` ("zh" → Chinese, anything else English).
    QString in(const QString& lang) const { return isChinese(lang) ? zh : en; }
    bool isEmpty() const { return en.isEmpty() && zh.isEmpty(); }
    // QString::arg on both texts: T2("%1 heads", "%1 个头").arg(n).
    template <typename... Args>
    Text2 arg(const Args&... args) const
    {
        return {en.arg(args...), zh.arg(args...)};
    }
    // Each language's text of `other` filled in: T2("failed: %1", "失败：%1").arg(reason),
    // where reason is itself a Text2, gives "failed: <en reason>" and "失败：<zh reason>".
    Text2 arg(const Text2& other) const { return {en.arg(other.en), zh.arg(other.zh)}; }
    Text2 arg(const Text2& a, const Text2& b) const { return {en.arg(a.en, b.en), zh.arg(a.zh, b.zh)}; }
    // The same text in both languages (a name, a number, a path).
    static Text2 same(const QString& text) { return {text, text}; }
    bool operator==(const Text2&) const = default;
};

// Shorthand for declarations: an English and a Chinese UTF-8 literal.
Text2 T2(const char* en, const char* zh);

}  // namespace poslab::util
