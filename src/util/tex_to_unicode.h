// SPDX-License-Identifier: Apache-2.0
// tex_to_unicode.h — TeX math as plain Unicode text, for the places that can
// only draw a string: chart axis titles, legends and chart titles (Qt Charts),
// output-table headers, tooltips, search snippets and the text a PDF reader
// extracts from a typeset formula. Where a QTextDocument is drawn, formulas
// are typeset with MathJax instead (ui/formula).
//
// The conversion reads like the formula, it does not typeset it:
//   · Greek letters and common symbols by name: \theta → θ, \cdot → ·,
//     \times → ×, \le → ≤, \infty → ∞, \sum → ∑, \to → →, \ldots → …;
//     binary operators and relations get a space on each side.
//   · Sub- and superscripts with Unicode's modifier letters where every
//     character of the script has one (digits, + − = ( ), most Latin letters,
//     a few Greek): x_{ij} → xᵢⱼ, 10^{6} → 10⁶, Q^\top → Qᵀ. A script with a
//     character that has no such form is written after `_` or `^` — as it is
//     when it is one character (x_q → x_q), in parentheses otherwise
//     (b^{-2j/d} → b^(-2j/d)). A nested script is already raised:
//     e^{-x^2} → e⁻ˣ².
//   · \frac{a}{b} → a/b, each side in parentheses when it has an operator
//     or a space ((a+b)/2); \sqrt{x} → √x (√(x+1)), \sqrt[3]{x} → ∛x.
//   · \text, \mathrm, \operatorname, \mathbf and the like → their contents;
//     \mathbb{R} → ℝ; function names (\log, \sin, \max, …) → the name.
//   · \, \: \; → a thin space; \quad → a space; \! → nothing; braces and
//     \left / \right / \big… disappear; & → a space; \\ → "; ".
//   · An unknown command stays as written, followed by a space (\foo{x} → \foo x),
//     so nothing is lost.
#pragma once

#include <QString>
#include <QStringList>

namespace poslab::util {

// One formula's TeX (what is between the dollars) as Unicode text.
QString mathToUnicode(const QString& tex);

// Text that may hold `$…$` or `$$…$$` math: each formula converted, the text
// around it kept, `\$` outside math read as a dollar. A `$` that opens no
// closed formula stays a dollar. Text without `$` is returned unchanged.
QString texToUnicode(const QString& text);

// The commands in the formulas of `text` that texToUnicode does not know
// ("\foo"), each once, in order: `check` warns about them where a chart
// draws plain text (axis titles, labels), since they would show as typed.
QStringList unknownTexCommands(const QString& text);

}  // namespace poslab::util
