// SPDX-License-Identifier: Apache-2.0
// fuzz_chapter — a lesson chapter file from arbitrary bytes.
//
// Each input is (1) parsed in memory as an English chapter by
// parseChapterText, then (2) written as the only chapter of a scratch course,
// once under en/ and once under zh/, which `poslab check` (checkCourse)
// loads from disk and cross-checks. This covers the front matter, the step
// splitting, the ```run / ```exercise block parser (block_parse.cpp) with its
// module-parameter validation against the builtin registry, vary: ranges,
// image resolution inside the course folder, and the cross-language checks.
// Nothing is run: the parser only validates parameters.
//
// What counts as a failure: any crash, sanitizer report, leak, hang or huge
// allocation. Diagnostics are the expected answer to bad input; the target
// also checks two invariants the UI relies on: a run block the parser
// accepted (no error) names a registered module whose parameters validate
// again (the run engine will run exactly that), and every diagnostic renders
// to a non-empty line.
#include "fuzz_common.h"

#include "lessons/course_check.h"
#include "lessons/course_loader.h"
#include "modules/registry.h"

#include <cstdlib>

using namespace poslab;

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    fuzz::initQt(argc, argv);
    QDir dir(fuzz::scratchDir());
    dir.mkpath(QStringLiteral("course/en"));
    dir.mkpath(QStringLiteral("course/zh"));
    dir.mkpath(QStringLiteral("course/images"));
    // One real image, so references to it resolve and the success path runs too.
    fuzz::writeBytes(dir.filePath(QStringLiteral("course/images/a.svg")),
                     reinterpret_cast<const uint8_t*>("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), 41);
    return 0;
}

static void checkDiagnostics(const QList<lessons::Diagnostic>& diagnostics)
{
    for (const lessons::Diagnostic& d : diagnostics)
        if (d.toString().isEmpty()) std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto& registry = modules::Registry::builtin();
    const QString course = fuzz::scratchDir() + QStringLiteral("/course");
    const QString en = course + QStringLiteral("/en/01-fuzz.md");
    const QString zh = course + QStringLiteral("/zh/01-fuzz.md");

    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    lessons::ChapterParseResult parsed = lessons::parseChapterText(bytes, en, course, QStringLiteral("en"), registry);
    checkDiagnostics(parsed.diagnostics);
    for (const lessons::Step& step : parsed.chapter.steps)
        for (const lessons::Block& block : step.blocks) {
            if (block.kind != lessons::Block::Kind::Run || !block.error.isEmpty()) continue;
            const modules::ModuleSpec* spec = registry.find(block.run.moduleId);
            if (!spec) std::abort();
            try {
                modules::parseParams(*spec, block.run.params);
            } catch (const modules::ParamError&) {
                std::abort();  // accepted by the loader, refused by the engine
            }
        }

    if (!fuzz::writeBytes(en, data, size) || !fuzz::writeBytes(zh, data, size)) return 0;
    checkDiagnostics(lessons::checkCourse(course, registry));
    return 0;
}
