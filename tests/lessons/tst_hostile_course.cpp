// SPDX-License-Identifier: Apache-2.0
// tst_hostile_course.cpp — lesson files written to do harm. A course made in
// a temporary folder by the test (nothing large is committed) holds one chapter
// per attack: images and links that climb out of the course (../../, absolute
// paths, file:// URLs, percent-encoding, symbolic links), a chapter symlinked to
// a file outside, a chapter over the size limit, Markdown nested 10 000 deep,
// tables of 10^5 rows and 10^4 columns, run blocks asking for billions of
// elements, invalid UTF-8, zero-width and right-to-left override characters in
// titles, exercise ids and parameter names, and /regex/ rules that try to
// escape their anchors.
//
// For each: `check` (the loader behind it) reports it at its file:line, or the
// chapter loads and displays safely — in the lesson view (offscreen), with no
// hang, no picture from outside the course and no live link out of it. Then
// the real poslab checks and exports the whole course under strace: it ends
// (no hang), opens nothing outside the course except the
// system's own files and writes nothing except its data folders and the PDF,
// and starts no program; inotify on the folder beside the course (the canary)
// sees no open at all, which also covers reads through symbolic links.
#include "../shared/test_program.h"
#include "lessons/course_loader.h"
#include "lessons/exercise_check.h"
#include "ui/notebook/lesson_view.h"

#include "../shared/test_timing.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFragment>

#include <sys/inotify.h>
#include <unistd.h>
#include "poslab_test_paths.h"

using namespace poslab::lessons;

namespace {

// What "no hang" means here. Loading and showing are synchronous (nothing to
// wait for with an event), so a Watchdog (test_timing.h) watches them: a hang,
// or work that blows up on hostile input (exponential in 10 000 nested
// quotes, quadratic in 10^5 table rows) and runs for minutes where the whole
// course needs seconds, ends the test with a failure, while a slow or busy
// machine passes — how fast they are is the benchmarks' business, never an
// assertion here. Release-build limits, scaled for sanitizer builds.
constexpr qint64 kLoadLimitMs = 60000;
constexpr qint64 kShowLimitMs = 60000;
constexpr int kProcessLimitMs = 300000;

QByteArray frontMatter(const QByteArray& id, const QByteArray& title = "A hostile chapter")
{
    // Lines 1-6; line 7 is blank, so a body starts on line 8.
    return "---\nid: " + id + "\ntitle: " + title + "\nsummary: Written to do harm.\nminutes: 5\n---\n\n";
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

QByteArray repeated(const QByteArray& piece, int n)
{
    QByteArray out;
    out.reserve(piece.size() * n);
    for (int i = 0; i < n; ++i) out += piece;
    return out;
}

// One attack: its chapter file, and what `check` must say (at `line`, a
// message containing `message`); an empty message means the chapter is valid
// Markdown that must simply load and display safely.
struct Attack {
    QByteArray file;
    QByteArray body;  // after the front matter (or the whole file when raw)
    int line = 0;
    QString message;
    bool raw = false;
};

}  // namespace

class TestHostileCourse : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_tmp;
    QString m_course, m_outside, m_canary;
    QList<Attack> m_attacks;
    CourseLoadResult m_loaded;
    int m_inotify = -1;

    const Attack* attack(const QByteArray& file) const
    {
        for (const Attack& a : m_attacks)
            if (a.file == file) return &a;
        return nullptr;
    }
    const Chapter* chapter(const QByteArray& file) const
    {
        for (const Chapter& c : m_loaded.course.chapters)
            if (QFileInfo(c.file).fileName() == QString::fromUtf8(file)) return &c;
        return nullptr;
    }
    QStringList canaryOpens();

private slots:
    void initTestCase();
    void checkReportsEachAttack_data();
    void checkReportsEachAttack();
    void lessonViewShowsSafely_data();
    void lessonViewShowsSafely();
    void regexRulesStayAnchored_data();
    void regexRulesStayAnchored();
    void poslabReadsAndRunsNothingOutside_data();
    void poslabReadsAndRunsNothingOutside();
    void canaryNeverOpened();
    void cleanupTestCase();
};

void TestHostileCourse::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    m_course = m_tmp.filePath(QStringLiteral("course"));
    m_outside = m_tmp.filePath(QStringLiteral("outside"));
    m_canary = m_outside + QStringLiteral("/canary.png");
    QVERIFY(QDir().mkpath(m_course + QStringLiteral("/en")));
    QVERIFY(QDir().mkpath(m_course + QStringLiteral("/images")));
    QVERIFY(QDir().mkpath(m_outside));
    // The canary: a picture and a chapter-like file outside the course, which
    // nothing may open, and a legitimate picture inside it.
    QImage red(8, 8, QImage::Format_RGB32);
    red.fill(Qt::red);
    QVERIFY(red.save(m_canary));
    QVERIFY(
        writeFile(m_outside + QStringLiteral("/secret.md"), frontMatter("secret") + "A secret outside the course.\n"));
    QVERIFY(red.save(m_course + QStringLiteral("/images/inside.png")));
    QVERIFY(QFile::link(QStringLiteral("../../outside/canary.png"), m_course + QStringLiteral("/images/link.png")));
    QVERIFY(QFile::link(QStringLiteral("../../outside/secret.md"), m_course + QStringLiteral("/en/40-symlinked.md")));

    const QByteArray abs = m_outside.toUtf8();
    const QByteArray rlo = QStringLiteral("\u202E").toUtf8();   // RIGHT-TO-LEFT OVERRIDE
    const QByteArray zwsp = QStringLiteral("\u200B").toUtf8();  // ZERO WIDTH SPACE
    const QByteArray exercise = "```exercise regex-escape\nkind: text\nquestion: Name it.\n";
    m_attacks = {
        {"01-image-traversal.md", "![canary](../../outside/canary.png)\n", 8,
         "image '../../outside/canary.png' is outside the course folder"},
        {"02-image-etc-passwd.md", "![p](../../../../../../../../../../etc/passwd)\n", 8,
         "is outside the course folder"},
        {"03-image-absolute.md", "![c](" + abs + "/canary.png)\n", 8,
         "must be a relative path inside the course folder"},
        {"04-image-file-url.md", "![c](file://" + abs + "/canary.png)\n", 8,
         "must be a relative path inside the course folder"},
        {"05-image-percent.md", "![c](%2e%2e/%2e%2e/outside/canary.png)\n", 8, "is outside the course folder"},
        {"06-image-symlink.md", "![c](../images/link.png)\n", 8,
         "leads outside the course folder (through a symbolic link)"},
        {"07-link-traversal.md", "Read [this](../../outside/secret.md).\n", 8,
         "link '../../outside/secret.md' is outside the course folder"},
        {"08-link-file-url.md", "Read [this](file:///etc/passwd).\n", 8, "link 'file:///etc/passwd' is not allowed"},
        {"09-link-absolute.md", "Read [this](/etc/passwd).\n", 8, "link '/etc/passwd' is not allowed"},
        {"10-link-javascript.md", "Read [this](javascript:alert(1)).\n", 8, "is not allowed"},
        {"11-link-symlink.md", "See [the picture](../images/link.png).\n", 8,
         "link '../images/link.png' leads outside the course folder"},
        // 5 MB of ordinary lines: over the 4 MB limit, reported for the whole file.
        {"12-too-large.md", repeated(repeated("x", 99) + "\n", 50000), 0, "file is too large"},
        {"13-nested-quotes.md", repeated("> ", 10000) + "deep\n", 8, "nested more than 32 levels deep"},
        {"14-nested-lists.md", repeated("- ", 10000) + "deep\n", 8, "nested more than 32 levels deep"},
        {"15-nested-ordered.md", repeated("1. ", 10000) + "deep\n", 8, "nested more than 32 levels deep"},
        {"16-nested-mixed.md", repeated("> - ", 5000) + "deep\n", 8, "nested more than 32 levels deep"},
        {"17-table-rows.md", "| a |\n|---|\n" + repeated("| x |\n", 100000), 8, "table of 100001 rows and 1 columns"},
        {"18-table-columns.md",
         "|" + repeated(" a |", 10000) + "\n|" + repeated("---|", 10000) + "\n|" + repeated(" x |", 10000) + "\n", 0,
         QString()},
        {"19-billion-params.md", "```run sinusoidal.matrix positions=1000000000 dim=2147483647\n```\n", 8, "positions"},
        {"20-billion-vary.md", "```run sinusoidal.matrix\nvary: positions 1..1000000000\n```\n", 9, "positions"},
        {"21-billion-exercise.md",
         "```exercise huge-run\nkind: run\nquestion: Try it.\nmodule: sinusoidal.matrix\nparams: positions=99999999999999999999 dim=64\n"
         "condition: max(wavelengths) > 1\nanswer: positions=8\n```\n",
         11, "positions"},
        {"22-invalid-utf8.md", "Fine text.\nBad \xff\xfe bytes here.\n", 9, "not valid UTF-8"},
        {"23-rlo-title.md", frontMatter("rlo-title", "Lesson " + rlo + "fdp.exe") + "Body.\n", 3, "U+202E", true},
        {"24-zwsp-exercise-id.md", "```exercise zero" + zwsp + "width\nkind: number\nquestion: Q?\nanswer: 1\n```\n", 8,
         "U+200B"},
        {"25-zwsp-param-name.md", "```run sinusoidal.matrix dim" + zwsp + "=64\n```\n", 8, "U+200B"},
        {"26-rlo-param-value.md", "```run sinusoidal.matrix\nvary: dim" + rlo + " 2..64\n```\n", 9, "U+202E"},
        {"27-regex-unbalanced.md", exercise + "accept: /a)|(b/\n```\n", 11, "invalid regular expression /a)|(b/"},
        {"28-regex-verb.md", exercise + "accept: /a(*ACCEPT)/\n```\n", 11, "backtracking verbs"},
        {"29-regex-comment.md", exercise + "accept: /(?#[)a(*ACCEPT)/\n```\n", 11, "backtracking verbs"},
        // Pathological but valid Markdown: loads and displays.
        {"30-brackets.md", repeated("[", 50000) + "\n", 0, QString()},
        {"32-emphasis.md", repeated("*a", 20000) + "\n", 0, QString()},
        {"34-image-inside.md", "A picture that belongs: ![inside](../images/inside.png)\n", 0, QString()},
        {"33-code-spans.md", repeated("`a` ", 20000) + "\n", 0, QString()},
        {"31-nested-29.md", repeated("> ", 29) + "deep but allowed\n", 0, QString()},
        {"40-symlinked.md", QByteArray(), 0, "the chapter leads outside the course folder (through a symbolic link)"},
    };
    for (const Attack& a : m_attacks) {
        if (a.file == "40-symlinked.md") continue;  // the symbolic link made above
        const QByteArray slug = a.file.mid(3, a.file.size() - 6);
        QVERIFY(writeFile(m_course + QStringLiteral("/en/") + QString::fromUtf8(a.file),
                          a.raw ? a.body : frontMatter(slug) + a.body));
    }

    // From here on the canary's folder is watched: nothing may open anything in it.
    m_inotify = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    QVERIFY(m_inotify >= 0);
    QVERIFY(::inotify_add_watch(m_inotify, m_outside.toLocal8Bit().constData(), IN_OPEN | IN_ACCESS) >= 0);

    QElapsedTimer clock;  // for the log only
    clock.start();
    {
        poslab::testing::Watchdog guard(kLoadLimitMs, "loading the hostile course");
        m_loaded = loadCourse(m_course, QStringLiteral("en"));
    }
    qInfo("the hostile course loaded in %lld ms", clock.elapsed());
}

void TestHostileCourse::checkReportsEachAttack_data()
{
    QTest::addColumn<QByteArray>("file");
    for (const Attack& a : m_attacks)
        if (!a.message.isEmpty()) QTest::newRow(a.file.constData()) << a.file;
}

void TestHostileCourse::checkReportsEachAttack()
{
    QFETCH(QByteArray, file);
    const Attack* a = attack(file);
    QVERIFY(a);
    QStringList here;
    bool found = false;
    for (const Diagnostic& d : m_loaded.diagnostics) {
        if (QFileInfo(d.file).fileName() != QString::fromUtf8(file)) continue;
        here << d.toString();
        if (d.line == a->line && d.message.contains(a->message)) found = true;
    }
    QVERIFY2(
        found,
        qPrintable(QStringLiteral("expected line %1: '%2'; got:\n%3").arg(a->line).arg(a->message, here.join(u'\n'))));
    // Printed as `poslab check` prints it: file:line: message (file: message for the whole file).
    const QString expectedPrefix = a->line > 0 ? QStringLiteral("%1:%2: ").arg(QString::fromUtf8(file)).arg(a->line)
                                               : QString::fromUtf8(file) + QStringLiteral(": ");
    QVERIFY(std::any_of(here.cbegin(), here.cend(), [&](const QString& s) { return s.contains(expectedPrefix); }));
}

void TestHostileCourse::lessonViewShowsSafely_data()
{
    QTest::addColumn<QByteArray>("file");
    for (const Attack& a : m_attacks) QTest::newRow(a.file.constData()) << a.file;
}

void TestHostileCourse::lessonViewShowsSafely()
{
    QFETCH(QByteArray, file);
    const Chapter* ch = chapter(file);
    if (file == "40-symlinked.md") {
        // Never read, so there is nothing to show.
        QVERIFY(!ch);
        return;
    }
    QVERIFY(ch);
    const int index = int(ch - m_loaded.course.chapters.constData());
    poslab::ui::LessonView view(nullptr, nullptr);
    view.resize(900, 700);
    view.show();
    QElapsedTimer clock;  // for the log only
    clock.start();
    int images = 0;
    // Every step is shown, laid out and painted, or the watchdog fails the test.
    poslab::testing::Watchdog guard(kShowLimitMs,
                                    qPrintable(QStringLiteral("showing %1").arg(QString::fromUtf8(file))));
    for (int s = 0; s < ch->steps.size(); ++s) {
        view.showStep(m_loaded.course, index, s);
        QCoreApplication::processEvents();
        const QPixmap shot = view.grab();  // lays out and paints every block
        QVERIFY(!shot.isNull());
        for (poslab::ui::MarkdownBrowser* text : view.textBlocks()) {
            QTextDocument* doc = text->document();
            // No picture from outside the course, no live link out of it.
            // (Not doc->resource(): a QTextBrowser loads a missing resource
            // from its file, which is what must never happen.)
            for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
                for (auto it = b.begin(); !it.atEnd(); ++it) {
                    const QTextCharFormat f = it.fragment().charFormat();
                    if (f.isImageFormat()) {
                        ++images;
                        const QString name = QUrl(f.toImageFormat().name()).toLocalFile();
                        QVERIFY2(name.startsWith(QFileInfo(m_course).canonicalFilePath() + u'/'), qPrintable(name));
                    }
                    if (!f.isAnchor()) continue;
                    const QString href = f.anchorHref();
                    QVERIFY2(!href.contains(u"outside") && !href.contains(u"passwd") && !href.startsWith(u"file:") &&
                                 !href.startsWith(u"javascript:") && !href.contains(u"link.png"),
                             qPrintable(href));
                }
        }
    }
    qInfo("%s: %lld steps shown in %lld ms", file.constData(), qlonglong(ch->steps.size()), clock.elapsed());
    // The one picture inside the course is shown; none from outside ever is.
    QCOMPARE(images, file == "34-image-inside.md" ? 1 : 0);
}

void TestHostileCourse::regexRulesStayAnchored_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("answer");
    // Each rule is refused by check; the checker must never accept through it.
    QTest::newRow("unbalanced )") << "a)|(b"
                                  << "a and anything after";
    QTest::newRow("unbalanced ) whole") << "a)|(b"
                                        << "a";
    QTest::newRow("(*ACCEPT)") << "a(*ACCEPT)"
                               << "abc";
    QTest::newRow("verb after comment") << "(?#[)a(*ACCEPT)"
                                        << "abc";
    QTest::newRow("unclosed \\Q") << "a\\Q"
                                  << "a";
    QTest::newRow("extended comment") << "(?x)a#"
                                      << "a";
}

void TestHostileCourse::regexRulesStayAnchored()
{
    QFETCH(QString, rule);
    QFETCH(QString, answer);
    QString why;
    QVERIFY(!compileAcceptRegex(rule, false, &why).isValid());
    QVERIFY(!why.isEmpty());
    ExerciseBlock ex;
    ex.kind = ExerciseKind::Text;
    AcceptRule r;
    r.isRegex = true;
    r.pattern = rule;
    ex.accept.append(r);
    QVERIFY(!checkText(ex, answer).correct);
    // A sound rule still matches the whole answer and only the whole answer.
    ex.accept[0].pattern = QStringLiteral("a|ab");
    QVERIFY(checkText(ex, QStringLiteral("ab")).correct);
    QVERIFY(!checkText(ex, QStringLiteral("abc")).correct);
}

QStringList TestHostileCourse::canaryOpens()
{
    QStringList events;
    alignas(inotify_event) char buffer[8192];
    for (;;) {
        const ssize_t n = ::read(m_inotify, buffer, sizeof buffer);
        if (n <= 0) break;
        for (char* p = buffer; p < buffer + n;) {
            auto* e = reinterpret_cast<inotify_event*>(p);
            events << QStringLiteral("%1 (mask %2)")
                          .arg(e->len ? QString::fromLocal8Bit(e->name) : QStringLiteral("the folder"))
                          .arg(e->mask, 0, 16);
            p += sizeof(inotify_event) + e->len;
        }
    }
    return events;
}

void TestHostileCourse::poslabReadsAndRunsNothingOutside_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QList<int>>("exitCodes");
    QTest::newRow("check") << QStringList{QStringLiteral("check"), QStringLiteral("COURSE")} << QList<int>{2};
    QTest::newRow("export") << QStringList{QStringLiteral("export"), QStringLiteral("--course"),
                                           QStringLiteral("COURSE"), QStringLiteral("--lang"),
                                           QStringLiteral("en"),     QStringLiteral("--no-train"),
                                           QStringLiteral("-o"),     QStringLiteral("OUT")}
                            << QList<int>{0};
}

void TestHostileCourse::poslabReadsAndRunsNothingOutside()
{
    QFETCH(QStringList, arguments);
    QFETCH(QList<int>, exitCodes);
    const QString strace = QStandardPaths::findExecutable(QStringLiteral("strace"));
    QVERIFY2(!strace.isEmpty(), "strace is needed to watch what poslab opens (scripts/bootstrap.sh installs it)");
    {
        QProcess probe;
        probe.start(strace, {QStringLiteral("-f"), QStringLiteral("-qq"), QStringLiteral("-o"),
                             QStringLiteral("/dev/null"), QStringLiteral("true")});
        QVERIFY(probe.waitForFinished(poslab::testing::scaledMs(30000)));
        QVERIFY2(probe.exitCode() == 0, qPrintable(QStringLiteral("strace cannot trace here (ptrace refused?): ") +
                                                   QString::fromLocal8Bit(probe.readAllStandardError())));
    }

    const QString work = m_tmp.filePath(QStringLiteral("work"));
    const QString home = m_tmp.filePath(QStringLiteral("home"));
    const QString out = work + QStringLiteral("/report.pdf");
    QVERIFY(QDir().mkpath(work));
    QVERIFY(QDir().mkpath(home + QStringLiteral("/runtime")));
    QFile::setPermissions(home + QStringLiteral("/runtime"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    arguments.replaceInStrings(QStringLiteral("COURSE"), m_course);
    arguments.replaceInStrings(QStringLiteral("OUT"), out);
    const QString log = work + QStringLiteral("/strace.log");

    QProcess p;
    p.setWorkingDirectory(work);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/cache"));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home + QStringLiteral("/runtime"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.remove(QStringLiteral("LC_ALL"));
    // LeakSanitizer cannot run under ptrace (the ASan build): leaks are
    // checked by every other run of poslab, not by this traced one.
    const QString asan = env.value(QStringLiteral("ASAN_OPTIONS"));
    env.insert(QStringLiteral("ASAN_OPTIONS"),
               asan.isEmpty() ? QStringLiteral("detect_leaks=0") : asan + QStringLiteral(":detect_leaks=0"));
    p.setProcessEnvironment(env);
    QStringList straceArgs = {QStringLiteral("-f"),
                              QStringLiteral("-qq"),
                              QStringLiteral("-s"),
                              QStringLiteral("4096"),
                              QStringLiteral("-e"),
                              QStringLiteral("trace=open,openat,openat2,creat,execve,execveat"),
                              QStringLiteral("-o"),
                              log,
                              QStringLiteral(POSLAB_EXECUTABLE)};
    p.start(strace, straceArgs + arguments);
    QVERIFY(p.waitForStarted(poslab::testing::scaledMs(30000)));
    QElapsedTimer clock;  // for the log only
    clock.start();
    if (!p.waitForFinished(poslab::testing::scaledMs(kProcessLimitMs))) {
        p.kill();
        p.waitForFinished(poslab::testing::scaledMs(30000));
        QFAIL("poslab did not finish within its time limit on the hostile course (a hang)");
    }
    const QByteArray err = p.readAllStandardError();
    qInfo("poslab %s: exit %d in %lld ms", qPrintable(arguments.first()), p.exitCode(), clock.elapsed());
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(exitCodes.contains(p.exitCode()), err.constData());
    if (arguments.first() == u"export") QVERIFY(QFileInfo(out).size() > 0);

    QFile f(log);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString tmpRoot = QFileInfo(m_tmp.path()).canonicalFilePath();
    // Where reading is fine: the course; the system (libraries, fonts,
    // locales, /proc, /sys, /dev); the program's own data folders.
    const QStringList readable = {QFileInfo(m_course).canonicalFilePath() + u'/', tmpRoot + QStringLiteral("/home/"),
                                  tmpRoot + QStringLiteral("/work/"), tmpRoot + QStringLiteral("/work")};
    // Where writing is fine: the data folders and the export path.
    const QStringList writable = {tmpRoot + QStringLiteral("/home/"), out, QStringLiteral("/dev/")};
    static const QRegularExpression call(
        QStringLiteral("^\\d+\\s+(\\w+)\\((?:AT_FDCWD, )?\"((?:[^\"\\\\]|\\\\.)*)\"(.*)$"));
    int programs = 0, guiPrograms = 0;
    const QString poslabGui =
        QFileInfo(QStringLiteral(POSLAB_EXECUTABLE)).absolutePath() + QStringLiteral("/poslab-gui");
    bool sawChapter = false;  // the log is read right: it shows the course being read
    QStringList violations;
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        const auto m = call.match(line);
        if (!m.hasMatch()) continue;
        const QString sys = m.captured(1);
        QString path = m.captured(2);
        if (QDir::isRelativePath(path)) path = QDir::cleanPath(work + u'/' + path);
        if (sys.startsWith(u"execve")) {
            // poslab, and poslab-gui for a command that draws (src/app/drawing.h): the same process.
            if (path != QStringLiteral(POSLAB_EXECUTABLE) && path != poslabGui)
                violations << QStringLiteral("started a program: ") + line;
            else
                ++(path == poslabGui ? guiPrograms : programs);
            continue;
        }
        const QString rest = m.captured(3);
        if (path.endsWith(QLatin1String("/en/01-image-traversal.md"))) sawChapter = true;
        const bool writes =
            sys == u"creat" || rest.contains(u"O_WRONLY") || rest.contains(u"O_RDWR") || rest.contains(u"O_CREAT");
        // QSaveFile makes the PDF as an unnamed file (O_TMPFILE) in its folder.
        const bool exportFile = rest.contains(u"O_TMPFILE") && path == QFileInfo(out).absolutePath();
        const QString canonical = QFileInfo(path).canonicalFilePath();
        const QString real = canonical.isEmpty() ? path : canonical;
        if (path == u"/etc/passwd" || real == u"/etc/passwd" || real.startsWith(m_outside) ||
            path.startsWith(m_outside))
            violations << QStringLiteral("opened outside the course: ") + line;
        else if (real.startsWith(tmpRoot + u'/') &&
                 !std::any_of(readable.cbegin(), readable.cend(), [&](const QString& r) { return real.startsWith(r); }))
            violations << QStringLiteral("opened outside the course: ") + line;
        if (writes && !exportFile &&
            !std::any_of(writable.cbegin(), writable.cend(), [&](const QString& w) { return path.startsWith(w); }))
            violations << QStringLiteral("wrote outside the data folders and the export path: ") + line;
    }
    QVERIFY2(sawChapter, "the strace log shows no chapter being opened: it was not read right");
    QVERIFY2(violations.isEmpty(), qPrintable(violations.join(u'\n')));
    QCOMPARE(programs, 1);                                          // poslab itself, and nothing else
    QCOMPARE(guiPrograms, arguments.first() == u"export" ? 1 : 0);  // in place of poslab, to draw the PDF
    const QStringList canary = canaryOpens();
    QVERIFY2(canary.isEmpty(), qPrintable(QStringLiteral("the canary folder was opened: ") + canary.join(u", ")));
}

void TestHostileCourse::canaryNeverOpened()
{
    // Everything above (loading, the lesson view, check, export) is done.
    const QStringList canary = canaryOpens();
    QVERIFY2(canary.isEmpty(), qPrintable(QStringLiteral("the canary folder was opened: ") + canary.join(u", ")));
}

void TestHostileCourse::cleanupTestCase()
{
    if (m_inotify >= 0) ::close(m_inotify);
}

POSLAB_TEST_MAIN(TestHostileCourse)
#include "tst_hostile_course.moc"
