// SPDX-License-Identifier: Apache-2.0
// test_program.h — how a test class joins its folder's test program.
//
// The tests of one folder (tests/core, tests/ui, …) are built as one program,
// poslab_tests_<folder>, compiled in batches (a unity build: the test files of
// a batch share one parse of the headers and one copy of each template, half
// the compile time of one program per file). Each test file still runs on its
// own, in a process of its own, exactly as a QTEST_MAIN program would:
//
//   build/tests/poslab_tests_core tst_rope [QtTest options, e.g. -v2 or a function name]
//   build/tests/poslab_tests_core --list        (the tests this program holds)
//
// CTest names each test after its file (tst_rope), so `ctest -R tst_rope`
// works as before. A test file ends with one of the macros below instead of
// Qt's QTEST_MAIN / QTEST_GUILESS_MAIN / QTEST_APPLESS_MAIN, which do the
// same (they create the same application object) but define main().
// A test that needs its own start-up (a child mode, say) writes a function
// `static int runXTests(int argc, char** argv)` and registers it with
// POSLAB_TEST_FUNCTION(runXTests).
//
// In a batch, files share one translation unit: helpers in an anonymous
// namespace must have names no other file of the folder uses for something
// else (shared helpers belong in tests/shared).
#pragma once

#include <QStringList>
#include <QtTest>

namespace poslab::testing {

using TestRunner = int (*)(int argc, char** argv);

// Adds a test to this program under its file's base name (tst_rope for
// ".../tests/core/tst_rope.cpp"). Returns true (for a static initialiser).
bool registerTest(const char* sourceFile, TestRunner run);

// The program and arguments that start this same test again in a child
// process, with `arguments` after the test's name (child modes, tests that
// restart themselves with another environment).
QString selfProgram();
QStringList selfArguments(const QStringList& arguments = {});

}  // namespace poslab::testing

// Registers `run` (an int(int, char**) function of this file) as this file's test.
#define POSLAB_TEST_FUNCTION(run) \
    [[maybe_unused]] static const bool poslab_test_registered_##run = poslab::testing::registerTest(__FILE__, run);

#define POSLAB_TEST_MAIN_WITH(TestObject, ...)                             \
    static int poslab_run_##TestObject(int argc, char** argv)              \
    {                                                                      \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>(); \
        __VA_ARGS__                                                        \
        TestObject tc;                                                     \
        QTEST_SET_MAIN_SOURCE_PATH                                         \
        return QTest::qExec(&tc, argc, argv);                              \
    }                                                                      \
    POSLAB_TEST_FUNCTION(poslab_run_##TestObject)

// As QTEST_MAIN: a QApplication when the program links Qt Widgets, else a
// QGuiApplication or QCoreApplication.
#define POSLAB_TEST_MAIN(TestObject) POSLAB_TEST_MAIN_WITH(TestObject, QTEST_MAIN_SETUP())
// As QTEST_GUILESS_MAIN: a QCoreApplication.
#define POSLAB_TEST_GUILESS_MAIN(TestObject) POSLAB_TEST_MAIN_WITH(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
// As QTEST_APPLESS_MAIN: no application object.
#define POSLAB_TEST_APPLESS_MAIN(TestObject) POSLAB_TEST_MAIN_WITH(TestObject)
