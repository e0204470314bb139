#include "app/help_text.h"

#include "core/matmul.h"
#include "lessons/course_loader.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QSysInfo>
#include <QtGlobal>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "unknown"
#endif
#ifndef POSLAB_BUILD_TYPE
#define POSLAB_BUILD_TYPE "unknown"
#endif

namespace poslab::app {

namespace {

bool isZh(const QString& lang) { return lang == u"zh"; }

// The language a locale name stands for, or empty for one we do not have.
QString languageOf(const QString& locale)
{
    if (locale.startsWith(u"zh")) return QStringLiteral("zh");
    if (locale.startsWith(u"en")) return QStringLiteral("en");
    return {};
}

QString compilerText()
{
#if defined(__clang__)
    return QStringLiteral("Clang %1.%2.%3").arg(__clang_major__).arg(__clang_minor__).arg(__clang_patchlevel__);
#elif defined(__GNUC__)
    return QStringLiteral("GCC %1.%2.%3").arg(__GNUC__).arg(__GNUC_MINOR__).arg(__GNUC_PATCHLEVEL__);
#else
    return QStringLiteral("unknown compiler");
#endif
}

// openblas_get_config() reads like "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY
// Haswell MAX_THREADS=64": the version, then how the library was built and the
// CPU kernel it chose at run time.
void splitBlasConfig(QString* version, QString* config)
{
    const char* raw = poslab::blas_config();
    QString s = raw ? QString::fromLatin1(raw).simplified() : QString();
    if (s.startsWith(u"OpenBLAS ")) {
        s = s.mid(9);
        *version = s.section(u' ', 0, 0);
        *config = s.section(u' ', 1);
    } else {
        *version = QString();
        *config = s;
    }
}

const char* kUsageEn =
    "PosLab %1 — a notebook that teaches positional encoding in Transformers\n"
    "\n"
    "Usage:\n"
    "  poslab [--course DIR] [--lang zh|en]\n"
    "      Open the notebook window. Without a display, export the whole course\n"
    "      as poslab-report.pdf in the current folder instead.\n"
    "  poslab list [--format text|json] [--lang en|zh]\n"
    "      List the runnable modules and their parameters.\n"
    "  poslab run MODULE [name=value ...] [--format text|json|csv] [--lang en|zh]\n"
    "      Run one module; `poslab run MODULE --help` explains its parameters.\n"
    "  poslab export [--lang zh|en] [--chapters 1,3-5] [--student NAME] [--answers FILE] -o FILE.pdf\n"
    "      Export the course, or some of its chapters, as a PDF report. Chapters\n"
    "      that show training results use the latest stored run and train one\n"
    "      first if there is none (--no-train skips that); `poslab export --help`\n"
    "      lists every option.\n"
    "  poslab check [DIR]\n"
    "      Check a course folder (its en/ and zh/ chapters); each problem is\n"
    "      printed as file:line: message.\n"
    "  poslab train [--corpus NAME|FILE] [--position rope|alibi|...] [--steps N] [--save FILE] [--sample N]\n"
    "      Train one tiny character-level language model on English fortunes,\n"
    "      Chinese poems, a synthetic task or a text file of your own;\n"
    "      `poslab train --help` lists every option.\n"
    "  poslab experiment length [--corpus NAME|FILE] [--train-ctx 64] [--eval-lengths 64,128,256,512] [--quick]\n"
    "      Train short, test long: every position scheme on the same budget, then\n"
    "      the loss at longer lengths.\n"
    "  poslab --version [--lang zh|en]\n"
    "      Print the version, with the Qt and OpenBLAS it runs on.\n"
    "  poslab --help [--lang zh|en]\n"
    "      Print this help.\n"
    "\n"
    "Language: --lang zh|en where a command takes it; otherwise Chinese when\n"
    "LANGUAGE, LC_ALL, LC_MESSAGES or LANG (the first one set) starts with \"zh\",\n"
    "English otherwise.\n"
    "\n"
    "Environment:\n"
    "  POSLAB_COURSE_DIR    the course to open instead of the one installed with PosLab\n"
    "  POSLAB_FORTUNES_DIR  where the fortune files for the training lab are\n"
    "\n"
    "Examples:\n"
    "  poslab run rope.inv_freq scaling=yarn factor=4 --format json\n"
    "  poslab run alibi.slopes heads=12\n"
    "  poslab run sinusoidal.matrix positions=64 dim=32 --format csv > pe.csv\n"
    "  poslab export --lang zh --chapters 5 -o rope.pdf\n"
    "\n"
    "Exit status: 0 success; 2 a usage or parameter error; 1 any other error.\n";

const char* kUsageZh =
    "PosLab %1 —— 一本讲解 Transformer 位置编码的笔记本\n"
    "\n"
    "用法：\n"
    "  poslab [--course 目录] [--lang zh|en]\n"
    "      打开笔记本窗口。没有显示器时，改为把整门课程导出到当前文件夹的\n"
    "      poslab-report.pdf。\n"
    "  poslab list [--format text|json] [--lang en|zh]\n"
    "      列出所有可以运行的模块和它们的参数。\n"
    "  poslab run 模块 [参数名=值 ...] [--format text|json|csv] [--lang en|zh]\n"
    "      运行一个模块；`poslab run 模块 --help` 会解释它的参数。\n"
    "  poslab export [--lang zh|en] [--chapters 1,3-5] [--student 姓名] [--answers 文件] -o 文件.pdf\n"
    "      把整门课程或其中几章导出为 PDF 报告。展示训练结果的章节使用最近保存的\n"
    "      一次训练；还没有保存过时会先训练一次（--no-train 跳过这一步）。\n"
    "      全部选项见 `poslab export --help`。\n"
    "  poslab check [目录]\n"
    "      检查一个课程文件夹（en/ 和 zh/ 下的各章），每个问题按\n"
    "      “文件:行号: 说明”的格式列出。\n"
    "  poslab train [--corpus 名称|文件] [--position rope|alibi|...] [--steps 步数] [--save 文件] [--sample 字数]\n"
    "      用英文格言、中文诗词、合成任务或你自己的文本文件训练一个字符级的\n"
    "      小语言模型；全部选项见 `poslab train --help`。\n"
    "  poslab experiment length [--corpus 名称|文件] [--train-ctx 64] [--eval-lengths 64,128,256,512] [--quick]\n"
    "      “短训练、长测试”：用同样的训练预算训练每一种位置编码，再比较它们在\n"
    "      更长文本上的损失。\n"
    "  poslab --version [--lang zh|en]\n"
    "      显示版本号，以及所用的 Qt 和 OpenBLAS。\n"
    "  poslab --help [--lang zh|en]\n"
    "      显示这份帮助。\n"
    "\n"
    "语言：支持 --lang 的命令以它为准；没有指定时，看环境变量 LANGUAGE、LC_ALL、\n"
    "LC_MESSAGES、LANG 中第一个有值的：以“zh”开头就用中文，否则用英文。\n"
    "\n"
    "环境变量：\n"
    "  POSLAB_COURSE_DIR    打开这个课程，而不是随 PosLab 安装的课程\n"
    "  POSLAB_FORTUNES_DIR  训练实验室所用 fortune 语料文件所在的目录\n"
    "\n"
    "示例：\n"
    "  poslab run rope.inv_freq scaling=yarn factor=4 --format json\n"
    "  poslab run alibi.slopes heads=12\n"
    "  poslab run sinusoidal.matrix positions=64 dim=32 --format csv > pe.csv\n"
    "  poslab export --lang zh --chapters 5 -o rope.pdf\n"
    "\n"
    "退出状态：0 表示成功；2 表示用法或参数有误；1 表示其他错误。\n";

}  // namespace

QString languageFromEnvironment()
{
    // LANGUAGE is a priority list ("fr:zh_CN:en"): the first we have wins.
    const QStringList priority = qEnvironmentVariable("LANGUAGE").split(u':', Qt::SkipEmptyParts);
    for (const QString& entry : priority) {
        const QString lang = languageOf(entry);
        if (!lang.isEmpty()) return lang;
    }
    for (const char* name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const QString value = qEnvironmentVariable(name);
        if (value.isEmpty()) continue;
        return languageOf(value) == u"zh" ? QStringLiteral("zh") : QStringLiteral("en");
    }
    return QStringLiteral("en");
}

QString usageText(const QString& lang)
{
    return QString::fromUtf8(isZh(lang) ? kUsageZh : kUsageEn).arg(QStringLiteral(POSLAB_VERSION));
}

QString versionText(const QString& lang)
{
    const bool zh = isZh(lang);
    QString blasVersion, blasConfig;
    splitBlasConfig(&blasVersion, &blasConfig);
    const int threads = poslab::blas_num_threads();
    const QString course = QDir::cleanPath(QFileInfo(lessons::defaultCourseDir()).absoluteFilePath());
    const bool courseFound = QFileInfo(course + QStringLiteral("/en")).isDir() && QFileInfo(course + QStringLiteral("/zh")).isDir();
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    const QString qtRun = QString::fromLatin1(qVersion());
    const QString qtBuilt = QStringLiteral(QT_VERSION_STR);

    QString s = QStringLiteral("poslab %1\n").arg(QStringLiteral(POSLAB_VERSION));
    if (zh) {
        s += QStringLiteral("  Qt：%1（编译时为 %2）\n").arg(qtRun, qtBuilt);
        s += blasVersion.isEmpty()
                 ? QStringLiteral("  OpenBLAS：%1，%2 个线程\n").arg(blasConfig).arg(threads)
                 : QStringLiteral("  OpenBLAS：%1（%2），%3 个线程\n").arg(blasVersion, blasConfig).arg(threads);
        s += QStringLiteral("  构建：%1，%2，%3\n").arg(QStringLiteral(POSLAB_BUILD_TYPE), compilerText(),
                                                     QSysInfo::buildCpuArchitecture());
        s += courseFound ? QStringLiteral("  课程：%1\n").arg(course)
                         : QStringLiteral("  课程：%1（找不到这个文件夹）\n").arg(course);
        s += QStringLiteral("  用户数据：%1\n").arg(data);
    } else {
        const QString threadsEn = threads == 1 ? QStringLiteral("1 thread") : QStringLiteral("%1 threads").arg(threads);
        s += QStringLiteral("  Qt: %1 (built with %2)\n").arg(qtRun, qtBuilt);
        s += blasVersion.isEmpty()
                 ? QStringLiteral("  OpenBLAS: %1, %2\n").arg(blasConfig, threadsEn)
                 : QStringLiteral("  OpenBLAS: %1 (%2), %3\n").arg(blasVersion, blasConfig, threadsEn);
        s += QStringLiteral("  build: %1, %2, %3\n").arg(QStringLiteral(POSLAB_BUILD_TYPE), compilerText(),
                                                       QSysInfo::buildCpuArchitecture());
        s += courseFound ? QStringLiteral("  course: %1\n").arg(course)
                         : QStringLiteral("  course: %1 (this folder is missing)\n").arg(course);
        s += QStringLiteral("  user data: %1\n").arg(data);
    }
    return s;
}

InfoRequest parseInfoRequest(const QStringList& args)
{
    InfoRequest r;
    auto isInfoWord = [](const QString& a) {
        return a == u"--help" || a == u"-h" || a == u"help" || a == u"--version";
    };
    // `poslab run --help` and the like belong to their command.
    if (args.isEmpty() || !(isInfoWord(args.first()) || args.first() == u"--lang" || args.first().startsWith(u"--lang=")))
        return r;
    InfoRequest::Kind kind = InfoRequest::Kind::None;
    QString lang, unexpected;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == u"--help" || a == u"-h" || a == u"help") {
            if (kind == InfoRequest::Kind::None) kind = InfoRequest::Kind::Help;
        } else if (a == u"--version") {
            kind = InfoRequest::Kind::Version;  // "--help --version": the version, as most tools do
        } else if (a == u"--lang") {
            if (i + 1 >= args.size()) {
                lang = QStringLiteral("?");  // reported below if this is an info request
                break;
            }
            lang = args[++i];
        } else if (a.startsWith(u"--lang=")) {
            lang = a.mid(7);
        } else if (unexpected.isEmpty()) {
            unexpected = a;
        }
    }
    if (kind == InfoRequest::Kind::None) return r;  // e.g. `poslab --lang zh` opens the window
    if (!unexpected.isEmpty()) {
        r.error = QStringLiteral("'%1' cannot be combined with %2; only --lang zh|en can")
                      .arg(unexpected.left(60), kind == InfoRequest::Kind::Help ? QStringLiteral("--help")
                                                                                 : QStringLiteral("--version"));
        return r;
    }
    if (lang == u"?") {
        r.error = QStringLiteral("option --lang needs a value (zh or en)");
        return r;
    }
    if (lang.isEmpty()) lang = languageFromEnvironment();
    if (lang != u"en" && lang != u"zh") {
        r.error = QStringLiteral("--lang '%1' is not allowed; expected en or zh").arg(lang.left(60));
        return r;
    }
    r.kind = kind;
    r.lang = lang;
    return r;
}

}  // namespace poslab::app
