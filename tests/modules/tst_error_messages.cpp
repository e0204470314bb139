// SPDX-License-Identifier: Apache-2.0
// tst_error_messages — the one catalog (modules/error_messages.h) words every
// error id of core and lm in English and in Chinese: each id the core lists
// (core/error_texts.cpp) has a Chinese sentence with Han characters and no
// placeholder the English lacks, the catalog has no id the core does not
// list, and every id a source file of core or lm throws is listed. Then real
// failures — a truncated checkpoint, a wrong magic, a checksum mismatch, a
// missing corpus, the memory budget — reach a reader in both languages, their
// English equal to what() (the sentence logs and older callers see).
#include "../shared/han_text.h"
#include "../shared/test_program.h"
#include "lm/tensor_file.h"
#include "lm/text_corpus.h"
#include "modules/error_messages.h"
#include "modules/module.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>
#include <set>
#include "poslab_test_paths.h"

using namespace poslab::modules;
using poslab::coded_error;

namespace {

QStringList placeholders(const QString& s)
{
    static const QRegularExpression re(QStringLiteral("%[1-9]"));
    QStringList out;
    for (auto it = re.globalMatch(s); it.hasNext();) out << it.next().captured();
    out.sort();
    out.removeDuplicates();
    return out;
}

// The coded_error a call throws (fails the test when it throws nothing or something else).
template <class F>
std::optional<coded_error> codedErrorOf(F&& f)
{
    try {
        f();
    } catch (const coded_error& e) {
        return e;
    } catch (const std::exception& e) {
        qWarning("not a coded_error: %s", e.what());
        return std::nullopt;
    }
    qWarning("nothing was thrown");
    return std::nullopt;
}

void writeTestFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), qint64(bytes.size()));
}

}  // namespace

class TestErrorMessages : public QObject {
    Q_OBJECT

private slots:
    void everyIdHasBothLanguages()
    {
        std::set<std::string> ids;
        for (const poslab::error_text& t : poslab::error_texts()) {
            const QString id = QString::fromLatin1(t.id);
            QVERIFY2(ids.insert(t.id).second, qPrintable(id + QStringLiteral(" is listed twice")));
            const QString en = QString::fromUtf8(t.english);
            const QString zh = chineseErrorText(t.id);
            QVERIFY2(!en.trimmed().isEmpty(), qPrintable(id));
            QVERIFY2(!zh.trimmed().isEmpty(), qPrintable(id + QStringLiteral(" has no Chinese")));
            QVERIFY2(hasHan(zh), qPrintable(id + QStringLiteral(": ") + zh));
            QVERIFY2(!hasHan(en), qPrintable(id + QStringLiteral(": ") + en));
            // The Chinese may leave out a detail the core words in English for
            // logs, but it never asks for an argument the English lacks.
            for (const QString& p : placeholders(zh))
                QVERIFY2(placeholders(en).contains(p), qPrintable(id + QStringLiteral(": ") + p));
            // The object of the sentence (a path, a corpus, a size) is in both.
            QVERIFY2(placeholders(en).isEmpty() || !placeholders(zh).isEmpty(), qPrintable(id));
        }
        QVERIFY(ids.size() >= 30);
        // Filled in, both languages differ and hold the arguments.
        const std::vector<std::string> args{"A1", "B2", "C3", "D4", "E5"};
        for (const std::string& id : ids) {
            const Text2 m = errorMessage(id, args);
            QCOMPARE(m.en, QString::fromStdString(poslab::english_error_text(id, args)));
            QVERIFY2(m.en != m.zh, id.c_str());
            QVERIFY2(!m.zh.contains(u'%'), qPrintable(m.zh));
        }
    }

    // Every id a coded_error is thrown with in src/core and src/lm is listed
    // (a misspelt id would reach the reader as a bare id).
    void everyThrownIdIsListed()
    {
        std::set<std::string> listed;
        for (const poslab::error_text& t : poslab::error_texts()) listed.insert(t.id);
        QDir src(QStringLiteral(POSLAB_TESTS_DIR));
        QVERIFY(src.cd(QStringLiteral("../src")));
        static const QRegularExpression idLiteral(
            QStringLiteral(R"re("((?:memory|checkpoint|lm_checkpoint|corpus)\.[a-z_]+)")re"));
        int found = 0;
        for (const char* layer : {"core", "lm"}) {
            QDirIterator it(src.filePath(QString::fromLatin1(layer)), {QStringLiteral("*.cpp")}, QDir::Files);
            while (it.hasNext()) {
                const QString path = it.next();
                if (path.endsWith(QLatin1String("error_texts.cpp"))) continue;
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QString text = QString::fromUtf8(f.readAll());
                for (auto m = idLiteral.globalMatch(text); m.hasNext();) {
                    const std::string id = m.next().captured(1).toStdString();
                    ++found;
                    QVERIFY2(listed.count(id), qPrintable(path + QStringLiteral(": ") + QString::fromStdString(id)));
                }
            }
        }
        QVERIFY2(found >= 25, qPrintable(QString::number(found)));
    }

    // Real failures of lm, as a reader sees them.
    void realFailures_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("en");  // part of the English sentence
        QTest::addColumn<QString>("zh");  // part of the Chinese sentence
        QTest::newRow("truncated tensor file") << "truncated"
                                               << "checkpoint.truncated"
                                               << "truncated or corrupt"
                                               << "不完整，可能在复制或保存时被截断了";
        QTest::newRow("shorter than any checkpoint") << "tiny"
                                                     << "checkpoint.too_short"
                                                     << "truncated: 12 bytes"
                                                     << "不完整：只有 12 字节";
        QTest::newRow("wrong magic") << "magic"
                                     << "checkpoint.bad_magic"
                                     << "not a PosLab checkpoint"
                                     << "不是 PosLab 检查点文件";
        QTest::newRow("newer version") << "version"
                                       << "checkpoint.version"
                                       << "format version 9 is not supported"
                                       << "格式版本是 9";
        QTest::newRow("checksum mismatch") << "checksum"
                                           << "checkpoint.checksum"
                                           << "checksum mismatch"
                                           << "校验和对不上";
        QTest::newRow("missing checkpoint") << "no-checkpoint"
                                            << "checkpoint.missing"
                                            << "cannot open checkpoint"
                                            << "找不到检查点文件";
        QTest::newRow("missing corpus") << "no-corpus"
                                        << "corpus.not_found"
                                        << "is neither a named corpus (fortunes, poems) nor a readable file"
                                        << "既不是内置语料（fortunes、poems），也不是可以读取的文件";
        QTest::newRow("corpus with one entry") << "one-entry"
                                               << "corpus.too_few_entries"
                                               << "has 1 entries"
                                               << "只有 1 条内容";
        QTest::newRow("memory budget") << "budget"
                                       << "memory.budget"
                                       << "more than the memory budget"
                                       << "超出了 1.0 KiB 的内存预算";
    }
    void realFailures()
    {
        QFETCH(QString, kind);
        QFETCH(QString, id);
        QFETCH(QString, en);
        QFETCH(QString, zh);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("file.ckpt"));
        // A valid file with one tensor "x" of 4 floats, written by lm.
        const std::vector<float> four{1, 2, 3, 4};
        poslab::write_tensor_file(path.toStdString(), {{"k", "v"}}, {{"x", {4}, four.data()}});
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        if (kind == u"truncated") writeTestFile(path, bytes.left(bytes.size() - 12));
        if (kind == u"tiny") writeTestFile(path, bytes.left(12));
        if (kind == u"magic") writeTestFile(path, QByteArray("NOTACKPT") + bytes.mid(8));
        if (kind == u"version") writeTestFile(path, bytes.left(8) + QByteArray("\x09\0\0\0", 4) + bytes.mid(12));
        if (kind == u"checksum") {
            bytes[bytes.size() - 9] = char(bytes[bytes.size() - 9] ^ 0x40);  // the last data byte
            writeTestFile(path, bytes);
        }
        const QString corpusPath = dir.filePath(QStringLiteral("one.txt"));
        writeTestFile(corpusPath, "a single paragraph\n");
        const std::size_t budget = poslab::memory_budget_bytes();
        const auto e = codedErrorOf([&] {
            if (kind == u"no-checkpoint")
                poslab::read_tensor_file(dir.filePath(QStringLiteral("none.ckpt")).toStdString());
            else if (kind == u"no-corpus")
                poslab::load_corpus(dir.filePath(QStringLiteral("none.txt")).toStdString());
            else if (kind == u"one-entry")
                poslab::load_corpus(corpusPath.toStdString());
            else if (kind == u"budget") {
                poslab::set_memory_budget_bytes(1024);
                try {
                    poslab::require_memory(1 << 20, 4, "a test buffer");
                } catch (...) {
                    poslab::set_memory_budget_bytes(budget);
                    throw;
                }
            } else
                poslab::read_tensor_file(path.toStdString());
        });
        QVERIFY(e.has_value());
        QCOMPARE(QString::fromStdString(e->id), id);
        const Text2 m = errorMessage(*e);
        QCOMPARE(m.en, QString::fromUtf8(e->what()));  // English: what() itself
        QVERIFY2(m.en.contains(en), qPrintable(m.en));
        QVERIFY2(m.zh.contains(zh), qPrintable(m.zh));
        QVERIFY2(hasHan(m.zh), qPrintable(m.zh));
        QCOMPARE(m.in(QStringLiteral("zh")), m.zh);
        QCOMPARE(m.in(QStringLiteral("en")), m.en);
        QCOMPARE(m.in(QString()), m.en);  // anything but zh is English
        // The file or corpus is named in both languages.
        if (kind != u"budget" && kind != u"one-entry") {
            QVERIFY2(m.zh.contains(dir.path()), qPrintable(m.zh));
            QVERIFY2(m.en.contains(dir.path()), qPrintable(m.en));
        }
    }

    // At the edge any exception is worded: coded through the catalog, a
    // ParamError in its own words, anything else inside the caller's sentence.
    void anyExceptionAtTheEdge()
    {
        const Text2 failed = T2("the module failed: %1", "模块运行失败：%1");
        const Text2 coded = errorMessage(coded_error("corpus.unknown", {"prose"}), failed);
        QVERIFY(coded.zh.startsWith(QStringLiteral("没有名为“prose”的语料")));
        QVERIFY(coded.en.startsWith(QStringLiteral("unknown corpus 'prose'")));
        const Text2 plain = errorMessage(poslab::core_error("n must be >= 1"), failed);
        QCOMPARE(plain.en, QStringLiteral("the module failed: n must be >= 1"));
        QCOMPARE(plain.zh, QStringLiteral("模块运行失败：n must be >= 1"));
        const ParamError param(QStringLiteral("dim"), QStringLiteral("7"), T2("an even int", "偶数"));
        const Text2 p = errorMessage(param, failed);
        QCOMPARE(p.en, param.message(QStringLiteral("en")));
        QCOMPARE(p.zh, param.message(QStringLiteral("zh")));
        // An id the core does not list keeps everything it was given.
        const Text2 unknown = errorMessage("no.such_id", {"x", "y"});
        QCOMPARE(unknown.en, QStringLiteral("no.such_id: x, y"));
        QCOMPARE(unknown.zh, unknown.en);
        // Arguments are filled once: an argument holding "%2" stays as it is.
        const Text2 literal = errorMessage("corpus.read_failed", {"100%2.txt", "gone"});
        QCOMPARE(literal.en, QStringLiteral("cannot read 100%2.txt: gone"));
        QCOMPARE(literal.zh, QStringLiteral("无法读取 100%2.txt（gone）"));
    }
};

POSLAB_TEST_APPLESS_MAIN(TestErrorMessages)
#include "tst_error_messages.moc"
