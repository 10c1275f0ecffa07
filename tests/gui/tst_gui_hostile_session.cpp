// SPDX-License-Identifier: GPL-3.0-or-later
// The double-click path with a hostile session (issue 22 #1): `lookahead FILE.lookahead` hands the
// file to the window, which opens it on a worker thread; a damaged file ends in the one-line error
// in a dialog, nothing drawn, the window still usable; never a crash.
#include "gui/window/run_setup_panel.h"
#include "hostile_session.h"
#include "signal_waits.h"
#include "window_harness.h"

#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace la;

class TestGuiHostileSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void doubleClickedDamagedSession_data();
    void doubleClickedDamagedSession();

private:
    QTemporaryDir m_dir;
    QString m_observed;
};

void TestGuiHostileSession::initTestCase() {
    LA_SKIP_FORK_UNDER_TSAN("runs the binary with QProcess, which TSan cannot follow through fork");
    if (test::sqlite3Tool().isEmpty())
        QSKIP("the sqlite3 tool is not installed (packaging/install-deps.sh installs it)");
    la::test::useCleanTestSettings();
    QVERIFY(m_dir.isValid());
    const QString trace = m_dir.filePath(QStringLiteral("scan.strace"));
    QVERIFY(test::writeSmallStrace(trace));
    m_observed = m_dir.filePath(QStringLiteral("observed.lookahead"));
    QVERIFY(test::saveImportedSession(trace, m_observed));
}

void TestGuiHostileSession::doubleClickedDamagedSession_data() {
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("expected");
    QTest::newRow("read's process past the list")
        << QStringLiteral("UPDATE observed_reads SET process = 99999")
        << QStringLiteral("run 0's imported read 0: its process index is 99999");
    QTest::newRow("wait for a read that is not there")
        << QStringLiteral("INSERT INTO observed_waits VALUES (0, 0, 10, 5000)")
        << QStringLiteral("run 0's imported wait 0: its read is 5000");
    // Found only when the stored events are read, on the worker thread.
    QTest::newRow("more reads stored than the run says")
        << QStringLiteral("UPDATE runs SET reads = reads - 1 WHERE run = 1")
        << QStringLiteral("the run has more reads than it says");
}

void TestGuiHostileSession::doubleClickedDamagedSession() {
    QFETCH(QString, sql);
    QFETCH(QString, expected);
    const QString file = m_dir.filePath(QStringLiteral("damaged.lookahead"));
    QVERIFY(test::damagedCopy(m_observed, file, sql));
    const CliOptions given = test::cliOptions({file}); // what a file manager runs
    QCOMPARE(QString::fromStdString(given.open), file);
    MainWindow window;
    QSignalSpy opened(window.sessions(), &SessionFiles::opened);
    window.applyStartup(given);
    QCOMPARE(test::caught(opened, 1, test::kSessionTimeoutMs), 1);
    const QString error = opened.first().at(1).toString();
    QVERIFY2(error.contains(file) &&
                 error.contains(QStringLiteral("is damaged or was not written by Lookahead")) &&
                 error.contains(expected),
             qPrintable(error));
    test::checkSessionRefused(window, expected);
}

QTEST_MAIN(TestGuiHostileSession)
#include "tst_gui_hostile_session.moc"
