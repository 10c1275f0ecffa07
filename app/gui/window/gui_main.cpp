// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/gui_main.h"

#include "experiment/signal_cancel.h"
#include "gui/window/main_window.h"

#include <QApplication>
#include <QIcon>
#include <QSocketNotifier>

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
    // SIGINT or SIGTERM closes the window as its close button would: the run is cancelled and
    // joined, the settings saved.
    QSocketNotifier signalWatch(SignalCancel::notifyFd(), QSocketNotifier::Read);
    QObject::connect(&signalWatch, &QSocketNotifier::activated, &window, [&] {
        signalWatch.setEnabled(false);
        window.close();
    });
    const int exitCode = QApplication::exec();
    return SignalCancel::exitCode() != 0 ? SignalCancel::exitCode() : exitCode;
}

} // namespace la
