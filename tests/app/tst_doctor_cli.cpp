// SPDX-License-Identifier: Apache-2.0
// tst_doctor_cli — `poslab doctor`, run on the real executable without a
// display: text in both languages and JSON with its stable keys; the kernels
// it reports are those --version reports (the same process start-up decides
// both); the instruction sets are those read_cpu_features() finds in this
// process (the same CPU); the measured speeds are positive (no timing
// assertion beyond that).
#include "../shared/han_text.h"
#include "../shared/test_program.h"
#include "core/blas_kernel_choice.h"
#include "core/cpu_features.h"

#include "run_poslab.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct DoctorRun {
    int exitCode = -1;
    QString out, err;
};

// Runs poslab headless, with its data folders in `home`.
DoctorRun runDoctor(const QStringList& args, const QString& home, const QMap<QString, QString>& extra = {},
                    const QStringList& removed = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "DISPLAY", "WAYLAND_DISPLAY", "POSLAB_COURSE_DIR"})
        env.remove(QString::fromLatin1(name));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache"));
    for (const QString& name : removed) env.remove(name);
    for (auto it = extra.begin(); it != extra.end(); ++it) env.insert(it.key(), it.value());
    const PoslabRun run = runPoslabWith(args, env, 120000);
    DoctorRun r;
    r.exitCode = run.crashed ? -1 : run.exitCode;
    r.out = QString::fromUtf8(run.out);
    r.err = QString::fromUtf8(run.err);
    return r;
}

// The kernel name on --version's "BLAS kernels:" line.
QString versionKernel(const QString& versionOut)
{
    static const QRegularExpression re(QStringLiteral("^  BLAS kernels: (\\S+) \u2014 "),
                                       QRegularExpression::MultilineOption);
    return re.match(versionOut).captured(1);
}

QStringList featureNames()
{
    QStringList names;
    for (const std::string& n : poslab::read_cpu_features().names()) names << QString::fromStdString(n);
    return names;
}

}  // namespace

class TestDoctorCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_home;

private slots:
    void textInBothLanguages()
    {
        const DoctorRun en = runDoctor({QStringLiteral("doctor")}, m_home.path());
        QVERIFY2(en.exitCode == 0, qPrintable(en.err));
        QVERIFY2(!hasHan(en.out.section(u'\n', 0, 0)), qPrintable(en.out));
        for (const char* part : {"PosLab: " POSLAB_VERSION, "Processor",
                                 "instruction sets: ", "OS enables AVX state: ", "OS enables AVX-512 state: ",
                                 "kernels in use: ", "OpenBLAS's own pick: ", "threads: ", "GFLOP/s on 1 thread",
                                 "Fonts", "MathJax", "course: ", "user data: ", "training lab runs: "})
            QVERIFY2(en.out.contains(QString::fromUtf8(part)), part);
        const DoctorRun zh =
            runDoctor({QStringLiteral("doctor"), QStringLiteral("--lang"), QStringLiteral("zh")}, m_home.path());
        QVERIFY2(zh.exitCode == 0, qPrintable(zh.err));
        for (const char* part : {"处理器", "指令集：", "操作系统已启用 AVX：", "正在使用的计算内核：", "字体", "文件夹",
                                 "课程：", "用户数据："})
            QVERIFY2(zh.out.contains(QString::fromUtf8(part)), part);
        // The instruction sets of this CPU, as this process reads them.
        const QString sets = featureNames().join(u' ');
        if (!sets.isEmpty()) {
            QVERIFY2(en.out.contains(QStringLiteral("instruction sets: ") + sets + u'\n'), qPrintable(en.out));
            QVERIFY2(zh.out.contains(QStringLiteral("指令集：") + sets + u'\n'), qPrintable(zh.out));
        }
        // The data folders are the ones the environment names.
        QVERIFY2(en.out.contains(m_home.path() + QStringLiteral("/data/PosLab/PosLab/lab")), qPrintable(en.out));
        // The help, in both languages.
        const DoctorRun help = runDoctor({QStringLiteral("doctor"), QStringLiteral("--help")}, m_home.path());
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.startsWith(u"usage: poslab doctor"));
        const DoctorRun helpZh =
            runDoctor({QStringLiteral("doctor"), QStringLiteral("--help"), QStringLiteral("--lang=zh")}, m_home.path());
        QVERIFY(helpZh.out.startsWith(u"用法：poslab doctor"));
        // A bad format is a usage error.
        const DoctorRun bad =
            runDoctor({QStringLiteral("doctor"), QStringLiteral("--format"), QStringLiteral("xml")}, m_home.path());
        QCOMPARE(bad.exitCode, 2);
    }

    void jsonHasTheKeys()
    {
        const DoctorRun r =
            runDoctor({QStringLiteral("doctor"), QStringLiteral("--format"), QStringLiteral("json")}, m_home.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + u'\n' + r.out));
        QCOMPARE(root[QStringLiteral("format")].toString(), QStringLiteral("poslab-doctor"));
        QCOMPARE(root[QStringLiteral("poslab_version")].toString(), QStringLiteral(POSLAB_VERSION));
        const QMap<QString, QStringList> keys{
            {QStringLiteral("qt"), {QStringLiteral("runtime"), QStringLiteral("built")}},
            {QStringLiteral("os"), {QStringLiteral("name"), QStringLiteral("kernel"), QStringLiteral("architecture")}},
            {QStringLiteral("cpu"),
             {QStringLiteral("brand"), QStringLiteral("vendor"), QStringLiteral("family"), QStringLiteral("model"),
              QStringLiteral("stepping"), QStringLiteral("features"), QStringLiteral("os_saves_avx"),
              QStringLiteral("os_saves_avx512")}},
            {QStringLiteral("blas"),
             {QStringLiteral("config"), QStringLiteral("kernels"), QStringLiteral("kernel_source"),
              QStringLiteral("openblas_choice"), QStringLiteral("rejected"), QStringLiteral("best_for_cpu"),
              QStringLiteral("reason"), QStringLiteral("threads"), QStringLiteral("ideal_threads")}},
            {QStringLiteral("sgemm"),
             {QStringLiteral("size"), QStringLiteral("threads_all"), QStringLiteral("gflops_one_thread"),
              QStringLiteral("gflops_all_threads")}},
            {QStringLiteral("fonts"),
             {QStringLiteral("serif"), QStringLiteral("sans"), QStringLiteral("monospace"), QStringLiteral("cjk")}},
            {QStringLiteral("mathjax"),
             {QStringLiteral("found"), QStringLiteral("version"), QStringLiteral("prerendered_formulas")}},
            {QStringLiteral("folders"),
             {QStringLiteral("course"), QStringLiteral("course_found"), QStringLiteral("user_data"),
              QStringLiteral("lab_results"), QStringLiteral("lab_results_exists")}}};
        for (auto it = keys.begin(); it != keys.end(); ++it) {
            QVERIFY2(root[it.key()].isObject(), qPrintable(it.key()));
            const QJsonObject part = root[it.key()].toObject();
            for (const QString& key : it.value()) QVERIFY2(part.contains(key), qPrintable(it.key() + u'.' + key));
        }
        const QJsonObject sgemm = root[QStringLiteral("sgemm")].toObject();
        QVERIFY(sgemm[QStringLiteral("gflops_one_thread")].toDouble() > 0);
        QVERIFY(sgemm[QStringLiteral("gflops_all_threads")].toDouble() > 0);
        QVERIFY(sgemm[QStringLiteral("threads_all")].toInt() >= 1);
        // The features this process reads from the same CPU.
        QStringList features;
        for (const QJsonValue& v : root[QStringLiteral("cpu")].toObject()[QStringLiteral("features")].toArray())
            features << v.toString();
        QCOMPARE(features, featureNames());
        const poslab::cpu_features cpu = poslab::read_cpu_features();
        QCOMPARE(root[QStringLiteral("cpu")].toObject()[QStringLiteral("family")].toInt(), cpu.family);
        QCOMPARE(root[QStringLiteral("cpu")].toObject()[QStringLiteral("model")].toInt(), cpu.model);
        QCOMPARE(root[QStringLiteral("cpu")].toObject()[QStringLiteral("os_saves_avx")].toBool(), cpu.os_saves_avx);
        QCOMPARE(root[QStringLiteral("mathjax")].toObject()[QStringLiteral("found")].toBool(), true);
        QVERIFY(root[QStringLiteral("folders")].toObject()[QStringLiteral("course_found")].toBool());
        // English reason by default, Chinese with --lang zh.
        QVERIFY(!hasHan(root[QStringLiteral("blas")].toObject()[QStringLiteral("reason")].toString()));
        const DoctorRun zh = runDoctor(
            {QStringLiteral("doctor"), QStringLiteral("--format=json"), QStringLiteral("--lang"), QStringLiteral("zh")},
            m_home.path());
        QVERIFY2(zh.exitCode == 0, qPrintable(zh.err));
        const QJsonObject zhRoot = QJsonDocument::fromJson(zh.out.toUtf8()).object();
        QVERIFY(hasHan(zhRoot[QStringLiteral("blas")].toObject()[QStringLiteral("reason")].toString()));
    }

    // The kernels doctor reports are those --version reports, in each way
    // they can be chosen.
    void kernelsAgreeWithVersion_data()
    {
        QTest::addColumn<QString>("coretype");  // empty: unset
        QTest::addColumn<QString>("assume");    // POSLAB_BLAS_ASSUME_OPENBLAS
        QTest::addColumn<QString>("source");    // the expected source, or empty: "openblas" or "poslab"
        QTest::newRow("user") << "Sandybridge"
                              << ""
                              << "user";
        QTest::newRow("openblas alone") << ""
                                        << ""
                                        << "";
        QTest::newRow("poslab chooses") << ""
                                        << "Prescott"
                                        << "";
    }

    void kernelsAgreeWithVersion()
    {
        QFETCH(QString, coretype);
        QFETCH(QString, assume);
        QFETCH(QString, source);
        const QStringList removed{QStringLiteral("OPENBLAS_CORETYPE"), QStringLiteral("POSLAB_BLAS_KERNEL"),
                                  QStringLiteral("POSLAB_BLAS_AUTO"), QStringLiteral("POSLAB_BLAS_ASSUME_OPENBLAS")};
        QMap<QString, QString> extra;
        if (!coretype.isEmpty()) extra.insert(QStringLiteral("OPENBLAS_CORETYPE"), coretype);
        if (!assume.isEmpty()) extra.insert(QStringLiteral("POSLAB_BLAS_ASSUME_OPENBLAS"), assume);
        const DoctorRun version = runDoctor({QStringLiteral("--version")}, m_home.path(), extra, removed);
        QCOMPARE(version.exitCode, 0);
        const QString kernel = versionKernel(version.out);
        QVERIFY2(!kernel.isEmpty(), qPrintable(version.out));
        const DoctorRun doctor =
            runDoctor({QStringLiteral("doctor"), QStringLiteral("--format"), QStringLiteral("json")}, m_home.path(),
                      extra, removed);
        QVERIFY2(doctor.exitCode == 0, qPrintable(doctor.err));
        const QJsonObject blas =
            QJsonDocument::fromJson(doctor.out.toUtf8()).object()[QStringLiteral("blas")].toObject();
        QCOMPARE(blas[QStringLiteral("kernels")].toString(), kernel);
        const QString got = blas[QStringLiteral("kernel_source")].toString();
        if (!source.isEmpty()) {
            QCOMPARE(got, source);
            QVERIFY(blas[QStringLiteral("openblas_choice")].isNull());  // not known under OPENBLAS_CORETYPE
        } else {
            QVERIFY2(got == u"openblas" || got == u"poslab", qPrintable(got));
        }
        const std::string best = poslab::best_blas_kernel_for(poslab::read_cpu_features());
        QCOMPARE(blas[QStringLiteral("best_for_cpu")].toString(), QString::fromStdString(best));
        // OpenBLAS "alone" generic on a CPU with more to offer: PosLab's pick.
        if (!assume.isEmpty() && !best.empty()) {
            QCOMPARE(got, QStringLiteral("poslab"));
            QCOMPARE(kernel, QString::fromStdString(best));
            QCOMPARE(blas[QStringLiteral("openblas_choice")].toString(), assume);
        }
    }
};

POSLAB_TEST_GUILESS_MAIN(TestDoctorCli)
#include "tst_doctor_cli.moc"
