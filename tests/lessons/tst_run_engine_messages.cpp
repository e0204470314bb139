// SPDX-License-Identifier: Apache-2.0
// tst_run_engine_messages — a failed run says what went wrong in both course
// languages (RunResult::errorIn): unknown module, refused parameter (from the
// registry and from a module's own check), memory budget, a coded error of
// lm (worded by modules/error_messages.h), an error of the core, cancellation. `error` (and the failed() signal) stay English.
#include "../shared/han_text.h"
#include "../shared/test_program.h"
#include "core/common.h"
#include "lessons/run_engine.h"
#include "lm/text_corpus.h"
#include "modules/registry.h"

#include "../shared/test_timing.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace poslab::lessons;
using namespace poslab::modules;
using poslab::testing::scaledMs;

namespace {

const Registry& messageTestRegistry()
{
    static const Registry reg = [] {
        Registry r;
        ModuleSpec sizes;
        sizes.id = QStringLiteral("test.sizes");
        sizes.params = {intParam(QStringLiteral("n"), 4, 1, 100, T2("size", "大小")),
                        intParam(QStringLiteral("m"), 2, 1, 100, T2("other size", "另一个大小"))};
        sizes.check = [](const Params& p) {
            if (p.getInt(QStringLiteral("m")) > p.getInt(QStringLiteral("n")))
                throw ParamError(QStringLiteral("m"), QString::number(p.getInt(QStringLiteral("m"))),
                                 T2("at most n = %1", "不超过 n = %1").arg(p.getInt(QStringLiteral("n"))));
        };
        sizes.run = [](const Params& p, const RunContext&) -> std::vector<Output> {
            if (p.getInt(QStringLiteral("n")) == 99) poslab::require_memory(std::size_t(1) << 62, 4, "the test table");
            if (p.getInt(QStringLiteral("n")) == 98) throw std::runtime_error("boom: the core refused");
            if (p.getInt(QStringLiteral("n")) == 97) poslab::load_corpus("/nonexistent/corpus.txt");
            return {Output::scalar(QStringLiteral("n"), double(p.getInt(QStringLiteral("n"))))};
        };
        r.add(sizes);

        ModuleSpec slow;
        slow.id = QStringLiteral("test.slow");
        // Waits for its cancel flag: only the cancel ends it (after the
        // guard, far beyond the test's waits, it would end uncancelled and
        // the test fail).
        slow.run = [](const Params&, const RunContext& ctx) {
            poslab::testing::pollUntil([&] { return ctx.isCancelled(); }, 120000, 1000);
            ctx.throwIfCancelled();
            return std::vector<Output>{};
        };
        r.add(slow);
        return r;
    }();
    return reg;
}

}  // namespace

class TestRunEngineMessages : public QObject {
    Q_OBJECT
private slots:
    // Each row: module, parameters, parts of the English and of the Chinese message.
    void failuresInBothLanguages_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QStringList>("params");
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("chinese");
        QTest::newRow("unknown module") << "no.such" << QStringList{} << "unknown module 'no.such'"
                                        << "没有名为 no.such 的模块";
        QTest::newRow("out of range") << "test.sizes" << QStringList{"n=1000"}
                                      << "test.sizes: parameter 'n': 1000 is not allowed; expected an int in [1, 100]"
                                      << "test.sizes：参数 n 不能取 1000；允许的取值：[1, 100] 内的整数";
        QTest::newRow("module check") << "test.sizes" << QStringList{"n=3", "m=5"}
                                      << "test.sizes: parameter 'm': 5 is not allowed; at most n = 3"
                                      << "test.sizes：参数 m 不能取 5；允许的取值：不超过 n = 3";
        QTest::newRow("unknown parameter")
            << "test.sizes" << QStringList{"k=1"}
            << "test.sizes: unknown parameter 'k' (given 1); module test.sizes takes: n, m"
            << "test.sizes：没有名为 k 的参数（给出的值是 1）；模块 test.sizes 的参数有：n、m";
        QTest::newRow("memory budget") << "test.sizes" << QStringList{"n=99"} << "test.sizes: the test table would need"
                                       << "test.sizes：所需内存 16.0 EiB 超出了 2.0 GiB 的内存预算，请把尺寸调小";
        QTest::newRow("coded error of lm")
            << "test.sizes" << QStringList{"n=97"}
            << "test.sizes failed: '/nonexistent/corpus.txt' is neither a named corpus (fortunes, poems) nor a readable "
               "file"
            << "test.sizes 运行失败：“/nonexistent/corpus.txt”既不是内置语料（fortunes、poems），也不是可以读取的文件";
        QTest::newRow("core error") << "test.sizes" << QStringList{"n=98"}
                                    << "test.sizes failed: boom: the core refused"
                                    << "test.sizes 运行失败：boom: the core refused";
    }
    void failuresInBothLanguages()
    {
        QFETCH(QString, id);
        QFETCH(QStringList, params);
        QFETCH(QString, english);
        QFETCH(QString, chinese);
        RunEngine engine(messageTestRegistry());
        QSignalSpy failed(&engine, &RunEngine::failed);
        // Synchronously and through the worker pool: the same messages.
        const RunResultPtr now = engine.runNow(id, params);
        QVERIFY(now && !now->ok);
        const quint64 request = engine.submit(id, params);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, scaledMs(10000));
        QCOMPARE(failed.at(0).at(0).value<quint64>(), request);
        for (const QString& shown : {now->errorIn(QStringLiteral("en")), failed.at(0).at(1).toString()})
            QVERIFY2(shown.startsWith(english), qPrintable(shown));
        QCOMPARE(now->error, now->errorIn(QStringLiteral("en")));
        const QString zh = now->errorIn(QStringLiteral("zh"));
        QVERIFY2(zh.startsWith(chinese), qPrintable(zh));
        QVERIFY(hasHan(zh));
        QVERIFY(!hasHan(now->error));
    }

    void cancelledInBothLanguages()
    {
        RunEngine engine(messageTestRegistry());
        QSignalSpy started(&engine, &RunEngine::started);
        QSignalSpy finished(&engine, &RunEngine::finished);
        const quint64 id = engine.submit(QStringLiteral("test.slow"), QStringList{});
        QTRY_COMPARE_WITH_TIMEOUT(started.size(), 1, scaledMs(10000));
        engine.cancel(id);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, scaledMs(10000));
        const RunResultPtr r = finished.at(0).at(1).value<RunResultPtr>();
        QVERIFY(r && r->cancelled);
        QCOMPARE(r->errorIn(QStringLiteral("en")), QStringLiteral("test.slow: cancelled"));
        QCOMPARE(r->errorIn(QStringLiteral("zh")), QStringLiteral("test.slow：已取消"));
    }
};

POSLAB_TEST_MAIN(TestRunEngineMessages)
#include "tst_run_engine_messages.moc"
