// main.cpp — entry point of the poslab executable.
#include "app/cli.h"

#include <QCoreApplication>

#include <clocale>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("PosLab"));
    QCoreApplication::setOrganizationName(QStringLiteral("PosLab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(POSLAB_VERSION));
    // Numbers are parsed and printed with '.' whatever the user's locale.
    std::setlocale(LC_NUMERIC, "C");
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    return poslab::app::runCommandLine(args);
}
