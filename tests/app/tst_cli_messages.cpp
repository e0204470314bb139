// SPDX-License-Identifier: Apache-2.0
// tst_cli_messages — the command line's refusals in the reader's language:
// `poslab run` (a refused module parameter), `poslab experiment` and
// `poslab train` (a refused option, a refused combination of sizes), with
// --lang zh|en or, without it, the language of the environment; a damaged or
// missing checkpoint and a missing corpus, worded by the error catalog
// (modules/error_messages.h) from lm's error codes. Each refusal
// exits with status 2, says what was refused and what is allowed, and the
// Chinese line has no English words but identifiers (command, module, option
// and parameter names).
#include "../shared/han_text.h"
#include "../shared/test_program.h"
#include "run_poslab.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct LocaleRun {
    int exitCode = -1;
    bool crashed = false;
    QString err;
    QByteArray out;
};

// Runs the real poslab with LANG = `locale` (LANGUAGE and LC_* cleared, so
// LANG alone decides when --lang is not given); results are stored under a
// temporary data folder, never the user's.
LocaleRun runInLocale(const QStringList& args, const QString& locale, const QString& dataHome)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"LANGUAGE", "LC_ALL", "LC_MESSAGES"}) env.remove(QString::fromLatin1(name));
    env.insert(QStringLiteral("LANG"), locale);
    env.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
    const PoslabRun run = runPoslabWith(args, env, 60000);
    LocaleRun r;
    r.crashed = run.crashed;
    r.exitCode = run.exitCode;
    r.err = QString::fromUtf8(run.err);
    r.out = run.out;
    return r;
}

QString firstLine(const QString& s)
{
    return s.section(u'\n', 0, 0);
}

// ASCII words of `line` that are not among `identifiers`.
QStringList englishWords(const QString& line, const QStringList& identifiers)
{
    static const QRegularExpression word(QStringLiteral("[A-Za-z][A-Za-z0-9_]*[A-Za-z0-9]"));
    QStringList out;
    for (auto it = word.globalMatch(line); it.hasNext();) {
        const QString w = it.next().captured();
        if (!identifiers.contains(w)) out << w;
    }
    return out;
}

}  // namespace

class TestCliMessages : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        // A checkpoint cut short: the header of one tensor "x" of 1000 floats,
        // then 8 bytes of data and a checksum (lm/tensor_file.h's layout).
        QByteArray b("PSLBCKPT");
        auto u32 = [&b](quint32 v) {
            for (int i = 0; i < 4; ++i) b.append(char((v >> (8 * i)) & 0xFF));
        };
        u32(1);  // format version
        u32(0);  // metadata entries
        u32(1);  // tensors
        u32(1);
        b.append('x');
        u32(1);  // rank
        u32(1000);
        u32(0);  // the shape, as a u64
        b.append(QByteArray(8 + 8, '\0'));
        QFile f(cutCheckpoint());
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(b), qint64(b.size()));
    }

    // Each row: the command, the locale, and what the first line of stderr
    // must contain; `identifiers` are the ASCII words a Chinese line may hold.
    void refusals_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QStringList>("identifiers");
        const QStringList runIds{"poslab",
                                 "run",
                                 "rope",
                                 "inv_freq",
                                 "scaling",
                                 "head_dim",
                                 "partial_rotary_factor",
                                 "rope_theta",
                                 "factor",
                                 "max_position_embeddings",
                                 "original_max_position_embeddings",
                                 "seq_len",
                                 "beta_fast",
                                 "beta_slow",
                                 "mscale",
                                 "mscale_all_dim",
                                 "attention_factor",
                                 "truncate",
                                 "short_factor",
                                 "long_factor",
                                 "low_freq_factor",
                                 "high_freq_factor",
                                 "compare",
                                 "base"};
        QTest::newRow("run: unknown parameter, zh")
            << QStringList{"run", "rope.inv_freq", "base=-1", "--lang", "zh"} << "C.UTF-8"
            << QStringList{"没有名为 base 的参数", "-1", "模块 rope.inv_freq 的参数有：", "rope_theta"} << runIds;
        QTest::newRow("run: unknown parameter, en")
            << QStringList{"run", "rope.inv_freq", "base=-1", "--lang", "en"} << "zh_CN.UTF-8"
            << QStringList{"unknown parameter 'base' (given -1); module rope.inv_freq takes:", "rope_theta"}
            << QStringList{};
        QTest::newRow("run: out of range, zh")
            << QStringList{"run", "rope.inv_freq", "rope_theta=-1", "--lang=zh"} << "C.UTF-8"
            << QStringList{"参数 rope_theta 不能取 -1", "允许的取值：[2, 1000000000] 内的有限数值"} << runIds;
        QTest::newRow("run: out of range, locale zh")
            << QStringList{"run", "rope.inv_freq", "rope_theta=-1"} << "zh_CN.UTF-8"
            << QStringList{"参数 rope_theta 不能取 -1", "[2, 1000000000]"} << runIds;
        QTest::newRow("run: out of range, locale C")
            << QStringList{"run", "rope.inv_freq", "rope_theta=-1"} << "C.UTF-8"
            << QStringList{"parameter 'rope_theta': -1 is not allowed; expected a finite number in [2, 1000000000]"}
            << QStringList{};
        QTest::newRow("run: module check, zh")
            << QStringList{"run", "rope.inv_freq", "scaling=linear", "factor=0.5", "--lang", "zh"} << "C.UTF-8"
            << QStringList{"参数 factor 不能取 0.5", "scaling=linear 时须不小于 1"} << (runIds + QStringList{"linear"});
        const QStringList experimentIds{"poslab", "experiment", "train", "ctx", "d", "model", "heads", "schemes"};
        QTest::newRow("experiment: --train-ctx 0, zh")
            << QStringList{"experiment", "length", "--train-ctx", "0", "--lang", "zh"} << "C.UTF-8"
            << QStringList{"poslab experiment: --train-ctx 不能取“0”：应为 1 到 65536 之间的整数"} << experimentIds;
        QTest::newRow("experiment: --train-ctx 0, en")
            << QStringList{"experiment", "length", "--train-ctx", "0"} << "C.UTF-8"
            << QStringList{"--train-ctx '0' is not allowed; expected an integer from 1 to 65536"} << QStringList{};
        QTest::newRow("experiment: --train-ctx 0, locale zh")
            << QStringList{"experiment", "length", "--train-ctx=0"} << "zh_CN.UTF-8"
            << QStringList{"--train-ctx 不能取“0”"} << experimentIds;
        QTest::newRow("experiment: heads do not divide, zh")
            << QStringList{"experiment", "length", "--corpus",   "copy",   "--d-model", "30",
                           "--heads",    "4",      "--no-store", "--lang", "zh"}
            << "C.UTF-8" << QStringList{"--d-model = 30 须是头数（4）的整数倍"} << experimentIds;
        QTest::newRow("experiment: heads do not divide, en")
            << QStringList{"experiment", "length", "--corpus", "copy", "--d-model", "30", "--heads", "4", "--no-store"}
            << "C.UTF-8" << QStringList{"--d-model = 30 must be a multiple of the number of heads (4)"}
            << QStringList{};
        QTest::newRow("experiment: unknown scheme, zh")
            << QStringList{"experiment", "length", "--schemes", "rope,fire", "--lang", "zh"} << "C.UTF-8"
            << QStringList{"没有“fire”这种位置编码"}
            << (experimentIds + QStringList{"fire", "none", "sinusoidal", "learned", "t5_bias", "alibi", "rope"});
        QTest::newRow("experiment: bad --lang")
            << QStringList{"experiment", "length", "--lang", "fr"} << "C.UTF-8"
            << QStringList{"--lang 'fr' is not allowed; expected en or zh"} << QStringList{};
        const QStringList trainIds{"poslab", "train", "steps", "context", "d", "model", "heads"};
        QTest::newRow("train: --steps 0, zh")
            << QStringList{"train", "--steps", "0", "--lang", "zh"} << "C.UTF-8"
            << QStringList{"poslab train: --steps 不能取“0”：应为 1 到 10000000 之间的整数"} << trainIds;
        QTest::newRow("train: RoPE odd head, zh")
            << QStringList{"train", "--corpus", "copy", "--position", "rope", "--d-model",
                           "12",    "--heads",  "4",    "--lang",     "zh"}
            << "C.UTF-8" << QStringList{"RoPE 按通道成对旋转", "--d-model 12 ÷ 4 个头 = 3"}
            << (trainIds + QStringList{"RoPE"});
    }
    // Files the reader named that lm cannot use: the first line of stderr in
    // the reader's language, exit status 2.
    void fileErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QStringList>("identifiers");
        const QStringList pathWords = englishWords(m_data.path(), {}) + QStringList{"cut", "ckpt", "none"};
        const QStringList trainIds = QStringList{"poslab", "train", "PosLab"} + pathWords;
        QTest::newRow("train: truncated checkpoint, zh")
            << QStringList{"train", "--load", cutCheckpoint(), "--lang", "zh"} << "C.UTF-8"
            << QStringList{"poslab train: 检查点文件 " + cutCheckpoint() + " 不完整，可能在复制或保存时被截断了"}
            << trainIds;
        QTest::newRow("train: truncated checkpoint, en")
            << QStringList{"train", "--load", cutCheckpoint(), "--lang", "en"} << "zh_CN.UTF-8"
            << QStringList{"poslab train: checkpoint " + cutCheckpoint() + ": truncated or corrupt: tensor 'x'"}
            << QStringList{};
        const QString none = m_data.path() + QStringLiteral("/none.ckpt");
        QTest::newRow("train: missing checkpoint, locale zh")
            << QStringList{"train", "--load", none} << "zh_CN.UTF-8"
            << QStringList{"poslab train: 找不到检查点文件 " + none} << trainIds;
        QTest::newRow("train: missing checkpoint, en")
            << QStringList{"train", "--load", none} << "C.UTF-8"
            << QStringList{"poslab train: cannot open checkpoint " + none} << QStringList{};
        const QStringList corpusIds{"poslab", "train", "experiment", "nonexistent", "txt", "fortunes", "poems"};
        QTest::newRow("train: missing corpus, zh")
            << QStringList{"train", "--corpus", "/nonexistent/x.txt", "--lang", "zh"} << "C.UTF-8"
            << QStringList{"“/nonexistent/x.txt”既不是内置语料（fortunes、poems），也不是可以读取的文件"} << corpusIds;
        QTest::newRow("experiment: missing corpus, locale zh")
            << QStringList{"experiment", "length", "--corpus", "/nonexistent/x.txt", "--no-store"} << "zh_CN.UTF-8"
            << QStringList{"poslab experiment: “/nonexistent/x.txt”既不是内置语料"} << corpusIds;
        QTest::newRow("experiment: missing corpus, en")
            << QStringList{"experiment", "length", "--corpus", "/nonexistent/x.txt", "--no-store", "--lang", "en"}
            << "zh_CN.UTF-8"
            << QStringList{"'/nonexistent/x.txt' is neither a named corpus (fortunes, poems) nor a readable file"}
            << QStringList{};
    }
    void fileErrors() { refusals(); }

    void refusals()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, locale);
        QFETCH(QStringList, expected);
        QFETCH(QStringList, identifiers);
        const LocaleRun r = runInLocale(args, locale, m_data.path());
        QVERIFY2(!r.crashed, "crashed or hung");
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        const QString line = firstLine(r.err);
        for (const QString& part : expected)
            QVERIFY2(line.contains(part), qPrintable(line + QStringLiteral("  lacks  ") + part));
        if (!identifiers.isEmpty()) {
            QVERIFY2(hasHan(line), qPrintable(line));
            const QStringList english = englishWords(line, identifiers);
            QVERIFY2(english.isEmpty(), qPrintable(line + QStringLiteral("  <- ") + english.join(u' ')));
        } else {
            QVERIFY2(!hasHan(line), qPrintable(line));
        }
    }

private:
    QString cutCheckpoint() const { return m_data.path() + QStringLiteral("/cut.ckpt"); }
    QTemporaryDir m_data;
};

POSLAB_TEST_APPLESS_MAIN(TestCliMessages)
#include "tst_cli_messages.moc"
