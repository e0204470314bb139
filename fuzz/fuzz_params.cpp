// SPDX-License-Identifier: Apache-2.0
// fuzz_params — module parameter parsing: Registry lookup, then parseParams
// ("name=value" lists, as on the command line and in lesson info strings) and
// validateParams (typed or string values, as lesson blocks pass them), for
// every builtin module. Nothing is run.
//
// Input layout: the first byte picks the module (index modulo the number of
// modules); the rest is split at '\n' into assignments. A line whose first
// byte is below 0x20 names a parameter of that module by index (byte modulo
// the parameter count) followed by '=' and the rest of the line, so the
// fuzzer reaches the value parsers of every parameter without guessing
// names; other lines are used as they are. The same input also looks a
// module up by the text of its first line (unknown ids must give nullptr).
//
// Besides crashes, sanitizer reports and hangs, the target checks what
// module.h promises of validated Params: every parameter of the module is
// present; numbers and list elements are finite and within [min, max]; ints
// respect multipleOf; lists respect their length bounds; choices are among
// the choices. Validation is also idempotent: the validated values, passed
// through validateParams again, are accepted and unchanged. A ParamError
// always carries a message.
#include "fuzz_common.h"

#include "modules/registry.h"

#include <cmath>
#include <cstdlib>

using namespace poslab;
using modules::ParamSpec;
using modules::ParamType;

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    fuzz::initQt(argc, argv);
    return 0;
}

static void checkNumber(const ParamSpec& p, double v)
{
    if (!std::isfinite(v) || v < p.min || v > p.max) std::abort();
}

static void checkValidated(const modules::ModuleSpec& spec, const modules::Params& params)
{
    for (const ParamSpec& p : spec.params) {
        if (!params.has(p.name)) std::abort();
        switch (p.type) {
            case ParamType::Int: {
                const long long v = params.getInt(p.name);
                checkNumber(p, double(v));
                if (p.multipleOf > 0 && v % p.multipleOf != 0) std::abort();
                break;
            }
            case ParamType::Float: checkNumber(p, params.getFloat(p.name)); break;
            case ParamType::Bool: params.getBool(p.name); break;
            case ParamType::Choice: {
                // One of the choices, or (a parameter that takes free text)
                // non-empty text of at most freeTextMax characters, trimmed.
                const QString v = params.getChoice(p.name);
                const bool freeText =
                    p.freeTextMax > 0 && !v.isEmpty() && v.size() <= p.freeTextMax && v.trimmed() == v;
                if (!p.choices.contains(v) && !freeText) std::abort();
                break;
            }
            case ParamType::IntList: {
                const auto v = params.getIntList(p.name);
                if (int(v.size()) > p.maxListLength || int(v.size()) < p.minListLength) std::abort();
                for (long long x : v) checkNumber(p, double(x));
                break;
            }
            case ParamType::FloatList: {
                const auto v = params.getFloatList(p.name);
                if (int(v.size()) > p.maxListLength || int(v.size()) < p.minListLength) std::abort();
                for (double x : v) checkNumber(p, x);
                break;
            }
        }
    }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0) return 0;
    const modules::Registry& registry = modules::Registry::builtin();
    const auto& all = registry.modules();
    if (all.empty()) return 0;
    const modules::ModuleSpec& spec = all[data[0] % all.size()];

    const QList<QByteArray> lines =
        QByteArray(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1)).split('\n');
    if (!lines.isEmpty()) {
        const QString id = QString::fromUtf8(lines.front());
        const modules::ModuleSpec* found = registry.find(id);
        if (found && found->id != id) std::abort();
        if (!found && registry.ids().contains(id)) std::abort();
    }

    QStringList assignments;
    for (const QByteArray& line : lines) {
        if (!line.isEmpty() && uint8_t(line[0]) < 0x20 && !spec.params.empty()) {
            const ParamSpec& p = spec.params[uint8_t(line[0]) % spec.params.size()];
            assignments << p.name + QLatin1Char('=') + QString::fromUtf8(line.mid(1));
        } else {
            assignments << QString::fromUtf8(line);
        }
        if (assignments.size() >= 24) break;
    }

    modules::Params params;
    try {
        params = modules::parseParams(spec, assignments);
    } catch (const modules::ParamError& e) {
        if (e.message().isEmpty()) std::abort();
        return 0;
    }
    checkValidated(spec, params);
    try {
        const modules::Params again = modules::validateParams(spec, params.values());
        if (again.values() != params.values()) std::abort();
    } catch (const modules::ParamError&) {
        std::abort();  // validated values must validate again
    }
    return 0;
}
