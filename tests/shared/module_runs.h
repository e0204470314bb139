// SPDX-License-Identifier: Apache-2.0
// module_runs.h — running a registered module from a test and finding its
// outputs: the one way the modules' tests do it.
#pragma once

#include "modules/module.h"
#include "modules/registry.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <map>
#include <stdexcept>
#include <vector>

// Typed parameter values by name, as validateParams takes them (a QTest data column too).
using ParamMap = std::map<QString, QVariant>;
Q_DECLARE_METATYPE(ParamMap)

namespace poslab::testing {

// The built-in module `id`; throws std::runtime_error if none is registered.
inline const modules::ModuleSpec& builtinModule(const QString& id)
{
    const modules::ModuleSpec* s = modules::Registry::builtin().find(id);
    if (!s) throw std::runtime_error("module not registered: " + id.toStdString());
    return *s;
}

// Runs `id` with typed values (validated as a lesson's are).
inline std::vector<modules::Output> runModuleWith(const QString& id, const ParamMap& given = {})
{
    const modules::ModuleSpec& s = builtinModule(id);
    return modules::runModule(s, modules::validateParams(s, given));
}

// Runs `id` with "name=value" assignments, parsed as on the command line.
inline std::vector<modules::Output> runModuleWithArgs(const QString& id, const QStringList& assignments = {})
{
    const modules::ModuleSpec& s = builtinModule(id);
    return modules::runModule(s, modules::parseParams(s, assignments));
}

using modules::findOutput;  // the output called `name`, or nullptr

// The output called `name`; throws std::runtime_error if there is none.
inline const modules::Output& outputNamed(const std::vector<modules::Output>& outs, const QString& name)
{
    const modules::Output* o = modules::findOutput(outs, name);
    if (!o) throw std::runtime_error("no output named " + name.toStdString());
    return *o;
}

}  // namespace poslab::testing
