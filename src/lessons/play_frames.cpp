// SPDX-License-Identifier: Apache-2.0
// play_frames.cpp — frame values of a `play:` line (play_frames.h).
#include "lessons/play_frames.h"

#include "lessons/block_values.h"

#include <algorithm>
#include <cmath>

namespace poslab::lessons {

namespace {

// The k-th of n values spread over [lo, hi] (geometrically when `log`).
double spread(double lo, double hi, int k, int n, bool log)
{
    const double t = n > 1 ? double(k) / double(n - 1) : 0.0;
    if (log && lo > 0 && hi > 0) return lo * std::pow(hi / lo, t);
    return lo + (hi - lo) * t;
}

// v to four significant digits, without an exponent for whole numbers ("10000", "1585", "0.04348").
QString readableValue(double v)
{
    if (v == 0 || !std::isfinite(v)) return QString::number(v);
    const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::abs(v))));
    const double r = std::round(v * scale) / scale;
    if (r == std::floor(r) && std::abs(r) < 1e15) return QString::number(static_cast<long long>(r));
    return QString::number(r, 'g', 6);
}

QStringList numberFrames(const modules::ParamSpec& p, const VarySpec& v, int frames)
{
    const double lo = v.hasRange ? v.min : p.min;
    const double hi = v.hasRange ? v.max : p.max;
    QStringList out;
    if (p.type == modules::ParamType::Int) {
        const double whole = std::floor(hi) - std::ceil(lo) + 1;
        const int n = frames > 0 ? frames : whole <= kEveryWholeNumberUpTo ? int(whole) : kDefaultPlayFrames;
        for (int k = 0; k < n; ++k) {
            const QString value = QString::number(std::llround(spread(lo, hi, k, n, v.log)));
            if (!out.contains(value)) out << value;
        }
        return out;
    }
    const int n = frames > 0 ? frames : kDefaultPlayFrames;
    for (int k = 0; k < n; ++k) out << readableValue(spread(lo, hi, k, n, v.log));
    out.removeDuplicates();
    return out;
}

// The played parameter's value as the block sets it (or the module's default).
QString ownValue(const RunBlock& run, const modules::ParamSpec& p)
{
    const QString prefix = run.play.name + u'=';
    for (const QString& a : run.params)
        if (a.startsWith(prefix)) return a.mid(prefix.size()).trimmed();
    return p.defaultValue.toString();
}

// Whether two parameter texts name the same value ("48" and "48.0" do).
bool sameValue(const QString& a, const QString& b)
{
    double x = 0, y = 0;
    return parseBlockNumber(a, &x) && parseBlockNumber(b, &y) ? x == y : a == b;
}

}  // namespace

QStringList playFrameValues(const RunBlock& run, const modules::ModuleSpec& module)
{
    if (run.play.name.isEmpty()) return {};
    const auto vary =
        std::find_if(run.vary.begin(), run.vary.end(), [&](const VarySpec& v) { return v.name == run.play.name; });
    const modules::ParamSpec* p = module.findParam(run.play.name);
    if (vary == run.vary.end() || !p) return {};
    switch (p->type) {
        case modules::ParamType::Int:
        case modules::ParamType::Float: return numberFrames(*p, *vary, run.play.frames);
        case modules::ParamType::Choice: return vary->choices.isEmpty() ? p->choices : vary->choices;
        case modules::ParamType::Bool: return {QStringLiteral("false"), QStringLiteral("true")};
        case modules::ParamType::IntList:
        case modules::ParamType::FloatList: break;
    }
    return {};
}

QStringList pickFrames(const QStringList& frames, int count)
{
    if (frames.size() <= count || count < 2) return frames.mid(0, std::max<qsizetype>(count, 0));
    QStringList out;
    for (int k = 0; k < count; ++k)
        out << frames[qsizetype(std::llround(double(k) * (frames.size() - 1) / (count - 1)))];
    return out;
}

QStringList printedFrames(const RunBlock& run, const modules::ModuleSpec& module, int count)
{
    const QStringList all = playFrameValues(run, module);
    const modules::ParamSpec* p = module.findParam(run.play.name);
    if (all.isEmpty() || !p) return {};
    const QString own = ownValue(run, *p);
    // The figure shows the first value: frames evenly spaced after it, four
    // or else three when the steps divide evenly (1..4 in 7 frames: 2, 3, 4).
    const qsizetype steps = all.size() - 1;
    if (sameValue(all.first(), own) && steps > 0)
        for (const int c : {count, count - 1})
            if (c > 1 && steps >= c && steps % c == 0) {
                QStringList even;
                for (int k = 1; k <= c; ++k) even << all[k * (steps / c)];
                return even;
            }
    QStringList picked = pickFrames(all, count + 1);
    if (std::none_of(picked.begin(), picked.end(), [&](const QString& v) { return sameValue(v, own); }))
        return pickFrames(all, count);
    picked.removeIf([&](const QString& v) { return sameValue(v, own); });
    return picked.mid(0, count);
}

}  // namespace poslab::lessons
