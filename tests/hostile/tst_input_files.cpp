// SPDX-License-Identifier: GPL-3.0-or-later
// Every file the command line reads goes through one check (core/files/input_file.h, issue 42 defect 6):
// a FIFO, a character device or a directory given as any kind of input is refused at once by the
// built binary, with one line naming the input, the file and what it is. `--explain FIFO` blocked in
// open(2) and ignored SIGTERM for 10 s, and `capture --files FIFO` blocked: each run here is bounded,
// so a hang is a failure, not a stuck suite.

#include "cli_process.h"
#include "hostile_session.h"
#include "test_files.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace la;

namespace {

constexpr int kQuickMs = 20'000; // a refusal is immediate; the bound only stops a hang

} // namespace

class TestInputFiles : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everyInputRefusesWhatIsNotAFile_data();
    void everyInputRefusesWhatIsNotAFile();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
    QString m_trace;
    QString m_heap; // one zeroed 8 kB block: a table file as far as its size goes
};

void TestInputFiles::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_trace = path(QStringLiteral("scan.strace"));
    QVERIFY(test::writeSmallStrace(m_trace));
    m_heap = test::writeFile(path(QStringLiteral("heap")), QByteArray(8192, '\0'));
    QCOMPARE(::mkfifo(QFile::encodeName(path(QStringLiteral("fifo"))).constData(), 0600), 0);
    QVERIFY(QDir().mkpath(path(QStringLiteral("directory"))));
}

void TestInputFiles::everyInputRefusesWhatIsNotAFile_data() {
    // BAD stands for the file, TRACE for a good strace, HEAP for a table file, DIR for a scratch dir.
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("input"); // how the message names the input
    QTest::addColumn<QString>("bad");   // fifo or directory (in the test's directory), or /dev/zero
    QTest::addColumn<QString>("kind");  // what the message says it is
    const QString headless = QStringLiteral("--headless");
    const std::pair<const char*, QStringList> inputs[] = {
        {"trace", {headless, QStringLiteral("--import-trace"), QStringLiteral("BAD")}},
        {"EXPLAIN output",
         {headless, QStringLiteral("--import-trace"), QStringLiteral("TRACE"), QStringLiteral("--explain"),
          QStringLiteral("BAD")}},
        {"EXPLAIN output",
         {headless, QStringLiteral("--import-trace"), QStringLiteral("TRACE"), QStringLiteral("--explain"),
          QStringLiteral("BAD"), QStringLiteral("--save"), QStringLiteral("DIR/s.lookahead")}},
        {"session", {headless, QStringLiteral("--open"), QStringLiteral("BAD")}},
        {"device profile", {headless, QStringLiteral("--device-profile"), QStringLiteral("BAD")}},
        {"block list", {headless, QStringLiteral("--blocks"), QStringLiteral("BAD")}},
        {"prewarm list", {headless, QStringLiteral("--prewarm"), QStringLiteral("list:BAD")}},
        {"file to scan",
         {headless, QStringLiteral("--io"), QStringLiteral("sync"), QStringLiteral("--file"),
          QStringLiteral("BAD")}},
        {"--pg-heap: file to scan",
         {headless, QStringLiteral("--pg-index"), QStringLiteral("BAD"), QStringLiteral("--pg-heap"),
          QStringLiteral("BAD")}},
        {"--pg-index: file to scan",
         {headless, QStringLiteral("--pg-index"), QStringLiteral("BAD"), QStringLiteral("--pg-heap"),
          QStringLiteral("HEAP")}},
        {"sweep spec",
         {QStringLiteral("sweep"), QStringLiteral("BAD"), QStringLiteral("--out"),
          QStringLiteral("DIR/sweep")}},
        {"file to scan",
         {QStringLiteral("calibrate"), QStringLiteral("--file"), QStringLiteral("BAD"),
          QStringLiteral("--out"), QStringLiteral("DIR/profile.json")}},
        {"capture: --files",
         {QStringLiteral("capture"), QStringLiteral("--out"), QStringLiteral("DIR/capture.txt"),
          QStringLiteral("--files"), QStringLiteral("BAD"), QStringLiteral("--"),
          QStringLiteral("/bin/true")}},
    };
    const std::pair<const char*, const char*> kinds[] = {
        {"fifo", "a FIFO (named pipe)"}, {"/dev/zero", "a character device"}, {"directory", "a directory"}};
    for (const auto& [input, args] : inputs)
        for (const auto& [bad, kind] : kinds)
            QTest::addRow("%s %s: %s", input, qPrintable(args.join(QLatin1Char(' '))), bad)
                << args << QString::fromLatin1(input) << QString::fromLatin1(bad)
                << QString::fromLatin1(kind);
}

void TestInputFiles::everyInputRefusesWhatIsNotAFile() {
    QFETCH(QStringList, args);
    QFETCH(QString, input);
    QFETCH(QString, bad);
    QFETCH(QString, kind);
    const QString file = bad.startsWith(QLatin1Char('/')) ? bad : path(bad);
    for (QString& arg : args) {
        arg.replace(QStringLiteral("BAD"), file);
        arg.replace(QStringLiteral("TRACE"), m_trace);
        arg.replace(QStringLiteral("HEAP"), m_heap);
        arg.replace(QStringLiteral("DIR"), m_dir.path());
    }
    const test::CliResult r = test::runLookahead(args, kQuickMs);
    QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1 (-1: still running after %2 ms): %3")
                                             .arg(r.exitCode)
                                             .arg(kQuickMs)
                                             .arg(r.err)));
    // One line says what is wrong; notes of what went well before it (an import's) and Qt's own
    // warnings aside.
    QStringList lines = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    lines.removeIf([](const QString& line) {
        return line.startsWith(QStringLiteral("lookahead: note: ")) ||
               line.startsWith(QStringLiteral("QStandardPaths: "));
    });
    QVERIFY2(lines.size() == 1, qPrintable(r.err));
    const QString expected = QStringLiteral("%1 '%2': it is %3, not a regular file").arg(input, file, kind);
    QVERIFY2(lines.front().contains(expected), qPrintable(expected + QStringLiteral(" in: ") + r.err));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("s.lookahead"))));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("capture.txt"))));
}

QTEST_GUILESS_MAIN(TestInputFiles)
#include "tst_input_files.moc"
