// SPDX-License-Identifier: Apache-2.0
// doctor_command.cpp — `poslab doctor` (doctor_command.h): the facts are
// gathered once into a Facts, then printed as text in the chosen language or
// as JSON.
#include "app/doctor_command.h"

#include "app/cli.h"
#include "app/command_options.h"
#include "app/help_text.h"
#include "core/blas_kernel_choice.h"
#include "core/cpu_features.h"
#include "core/matmul.h"
#include "lessons/course_loader.h"
#include "modules/blas_kernel_text.h"
#include "modules/lab/run_store.h"
#include "ui/document/fonts.h"
#include "ui/formula/formula_renderer.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QSysInfo>
#include <QThread>
#include <QtGlobal>

#include <algorithm>
#include <chrono>
#include <vector>

namespace poslab::app {

namespace {

using poslab::util::T2;
using poslab::util::Text2;

constexpr int kSgemmSize = 1024;
constexpr int kSgemmRepeats = 3;             // timed, after one warm-up
constexpr double kSgemmBudgetSeconds = 0.5;  // per thread count: fewer repeats on a slow machine

Text2 doctorUsage()
{
    return T2(
        "usage: poslab doctor [--lang en|zh] [--format text|json]\n"
        "  Prints what to paste into a bug report: PosLab's version and build, Qt, the\n"
        "  operating system, the processor and the instruction sets it may use, the BLAS\n"
        "  kernels in use and why, sgemm speed on one thread and on all threads (about a\n"
        "  second), the fonts and MathJax found, and PosLab's folders.\n"
        "  --format json   one JSON object with stable keys, for scripts\n",
        "用法：poslab doctor [--lang en|zh] [--format text|json]\n"
        "  列出提交问题报告时要附上的信息：PosLab 的版本和构建方式、Qt、操作系统、处理器\n"
        "  及其可用的指令集、正在使用的 BLAS 计算内核及选择原因、单线程和全部线程的 sgemm 速度\n"
        "  （约需一秒）、找到的字体和 MathJax，以及 PosLab 的各个文件夹。\n"
        "  --format json   输出一个键名固定的 JSON 对象，便于脚本处理\n");
}

struct SgemmSpeed {
    int threadsAll = 1;
    double gflopsOne = 0;  // best of the timed repeats on one thread
    double gflopsAll = 0;  // on threadsAll threads
};

struct Facts {
    QString osName, osKernel, osArch;
    poslab::cpu_features cpu;
    poslab::blas_kernel_status kernels;
    QString bestForCpu;
    int blasThreads = 1, idealThreads = 1;
    SgemmSpeed sgemm;
    QString serif, sans, mono, cjk;
    QString mathjaxVersion;  // empty: no bundle
    int prerendered = 0;
    QString course, userData, labResults;
    bool courseFound = false, labResultsExist = false;
};

// GFLOP/s of c = a·b (n×n) on `threads` BLAS threads: one warm-up, then the
// best of a few repeats within the time budget.
double sgemmGflops(int threads, const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c)
{
    using clock = std::chrono::steady_clock;
    const poslab::blas_threads_scope scope(threads);
    const int n = kSgemmSize;
    auto once = [&] {
        const auto t0 = clock::now();
        poslab::matmul_sgemm(poslab::MATMUL_N, poslab::MATMUL_N, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                             c.data(), n);
        return std::chrono::duration<double>(clock::now() - t0).count();
    };
    once();  // warm-up: threads started, pages touched
    double best = 0, spent = 0;
    for (int i = 0; i < kSgemmRepeats && (i == 0 || spent < kSgemmBudgetSeconds); ++i) {
        const double seconds = once();
        spent += seconds;
        best = i == 0 ? seconds : std::min(best, seconds);
    }
    const double flops = 2.0 * double(n) * double(n) * double(n);
    return best > 0 ? flops / best / 1e9 : 0.0;
}

SgemmSpeed measureSgemm(int threadsAll)
{
    const std::size_t count = std::size_t(kSgemmSize) * std::size_t(kSgemmSize);
    std::vector<float> a(count), b(count), c(count);
    for (std::size_t i = 0; i < count; ++i) {
        a[i] = float(i % 17) * 0.0625f - 0.5f;
        b[i] = float(i % 13) * 0.0625f - 0.375f;
    }
    SgemmSpeed s;
    s.threadsAll = std::max(1, threadsAll);
    s.gflopsOne = sgemmGflops(1, a, b, c);
    s.gflopsAll = sgemmGflops(s.threadsAll, a, b, c);
    return s;
}

Facts gatherFacts()
{
    Facts f;
    f.osName = QSysInfo::prettyProductName();
    f.osKernel = QSysInfo::kernelType() + u' ' + QSysInfo::kernelVersion();
    f.osArch = QSysInfo::currentCpuArchitecture();
    f.cpu = poslab::read_cpu_features();
    f.kernels = poslab::blas_kernel_in_use();
    f.bestForCpu = QString::fromStdString(poslab::best_blas_kernel_for(f.cpu));
    f.blasThreads = poslab::blas_num_threads();
    f.idealThreads = QThread::idealThreadCount();
    f.sgemm = measureSgemm(f.blasThreads);
    f.serif = ui::fonts::latinSerifFamily();
    f.sans = ui::fonts::latinSansFamily();
    f.mono = ui::fonts::monospaceFamily();
    f.cjk = ui::fonts::cjkFamily();
    // The bundle's version is read from the resources; no JavaScript engine starts.
    const QString mj = ui::FormulaRenderer::instance().bundleVersion();
    if (mj != u"none") f.mathjaxVersion = mj;
    f.prerendered = ui::FormulaRenderer::instance().prerenderedCount();
    f.course = QDir::cleanPath(QFileInfo(lessons::defaultCourseDir()).absoluteFilePath());
    f.courseFound =
        QFileInfo(f.course + QStringLiteral("/en")).isDir() && QFileInfo(f.course + QStringLiteral("/zh")).isDir();
    f.userData = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    f.labResults = lab::resultsDirectory();
    f.labResultsExist = QFileInfo(f.labResults).isDir();
    return f;
}

QString hexDec(int v)
{
    return QStringLiteral("0x%1 (%2)").arg(v, 0, 16).arg(v);
}

// What OpenBLAS picks by itself is not known while OPENBLAS_CORETYPE overrides it
// (blas_kernel_status leaves it empty then).
bool openblasChoiceKnown(const Facts& f)
{
    return !f.kernels.openblas_choice.empty();
}

QString gflopsText(double g)
{
    return QString::number(g, 'f', 1);
}

// The CPU and BLAS part of the text report.
void appendMachineText(QString& s, const Facts& f, const QString& lang)
{
    auto line = [&](const Text2& name, const QString& value) {
        s += QStringLiteral("  ") + name.in(lang) + value + u'\n';
    };
    const Text2 yes = T2("yes", "是"), no = T2("no", "否");
    const QString none = T2("(none)", "（无）").in(lang);
    s += T2("Processor\n", "处理器\n").in(lang);
    line(T2("brand: ", "名称："), f.cpu.brand.empty() ? none : QString::fromStdString(f.cpu.brand));
    line(T2("vendor: ", "厂商："), f.cpu.vendor.empty() ? none : QString::fromStdString(f.cpu.vendor));
    line(T2("family / model / stepping: ", "家族 / 型号 / 步进："),
         QStringLiteral("%1 / %2 / %3").arg(hexDec(f.cpu.family), hexDec(f.cpu.model)).arg(f.cpu.stepping));
    QStringList sets;
    for (const std::string& n : f.cpu.names()) sets << QString::fromStdString(n);
    line(T2("instruction sets: ", "指令集："), sets.isEmpty() ? none : sets.join(u' '));
    line(T2("OS enables AVX state: ", "操作系统已启用 AVX："), (f.cpu.os_saves_avx ? yes : no).in(lang));
    line(T2("OS enables AVX-512 state: ", "操作系统已启用 AVX-512："), (f.cpu.os_saves_avx512 ? yes : no).in(lang));
    s += QStringLiteral("BLAS\n");
    const char* config = poslab::blas_config();
    line(T2("library: ", "库："), config ? QString::fromLatin1(config).simplified() : T2("unknown", "未知").in(lang));
    line(T2("kernels in use: ", "正在使用的计算内核："), modules::blasKernelText(f.kernels).in(lang));
    line(T2("OpenBLAS's own pick: ", "若由 OpenBLAS 自行选择："),
         openblasChoiceKnown(f)
             ? QString::fromStdString(f.kernels.openblas_choice)
             : T2("not known while OPENBLAS_CORETYPE is set", "设置了 OPENBLAS_CORETYPE 时无法得知").in(lang));
    line(T2("best for this CPU: ", "最适合此 CPU 的内核："), f.bestForCpu.isEmpty() ? none : f.bestForCpu);
    line(T2("threads: ", "线程数："), T2("%1 (ideal thread count: %2)", "%1（理想线程数：%2）")
                                          .arg(QString::number(f.blasThreads), QString::number(f.idealThreads))
                                          .in(lang));
    line(T2("sgemm %1×%1: ", "sgemm %1×%1：").arg(QString::number(kSgemmSize)),
         T2("%1 GFLOP/s on 1 thread, %2 GFLOP/s on %3 threads", "单线程 %1 GFLOP/s，%3 个线程 %2 GFLOP/s")
             .arg(gflopsText(f.sgemm.gflopsOne), gflopsText(f.sgemm.gflopsAll), QString::number(f.sgemm.threadsAll))
             .in(lang));
}

QString factsText(const Facts& f, const QString& lang)
{
    auto line = [&](const Text2& name, const QString& value) {
        return QStringLiteral("  ") + name.in(lang) + value + u'\n';
    };
    auto folder = [&](const QString& path, bool exists) {
        return path + (exists ? QString() : T2(" (not there yet)", "（尚不存在）").in(lang));
    };
    QString s =
        T2("PosLab doctor: paste this into a bug report\n", "PosLab doctor：提交问题报告时请附上以下内容\n").in(lang);
    s += line(T2("PosLab: ", "PosLab："),
              T2("%1 (%2)", "%1（%2）").arg(QStringLiteral(POSLAB_VERSION), buildText()).in(lang));
    s += line(T2("Qt: ", "Qt："), T2("%1 (built with %2)", "%1（编译时为 %2）")
                                      .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR))
                                      .in(lang));
    s += line(T2("OS: ", "操作系统："), QStringLiteral("%1, %2, %3").arg(f.osName, f.osKernel, f.osArch));
    appendMachineText(s, f, lang);
    s += T2("Fonts\n", "字体\n").in(lang);
    s += line(T2("serif, sans, monospace: ", "衬线、无衬线、等宽："),
              QStringList{f.serif, f.sans, f.mono}.join(QStringLiteral(", ")));
    s += line(T2("Chinese: ", "中文："), f.cjk);
    s += QStringLiteral("MathJax\n");
    s += line(T2("bundle: ", "资源包："),
              f.mathjaxVersion.isEmpty() ? T2("not found: formulas cannot be typeset", "未找到：无法排版公式").in(lang)
                                         : T2("%1, %2 formulas pre-rendered", "%1，预先渲染了 %2 个公式")
                                               .arg(f.mathjaxVersion, QString::number(f.prerendered))
                                               .in(lang));
    s += T2("Folders\n", "文件夹\n").in(lang);
    s +=
        line(T2("course: ", "课程："),
             f.course + (f.courseFound ? QString() : T2(" (this folder is missing)", "（找不到这个文件夹）").in(lang)));
    s += line(T2("user data: ", "用户数据："), folder(f.userData, QFileInfo(f.userData).isDir()));
    s += line(T2("training lab runs: ", "训练实验室的运行记录："), folder(f.labResults, f.labResultsExist));
    return s;
}

QJsonObject cpuJson(const poslab::cpu_features& cpu)
{
    QJsonArray features;
    for (const std::string& n : cpu.names()) features.append(QString::fromStdString(n));
    return QJsonObject{{QStringLiteral("brand"), QString::fromStdString(cpu.brand)},
                       {QStringLiteral("vendor"), QString::fromStdString(cpu.vendor)},
                       {QStringLiteral("family"), cpu.family},
                       {QStringLiteral("model"), cpu.model},
                       {QStringLiteral("stepping"), cpu.stepping},
                       {QStringLiteral("features"), features},
                       {QStringLiteral("os_saves_avx"), cpu.os_saves_avx},
                       {QStringLiteral("os_saves_avx512"), cpu.os_saves_avx512}};
}

QJsonObject blasJson(const Facts& f, const QString& lang)
{
    const char* config = poslab::blas_config();
    return QJsonObject{
        {QStringLiteral("config"), config ? QString::fromLatin1(config).simplified() : QString()},
        {QStringLiteral("kernels"), QString::fromStdString(f.kernels.core)},
        {QStringLiteral("kernel_source"), QString::fromLatin1(poslab::blas_kernel_source_id(f.kernels.source))},
        {QStringLiteral("openblas_choice"),
         openblasChoiceKnown(f) ? QJsonValue(QString::fromStdString(f.kernels.openblas_choice)) : QJsonValue()},
        {QStringLiteral("rejected"), QString::fromStdString(f.kernels.rejected)},
        {QStringLiteral("best_for_cpu"), f.bestForCpu},
        {QStringLiteral("reason"), modules::blasKernelReason(f.kernels).in(lang)},
        {QStringLiteral("threads"), f.blasThreads},
        {QStringLiteral("ideal_threads"), f.idealThreads}};
}

QByteArray factsJson(const Facts& f, const QString& lang)
{
    QJsonObject root;
    root[QStringLiteral("format")] = QStringLiteral("poslab-doctor");
    root[QStringLiteral("version")] = 1;
    root[QStringLiteral("poslab_version")] = QStringLiteral(POSLAB_VERSION);
    root[QStringLiteral("build")] = buildText();
    root[QStringLiteral("qt")] = QJsonObject{{QStringLiteral("runtime"), QString::fromLatin1(qVersion())},
                                             {QStringLiteral("built"), QStringLiteral(QT_VERSION_STR)}};
    root[QStringLiteral("os")] = QJsonObject{{QStringLiteral("name"), f.osName},
                                             {QStringLiteral("kernel"), f.osKernel},
                                             {QStringLiteral("architecture"), f.osArch}};
    root[QStringLiteral("cpu")] = cpuJson(f.cpu);
    root[QStringLiteral("blas")] = blasJson(f, lang);
    root[QStringLiteral("sgemm")] = QJsonObject{{QStringLiteral("size"), kSgemmSize},
                                                {QStringLiteral("threads_all"), f.sgemm.threadsAll},
                                                {QStringLiteral("gflops_one_thread"), f.sgemm.gflopsOne},
                                                {QStringLiteral("gflops_all_threads"), f.sgemm.gflopsAll}};
    root[QStringLiteral("fonts")] = QJsonObject{{QStringLiteral("serif"), f.serif},
                                                {QStringLiteral("sans"), f.sans},
                                                {QStringLiteral("monospace"), f.mono},
                                                {QStringLiteral("cjk"), f.cjk}};
    root[QStringLiteral("mathjax")] = QJsonObject{{QStringLiteral("found"), !f.mathjaxVersion.isEmpty()},
                                                  {QStringLiteral("version"), f.mathjaxVersion},
                                                  {QStringLiteral("prerendered_formulas"), f.prerendered}};
    root[QStringLiteral("folders")] = QJsonObject{{QStringLiteral("course"), f.course},
                                                  {QStringLiteral("course_found"), f.courseFound},
                                                  {QStringLiteral("user_data"), f.userData},
                                                  {QStringLiteral("lab_results"), f.labResults},
                                                  {QStringLiteral("lab_results_exists"), f.labResultsExist}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace

int commandDoctor(const QStringList& args)
{
    CommandOptions o(QStringLiteral("doctor"));
    o.option(QStringLiteral("--format")).choices({QStringLiteral("text"), QStringLiteral("json")});
    if (!o.parse(args)) return o.usageError();
    if (o.helpRequested()) {
        writeStdout(doctorUsage().in(o.lang()).toStdString());
        return kExitOk;
    }
    if (!o.positional().isEmpty()) return o.usageError(unexpectedArgument(o.positional().first()));
    const Facts facts = gatherFacts();
    if (o.value(QStringLiteral("--format")) == u"json") {
        const QByteArray json = factsJson(facts, o.lang());
        writeStdout(std::string_view(json.constData(), std::size_t(json.size())));
    } else {
        writeStdout(factsText(facts, o.lang()).toStdString());
    }
    return kExitOk;
}

}  // namespace poslab::app
