// SPDX-License-Identifier: Apache-2.0
// fuzz_common.h — what every PosLab fuzz target shares: a QCoreApplication
// (some code asks Qt for translations and the application's paths), quiet Qt
// logging (a fuzzer would otherwise spend its time printing warnings), and a
// private scratch folder for readers that only take a path.
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

namespace poslab::fuzz {

inline void quietMessageHandler(QtMsgType, const QMessageLogContext&, const QString&) {}

// Called from LLVMFuzzerInitialize. The application is never destroyed on
// purpose: libFuzzer leaves through exit(), and destroying a
// QCoreApplication from an exit handler, after Qt's own globals are gone,
// crashes.
inline void initQt(int* argc, char*** argv)
{
    static int qtArgc = 1;
    static char* qtArgv[] = {(*argv)[0], nullptr};
    static QCoreApplication* app = nullptr;
    if (!app) {
        qInstallMessageHandler(quietMessageHandler);
        app = new QCoreApplication(qtArgc, qtArgv);
    }
}

// A folder that lives as long as the fuzzer (removed at exit).
inline const QString& scratchDir()
{
    static QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/poslab-fuzz-XXXXXX"));
    static const QString path = dir.path();
    return path;
}

// Writes `bytes` to `path` (replacing it); false if the folder is gone.
inline bool writeBytes(const QString& path, const uint8_t* data, size_t size)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    f.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    return true;
}

}  // namespace poslab::fuzz
