// SPDX-License-Identifier: GPL-3.0-or-later
// The window words the settings that messages name as its own controls (issue 23): a user of the
// window is told about "Index file", never about --pg-index.
#include "experiment/experiment.h"
#include "gui/jobs/run_controller.h"
#include "gui/settings/setting_words.h"
#include "run_options.h"

#include <QSignalSpy>
#include <QTest>

using namespace la;

class TestGuiWording : public QObject {
    Q_OBJECT
private slots:
    void everyOptionHasAWindowLabel();
    void flagsBecomeLabels();
    void runErrorIsWordedForTheWindow();
};

void TestGuiWording::everyOptionHasAWindowLabel() {
    QVERIFY(!runOptions().empty());
    for (const RunOption& option : runOptions())
        QVERIFY2(
            !settingLabel(QString::fromLatin1(option.name.data(), qsizetype(option.name.size()))).isEmpty(),
            option.name.data());
}

void TestGuiWording::flagsBecomeLabels() {
    QCOMPARE(windowWording(QStringLiteral("a PostgreSQL scan needs both --pg-index FILE and --pg-heap FILE")),
             QStringLiteral("a PostgreSQL scan needs both \"Index file\" and \"Heap file\""));
    QCOMPARE(windowWording(QStringLiteral("--eic '5000': expected a whole number 0..1000")),
             QStringLiteral("\"effective_io_concurrency\" '5000': expected a whole number 0..1000"));
    // An import's note names the traced backend's option.
    QCOMPARE(windowWording(
                 QStringLiteral("which one ran the scan is not known: name it with --trace-backend PID")),
             QStringLiteral("which one ran the scan is not known: name it with \"Backend pid\""));
    // Not a setting of ours: left as written.
    const QString tool = QStringLiteral("copy it with cp --sparse=never, for a true picture");
    QCOMPARE(windowWording(tool), tool);
    const QString path = QStringLiteral("'/tmp/a--pg-index' is a file");
    QCOMPARE(windowWording(path), path);
}

void TestGuiWording::runErrorIsWordedForTheWindow() {
    RunController controller;
    RunConfig config = defaultRunConfig();
    config.pg.index = "/nonexistent/16389";
    config.pg.heap = "/nonexistent/16384";
    config.blockList = "/nonexistent/blocks.txt";
    QSignalSpy failed(&controller, &RunController::failed);
    QSignalSpy finished(&controller, &RunController::finished);
    controller.start(makeExperiment(config, Comparison::None));
    QVERIFY(finished.wait(10000));
    QCOMPARE(failed.count(), 1);
    const QString message = failed.front().front().toString();
    QVERIFY2(message.contains(QStringLiteral("\"Index file\"/\"Heap file\" choose the blocks")),
             qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("--")), qPrintable(message));
}

QTEST_MAIN(TestGuiWording)
#include "tst_gui_wording.moc"
