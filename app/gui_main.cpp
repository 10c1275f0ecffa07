// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui_main.h"

#include "main_window.h"

#include <QApplication>
#include <QIcon>

namespace la {

void configureApplication() {
    QCoreApplication::setOrganizationName(QStringLiteral("Lookahead"));
    QCoreApplication::setApplicationName(QStringLiteral("lookahead"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LOOKAHEAD_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Lookahead"));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.lookahead.Lookahead"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/lookahead/icon.png")));
}

int runGui(const CliOptions& options) {
    MainWindow window;
    window.applyStartup(options);
    window.show();
    return QApplication::exec();
}

} // namespace la
