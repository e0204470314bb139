// SPDX-License-Identifier: Apache-2.0
// test_program.cpp — main() of every test program: runs the one test named
// by its first argument (test_program.h).
#include "test_program.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

namespace poslab::testing {
namespace {

std::map<std::string, TestRunner>& registeredTests()
{
    static std::map<std::string, TestRunner> tests;
    return tests;
}

std::string testNameOf(const char* sourceFile)
{
    std::string name(sourceFile);
    const std::size_t slash = name.find_last_of("/\\");
    if (slash != std::string::npos) name.erase(0, slash + 1);
    const std::size_t dot = name.rfind('.');
    if (dot != std::string::npos) name.erase(dot);
    return name;
}

std::string& runningTestName()
{
    static std::string name;
    return name;
}

void printTestNames(std::FILE* to)
{
    for (const auto& [name, run] : registeredTests()) std::fprintf(to, "%s\n", name.c_str());
}

}  // namespace

bool registerTest(const char* sourceFile, TestRunner run)
{
    const std::string name = testNameOf(sourceFile);
    if (!registeredTests().emplace(name, run).second) {
        std::fprintf(stderr, "two tests named %s in one test program\n", name.c_str());
        std::abort();
    }
    return true;
}

QString selfProgram()
{
    return QCoreApplication::applicationFilePath();
}

QStringList selfArguments(const QStringList& arguments)
{
    return QStringList{QString::fromStdString(runningTestName())} + arguments;
}

}  // namespace poslab::testing

int main(int argc, char** argv)
{
    using namespace poslab::testing;
    if (argc < 2 || std::strcmp(argv[1], "--list") == 0 || std::strcmp(argv[1], "--help") == 0) {
        std::fprintf(argc < 2 ? stderr : stdout, "usage: %s TEST [QtTest options]\ntests:\n", argv[0]);
        printTestNames(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const auto found = registeredTests().find(argv[1]);
    if (found == registeredTests().end()) {
        std::fprintf(stderr, "%s: no test named %s; tests:\n", argv[0], argv[1]);
        printTestNames(stderr);
        return 2;
    }
    runningTestName() = found->first;
    // The test sees its own name as the program's name, then its options.
    return found->second(argc - 1, argv + 1);
}
