// SPDX-License-Identifier: Apache-2.0
// run_file.cpp — the pieces every stored lab run file shares
// (modules/lab/run_file.h).
#include "modules/lab/run_file.h"

#include "modules/lab/run_models.h"
#include "util/atomic_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace poslab::lab {

namespace {

constexpr const char* kRunFileFormat = "poslab-lab-run";
constexpr int kRunFileVersion = 1;
// A run of the default experiment is well under 1 MiB; anything far larger is
// not ours, and reading it whole would only cost memory.
constexpr qint64 kRunFileMaxBytes = 64LL * 1024 * 1024;

}  // namespace

// ------------------------------------------------------------ reading fields

QJsonValue RunFieldReader::need(const QJsonObject& o, const char* key, const QString& where)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) fail(QStringLiteral("%1 lacks the field \"%2\"").arg(where, QLatin1String(key)));
    return v;
}

double RunFieldReader::real(const QJsonObject& o, const char* key, const QString& where, bool required)
{
    const QJsonValue v = required ? need(o, key, where) : o.value(QLatin1String(key));
    if (v.isNull()) return std::numeric_limits<double>::quiet_NaN();
    if (v.isUndefined()) return 0.0;
    if (!v.isDouble()) {
        fail(QStringLiteral("%1: \"%2\" is not a number").arg(where, QLatin1String(key)));
        return 0.0;
    }
    return v.toDouble();
}

float RunFieldReader::real32(const QJsonObject& o, const char* key, const QString& where, float fallback)
{
    if (!o.contains(QLatin1String(key))) return fallback;
    return float(real(o, key, where));
}

long long RunFieldReader::integer(const QJsonObject& o, const char* key, const QString& where, long long lo,
                                  long long hi, bool required, long long fallback)
{
    if (!required && !o.contains(QLatin1String(key))) return fallback;
    const QJsonValue v = need(o, key, where);
    if (v.isUndefined()) return fallback;
    double d = 0;
    bool ok = false;
    if (v.isDouble()) {
        d = v.toDouble();
        ok = std::isfinite(d) && d == std::floor(d);
    } else if (v.isString()) {
        const qlonglong n = v.toString().toLongLong(&ok);
        d = double(n);
        if (ok && (n < lo || n > hi)) ok = false;
        if (ok) return n;
    }
    if (!ok || d < double(lo) || d > double(hi)) {
        fail(QStringLiteral("%1: \"%2\" is not an integer from %3 to %4")
                 .arg(where, QLatin1String(key))
                 .arg(lo)
                 .arg(hi));
        return fallback;
    }
    return (long long)d;
}

std::uint64_t RunFieldReader::seed(const QJsonObject& o, const char* key, const QString& where, bool required,
                                   std::uint64_t fallback)
{
    if (!required && !o.contains(QLatin1String(key))) return fallback;
    const QJsonValue v = need(o, key, where);
    bool ok = false;
    const qulonglong n = v.toString().toULongLong(&ok);
    if (!v.isString() || !ok) {
        fail(QStringLiteral("%1: \"%2\" is not a seed (a decimal string)").arg(where, QLatin1String(key)));
        return fallback;
    }
    return n;
}

bool RunFieldReader::flag(const QJsonObject& o, const char* key, const QString& where, bool required)
{
    const QJsonValue v = required ? need(o, key, where) : o.value(QLatin1String(key));
    if (v.isUndefined()) return false;
    if (!v.isBool()) fail(QStringLiteral("%1: \"%2\" is not true or false").arg(where, QLatin1String(key)));
    return v.toBool();
}

QString RunFieldReader::text(const QJsonObject& o, const char* key, const QString& where, bool required)
{
    const QJsonValue v = required ? need(o, key, where) : o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) return {};
    if (!v.isString()) fail(QStringLiteral("%1: \"%2\" is not text").arg(where, QLatin1String(key)));
    return v.toString();
}

QJsonObject RunFieldReader::object(const QJsonObject& o, const char* key, const QString& where, bool required)
{
    const QJsonValue v = required ? need(o, key, where) : o.value(QLatin1String(key));
    if (v.isUndefined()) return {};
    if (!v.isObject()) fail(QStringLiteral("%1: \"%2\" is not an object").arg(where, QLatin1String(key)));
    return v.toObject();
}

QJsonArray RunFieldReader::array(const QJsonObject& o, const char* key, const QString& where, bool required)
{
    const QJsonValue v = required ? need(o, key, where) : o.value(QLatin1String(key));
    if (v.isUndefined()) return {};
    if (!v.isArray()) fail(QStringLiteral("%1: \"%2\" is not a list").arg(where, QLatin1String(key)));
    return v.toArray();
}

double RunFieldReader::number(const QJsonObject& o, const char* key, double lo, double hi)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble() || !(v.toDouble() >= lo && v.toDouble() <= hi)) {
        fail(QStringLiteral("\"%1\" is missing or out of range").arg(QLatin1String(key)));
        return lo;
    }
    return v.toDouble();
}

double RunFieldReader::maybeNumber(const QJsonValue& v)
{
    if (v.isNull()) return std::numeric_limits<double>::quiet_NaN();
    if (!v.isDouble()) fail(QStringLiteral("a number is neither a number nor null"));
    return v.toDouble();
}

std::uint64_t RunFieldReader::seed(const QJsonObject& o, const char* key)
{
    bool ok = false;
    const std::uint64_t s = o.value(QLatin1String(key)).toString().toULongLong(&ok);
    if (!ok) fail(QStringLiteral("\"%1\" is not a seed").arg(QLatin1String(key)));
    return s;
}

std::vector<int> RunFieldReader::lengths(const QJsonArray& a, const char* what)
{
    std::vector<int> out;
    for (const QJsonValue& v : a) {
        if (!v.isDouble() || v.toDouble() < 1 || v.toDouble() > 1e6 || v.toDouble() != std::floor(v.toDouble()))
            fail(QStringLiteral("\"%1\" holds something that is not a length").arg(QLatin1String(what)));
        out.push_back(v.toInt());
    }
    return out;
}

// ------------------------------------------------------------ the file

util::Text2 readRunRoot(const QString& path, const char* experiment, QJsonObject* root)
{
    using util::T2;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return T2("cannot be read (%1)", "无法读取（%1）").arg(f.errorString());
    if (f.size() > kRunFileMaxBytes) return T2("is too large to be a stored run", "文件太大，不可能是保存的训练结果");
    const QByteArray bytes = f.readAll();
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (pe.error != QJsonParseError::NoError)
        return T2("is not valid JSON (%1 at byte %2; truncated or damaged?)",
                  "不是有效的 JSON（第 %2 字节处：%1），文件可能被截断或已损坏")
            .arg(pe.errorString())
            .arg(pe.offset);
    if (!doc.isObject()) return T2("is not a PosLab training run", "不是 PosLab 的训练结果文件");
    *root = doc.object();
    if (root->value(QLatin1String("format")).toString() != QLatin1String(kRunFileFormat))
        return T2("is not a PosLab training run (no \"format\": \"%1\")",
                  "不是 PosLab 的训练结果文件（没有 \"format\": \"%1\"）")
            .arg(QLatin1String(kRunFileFormat));
    const QJsonValue version = root->value(QLatin1String("version"));
    if (!version.isDouble() || version.toDouble() != kRunFileVersion)
        return T2("is a training run of format version %1; this PosLab reads version %2",
                  "是格式版本 %1 的训练结果，而这个版本的 PosLab 只能读取版本 %2")
            .arg(version.isDouble() ? QString::number(version.toDouble()) : QStringLiteral("(missing)"))
            .arg(kRunFileVersion);
    if (root->value(QLatin1String("experiment")).toString() != QLatin1String(experiment))
        return T2("holds an experiment other than \"%1\"", "保存的不是 %1 实验").arg(QLatin1String(experiment));
    return {};
}

util::Text2 runFileProblem(const QString& path, const util::Text2& why)
{
    const QString shown = QDir::toNativeSeparators(path);
    return {QStringLiteral("%1: %2").arg(shown, why.en), QStringLiteral("%1：%2").arg(shown, why.zh)};
}

void writeProvenance(QJsonObject& root, const RunProvenance& provenance, bool cancelled)
{
    root["format"] = kRunFileFormat;
    root["version"] = kRunFileVersion;
    root["status"] = cancelled ? "cancelled" : "complete";
    root["finished_utc"] = provenance.finishedUtc.toUTC().toString(Qt::ISODateWithMs);
    root["source"] = provenance.source;
    root["command"] = provenance.command;
    root["quick"] = provenance.quick;
    root["machine"] = machineJson(provenance.machine);
}

RunProvenance readProvenance(RunFieldReader& r, const QJsonObject& root, const char* corpusKey)
{
    RunProvenance p;
    const QString top = QStringLiteral("the file");
    const QString finished = r.text(root, "finished_utc", top);
    p.finishedUtc = QDateTime::fromString(finished, Qt::ISODateWithMs);
    if (r.problem.isEmpty() && !p.finishedUtc.isValid())
        r.fail(QStringLiteral("\"finished_utc\" is not a date and time (%1)").arg(finished.left(40)));
    p.finishedUtc = p.finishedUtc.toUTC();
    p.source = r.text(root, "source", top);
    p.command = r.text(root, "command", top);
    p.corpus = r.text(root, corpusKey, top);
    p.quick = r.flag(root, "quick", top);
    p.samplePrompt = r.text(root, "sample_prompt", top, false);
    const QJsonObject m = r.object(root, "machine", top);
    const QString wm = QStringLiteral("machine");
    p.machine.cpu = r.text(m, "cpu", wm, false);
    p.machine.cores = (int)r.integer(m, "cores", wm, 0, std::numeric_limits<int>::max(), false, 0);
    p.machine.threads = (int)r.integer(m, "threads", wm, 0, std::numeric_limits<int>::max(), false, 0);
    p.machine.os = r.text(m, "os", wm, false);
    p.machine.poslabVersion = r.text(m, "poslab_version", wm, false);
    p.machine.blas = r.text(m, "blas", wm, false);
    p.machine.blasCore = r.text(m, "blas_core", wm, false);
    p.machine.blasSource = r.text(m, "blas_kernel_source", wm, false);
    p.machine.blasOpenblasChoice = r.text(m, "blas_openblas_choice", wm, false);
    p.machine.blasRejected = r.text(m, "blas_rejected", wm, false);
    return p;
}

std::vector<StoredModel> readModelsListing(RunFieldReader& r, const QJsonObject& root, const QString& runFolder)
{
    std::vector<StoredModel> out;
    const QString where = QStringLiteral("models");
    const QJsonObject models = r.object(root, "models", QStringLiteral("the file"), false);
    if (models.isEmpty()) return out;
    const QString folder = r.text(models, "folder", where);
    auto plainName = [](const QString& n) {
        return !n.isEmpty() && !n.contains(u'/') && !n.contains(u'\\') && n != u".." && n != u".";
    };
    if (!plainName(folder)) r.fail(QStringLiteral("models: \"folder\" is not a plain folder name"));
    for (const QJsonValue& v : r.array(models, "files", where)) {
        const QJsonObject f = v.toObject();
        StoredModel m;
        m.scheme = r.text(f, "scheme", QStringLiteral("models.files"));
        const QString file = r.text(f, "file", QStringLiteral("models.files"));
        if (!plainName(file)) r.fail(QStringLiteral("models.files: \"file\" is not a plain file name"));
        m.bytes =
            r.integer(f, "bytes", QStringLiteral("models.files"), 0, std::numeric_limits<long long>::max(), false, 0);
        m.path = runFolder + u'/' + folder + u'/' + file;
        out.push_back(m);
    }
    return out;
}

QString storeRunFile(const QString& directory, const char* prefix, const RunProvenance& provenance,
                     const std::function<QJsonObject(const RunProvenance&)>& rootOf,
                     const poslab::length_experiment_result& models, const poslab::vocabulary* vocab,
                     const RunFileWords& words, util::Text2* error)
{
    const QString dirPath = directory.isEmpty() ? resultsDirectory() : directory;
    auto failWith = [&](const util::Text2& why) {
        if (error) *error = why;
        return QString();
    };
    if (!QDir().mkpath(dirPath)) return failWith(words.noFolder.arg(QDir::toNativeSeparators(dirPath)));
    const QDateTime when = provenance.finishedUtc.isValid() ? provenance.finishedUtc : QDateTime::currentDateTimeUtc();
    // One file per run; two runs finishing in the same millisecond get -2, -3, ...
    const QString stem = dirPath + u'/' + QLatin1String(prefix) + fileStamp(when);
    QString path = stem + QStringLiteral(".json");
    for (int n = 2; QFileInfo::exists(path); ++n) path = stem + QStringLiteral("-%1.json").arg(n);
    RunProvenance p = provenance;
    p.finishedUtc = when;
    QJsonObject root = rootOf(p);
    // The models first, the run file last: a run file that names models was stored whole.
    const QString modelsFolder = modelsFolderOf(path);
    QJsonObject listing;
    util::Text2 modelError;
    if (!writeRunModels(models, vocab, modelsFolder, &listing, &modelError))
        return failWith(words.noModels.arg(QDir::toNativeSeparators(modelsFolder)).arg(modelError));
    if (!listing.isEmpty()) root["models"] = listing;
    QString why;
    if (!util::writeFileAtomically(path, QJsonDocument(root).toJson(QJsonDocument::Indented), &why)) {
        QDir(modelsFolder).removeRecursively();
        return failWith(words.notWritten.arg(QDir::toNativeSeparators(path), why));
    }
    if (error) *error = {};
    return path;
}

QJsonValue jsonNumber(double x)
{
    return std::isfinite(x) ? QJsonValue(x) : QJsonValue();
}

QJsonArray jsonInts(const std::vector<int>& v)
{
    QJsonArray a;
    for (int x : v) a.append(x);
    return a;
}

}  // namespace poslab::lab
