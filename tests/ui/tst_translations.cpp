// SPDX-License-Identifier: Apache-2.0
// tst_translations.cpp — the Chinese UI translation is complete and current.
//
// Reads translations/poslab_zh_CN.ts: no unfinished, vanished or obsolete
// entries, every message translated and located in a source file, the same %1..%9 / %n placeholders in
// source and translation. Runs lupdate (Qt's own tool, a build dependency)
// over src/ui into a temporary file: every tr() string of the UI must be in
// the committed file. Loads the compiled :/i18n/poslab_zh_CN.qm and looks
// every message up, so the resource is built from the current .ts.
#include "../shared/test_program.h"
#include "../shared/test_timing.h"
#include "modules/registry.h"
#include "ui/notebook/param_panel.h"
#include "ui/window/main_window.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>
#include "poslab_test_paths.h"

namespace {

QString repoRoot()
{
    QDir d = QDir(QStringLiteral(POSLAB_TESTS_DIR "/ui"));  // tests/ui
    d.cdUp();
    d.cdUp();
    return d.absolutePath();
}

struct Message {
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    QString translationType;   // "", "unfinished", "vanished", "obsolete"
    QStringList translations;  // the text, or each numerus form
    QStringList locations;     // <location filename=...>, relative to the .ts file
};

QList<Message> readTs(const QString& path, QString* error)
{
    QList<Message> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open %1").arg(path);
        return out;
    }
    QXmlStreamReader xml(&f);
    QString context;
    QString lastFile;
    Message m;
    bool inMessage = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == u"context") {
                context.clear();
            } else if (name == u"name" && !inMessage) {
                context = xml.readElementText();
            } else if (name == u"message") {
                inMessage = true;
                m = Message();
                m.context = context;
                m.numerus = xml.attributes().value(QStringLiteral("numerus")) == u"yes";
            } else if (name == u"source" && inMessage) {
                m.source = xml.readElementText();
            } else if (name == u"comment" && inMessage) {
                m.comment = xml.readElementText();
            } else if (name == u"translation" && inMessage) {
                m.translationType = xml.attributes().value(QStringLiteral("type")).toString();
                if (!m.numerus) m.translations << xml.readElementText();
            } else if (name == u"location" && inMessage) {
                // -locations relative: a location without a file name is in the
                // file of the location written before it (its line counts from there).
                const QString file = xml.attributes().value(QStringLiteral("filename")).toString();
                if (!file.isEmpty()) lastFile = file;
                m.locations << lastFile;
            } else if (name == u"numerusform" && inMessage) {
                m.translations << xml.readElementText();
            }
        } else if (xml.isEndElement() && xml.name() == u"message") {
            inMessage = false;
            out << m;
        }
    }
    if (xml.hasError()) *error = xml.errorString();
    return out;
}

// The placeholders of a string, sorted: "%1", "%2", "%n", ...
QStringList placeholders(const QString& s)
{
    static const QRegularExpression re(QStringLiteral("%(?:[1-9]|n|L[1-9])"));
    QStringList out;
    for (auto it = re.globalMatch(s); it.hasNext();) out << it.next().captured();
    out.sort();
    return out;
}

}  // namespace

class TestTranslations : public QObject {
    Q_OBJECT

private:
    QString tsPath() const { return repoRoot() + QStringLiteral("/translations/poslab_zh_CN.ts"); }

private slots:
    void tsFileIsComplete()
    {
        QString error;
        const QList<Message> messages = readTs(tsPath(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(messages.size() > 100, "the UI has well over a hundred strings");
        for (const Message& m : messages) {
            const QString where = m.context + QStringLiteral(": ") + m.source;
            QVERIFY2(m.translationType.isEmpty(), qPrintable(m.translationType + QStringLiteral(" — ") + where));
            // tr() at run time looks up the class name (poslab::ui::ParamPanel); a bare
            // namespace context means lupdate saw a tr() it could not place, and the
            // translation would never be found.
            QVERIFY2(m.context.section(QStringLiteral("::"), -1).front().isUpper(), qPrintable(where));
            QVERIFY2(!m.translations.isEmpty(), qPrintable(where));
            // A translator finds the string in the code: lupdate keeps its file
            // (-locations relative, cmake/translations.cmake), and the file exists.
            QVERIFY2(!m.locations.isEmpty(), qPrintable(QStringLiteral("no source location — ") + where));
            for (const QString& file : m.locations) {
                QVERIFY2(file.startsWith(QStringLiteral("../src/")), qPrintable(file + QStringLiteral(" — ") + where));
                QVERIFY2(QFileInfo::exists(repoRoot() + QStringLiteral("/translations/") + file),
                         qPrintable(file + QStringLiteral(" — ") + where));
            }
            for (const QString& t : m.translations) {
                QVERIFY2(!t.trimmed().isEmpty(), qPrintable(where));
                QCOMPARE(placeholders(t), placeholders(m.source));
            }
        }
    }

    void translationsAreChinese()
    {
        // Natural Chinese, not copies of the English: most entries hold Han characters.
        QString error;
        const QList<Message> messages = readTs(tsPath(), &error);
        int han = 0;
        for (const Message& m : messages) {
            for (QChar c : m.translations.value(0))
                if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) {
                    ++han;
                    break;
                }
        }
        QVERIFY2(han >= messages.size() * 8 / 10, qPrintable(QStringLiteral("%1 of %2").arg(han).arg(messages.size())));
    }

    void everyUiStringIsInTheTsFile()
    {
        const QString lupdate = QLibraryInfo::path(QLibraryInfo::BinariesPath) + QStringLiteral("/lupdate");
        QVERIFY2(QFileInfo(lupdate).isExecutable(),
                 qPrintable(lupdate + QStringLiteral(" (qt6-l10n-tools) is missing")));
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString fresh = tmp.filePath(QStringLiteral("fresh_zh_CN.ts"));
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(lupdate,
                {QStringLiteral("-I"), repoRoot() + QStringLiteral("/src"), repoRoot() + QStringLiteral("/src/ui"),
                 QStringLiteral("-ts"), fresh, QStringLiteral("-locations"), QStringLiteral("none"),
                 QStringLiteral("-target-language"), QStringLiteral("zh_CN")});
        QVERIFY(p.waitForFinished(poslab::testing::scaledMs(120000)));
        QVERIFY2(p.exitCode() == 0, p.readAll().constData());

        QString error;
        const QList<Message> current = readTs(fresh, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!current.isEmpty());
        const QList<Message> committed = readTs(tsPath(), &error);
        QSet<QString> known;
        for (const Message& m : committed) known.insert(m.context + QChar(0) + m.source + QChar(0) + m.comment);
        QStringList missing;
        for (const Message& m : current)
            if (!known.contains(m.context + QChar(0) + m.source + QChar(0) + m.comment))
                missing << m.context + QStringLiteral(": ") + m.source;
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not in translations/poslab_zh_CN.ts (run lupdate and "
                                                              "translate):\n") +
                                               missing.join(QLatin1Char('\n'))));
    }

    void compiledTranslationIsCurrent()
    {
        QTranslator t;
        QVERIFY(t.load(QStringLiteral(":/i18n/poslab_zh_CN.qm")));
        QCOMPARE(t.translate("poslab::ui::MainWindow", "Next"), QStringLiteral("下一步"));
        QString error;
        const QList<Message> messages = readTs(tsPath(), &error);
        for (const Message& m : messages) {
            const QByteArray ctx = m.context.toUtf8(), src = m.source.toUtf8(), cmt = m.comment.toUtf8();
            const QString got = t.translate(ctx.constData(), src.constData(),
                                            m.comment.isEmpty() ? nullptr : cmt.constData(), m.numerus ? 2 : -1);
            QVERIFY2(!got.isEmpty(), qPrintable(m.context + QStringLiteral(": ") + m.source));
        }
    }

    void installSwitchesLiveWidgets()
    {
        // A live widget retranslates itself on the LanguageChange sent by the switch.
        const poslab::modules::ModuleSpec* spec =
            poslab::modules::Registry::builtin().find(QStringLiteral("alibi.slopes"));
        QVERIFY(spec);
        poslab::lessons::VarySpec vary;
        vary.name = QStringLiteral("heads");
        poslab::ui::ParamPanel panel(spec, {QStringLiteral("heads=8")}, {vary}, QStringLiteral("en"));
        QCOMPARE(panel.resetButton()->text(), QStringLiteral("Reset"));
        QVERIFY(poslab::ui::installUiTranslator(QStringLiteral("zh")));
        QCOMPARE(panel.resetButton()->text(), QStringLiteral("重置"));
        QVERIFY(poslab::ui::installUiTranslator(QStringLiteral("en")));
        QCOMPARE(panel.resetButton()->text(), QStringLiteral("Reset"));
    }
};

POSLAB_TEST_MAIN(TestTranslations)
#include "tst_translations.moc"
