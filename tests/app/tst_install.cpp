// SPDX-License-Identifier: Apache-2.0
// tst_install — PosLab installed like any desktop program (issue 6 §3):
// `cmake --install` into a scratch prefix puts the binary, the course, the menu
// entry, the AppStream metadata and the icons where Freedesktop expects them,
// and the licences (Apache-2.0 for the code, CC BY-SA 4.0 for the course) with
// Debian's machine-readable copyright file in share/doc/poslab; the installed
// binary, also after its prefix is moved, finds its course relative to itself
// and exports a chapter headless; and the .deb CPack builds carries the same
// files, depends on the packages that provide the libraries the binary links,
// has no lintian error, and runs from a scratch root it is unpacked into.
//
// Each run uses a fresh HOME and XDG folders in a temporary directory, so the
// tester's own settings and data are neither read nor touched.
#include "../shared/han_text.h"
#include "../shared/test_program.h"
#include "../shared/test_timing.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include "poslab_test_paths.h"

namespace {

struct ProgramRun {
    int exitCode = -1;
    bool crashed = false;
    QString out, err;
};

ProgramRun runProgram(const QString& program, const QStringList& args, const QProcessEnvironment& env,
                      int timeoutMs = 120000)
{
    QProcess p;
    p.setProgram(program);
    p.setArguments(args);
    p.setProcessEnvironment(env);
    p.start();
    ProgramRun r;
    if (!p.waitForStarted(poslab::testing::scaledMs(10000))) {
        r.crashed = true;
        r.err = QStringLiteral("could not start %1: %2").arg(program, p.errorString());
        return r;
    }
    if (!p.waitForFinished(poslab::testing::scaledMs(timeoutMs))) {
        p.kill();
        p.waitForFinished(poslab::testing::scaledMs(30000));
        r.crashed = true;
        r.err = QStringLiteral("%1 timed out").arg(program);
        return r;
    }
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString describe(const ProgramRun& r)
{
    return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(r.exitCode).arg(r.out, r.err);
}

// Every file under `root`, as paths relative to it, with a hash of its bytes.
QMap<QString, QByteArray> filesUnder(const QString& root)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        QByteArray hash;
        if (f.open(QIODevice::ReadOnly)) hash = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
        out.insert(QDir(root).relativeFilePath(path), hash);
    }
    return out;
}

// "title: ..." from a chapter's front matter: what the PDF prints as its heading.
QString chapterTitle(const QString& chapterFile)
{
    QFile f(chapterFile);
    if (!f.open(QIODevice::ReadOnly)) return {};
    for (const QString& line : QString::fromUtf8(f.readAll()).split(u'\n'))
        if (line.startsWith(u"title:")) return line.mid(6).trimmed();
    return {};
}

// The [Desktop Entry] group of a .desktop file as key -> value.
QMap<QString, QString> desktopEntry(const QString& file)
{
    QMap<QString, QString> out;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return out;
    bool inGroup = false;
    for (const QString& raw : QString::fromUtf8(f.readAll()).split(u'\n')) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(u'#')) continue;
        if (line.startsWith(u'[')) {
            inGroup = line == u"[Desktop Entry]";
            continue;
        }
        const qsizetype eq = line.indexOf(u'=');
        if (inGroup && eq > 0) out.insert(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
    }
    return out;
}

QByteArray readBytes(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The paragraphs of a Debian control-style file (debian/copyright in DEP-5
// form): each a map of field -> value, continuation lines joined with '\n'
// after dropping their leading space, " ." read as an empty line.
QList<QMap<QString, QString>> deb822Paragraphs(const QString& text)
{
    QList<QMap<QString, QString>> out;
    QMap<QString, QString> current;
    QString last;
    for (const QString& line : text.split(u'\n')) {
        if (line.trimmed().isEmpty()) {
            if (!current.isEmpty()) out << current;
            current.clear();
            last.clear();
        } else if (line.startsWith(u' ') || line.startsWith(u'\t')) {
            if (!last.isEmpty()) current[last] += u'\n' + (line == u" ." ? QString() : line.mid(1));
        } else if (const qsizetype colon = line.indexOf(u':'); colon > 0) {
            last = line.left(colon);
            current.insert(last, line.mid(colon + 1).trimmed());
        }
    }
    if (!current.isEmpty()) out << current;
    return out;
}

// The program's path, or an empty string when it is not installed.
QString tool(const char* name)
{
    return QStandardPaths::findExecutable(QString::fromLatin1(name));
}

// pdftotext collapses nothing we rely on except line breaks inside a heading.
QString pdfText(const QString& pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {QStringLiteral("-enc"), QStringLiteral("UTF-8"), pdf, QStringLiteral("-")});
    if (!p.waitForFinished(poslab::testing::scaledMs(60000))) return {};
    return QString::fromUtf8(p.readAllStandardOutput()).simplified();
}

// A gzip file's text (gzip -dc), empty if it cannot be read.
QString gunzip(const QString& file)
{
    QProcess p;
    p.start(QStringLiteral("gzip"), {QStringLiteral("-dc"), file});
    if (!p.waitForFinished(poslab::testing::scaledMs(30000)) || p.exitCode() != 0) return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

// Every --option and POSLAB_ variable a text names (troff's "\-" read as "-").
QSet<QString> optionsIn(QString text)
{
    text.replace(QStringLiteral("\\-"), QStringLiteral("-"));
    QSet<QString> out;
    static const QRegularExpression re(QStringLiteral("(--[a-z][a-z-]*|POSLAB_[A-Z_]+)"));
    for (auto it = re.globalMatch(text); it.hasNext();) out.insert(it.next().captured(1));
    return out;
}

}  // namespace

class TestInstall : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_prefix;
    QProcessEnvironment m_env;

    QString sourceCourse() const { return QStringLiteral(POSLAB_SOURCE_COURSE_DIR); }

    // A headless export of chapter 1 in Chinese by `binary`; returns the PDF's text.
    QString exportChapterOne(const QString& binary, const QString& pdf)
    {
        const ProgramRun r = runProgram(binary,
                                        {QStringLiteral("export"), QStringLiteral("--lang"), QStringLiteral("zh"),
                                         QStringLiteral("--chapters"), QStringLiteral("1"), QStringLiteral("-o"), pdf},
                                        m_env, 180000);
        if (r.crashed || r.exitCode != 0) {
            qWarning("%s", qPrintable(describe(r)));
            return {};
        }
        if (!QFileInfo(pdf).isFile() || QFileInfo(pdf).size() < 1000) return {};
        return pdfText(pdf);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        // A user with nothing of their own: settings, data and caches in here.
        const QString home = m_tmp.filePath(QStringLiteral("home"));
        for (const char* sub : {"", "/.config", "/.local/share", "/.cache", "/run"})
            QVERIFY(QDir().mkpath(home + QString::fromLatin1(sub)));
        QFile::setPermissions(home + QStringLiteral("/run"),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        m_env = QProcessEnvironment::systemEnvironment();
        for (const char* name :
             {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "POSLAB_COURSE_DIR", "DISPLAY", "WAYLAND_DISPLAY"})
            m_env.remove(QString::fromLatin1(name));
        m_env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        m_env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        m_env.insert(QStringLiteral("HOME"), home);
        m_env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
        m_env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
        m_env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/.cache"));
        m_env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home + QStringLiteral("/run"));

        m_prefix = m_tmp.filePath(QStringLiteral("prefix"));
        const ProgramRun install = runProgram(
            QStringLiteral(POSLAB_CMAKE_COMMAND),
            {QStringLiteral("--install"), QStringLiteral(POSLAB_BUILD_DIR), QStringLiteral("--prefix"), m_prefix},
            QProcessEnvironment::systemEnvironment());
        QVERIFY2(!install.crashed && install.exitCode == 0, qPrintable(describe(install)));
    }

    void layoutFollowsFreedesktop()
    {
        const QFileInfo bin(m_prefix + QStringLiteral("/bin/poslab"));
        QVERIFY(bin.isFile() && bin.isExecutable());
        // The window's program, which bin/poslab runs for the commands that draw.
        const QFileInfo gui(m_prefix + QStringLiteral("/libexec/poslab/poslab-gui"));
        QVERIFY(gui.isFile() && gui.isExecutable());
        QVERIFY(QFileInfo(m_prefix + QStringLiteral("/share/applications/org.poslab.poslab.desktop")).isFile());
        QVERIFY(QFileInfo(m_prefix + QStringLiteral("/share/metainfo/org.poslab.poslab.metainfo.xml")).isFile());
        QVERIFY(QFileInfo(m_prefix + QStringLiteral("/share/icons/hicolor/scalable/apps/poslab.svg")).isFile());
        for (int size : {48, 128, 256})
            QVERIFY(
                QFileInfo(m_prefix + QStringLiteral("/share/icons/hicolor/%1x%1/apps/poslab.png").arg(size)).isFile());
        QVERIFY(QFileInfo(m_prefix + QStringLiteral("/share/doc/poslab/README.md")).isFile());
        // The course: every file of the source tree's lessons/, byte for byte.
        const QMap<QString, QByteArray> source = filesUnder(sourceCourse());
        const QMap<QString, QByteArray> installed = filesUnder(m_prefix + QStringLiteral("/share/poslab/lessons"));
        QVERIFY(source.size() >= 20);  // ten chapters in each language, images
        QCOMPARE(installed.keys(), source.keys());
        QVERIFY(installed == source);
    }

    void desktopEntryIsValid()
    {
        const QString file = m_prefix + QStringLiteral("/share/applications/org.poslab.poslab.desktop");
        const QMap<QString, QString> e = desktopEntry(file);
        QCOMPARE(e.value(QStringLiteral("Type")), QStringLiteral("Application"));
        QCOMPARE(e.value(QStringLiteral("Terminal")), QStringLiteral("false"));
        // Exec names the installed binary and Icon the installed icon's name.
        QCOMPARE(e.value(QStringLiteral("Exec")).section(u' ', 0, 0), QStringLiteral("poslab"));
        QCOMPARE(
            e.value(QStringLiteral("Icon")),
            QFileInfo(m_prefix + QStringLiteral("/share/icons/hicolor/scalable/apps/poslab.svg")).completeBaseName());
        const QStringList categories = e.value(QStringLiteral("Categories")).split(u';', Qt::SkipEmptyParts);
        QVERIFY(categories.contains(QStringLiteral("Education")));
        QVERIFY(categories.contains(QStringLiteral("Science")));
        // Both languages: English by default, Chinese for zh_CN.
        for (const char* key : {"Name", "GenericName", "Comment", "Keywords"}) {
            const QString k = QString::fromLatin1(key);
            QVERIFY2(!e.value(k).isEmpty() && !hasHan(e.value(k)), key);
            QVERIFY2(hasHan(e.value(k + QStringLiteral("[zh_CN]"))), key);
        }
        // The reference validator (desktop-file-utils, from scripts/bootstrap.sh).
        const ProgramRun v = runProgram(QStringLiteral("desktop-file-validate"), {file}, m_env);
        QVERIFY2(!v.crashed, "desktop-file-validate is missing: run scripts/bootstrap.sh (desktop-file-utils)");
        QVERIFY2(v.exitCode == 0 && !v.out.contains(u"error:") && !v.err.contains(u"error:"), qPrintable(describe(v)));
    }

    // The AppStream metadata software centres read: accepted by the reference
    // validator (appstream, from scripts/bootstrap.sh test), naming the menu
    // entry installed beside it, the binary, both licences and this version.
    void metainfoIsValid()
    {
        const QString file = m_prefix + QStringLiteral("/share/metainfo/org.poslab.poslab.metainfo.xml");
        const QString appstreamcli = tool("appstreamcli");
        QVERIFY2(!appstreamcli.isEmpty(), "appstreamcli is missing: run scripts/bootstrap.sh test (package appstream)");
        const ProgramRun v =
            runProgram(appstreamcli, {QStringLiteral("validate"), QStringLiteral("--no-net"), file}, m_env);
        QVERIFY2(!v.crashed && v.exitCode == 0, qPrintable(describe(v)));
        // The whole prefix: this also finds the launchable's desktop file.
        const ProgramRun tree =
            runProgram(appstreamcli, {QStringLiteral("validate-tree"), QStringLiteral("--no-net"), m_prefix}, m_env);
        QVERIFY2(!tree.crashed && tree.exitCode == 0, qPrintable(describe(tree)));

        QString id, launchable, binary, metadataLicense, projectLicense, release;
        QMap<QString, QString> names, summaries;  // xml:lang ("" for English) -> text
        QStringList categories;
        bool rated = false;
        QStringList path;
        QXmlStreamReader xml(readBytes(file));
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isEndElement()) path.removeLast();
            if (!xml.isStartElement()) continue;
            path << xml.name().toString();
            const QString at = path.join(u'/');
            const QString lang = xml.attributes().value(QStringLiteral("xml:lang")).toString();
            if (at == u"component/releases/release")
                release = xml.attributes().value(QStringLiteral("version")).toString();
            if (at == u"component/content_rating")
                rated = xml.attributes().value(QStringLiteral("type")).startsWith(u"oars-");
            QString* text = nullptr;
            if (at == u"component/id")
                text = &id;
            else if (at == u"component/launchable")
                text = &launchable;
            else if (at == u"component/provides/binary")
                text = &binary;
            else if (at == u"component/metadata_license")
                text = &metadataLicense;
            else if (at == u"component/project_license")
                text = &projectLicense;
            else if (at == u"component/name")
                text = &names[lang];
            else if (at == u"component/summary")
                text = &summaries[lang];
            else if (at == u"component/categories/category")
                text = &categories.emplace_back();
            if (text) {
                *text = xml.readElementText().trimmed();  // consumes the end element
                path.removeLast();
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(id, QStringLiteral("org.poslab.poslab"));
        // The menu entry is named after the id, and it is the launchable.
        QCOMPARE(launchable, id + QStringLiteral(".desktop"));
        QVERIFY(QFileInfo(m_prefix + QStringLiteral("/share/applications/") + launchable).isFile());
        QCOMPARE(binary, QStringLiteral("poslab"));
        QVERIFY(QFileInfo(m_prefix + QStringLiteral("/bin/") + binary).isExecutable());
        QVERIFY2(metadataLicense == u"CC0-1.0" || metadataLicense == u"FSFAP", qPrintable(metadataLicense));
        QCOMPARE(projectLicense, QStringLiteral("Apache-2.0 AND CC-BY-SA-4.0"));
        QCOMPARE(release, QStringLiteral(POSLAB_VERSION));
        for (const QMap<QString, QString>& m : {names, summaries}) {
            QVERIFY(!m.value(QString()).isEmpty() && !hasHan(m.value(QString())));
            QVERIFY(hasHan(m.value(QStringLiteral("zh-CN"))));
        }
        QVERIFY(categories.contains(QStringLiteral("Education")));
        QVERIFY(rated);
    }

    // The licences: the code is Apache-2.0 (LICENSE), the course CC BY-SA 4.0
    // (lessons/LICENSE), both installed in share/doc/poslab with the copyright
    // file in Debian's machine-readable form (DEP-5) that says which is which.
    void licencesAreInstalled()
    {
        const QString doc = m_prefix + QStringLiteral("/share/doc/poslab/");
        const QByteArray apache = readBytes(QFileInfo(sourceCourse()).absolutePath() + QStringLiteral("/LICENSE"));
        const QByteArray ccBySa = readBytes(sourceCourse() + QStringLiteral("/LICENSE"));
        // The full texts, not notices.
        QVERIFY(apache.contains("Version 2.0, January 2004") && apache.contains("END OF TERMS AND CONDITIONS"));
        QVERIFY(ccBySa.startsWith("Attribution-ShareAlike 4.0 International") &&
                ccBySa.contains("Section 8 -- Interpretation.") &&
                ccBySa.contains("Creative Commons may be contacted at creativecommons.org."));
        if (const QByteArray debian = readBytes(QStringLiteral("/usr/share/common-licenses/Apache-2.0"));
            !debian.isEmpty())
            QVERIFY2(apache == debian, "LICENSE differs from Debian's /usr/share/common-licenses/Apache-2.0");
        QVERIFY(readBytes(doc + QStringLiteral("LICENSE")) == apache);
        QVERIFY(readBytes(doc + QStringLiteral("LICENSE.lessons")) == ccBySa);

        const QList<QMap<QString, QString>> paragraphs =
            deb822Paragraphs(QString::fromUtf8(readBytes(doc + QStringLiteral("copyright"))));
        QVERIFY(paragraphs.size() >= 4);
        QCOMPARE(paragraphs.first().value(QStringLiteral("Format")),
                 QStringLiteral("https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"));
        QCOMPARE(paragraphs.at(1).value(QStringLiteral("Files")), QStringLiteral("*"));
        QMap<QString, QString> licenceOf, texts;  // Files -> short name; short name -> text
        for (const QMap<QString, QString>& p : paragraphs.mid(1)) {
            const QString licence = p.value(QStringLiteral("License"));
            if (p.contains(QStringLiteral("Files"))) {
                QVERIFY2(p.value(QStringLiteral("Copyright")).contains(QRegularExpression(QStringLiteral("\\d{4}"))),
                         qPrintable(p.value(QStringLiteral("Files"))));
                licenceOf.insert(p.value(QStringLiteral("Files")), licence.section(u'\n', 0, 0));
            } else {
                texts.insert(licence.section(u'\n', 0, 0), licence.section(u'\n', 1));
            }
        }
        QCOMPARE(licenceOf.value(QStringLiteral("*")), QStringLiteral("Apache-2.0"));
        QCOMPARE(licenceOf.value(QStringLiteral("lessons/*")), QStringLiteral("CC-BY-SA-4.0"));
        for (const QString& licence : licenceOf)
            QVERIFY2(!texts.value(licence).isEmpty(), qPrintable(licence + QStringLiteral(": no License paragraph")));
        // Apache-2.0 by Debian's reference, as policy allows; CC BY-SA 4.0 in
        // full, the very text of lessons/LICENSE.
        QVERIFY(texts.value(QStringLiteral("Apache-2.0")).contains(u"/usr/share/common-licenses/Apache-2.0"));
        QCOMPARE(texts.value(QStringLiteral("CC-BY-SA-4.0")), QString::fromUtf8(ccBySa).trimmed());
    }

    // `man poslab` in both languages says what `poslab --help` says, at least.
    void manualPagesCoverTheHelp()
    {
        const QString bin = m_prefix + QStringLiteral("/bin/poslab");
        for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
            const QString page = m_prefix + (lang == u"zh" ? QStringLiteral("/share/man/zh_CN/man1/poslab.1.gz")
                                                           : QStringLiteral("/share/man/man1/poslab.1.gz"));
            const QString man = gunzip(page);
            QVERIFY2(!man.isEmpty(), qPrintable(page));
            QVERIFY(man.contains(QStringLiteral(".TH POSLAB 1 ")));
            QVERIFY2(man.contains(QStringLiteral("\"PosLab " POSLAB_VERSION "\"")), "the version is filled in");
            QCOMPARE(hasHan(man), lang == u"zh");
            const ProgramRun help = runProgram(bin, {QStringLiteral("--help"), QStringLiteral("--lang"), lang}, m_env);
            QCOMPARE(help.exitCode, 0);
            const QSet<QString> missing = optionsIn(help.out) - optionsIn(man);
            QVERIFY2(missing.isEmpty(), qPrintable(lang + QStringLiteral(": not in the manual page: ") +
                                                   QStringList(missing.begin(), missing.end()).join(u' ')));
            // Each command has its entry, in bold (".B list", ".BI \"run ", "\fBcheck").
            for (const char* command :
                 {"list", "run", "export", "check", "train", "experiment length", "assignment", "grade", "doctor"}) {
                const QRegularExpression entry(
                    QStringLiteral("^(\\.B[IR]? \"?|\\\\fB)%1").arg(QString::fromLatin1(command)),
                    QRegularExpression::MultilineOption);
                QVERIFY2(entry.match(man).hasMatch(), command);
            }
        }
        const QString changelog = gunzip(m_prefix + QStringLiteral("/share/doc/poslab/changelog.gz"));
        QVERIFY2(changelog.startsWith(QStringLiteral("poslab (" POSLAB_VERSION ") ")), qPrintable(changelog));
    }

    void iconsAreRenderedFromTheSvg()
    {
        const QString svgFile = m_prefix + QStringLiteral("/share/icons/hicolor/scalable/apps/poslab.svg");
        QSvgRenderer svg(svgFile);
        QVERIFY(svg.isValid());
        QCOMPARE(svg.viewBoxF().width(), svg.viewBoxF().height());
        for (int size : {48, 128, 256}) {
            const QImage png(m_prefix + QStringLiteral("/share/icons/hicolor/%1x%1/apps/poslab.png").arg(size));
            QVERIFY2(!png.isNull(), qPrintable(QString::number(size)));
            QCOMPARE(png.size(), QSize(size, size));
            QVERIFY(png.hasAlphaChannel());
            // The tile has rounded corners (transparent) and an opaque middle.
            QCOMPARE(qAlpha(png.pixel(0, 0)), 0);
            QCOMPARE(qAlpha(png.pixel(size - 1, size - 1)), 0);
            QCOMPARE(qAlpha(png.pixel(size / 2, size / 2)), 255);
            // The same picture as the SVG drawn at that size here (Qt's renderer
            // in this process; a few levels of antialiasing difference allowed).
            QImage ref(size, size, QImage::Format_ARGB32_Premultiplied);
            ref.fill(Qt::transparent);
            {
                QPainter p(&ref);
                p.setRenderHint(QPainter::Antialiasing);
                svg.render(&p, QRectF(0, 0, size, size));
            }
            const QImage a = png.convertToFormat(QImage::Format_ARGB32_Premultiplied);
            int worst = 0;
            for (int y = 0; y < size; ++y)
                for (int x = 0; x < size; ++x) {
                    const QRgb p = a.pixel(x, y), q = ref.pixel(x, y);
                    worst = std::max({worst, std::abs(qRed(p) - qRed(q)), std::abs(qGreen(p) - qGreen(q)),
                                      std::abs(qBlue(p) - qBlue(q)), std::abs(qAlpha(p) - qAlpha(q))});
                }
            QVERIFY2(worst <= 8, qPrintable(QStringLiteral("%1 px: differs by %2 levels").arg(size).arg(worst)));
        }
    }

    void installedBinaryFindsItsCourse()
    {
        const QString bin = m_prefix + QStringLiteral("/bin/poslab");
        const QString course = QDir(m_prefix + QStringLiteral("/share/poslab/lessons")).canonicalPath();
        const ProgramRun v = runProgram(bin, {QStringLiteral("--version")}, m_env);
        QCOMPARE(v.exitCode, 0);
        QCOMPARE(v.out.section(u'\n', 0, 0), QStringLiteral("poslab " POSLAB_VERSION));
        QVERIFY2(v.out.contains(QStringLiteral("course: ") + course + u'\n'), qPrintable(v.out));
        QVERIFY2(v.out.contains(m_env.value(QStringLiteral("XDG_DATA_HOME"))), qPrintable(v.out));
        const ProgramRun zh =
            runProgram(bin, {QStringLiteral("--version"), QStringLiteral("--lang"), QStringLiteral("zh")}, m_env);
        QCOMPARE(zh.exitCode, 0);
        QVERIFY2(zh.out.contains(QStringLiteral("课程：") + course + u'\n'), qPrintable(zh.out));
        const ProgramRun help = runProgram(bin, {QStringLiteral("--help")}, m_env);
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains(u"Usage:"));
        const ProgramRun helpZh = runProgram(bin, {QStringLiteral("--help"), QStringLiteral("--lang=zh")}, m_env);
        QCOMPARE(helpZh.exitCode, 0);
        QVERIFY(helpZh.out.contains(u"用法："));
        // `check` without a folder checks the course it would open: the installed one.
        const ProgramRun check = runProgram(bin, {QStringLiteral("check")}, m_env);
        QVERIFY2(check.exitCode == 0 && check.out.contains(course), qPrintable(describe(check)));
        // The user's POSLAB_COURSE_DIR still wins over the installed course.
        QProcessEnvironment own = m_env;
        own.insert(QStringLiteral("POSLAB_COURSE_DIR"), sourceCourse());
        const ProgramRun chosen = runProgram(bin, {QStringLiteral("--version")}, own);
        QVERIFY2(chosen.out.contains(QDir(sourceCourse()).canonicalPath()), qPrintable(chosen.out));
    }

    // The prefix is copied elsewhere (as a user moving ~/opt/poslab would) and
    // its course's chapter 1 retitled: the PDF shows the new title, so it was
    // made from the course beside the binary, not from the source tree the
    // binary was built in.
    void movedPrefixExportsFromItsOwnCourse()
    {
        const QString moved = m_tmp.filePath(QStringLiteral("moved/elsewhere"));
        QVERIFY(QDir().mkpath(QFileInfo(moved).path()));
        const ProgramRun cp = runProgram(QStringLiteral("cp"), {QStringLiteral("-a"), m_prefix, moved}, m_env);
        QVERIFY2(cp.exitCode == 0, qPrintable(describe(cp)));
        const QStringList chapters =
            QDir(moved + QStringLiteral("/share/poslab/lessons/zh")).entryList({QStringLiteral("01-*.md")});
        QCOMPARE(chapters.size(), 1);
        const QString chapter = moved + QStringLiteral("/share/poslab/lessons/zh/") + chapters.first();
        const QString title = chapterTitle(chapter);
        QVERIFY(hasHan(title));
        QFile f(chapter);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        f.close();
        const QString marked = title + QStringLiteral("（已安装副本）");
        text.replace(("title: " + title).toUtf8(), ("title: " + marked).toUtf8());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();

        const QMap<QString, QByteArray> before = filesUnder(moved);
        const QString pdf = m_tmp.filePath(QStringLiteral("moved-ch1-zh.pdf"));
        QElapsedTimer clock;
        clock.start();
        const QString pdfContent = exportChapterOne(moved + QStringLiteral("/bin/poslab"), pdf);
        qInfo("export of chapter 1 (zh) from the moved prefix: %lld ms", clock.elapsed());
        QVERIFY2(!pdfContent.isEmpty(), "the export failed or its PDF has no text");
        QVERIFY2(pdfContent.contains(marked), qPrintable(pdfContent.left(600)));
        // Running it wrote nothing into the installation.
        QVERIFY(filesUnder(moved) == before);
    }

    void debianPackage()
    {
        // CPack's own run: the same install rules, dpkg-shlibdeps for Depends.
        const QString out = m_tmp.filePath(QStringLiteral("deb"));
        QElapsedTimer clock;
        clock.start();
        const ProgramRun cpack =
            runProgram(QStringLiteral(POSLAB_CPACK_COMMAND),
                       {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("--config"),
                        QStringLiteral(POSLAB_BUILD_DIR "/CPackConfig.cmake"), QStringLiteral("-B"), out},
                       QProcessEnvironment::systemEnvironment(), 300000);
        qInfo("cpack -G DEB: %lld ms", clock.elapsed());
        QVERIFY2(!cpack.crashed && cpack.exitCode == 0, qPrintable(describe(cpack)));
        const ProgramRun arch = runProgram(QStringLiteral("dpkg"), {QStringLiteral("--print-architecture")}, m_env);
        const QString deb =
            out + QStringLiteral("/poslab_" POSLAB_VERSION "_") + arch.out.trimmed() + QStringLiteral(".deb");
        QVERIFY2(QFileInfo(deb).isFile(), qPrintable(deb + u'\n' + cpack.out));

        // The control fields, continuation lines (" ...") joined to their field.
        QMap<QString, QString> fields;
        {
            const ProgramRun control = runProgram(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), deb}, m_env);
            QCOMPARE(control.exitCode, 0);
            QString last;
            for (const QString& line : control.out.split(u'\n', Qt::SkipEmptyParts)) {
                if (line.startsWith(u' ') && !last.isEmpty()) {
                    fields[last] += u'\n' + line.mid(1);
                } else if (const qsizetype colon = line.indexOf(u':'); colon > 0) {
                    last = line.left(colon);
                    fields.insert(last, line.mid(colon + 1).trimmed());
                }
            }
        }
        auto field = [&](const QString& name) { return fields.value(name); };
        QCOMPARE(field(QStringLiteral("Package")), QStringLiteral("poslab"));
        QCOMPARE(field(QStringLiteral("Version")), QStringLiteral(POSLAB_VERSION));
        QCOMPARE(field(QStringLiteral("Architecture")), arch.out.trimmed());
        QVERIFY(QRegularExpression(QStringLiteral("^.+ <[^@ ]+@[^> ]+>$"))
                    .match(field(QStringLiteral("Maintainer")))
                    .hasMatch());
        const QString description = field(QStringLiteral("Description"));
        QVERIFY2(description.contains(u"positional encoding") && description.count(u'\n') >= 3,
                 qPrintable(description));

        // Depends: one group per "a | b" alternative list.
        QList<QStringList> depends;
        for (const QString& group : field(QStringLiteral("Depends")).split(u',', Qt::SkipEmptyParts)) {
            QStringList names;
            for (const QString& alt : group.split(u'|')) names << alt.trimmed().section(u' ', 0, 0).section(u':', 0, 0);
            depends << names;
        }
        auto dependsOn = [&](const QString& package) {
            for (const QStringList& g : depends)
                if (g.contains(package)) return true;
            return false;
        };
        // The fonts the export asks for by name.
        QVERIFY(dependsOn(QStringLiteral("fonts-wqy-microhei")));
        QVERIFY(dependsOn(QStringLiteral("fonts-dejavu-core")));
        // Derived apart from dpkg-shlibdeps: the libraries the two programs
        // name (readelf's NEEDED), where the loader finds them (ldd), and the
        // package that owns each (dpkg -S). Each of those packages, or the
        // package its shlibs file names for that library, must be in Depends.
        QStringList needed;
        QString lddOut;
        static const QRegularExpression neededRe(QStringLiteral("\\(NEEDED\\)\\s+Shared library: \\[([^\\]]+)\\]"));
        for (const char* program : {"poslab", "poslab-gui"}) {
            const QString built = QStringLiteral(POSLAB_BUILD_DIR "/") + QLatin1String(program);
            const ProgramRun readelf = runProgram(QStringLiteral("readelf"), {QStringLiteral("-d"), built}, m_env);
            QCOMPARE(readelf.exitCode, 0);
            QStringList own;
            for (auto it = neededRe.globalMatch(readelf.out); it.hasNext();) own << it.next().captured(1);
            // The command line loads no window library (src/app/drawing.h): that is what makes it quick to start.
            if (qstrcmp(program, "poslab") == 0)
                for (const QString& lib : own) QVERIFY2(!lib.contains(QLatin1String("Widgets")), qPrintable(lib));
            needed << own;
            lddOut += runProgram(QStringLiteral("ldd"), {built}, m_env).out;
        }
        needed.removeDuplicates();
        for (const char* lib : {"libQt6Core.so.6", "libQt6Widgets.so.6", "libQt6Charts.so.6", "libQt6Svg.so.6",
                                "libQt6Qml.so.6", "libopenblas.so.0", "libmd4c.so.0"})
            QVERIFY2(needed.contains(QString::fromLatin1(lib)), lib);

        // soname -> the paths dpkg may know its file by: /lib and /usr/lib are
        // one folder on a merged-/usr system, and the loader's path may be an
        // alternatives link (libopenblas.so.0) whose target is the packaged file.
        QMap<QString, QStringList> candidates;
        QStringList allCandidates;
        for (const QString& soname : needed) {
            const QRegularExpression where(QStringLiteral("^\\s*%1 => (\\S+)").arg(QRegularExpression::escape(soname)),
                                           QRegularExpression::MultilineOption);
            // The dynamic loader itself is listed by its path alone.
            const QRegularExpression loader(
                QStringLiteral("^\\s*(/\\S*/%1)\\s").arg(QRegularExpression::escape(soname)),
                QRegularExpression::MultilineOption);
            QString path = where.match(lddOut).captured(1);
            if (path.isEmpty()) path = loader.match(lddOut).captured(1);
            QVERIFY2(!path.isEmpty(), qPrintable(soname + u'\n' + lddOut));
            const QString real = QFileInfo(path).canonicalFilePath();
            QStringList c{path, real};
            for (const QString& p : QStringList{path, real})
                c << (p.startsWith(u"/usr/") ? p.mid(4) : QStringLiteral("/usr") + p);
            c.removeDuplicates();
            candidates.insert(soname, c);
            allCandidates << c;
        }
        // One dpkg -S for all of them (each call reads every package's file list).
        // It exits 1 when some candidate is unknown, which is expected here.
        QMap<QString, QString> ownerOf;  // path -> package
        const ProgramRun owners =
            runProgram(QStringLiteral("dpkg"), QStringList{QStringLiteral("-S")} + allCandidates, m_env);
        for (const QString& line : owners.out.split(u'\n', Qt::SkipEmptyParts)) {
            const qsizetype sep = line.indexOf(QStringLiteral(": "));
            if (sep <= 0) continue;
            const QString package = line.left(sep).section(u',', 0, 0).section(u':', 0, 0).trimmed();
            ownerOf.insert(line.mid(sep + 2).trimmed(), package);
        }
        for (const QString& soname : needed) {
            QString package;
            for (const QString& c : candidates.value(soname))
                if (package.isEmpty()) package = ownerOf.value(c);
            QVERIFY2(!package.isEmpty(),
                     qPrintable(soname + QStringLiteral(": no package owns ") +
                                candidates.value(soname).join(QStringLiteral(", ")) + u'\n' + owners.err));
            // The shlibs entry is what dpkg-shlibdeps uses; it may name a
            // package that stands for several builds (libopenblas0 for the
            // pthread, openmp and serial ones).
            const ProgramRun shlibs =
                runProgram(QStringLiteral("dpkg-query"),
                           {QStringLiteral("--control-show"), package, QStringLiteral("shlibs")}, m_env);
            QStringList acceptable{package};
            const QString base = soname.section(QStringLiteral(".so"), 0, 0);
            const QRegularExpression line(QStringLiteral("^%1 \\S+ (\\S+)").arg(QRegularExpression::escape(base)),
                                          QRegularExpression::MultilineOption);
            if (const QString named = line.match(shlibs.out).captured(1); !named.isEmpty()) acceptable << named;
            bool found = false;
            for (const QString& p : acceptable) found = found || dependsOn(p);
            QVERIFY2(found,
                     qPrintable(QStringLiteral("%1 (package %2) is not in Depends: %3")
                                    .arg(soname, acceptable.join(u'/'), fields.value(QStringLiteral("Depends")))));
        }
        // Every dependency can be met on this machine, where the binary runs:
        // each group has an alternative that is installed.
        QStringList named;
        for (const QStringList& g : depends) named << g;
        const ProgramRun status =
            runProgram(QStringLiteral("dpkg-query"),
                       QStringList{QStringLiteral("-W"), QStringLiteral("-f=${Package} ${Status}\\n")} + named, m_env);
        QSet<QString> installed;
        for (const QString& line : status.out.split(u'\n', Qt::SkipEmptyParts))
            if (line.endsWith(u" install ok installed")) installed.insert(line.section(u' ', 0, 0));
        for (const QStringList& g : depends) {
            bool any = false;
            for (const QString& p : g) any = any || installed.contains(p);
            QVERIFY2(any, qPrintable(g.join(QStringLiteral(" | ")) + QStringLiteral(" is not installed here")));
        }

        // The contents: what `cmake --install` put in the prefix, under /usr.
        const ProgramRun contents = runProgram(QStringLiteral("dpkg-deb"), {QStringLiteral("-c"), deb}, m_env);
        QCOMPARE(contents.exitCode, 0);
        for (const char* path :
             {"./usr/bin/poslab", "./usr/libexec/poslab/poslab-gui",
              "./usr/share/applications/org.poslab.poslab.desktop",
              "./usr/share/metainfo/org.poslab.poslab.metainfo.xml", "./usr/share/doc/poslab/copyright",
              "./usr/share/doc/poslab/LICENSE", "./usr/share/doc/poslab/LICENSE.lessons",
              "./usr/share/icons/hicolor/scalable/apps/poslab.svg", "./usr/share/icons/hicolor/48x48/apps/poslab.png",
              "./usr/share/icons/hicolor/128x128/apps/poslab.png", "./usr/share/icons/hicolor/256x256/apps/poslab.png",
              "./usr/share/man/man1/poslab.1.gz", "./usr/share/man/zh_CN/man1/poslab.1.gz",
              "./usr/share/doc/poslab/changelog.gz", "./usr/share/doc/poslab/README.md"})
            QVERIFY2(contents.out.contains(QString::fromLatin1(path)), path);
        for (const QString& file : filesUnder(sourceCourse()).keys())
            QVERIFY2(contents.out.contains(QStringLiteral("./usr/share/poslab/lessons/") + file), qPrintable(file));
        // Nothing owned by root is left writable by others.
        QVERIFY(!QRegularExpression(QStringLiteral("^\\S{8}w"), QRegularExpression::MultilineOption)
                     .match(contents.out)
                     .hasMatch());

        // Debian's own checks: lintian (scripts/bootstrap.sh test installs it)
        // reports no error. Warnings and infos are printed, not failed on.
        const QString lintian = tool("lintian");
        QVERIFY2(!lintian.isEmpty(), "lintian is missing: run scripts/bootstrap.sh test (package lintian)");
        clock.restart();
        const ProgramRun lint = runProgram(lintian,
                                           {QStringLiteral("--fail-on"), QStringLiteral("error"),
                                            QStringLiteral("--tag-display-limit"), QStringLiteral("0"), deb},
                                           m_env, 300000);
        qInfo("lintian: %lld ms", clock.elapsed());
        for (const QString& line : lint.out.split(u'\n', Qt::SkipEmptyParts))
            if (line.startsWith(u"W: ")) qInfo("lintian: %s", qPrintable(line));
        QVERIFY2(!lint.crashed && lint.exitCode == 0 &&
                     !QRegularExpression(QStringLiteral("^E: "), QRegularExpression::MultilineOption)
                          .match(lint.out)
                          .hasMatch(),
                 qPrintable(describe(lint)));

        // Unpacked into a scratch root, it runs and finds the course in that
        // root's usr/share, relative to itself.
        const QString root = m_tmp.filePath(QStringLiteral("root"));
        const ProgramRun x = runProgram(QStringLiteral("dpkg"), {QStringLiteral("-x"), deb, root}, m_env);
        QVERIFY2(x.exitCode == 0, qPrintable(describe(x)));
        const QString bin = root + QStringLiteral("/usr/bin/poslab");
        const QString course = QDir(root + QStringLiteral("/usr/share/poslab/lessons")).canonicalPath();
        QVERIFY(!course.isEmpty());
        const ProgramRun v = runProgram(bin, {QStringLiteral("--version")}, m_env);
        QVERIFY2(v.exitCode == 0 && v.out.contains(QStringLiteral("course: ") + course + u'\n'),
                 qPrintable(describe(v)));
        const QStringList chapters = QDir(course + QStringLiteral("/zh")).entryList({QStringLiteral("01-*.md")});
        QCOMPARE(chapters.size(), 1);
        const QString title = chapterTitle(course + QStringLiteral("/zh/") + chapters.first());
        QVERIFY(hasHan(title));
        clock.restart();
        const QString text = exportChapterOne(bin, m_tmp.filePath(QStringLiteral("deb-ch1-zh.pdf")));
        qInfo("export of chapter 1 (zh) from the unpacked .deb: %lld ms", clock.elapsed());
        QVERIFY2(!text.isEmpty(), "the export from the unpacked .deb failed or has no text");
        QVERIFY2(text.contains(title), qPrintable(text.left(600)));
    }
};

POSLAB_TEST_MAIN(TestInstall)
#include "tst_install.moc"
