// SPDX-License-Identifier: Apache-2.0
#include "app/help_text.h"

#include "app/command_options.h"
#include "classroom/assignment.h"

#include "core/blas_kernel_choice.h"
#include "core/matmul.h"
#include "lessons/course_loader.h"
#include "modules/blas_kernel_text.h"

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

bool isZh(const QString& lang)
{
    return lang == u"zh";
}

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
    "  poslab [--course DIR] [--lang zh|en] [--watch]\n"
    "      Open the notebook window. Without a display, export the whole course\n"
    "      as poslab-report.pdf in the current folder instead. --watch: live\n"
    "      preview, the chapter shown again each time its file is saved.\n"
    "  poslab list [--format text|json] [--lang en|zh]\n"
    "      List the runnable modules and their parameters.\n"
    "  poslab run MODULE [name=value ...] [--format text|json|csv] [--explain NAME:ROW,COL|NAME:INDEX]\n"
    "             [--lang en|zh]\n"
    "      Run one module; `poslab run MODULE --help` explains its parameters\n"
    "      and outputs; --explain shows how one value came about: cell ROW,COL of a\n"
    "      matrix output or point INDEX (from 0) of a series (JSON: output, row and col\n"
    "      or index and x, value, formula as TeX, substituted).\n"
    "  poslab export [--lang zh|en] [--chapters 1,3-5] [--student NAME] [--answers FILE] [--run ID] [--strict]\n"
    "                [--paper a4|letter] [--no-hints | --answers-only] [--compact] -o FILE.pdf\n"
    "      Export the course, or some of its chapters, as a PDF report. Chapters\n"
    "      that show training results use the latest complete stored run (or\n"
    "      --run ID); export never trains unless --train \"OPTIONS\" asks it to.\n"
    "      Without --answers it shows the answers saved in the window, if any.\n"
    "      `poslab export --help` lists every option.\n"
    "  poslab check [DIR] [--strict]\n"
    "      Check a course folder (its en/ and zh/ chapters); each problem is\n"
    "      printed as file:line: message. --strict: warnings count as errors.\n"
    "  poslab new NN-slug [--course DIR]\n"
    "      Write a new chapter's en/ and zh/ skeletons, one block of each kind.\n"
    "  poslab preview FILE [--step N] -o FILE.png\n"
    "      Draw one step of a chapter as a PNG image.\n"
    "  poslab train [--corpus NAME|FILE] [--position rope|alibi|...] [--steps N] [--save FILE] [--sample N]\n"
    "      Train one tiny character-level language model on English fortunes,\n"
    "      Chinese poems, a synthetic task or a text file of your own;\n"
    "      `poslab train --help` lists every option.\n"
    "  poslab experiment length [--corpus NAME|FILE] [--train-ctx 64] [--eval-lengths 64,128,256,512] [--quick]\n"
    "      Train short, test long: every position scheme on the same budget, then\n"
    "      the loss at longer lengths.\n"
    "  poslab experiment generalize [--task copy|reverse|addition|passkey|all] [--quick]\n"
    "      Train short, test long on synthetic tasks: exact match per length for\n"
    "      every position scheme, and which schemes did not learn the task.\n"
    "  poslab runs list|show ID|remove ID [--format text|json] [--lang en|zh]\n"
    "      The stored training runs (with their trained models): list them, show\n"
    "      one, remove one; `poslab runs --help` says more.\n"
    "  poslab assignment create|show|answer|submit|open ...\n"
    "      Classroom: make an assignment from chapters of the course, answer it,\n"
    "      hand the answers in; `poslab assignment --help` explains each step.\n"
    "  poslab grade ASSIGNMENT ANSWERS... [--format text|json|csv] [-o CLASS.pdf]\n"
    "      Grade answer files; `poslab grade --help` lists every option.\n"
    "  poslab doctor [--lang en|zh] [--format text|json]\n"
    "      What to paste into a bug report: the processor, the BLAS kernels and\n"
    "      their speed, fonts, MathJax and PosLab's folders.\n"
    "  poslab --version [--lang zh|en]\n"
    "      Print the version, with the Qt, OpenBLAS and BLAS kernels it runs on.\n"
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
    "  poslab [--course 目录] [--lang zh|en] [--watch]\n"
    "      打开笔记本窗口。没有显示器时，改为把整门课程导出到当前文件夹的\n"
    "      poslab-report.pdf。--watch：实时预览，每次保存章节文件都会重新显示。\n"
    "  poslab list [--format text|json] [--lang en|zh]\n"
    "      列出所有可以运行的模块和它们的参数。\n"
    "  poslab run 模块 [参数名=值 ...] [--format text|json|csv] [--explain 输出名:行,列|输出名:序号]\n"
    "             [--lang en|zh]\n"
    "      运行一个模块；`poslab run 模块 --help` 会解释它的参数和输出；--explain 说明一个值是怎样\n"
    "      算出来的：矩阵输出第 行,列 个单元格，或曲线输出的第 序号 个点（从 0 数起）（JSON：output、\n"
    "      矩阵为 row 和 col，曲线为 index 和 x，以及 value、formula（TeX）、substituted）。\n"
    "  poslab export [--lang zh|en] [--chapters 1,3-5] [--student 姓名] [--answers 文件] [--run 编号] [--strict]\n"
    "                [--paper a4|letter] [--no-hints | --answers-only] [--compact] -o 文件.pdf\n"
    "      把整门课程或其中几章导出为 PDF 报告。展示训练结果的章节使用最近一次完整\n"
    "      保存的训练（或 --run 编号指定的那次）；除非加上 --train \"选项\"，export\n"
    "      从不训练。不给 --answers 时，报告使用窗口里保存的答案（如果有）。\n"
    "      全部选项见 `poslab export --help`。\n"
    "  poslab check [目录] [--strict]\n"
    "      检查一个课程文件夹（en/ 和 zh/ 下的各章），每个问题按\n"
    "      “文件:行号: 说明”的格式列出。--strict：警告也按错误处理。\n"
    "  poslab new NN-slug [--course 目录]\n"
    "      写出新一章的 en/ 和 zh/ 骨架，每种块各一个。\n"
    "  poslab preview 文件 [--step N] -o 文件.png\n"
    "      把某一章的一步画成 PNG 图片。\n"
    "  poslab train [--corpus 名称|文件] [--position rope|alibi|...] [--steps 步数] [--save 文件] [--sample 字数]\n"
    "      用英文格言、中文诗词、合成任务或你自己的文本文件训练一个字符级的\n"
    "      小语言模型；全部选项见 `poslab train --help`。\n"
    "  poslab experiment length [--corpus 名称|文件] [--train-ctx 64] [--eval-lengths 64,128,256,512] [--quick]\n"
    "      “短训练、长测试”：用同样的训练预算训练每一种位置编码，再比较它们在\n"
    "      更长文本上的损失。\n"
    "  poslab experiment generalize [--task copy|reverse|addition|passkey|all] [--quick]\n"
    "      在合成任务上“短训练、长测试”：每种位置编码在每个长度上的完全匹配，\n"
    "      并点名没有学会任务的方案。\n"
    "  poslab runs list|show 编号|remove 编号 [--format text|json] [--lang en|zh]\n"
    "      已保存的训练运行（连同训练好的模型）：列出、查看某一次、删除某一次；\n"
    "      详见 `poslab runs --help`。\n"
    "  poslab assignment create|show|answer|submit|open ...\n"
    "      课堂使用：从课程的若干章生成作业、作答、提交答卷；\n"
    "      每一步的说明见 `poslab assignment --help`。\n"
    "  poslab grade 作业 答卷... [--format text|json|csv] [-o 班级报告.pdf]\n"
    "      批改答卷；全部选项见 `poslab grade --help`。\n"
    "  poslab doctor [--lang en|zh] [--format text|json]\n"
    "      提交问题报告时要附上的信息：处理器、BLAS 计算内核及其速度、字体、MathJax\n"
    "      和 PosLab 的各个文件夹。\n"
    "  poslab --version [--lang zh|en]\n"
    "      显示版本号，以及所用的 Qt、OpenBLAS 和 BLAS 计算内核。\n"
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

const char* kAssignmentUsageEn =
    "Usage:\n"
    "  poslab assignment create --chapters 2,5 [--exercises ID,ID] --title TITLE\n"
    "                           [--due YYYY-MM-DD[THH:MM]] [--course DIR] [--lang en|zh]\n"
    "                           -o FILE\n"
    "      (teacher) Make an assignment from the exercises of some chapters (all of\n"
    "      them, or just --exercises). The file carries the exercises in both\n"
    "      languages, so grading does not depend on the course installed anywhere.\n"
    "      --due is local time; a date alone means 23:59 that day.\n"
    "  poslab assignment show FILE [--format text|json] [--lang en|zh]\n"
    "      What is in an assignment file, and whether it is intact.\n"
    "  poslab assignment open FILE [--student NAME]\n"
    "      (student) Work on it in the window; without a display, print the\n"
    "      exercises as text with how to answer them.\n"
    "  poslab assignment answer FILE --student NAME ID=VALUE...\n"
    "      (student) Answer without the window. Each call saves into this\n"
    "      account's draft at once. Numbers and text as typed (ID=42); choices\n"
    "      as the letters the window shows (ID=B; several: ID=A,C); run\n"
    "      exercises as the parameters to set (ID=name=value;name=value).\n"
    "      An empty value (ID=) clears an answer.\n"
    "  poslab assignment submit FILE --student NAME [-o ANSWERS]\n"
    "      (student) Write the answer file to hand in (default: TITLE-NAME.poslab-answers\n"
    "      in the current folder) and print where it is.\n"
    "\n"
    "Files are written atomically: a crash, a kill or a full disk leaves the\n"
    "previous file as it was. Drafts are kept in\n"
    "$XDG_DATA_HOME/PosLab/PosLab/assignments/ (~/.local/share/...).\n"
    "docs/assignment-files.md describes both file formats.\n"
    "\n"
    "Exit status: 0 success; 2 a usage error (the message names the option);\n"
    "1 any other error (an unreadable or damaged file, a failed write).\n";

const char* kAssignmentUsageZh =
    "用法：\n"
    "  poslab assignment create --chapters 2,5 [--exercises 编号,编号] --title 标题\n"
    "                           [--due YYYY-MM-DD[THH:MM]] [--course 目录] [--lang en|zh]\n"
    "                           -o 文件\n"
    "      （教师）用若干章的练习（全部，或只用 --exercises 指定的）生成作业。作业\n"
    "      文件里带着两种语言的练习原文，所以批改时不依赖任何一台电脑上安装的课程。\n"
    "      --due 按本地时间；只写日期表示当天 23:59。\n"
    "  poslab assignment show 文件 [--format text|json] [--lang en|zh]\n"
    "      查看作业文件里有什么，以及文件是否完好。\n"
    "  poslab assignment open 文件 [--student 姓名]\n"
    "      （学生）在窗口里做作业；没有显示器时，以文字列出各题和作答方法。\n"
    "  poslab assignment answer 文件 --student 姓名 编号=值...\n"
    "      （学生）不开窗口直接作答。每次调用都会立即存进本账户的草稿。数字和文字\n"
    "      照原样写（编号=42）；选择题写窗口里显示的字母（编号=B；多选：编号=A,C）；\n"
    "      运行题写要设置的参数（编号=参数名=值;参数名=值）。值为空（编号=）会清除答案。\n"
    "  poslab assignment submit 文件 --student 姓名 [-o 答卷]\n"
    "      （学生）写出要上交的答卷文件（默认是当前文件夹里的 标题-姓名.poslab-answers），\n"
    "      并显示它的位置。\n"
    "\n"
    "文件都以原子方式写入：程序崩溃、被强行结束或磁盘已满时，之前的文件保持原样。\n"
    "草稿保存在 $XDG_DATA_HOME/PosLab/PosLab/assignments/（~/.local/share/...）。\n"
    "两种文件的格式见 docs/assignment-files.md。\n"
    "\n"
    "退出状态：0 表示成功；2 表示用法有误（提示里会写出是哪个选项）；\n"
    "1 表示其他错误（文件无法读取或已损坏、写入失败）。\n";

const char* kGradeUsageEn =
    "Usage:\n"
    "  poslab grade ASSIGNMENT ANSWERS... [--format text|json|csv] [--lang en|zh]\n"
    "               [-o CLASS.pdf] [--student-reports DIR] [--time-limit SECONDS]\n"
    "\n"
    "Grades every answer file with the checkers the students saw, from the\n"
    "exercises stored in the assignment file. Run exercises run their module\n"
    "with the student's parameters; each check has --time-limit seconds\n"
    "(default 10) and is marked \"timed out\" past it.\n"
    "\n"
    "Output (stdout): per student the score and each answer (right or wrong,\n"
    "with the expected answer); per question how many got it right and the most\n"
    "common wrong answers. --format json or csv for spreadsheets and scripts.\n"
    "  -o CLASS.pdf            also write the class report: a summary table and a\n"
    "                          chart per question, in the --lang language\n"
    "  --student-reports DIR   also write one PDF per student (answers, feedback,\n"
    "                          solutions) into DIR\n"
    "\n"
    "A file that is missing, damaged, cut short, changed by hand (checksum),\n"
    "from another program or for another assignment is listed with its problem,\n"
    "with a warning on stderr, and the others are graded. The same student twice\n"
    "(same name, ignoring case and spaces) is graded once, from the latest\n"
    "submission; the other file is listed as a duplicate. Results do not depend\n"
    "on the order of the files.\n"
    "\n"
    "Exit status: 0 when grading ran, even if some files had problems (see\n"
    "the output and stderr); 2 a usage error; 1 the assignment could not be read\n"
    "or a PDF could not be written.\n";

const char* kGradeUsageZh =
    "用法：\n"
    "  poslab grade 作业 答卷... [--format text|json|csv] [--lang en|zh]\n"
    "               [-o 班级报告.pdf] [--student-reports 目录] [--time-limit 秒数]\n"
    "\n"
    "用作业文件中保存的练习、以学生当时所见的同一套判题规则批改每份答卷。运行题会\n"
    "用学生设置的参数运行模块；每次判题最多 --time-limit 秒（默认 10 秒），超过即\n"
    "记为“超时”。\n"
    "\n"
    "输出（标准输出）：每个学生的得分和每道题的作答（对或错，以及正确答案）；每道\n"
    "题答对的人数和最常见的错误答案。--format json 或 csv 便于表格软件和脚本处理。\n"
    "  -o 班级报告.pdf          另外写出班级报告：汇总表，以及每道题一张图，使用\n"
    "                          --lang 指定的语言\n"
    "  --student-reports 目录   另外为每个学生写一份 PDF（作答、反馈、解答）到该目录\n"
    "\n"
    "缺失、损坏、不完整、被手工改过（校验和不符）、来自别的程序或属于别的作业的\n"
    "文件，会连同问题一起列出，并在标准错误输出中给出警告，其余文件照常批改。同一\n"
    "个学生交了两份（姓名相同，不计大小写和空格）时只批改最后提交的一份，另一份\n"
    "列为重复。结果与文件的先后顺序无关。\n"
    "\n"
    "退出状态：批改完成即为 0，即使有的文件有问题（见输出和标准错误输出）；2 表示\n"
    "用法有误；1 表示作业文件无法读取或 PDF 无法写入。\n";

}  // namespace

QString assignmentUsageText(const QString& lang)
{
    return QString::fromUtf8(isZh(lang) ? kAssignmentUsageZh : kAssignmentUsageEn);
}

QString gradeUsageText(const QString& lang)
{
    return QString::fromUtf8(isZh(lang) ? kGradeUsageZh : kGradeUsageEn);
}

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

QString buildText()
{
    return QStringLiteral("%1, %2, %3")
        .arg(QStringLiteral(POSLAB_BUILD_TYPE), compilerText(), QSysInfo::buildCpuArchitecture());
}

QString versionText(const QString& lang)
{
    const bool zh = isZh(lang);
    QString blasVersion, blasConfig;
    splitBlasConfig(&blasVersion, &blasConfig);
    const int threads = poslab::blas_num_threads();
    const QString course = QDir::cleanPath(QFileInfo(lessons::defaultCourseDir()).absoluteFilePath());
    const bool courseFound =
        QFileInfo(course + QStringLiteral("/en")).isDir() && QFileInfo(course + QStringLiteral("/zh")).isDir();
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    const QString qtRun = QString::fromLatin1(qVersion());
    const QString qtBuilt = QStringLiteral(QT_VERSION_STR);
    const modules::Text2 kernels = modules::blasKernelText(poslab::blas_kernel_in_use());

    QString s = QStringLiteral("poslab %1\n").arg(QStringLiteral(POSLAB_VERSION));
    if (zh) {
        s += QStringLiteral("  Qt：%1（编译时为 %2）\n").arg(qtRun, qtBuilt);
        s += blasVersion.isEmpty()
                 ? QStringLiteral("  OpenBLAS：%1，%2 个线程\n").arg(blasConfig).arg(threads)
                 : QStringLiteral("  OpenBLAS：%1（%2），%3 个线程\n").arg(blasVersion, blasConfig).arg(threads);
        s += QStringLiteral("  BLAS 计算内核：%1\n").arg(kernels.zh);
        s += QStringLiteral("  构建：%1，%2，%3\n")
                 .arg(QStringLiteral(POSLAB_BUILD_TYPE), compilerText(), QSysInfo::buildCpuArchitecture());
        s += courseFound ? QStringLiteral("  课程：%1\n").arg(course)
                         : QStringLiteral("  课程：%1（找不到这个文件夹）\n").arg(course);
        s += QStringLiteral("  用户数据：%1\n").arg(data);
    } else {
        const QString threadsEn = threads == 1 ? QStringLiteral("1 thread") : QStringLiteral("%1 threads").arg(threads);
        s += QStringLiteral("  Qt: %1 (built with %2)\n").arg(qtRun, qtBuilt);
        s += blasVersion.isEmpty()
                 ? QStringLiteral("  OpenBLAS: %1, %2\n").arg(blasConfig, threadsEn)
                 : QStringLiteral("  OpenBLAS: %1 (%2), %3\n").arg(blasVersion, blasConfig, threadsEn);
        s += QStringLiteral("  BLAS kernels: %1\n").arg(kernels.en);
        s += QStringLiteral("  build: %1, %2, %3\n")
                 .arg(QStringLiteral(POSLAB_BUILD_TYPE), compilerText(), QSysInfo::buildCpuArchitecture());
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
    if (args.isEmpty() ||
        !(isInfoWord(args.first()) || args.first() == u"--lang" || args.first().startsWith(u"--lang=")))
        return r;
    CommandOptions o{QString()};
    o.flag(QStringLiteral("--version"));
    const bool parsed = o.parse(args);
    QStringList extra = o.positional();
    extra.removeAll(QStringLiteral("help"));
    const bool help = o.helpRequested() || extra.size() < o.positional().size();
    if (!help && !o.has(QStringLiteral("--version"))) return r;  // e.g. `poslab --lang zh` opens the window
    r.lang = o.lang();
    // "--help --version": the version, as most tools do.
    const QString asked = o.has(QStringLiteral("--version")) ? QStringLiteral("--version") : QStringLiteral("--help");
    if (!o.unknownOptions().isEmpty() || !extra.isEmpty()) {
        const QString unexpected = o.unknownOptions().isEmpty() ? extra.first() : o.unknownOptions().first();
        r.error = T2("'%1' cannot be combined with %2; only --lang zh|en can",
                     "“%1”不能与 %2 一起使用；只有 --lang zh|en 可以")
                      .arg(lessons::safeDisplayText(unexpected.left(60)), asked);
        return r;
    }
    if (!parsed) {
        r.error = o.error();
        return r;
    }
    r.kind = o.has(QStringLiteral("--version")) ? InfoRequest::Kind::Version : InfoRequest::Kind::Help;
    return r;
}

}  // namespace poslab::app
