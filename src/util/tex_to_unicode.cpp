// SPDX-License-Identifier: Apache-2.0
// tex_to_unicode.cpp — TeX math as plain Unicode text (tex_to_unicode.h).
//
// A small recursive reader over the TeX source: a sequence of atoms (a
// character, a {group} or a \command with its arguments), each followed by
// any number of ^ and _ scripts. The tables below are the whole vocabulary.
#include "util/tex_to_unicode.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QStringView>

#include <algorithm>

namespace poslab::util {

namespace {

// Pathologically deep nesting ({{{{…}}}}) is read flat past this depth, so a
// lesson file cannot exhaust the stack.
constexpr int kMaxDepth = 64;

const QChar kThinSpace(0x2009);

// A table written as "name value name value ...": one command and what it
// stands for, separated by white space.
QHash<QString, QString> pairTable(const QString& pairs)
{
    QHash<QString, QString> table;
    const QStringList words = pairs.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i + 1 < words.size(); i += 2) table.insert(words[i], words[i + 1]);
    return table;
}

// Commands that stand for one symbol (no spacing of their own). TeX's \phi
// is the closed ϕ and \varphi the open φ; likewise \epsilon ϵ, \varepsilon ε.
const QHash<QString, QString>& symbols()
{
    static const QHash<QString, QString> table = pairTable(
        QStringLiteral("alpha α beta β gamma γ delta δ epsilon ϵ varepsilon ε zeta ζ eta η theta θ vartheta ϑ "
                       "iota ι kappa κ lambda λ mu μ nu ν xi ξ omicron ο pi π varpi ϖ rho ρ varrho ϱ sigma σ "
                       "varsigma ς tau τ upsilon υ phi ϕ varphi φ chi χ psi ψ omega ω "
                       "Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π Sigma Σ Upsilon Υ Phi Φ Psi Ψ Omega Ω "
                       "sum ∑ prod ∏ int ∫ partial ∂ nabla ∇ infty ∞ ldots … dots … cdots ⋯ vdots ⋮ ddots ⋱ "
                       "ell ℓ hbar ℏ forall ∀ exists ∃ emptyset ∅ neg ¬ prime ′ top ⊤ perp ⊥ "
                       "langle ⟨ rangle ⟩ lfloor ⌊ rfloor ⌋ lceil ⌈ rceil ⌉ vert | Vert ‖ lvert | rvert | "
                       "lVert ‖ rVert ‖ lbrace { rbrace } backslash \\ degree ° circ ∘ bullet • star ⋆ dagger †"));
    return table;
}

// Commands that only change size, style or spacing: they show nothing.
bool isInvisibleCommand(const QString& name)
{
    static const QStringList names =
        QStringLiteral(
            "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr displaystyle "
            "textstyle scriptstyle limits nolimits hline nonumber notag")
            .split(u' ');
    return names.contains(name);
}

// Binary operators, relations and arrows: written with a space on each side.
const QHash<QString, QString>& operators()
{
    static const QHash<QString, QString> table = pairTable(
        QStringLiteral("cdot · times × div ÷ pm ± mp ∓ le ≤ leq ≤ ge ≥ geq ≥ ne ≠ neq ≠ approx ≈ sim ∼ simeq ≃ "
                       "equiv ≡ propto ∝ ll ≪ gg ≫ in ∈ notin ∉ subset ⊂ subseteq ⊆ cup ∪ cap ∩ odot ⊙ otimes ⊗ "
                       "oplus ⊕ to → rightarrow → leftarrow ← gets ← Rightarrow ⇒ Leftarrow ⇐ iff ⇔ "
                       "Leftrightarrow ⇔ leftrightarrow ↔ mapsto ↦ implies ⇒ land ∧ lor ∨ wedge ∧ vee ∨ mid | "
                       "setminus ∖ colon :"));
    return table;
}

// Named functions, written upright in TeX: here just their names.
bool isFunctionName(const QString& name)
{
    static const QSet<QString> names{"log",  "ln",   "lg",     "exp",    "sin",    "cos", "tan", "sinh",
                                     "cosh", "tanh", "arcsin", "arccos", "arctan", "max", "min", "sup",
                                     "inf",  "lim",  "arg",    "det",    "dim",    "ker", "deg", "gcd",
                                     "mod",  "bmod", "Pr",     "argmax", "argmin"};
    return names.contains(name);
}

// Commands whose argument is shown as it is (only the style changes).
bool isStyleCommand(const QString& name)
{
    static const QSet<QString> names{"text",    "textrm",     "textbf",     "textit",    "textsf",       "texttt",
                                     "mathrm",  "mathbf",     "mathit",     "mathsf",    "mathtt",       "mathcal",
                                     "mathscr", "mathfrak",   "boldsymbol", "bm",        "operatorname", "mbox",
                                     "emph",    "mathnormal", "pmb",        "underline", "hbox"};
    return names.contains(name);
}

// Accents: a combining mark after their argument.
QString accentMark(const QString& name)
{
    static const QHash<QString, QString> marks{{"hat", "\u0302"},       {"widehat", "\u0302"}, {"tilde", "\u0303"},
                                               {"widetilde", "\u0303"}, {"bar", "\u0304"},     {"overline", "\u0305"},
                                               {"vec", "\u20d7"},       {"dot", "\u0307"},     {"ddot", "\u0308"},
                                               {"acute", "\u0301"},     {"grave", "\u0300"},   {"check", "\u030c"}};
    return marks.value(name);
}

QString doubleStruck(const QString& letters)
{
    static const QHash<QChar, QChar> table{{u'R', QChar(0x211D)}, {u'N', QChar(0x2115)}, {u'Z', QChar(0x2124)},
                                           {u'Q', QChar(0x211A)}, {u'C', QChar(0x2102)}, {u'P', QChar(0x2119)}};
    QString out;
    for (QChar c : letters) out += table.value(c, c);
    return out;
}

// Unicode's superscript and subscript forms (Superscripts and Subscripts
// block, Phonetic Extensions, Spacing Modifier Letters, Latin Extended-C).
const QHash<QChar, QChar>& superscripts()
{
    static const QHash<QChar, QChar> table = [] {
        QHash<QChar, QChar> t;
        const QString from = QStringLiteral(
            "0123456789+-−=()abcdefghijklmnoprstuvwxyz"
            "ABDEGHIJKLMNOPRTUVWβγδθφϕχ⊤′*");
        const QString to = QStringLiteral(
            "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"
            "ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵝᵞᵟᶿᵠᵠᵡᵀ′*");
        for (qsizetype i = 0; i < from.size() && i < to.size(); ++i) t.insert(from[i], to[i]);
        return t;
    }();
    return table;
}

const QHash<QChar, QChar>& subscripts()
{
    static const QHash<QChar, QChar> table = [] {
        QHash<QChar, QChar> t;
        const QString from = QStringLiteral("0123456789+-−=()aehijklmnoprstuvxβγρφϕχ");
        const QString to = QStringLiteral("₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵩᵪ");
        for (qsizetype i = 0; i < from.size() && i < to.size(); ++i) t.insert(from[i], to[i]);
        return t;
    }();
    return table;
}

// `s` in raised or lowered forms; false when a character has none. A
// character that is already such a form stays (a nested script).
bool scriptForms(const QString& s, bool super, QString* out)
{
    const QHash<QChar, QChar>& table = super ? superscripts() : subscripts();
    QString r;
    for (QChar c : s) {
        const auto it = table.constFind(c);
        if (it != table.constEnd())
            r += *it;
        else if (std::find(table.cbegin(), table.cend(), c) != table.cend())
            r += c;
        else
            return false;
    }
    *out = r;
    return true;
}

// True when a fraction's side or a root's radicand needs parentheses: it
// holds a space or an operator.
bool isCompound(const QString& s)
{
    static const QString marks = QStringLiteral(" \u2009+-−±∓·×÷/=<>≤≥≠≈,");
    for (QChar c : s)
        if (marks.contains(c)) return true;
    return false;
}

QString wrapIfCompound(const QString& s)
{
    return isCompound(s) ? u'(' + s + u')' : s;
}

// Whitespace runs become one space; the ends are trimmed.
QString tidy(const QString& s)
{
    QString out;
    out.reserve(s.size());
    for (QChar c : s) {
        const bool space = c == u' ' || c == u'\t' || c == u'\n' || c == u'\r';
        if (space && (out.isEmpty() || out.back() == u' ')) continue;
        out += space ? QChar(u' ') : c;
    }
    if (out.endsWith(u' ')) out.chop(1);
    return out;
}

class TexReader {
public:
    // unknown, when given, collects the commands the reader does not know.
    explicit TexReader(QStringView tex, QStringList* unknown = nullptr) : m_s(tex), m_unknown(unknown) {}

    QString read() { return tidy(sequence(false)); }

private:
    bool atEnd() const { return m_i >= m_s.size(); }

    // Atoms and their scripts up to the closing brace of a group (consumed)
    // or the end. A closing brace outside any group is dropped.
    QString sequence(bool inGroup)
    {
        QString out;
        while (!atEnd()) {
            const QChar c = m_s[m_i];
            if (c == u'}') {
                ++m_i;
                if (inGroup) return out;
                continue;
            }
            if (c == u'^' || c == u'_') {
                ++m_i;
                appendScript(out, c == u'^');
                continue;
            }
            out += atom();
        }
        return out;
    }

    void appendScript(QString& out, bool super)
    {
        const QChar marker = super ? u'^' : u'_';
        while (out.endsWith(u' ')) out.chop(1);
        skipSpaces();
        if (atEnd()) {
            out += marker;
            return;
        }
        QString s = argument();
        s.remove(u' ').remove(kThinSpace);
        QString forms;
        if (s.isEmpty()) return;
        if (scriptForms(s, super, &forms))
            out += forms;
        else if (s.size() == 1 || (s.size() == 2 && s[0].isHighSurrogate()))
            out += marker + s;
        else
            out += marker + (u'(' + s + u')');
    }

    void skipSpaces()
    {
        while (!atEnd() && m_s[m_i].isSpace()) ++m_i;
    }

    // The argument of a command or script: one atom (a group's contents).
    QString argument()
    {
        skipSpaces();
        if (atEnd() || m_s[m_i] == u'}') return {};
        return atom();
    }

    // An optional [argument] (\sqrt[3]{x}), raw; empty when there is none.
    QString optionalArgument()
    {
        skipSpaces();
        if (atEnd() || m_s[m_i] != u'[') return {};
        const qsizetype close = m_s.indexOf(u']', m_i);
        if (close < 0) return {};
        const QString inside = TexReader(m_s.mid(m_i + 1, close - m_i - 1), m_unknown).read();
        m_i = close + 1;
        return inside;
    }

    QString atom()
    {
        const QChar c = m_s[m_i++];
        if (m_depth >= kMaxDepth) return c == u'{' ? QString() : QString(c);
        ++m_depth;
        QString out;
        if (c == u'{')
            out = sequence(true);
        else if (c == u'\\')
            out = command();
        else if (c.isSpace() || c == u'&')
            out = QStringLiteral(" ");
        else if (c == u'~')
            out = QStringLiteral("\u00a0");
        else if (c == u'\'')
            out = QStringLiteral("′");
        else if (c.isHighSurrogate() && !atEnd() && m_s[m_i].isLowSurrogate())
            out = QString(c) + m_s[m_i++];
        else
            out = c;
        --m_depth;
        return out;
    }

    // After a backslash: a control symbol (\, \{ \$ ...) or a control word.
    QString command()
    {
        if (atEnd()) return QStringLiteral("\\");
        const QChar c = m_s[m_i];
        if (!isAsciiLetter(c)) {
            ++m_i;
            return controlSymbol(c);
        }
        const qsizetype start = m_i;
        while (!atEnd() && isAsciiLetter(m_s[m_i])) ++m_i;
        return controlWord(m_s.mid(start, m_i - start).toString());
    }

    static bool isAsciiLetter(QChar c) { return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z'); }

    static QString controlSymbol(QChar c)
    {
        switch (c.unicode()) {
            case u',':
            case u':':
            case u';':
            case u'>': return QString(kThinSpace);
            case u'!': return {};
            case u'\\': return QStringLiteral("; ");
            case u'|': return QStringLiteral("‖");
            case u' ':
            case u'\n': return QStringLiteral(" ");
            case u'{':
            case u'}':
            case u'$':
            case u'%':
            case u'#':
            case u'&':
            case u'_': return QString(c);
            default: return u'\\' + QString(c);
        }
    }

    QString controlWord(const QString& name)
    {
        if (const auto it = symbols().constFind(name); it != symbols().constEnd()) return *it;
        if (isInvisibleCommand(name)) {
            if (name == QLatin1String("left") || name == QLatin1String("right")) skipNullDelimiter();
            return {};
        }
        if (name == QLatin1String("quad") || name == QLatin1String("qquad")) return QStringLiteral(" ");
        if (const auto it = operators().constFind(name); it != operators().constEnd()) return u' ' + *it + u' ';
        if (isFunctionName(name)) return name;
        if (isStyleCommand(name)) return argument();
        if (name == QLatin1String("mathbb")) return doubleStruck(argument());
        if (name == QLatin1String("frac") || name == QLatin1String("dfrac") || name == QLatin1String("tfrac")) {
            const QString top = tidy(argument());
            const QString bottom = tidy(argument());
            return wrapIfCompound(top) + u'/' + wrapIfCompound(bottom);
        }
        if (name == QLatin1String("sqrt")) return root();
        if (const QString mark = accentMark(name); !mark.isEmpty()) return argument() + mark;
        if (name == QLatin1String("begin") || name == QLatin1String("end")) return environment(name == "begin");
        // Unknown: kept as written, apart from what follows it.
        if (m_unknown && !m_unknown->contains(u'\\' + name)) m_unknown->append(u'\\' + name);
        return u'\\' + name + u' ';
    }

    // `\left.` and `\right.` are invisible delimiters.
    void skipNullDelimiter()
    {
        skipSpaces();
        if (!atEnd() && m_s[m_i] == u'.') ++m_i;
    }

    QString root()
    {
        const QString index = optionalArgument();
        const QString radicand = wrapIfCompound(tidy(argument()));
        if (index.isEmpty() || index == QLatin1String("2")) return QStringLiteral("√") + radicand;
        if (index == QLatin1String("3")) return QStringLiteral("∛") + radicand;
        if (index == QLatin1String("4")) return QStringLiteral("∜") + radicand;
        QString raised;
        if (!scriptForms(index, true, &raised)) raised = QStringLiteral("^(%1)").arg(index);
        return raised + QStringLiteral("√") + radicand;
    }

    // \begin{pmatrix} … \end{pmatrix}: the matrix's brackets; rows are
    // separated by "; " (\\) and cells by spaces (&).
    QString environment(bool begin)
    {
        const QString name = argument();
        if (begin && name == QLatin1String("array")) argument();  // the column layout
        static const QHash<QString, QPair<QString, QString>> brackets{{"pmatrix", {"(", ")"}}, {"bmatrix", {"[", "]"}},
                                                                      {"Bmatrix", {"{", "}"}}, {"vmatrix", {"|", "|"}},
                                                                      {"Vmatrix", {"‖", "‖"}}, {"cases", {"{ ", ""}}};
        const auto it = brackets.constFind(name);
        if (it == brackets.constEnd()) return QStringLiteral(" ");
        return begin ? it->first : it->second;
    }

    QStringView m_s;
    QStringList* m_unknown = nullptr;
    qsizetype m_i = 0;
    int m_depth = 0;
};

// Where the inline formula opened at `from` closes (the index of its closing
// `$`, or of the first `$` of `$$`), or -1. Like md4c: an inline formula does
// not start or end with a space; a backslash escapes the next character.
qsizetype closingDollar(const QString& text, qsizetype from, bool display)
{
    if (!display && (from >= text.size() || text[from].isSpace())) return -1;
    for (qsizetype j = from; j < text.size(); ++j) {
        if (text[j] == u'\\') {
            ++j;
            continue;
        }
        if (text[j] != u'$') continue;
        if (display) {
            if (j + 1 < text.size() && text[j + 1] == u'$') return j;
        } else if (j > from && !text[j - 1].isSpace()) {
            return j;
        }
    }
    return -1;
}

}  // namespace

namespace {

QString convertText(const QString& text, QStringList* unknown)
{
    if (!text.contains(u'$')) return text;
    QString out;
    out.reserve(text.size());
    qsizetype i = 0;
    while (i < text.size()) {
        const QChar c = text[i];
        if (c == u'\\' && i + 1 < text.size() && text[i + 1] == u'$') {
            out += u'$';
            i += 2;
            continue;
        }
        if (c == u'$') {
            const bool display = i + 1 < text.size() && text[i + 1] == u'$';
            const qsizetype open = display ? 2 : 1;
            const qsizetype close = closingDollar(text, i + open, display);
            if (close >= 0) {
                out += TexReader(QStringView(text).mid(i + open, close - i - open), unknown).read();
                i = close + open;
                continue;
            }
        }
        out += c;
        ++i;
    }
    return out;
}

}  // namespace

QString mathToUnicode(const QString& tex)
{
    return TexReader(tex).read();
}

QString texToUnicode(const QString& text)
{
    return convertText(text, nullptr);
}

QStringList unknownTexCommands(const QString& text)
{
    QStringList unknown;
    convertText(text, &unknown);
    return unknown;
}

}  // namespace poslab::util
