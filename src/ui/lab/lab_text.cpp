// SPDX-License-Identifier: Apache-2.0
#include "ui/lab/lab_text.h"

#include <QLocale>
#include <QPalette>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace poslab::ui {

QString LabText::schemeName(const QString& id)
{
    if (id == u"none") return tr("No position (NoPE)");
    if (id == u"sinusoidal") return tr("Sinusoidal");
    if (id == u"learned") return tr("Learned absolute");
    if (id == u"t5_bias") return tr("T5 relative bias");
    if (id == u"alibi") return QStringLiteral("ALiBi");
    if (id == u"rope") return QStringLiteral("RoPE");
    if (id == u"rope+linear") return tr("RoPE + PI (linear)");
    if (id == u"rope+ntk") return tr("RoPE + NTK-aware");
    if (id == u"rope+dynamic") return tr("RoPE + dynamic NTK");
    if (id == u"rope+yarn") return QStringLiteral("RoPE + YaRN");
    return id;
}

QString LabText::shortSchemeName(const QString& id)
{
    if (id == u"none") return QStringLiteral("NoPE");
    if (id == u"sinusoidal") return tr("Sinusoidal");
    if (id == u"learned") return tr("Learned");
    if (id == u"t5_bias") return tr("T5 bias");
    if (id == u"rope+linear") return tr("RoPE+PI");
    if (id == u"rope+ntk") return QStringLiteral("RoPE+NTK");
    if (id == u"rope+dynamic") return tr("RoPE+dyn. NTK");
    if (id == u"rope+yarn") return QStringLiteral("RoPE+YaRN");
    return schemeName(id);
}

QString countText(double n)
{
    const QLocale loc;
    if (n >= 1e6) return loc.toString(n / 1e6, 'f', 2) + QStringLiteral("M");
    if (n >= 1e4) return loc.toString(n / 1e3, 'f', 1) + QStringLiteral("k");
    return loc.toString(n, 'f', 0);
}

QString bytesText(double b)
{
    const QLocale loc;
    if (b >= 1024.0 * 1024 * 1024) return loc.toString(b / (1024.0 * 1024 * 1024), 'f', 2) + QStringLiteral(" GiB");
    if (b >= 1024.0 * 1024) return loc.toString(b / (1024.0 * 1024), 'f', 1) + QStringLiteral(" MiB");
    return loc.toString(b / 1024.0, 'f', 0) + QStringLiteral(" KiB");
}

QString lengthsText(const std::vector<int>& lengths)
{
    QStringList l;
    for (int L : lengths) l << QString::number(L);
    return l.join(QStringLiteral(", "));
}

std::optional<std::vector<int>> parseLengths(const QString& text)
{
    std::vector<int> out;
    static const QRegularExpression sep(QStringLiteral("[,;\\s\u3001\uff0c]+"));
    for (const QString& part : text.split(sep, Qt::SkipEmptyParts)) {
        bool ok = false;
        const int v = part.toInt(&ok);
        if (!ok) return std::nullopt;
        out.push_back(v);
    }
    return out;
}

bool isDark(const QPalette& p)
{
    return p.color(QPalette::Window).lightnessF() < 0.5;
}

}  // namespace poslab::ui
