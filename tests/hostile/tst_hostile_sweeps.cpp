// SPDX-License-Identifier: GPL-3.0-or-later
// Sweep specs, --merge cells and sweep outputs from a hostile user (issue 22, docs/sweeps.md): each
// test drives the built binary on files it makes, and bad input must end at once with one clear
// line and exit 2, never a hang, a crash, unbounded memory or a replaced file.

#include "cli_process.h"
#include "test_files.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace la;

namespace {

using la::test::readFile;
using la::test::writeFile;

constexpr int kQuickMs = 20'000; // a refusal is immediate; the bound only stops a hang

// Interrupts the sweep once; a process that does not end is killed so that the test does not hang.
bool sigintEnds(QProcess& process) {
    ::kill(pid_t(process.processId()), SIGINT);
    const bool ended = process.waitForFinished(kQuickMs);
    if (!ended)
        process.kill();
    return ended;
}

// One cell, two runs: the smallest sweep.
const QByteArray kTinySpec = R"({"name": "tiny", "base": {"dataset": "seq", "pattern-blocks": 2000},
 "axes": [{"option": "miss-fraction", "values": [6]}], "policies": ["pg18"]})";

// 1000 x 1000 x 1000 = 10^9 cells of a small dataset.
const QByteArray kBillionSpec = R"({"name": "billion", "base": {"dataset": "seq", "pattern-blocks": 2000},
 "axes": [{"option": "miss-fraction", "from": 0.1, "to": 100, "step": 0.1},
          {"option": "consumer-ns", "from": 1, "to": 1000},
          {"option": "latency-us", "from": 1, "to": 1000}],
 "policies": ["pg18", "pg19"]})";

test::CliResult sweep(const QStringList& args) {
    return test::runLookahead(QStringList{QStringLiteral("sweep")} + args, kQuickMs);
}

// The peak resident memory of a running process, in MiB (0 if unknown).
qint64 peakMiB(qint64 pid) {
    const QByteArray status = readFile(QStringLiteral("/proc/%1/status").arg(pid));
    for (const QByteArray& line : status.split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong() / 1024;
    return 0;
}

// Refused at once with exit 2 and one line naming `part`.
void expectRefused(const test::CliResult& result, const QString& part) {
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(part), qPrintable(result.err));
    QCOMPARE(result.err.count(QStringLiteral("lookahead:")), 1);
}

} // namespace

class TestHostileSweeps : public QObject {
    Q_OBJECT
private slots:
    void fifoSpecIsRefusedAtOnce();
    void fifoMergeCellIsRefusedAtOnce();
    void fifoACellReadsIsRefusedAtOnce();
    void devZeroAndHugeDocumentsAreRefused();
    void mapsNeverReplaceTheSpec();
    void emittedCommandsNeverReplaceAnInput();
    void unusableOutIsRefusedBeforeAnyRun();
    void hugeLabelsAreRefused();
    void emitCommandsStreamOverABillionCells();
    void sigintEndsAWriteBlockedOnAFullPipe();
    void sigintEndsTheSetUpOfALargeSweep();
    void aBillionCellSweepIsRefusedAtOnce();
    void policyListedTwiceIsSaidSo();
    void brokenBaseDeviceProfileFailsTheSweep();
};

void TestHostileSweeps::fifoSpecIsRefusedAtOnce() {
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("spec.json"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const test::CliResult result = sweep({fifo, QStringLiteral("--out"), dir.filePath(QStringLiteral("o"))});
    expectRefused(result,
                  QStringLiteral("sweep spec '%1': it is a FIFO (named pipe), not a regular file").arg(fifo));
}

void TestHostileSweeps::fifoMergeCellIsRefusedAtOnce() {
    QTemporaryDir dir;
    const QString spec = writeFile(dir.filePath(QStringLiteral("s.json")), kTinySpec);
    const QString out = dir.filePath(QStringLiteral("o"));
    QVERIFY(QDir().mkpath(out + QStringLiteral("/cells")));
    const QString cell = out + QStringLiteral("/cells/c000000-pg18.json");
    QCOMPARE(::mkfifo(QFile::encodeName(cell).constData(), 0600), 0);
    expectRefused(
        sweep({spec, QStringLiteral("--merge"), out}),
        QStringLiteral("sweep run file '%1': it is a FIFO (named pipe), not a regular file").arg(cell));
}

void TestHostileSweeps::fifoACellReadsIsRefusedAtOnce() {
    QTemporaryDir dir;
    // Every run reads its block list anew: a FIFO would hang the first and starve the others.
    const QString fifo = dir.filePath(QStringLiteral("blocks"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    // A writer that holds it open and writes nothing, as a stalled `<(command)` would.
    const int writer = ::open(QFile::encodeName(fifo).constData(), O_RDWR | O_CLOEXEC);
    QVERIFY(writer >= 0);
    const auto closeWriter = qScopeGuard([writer] { ::close(writer); });
    const QString spec =
        writeFile(dir.filePath(QStringLiteral("s.json")),
                  R"({"base": {"blocks": ")" + QFile::encodeName(fifo) +
                      R"("}, "axes": [{"option": "eic", "values": [1, 2]}], "policies": ["pg18"]})");
    expectRefused(
        sweep({spec, QStringLiteral("--out"), dir.filePath(QStringLiteral("o"))}),
        QStringLiteral(": --blocks '%1': it is a FIFO (named pipe), not a regular file; every run of "
                       "a sweep reads it again, so give a regular file")
            .arg(fifo));
}

void TestHostileSweeps::devZeroAndHugeDocumentsAreRefused() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("o"));
    expectRefused(sweep({QStringLiteral("/dev/zero"), QStringLiteral("--out"), out}),
                  QStringLiteral("sweep spec '/dev/zero': it is a character device, not a regular file"));
    // A regular file too large to be a spec: refused without reading it whole.
    const QString big = dir.filePath(QStringLiteral("big.json"));
    QFile file(big);
    QVERIFY(file.open(QIODevice::WriteOnly) && file.resize(qint64(1) << 30));
    file.close();
    expectRefused(sweep({big, QStringLiteral("--out"), out}), QStringLiteral("larger than 4.0 MiB"));
    // A run's file that leads to /dev/zero, and one far larger than any summary.
    const QString spec = writeFile(dir.filePath(QStringLiteral("s.json")), kTinySpec);
    QVERIFY(QDir().mkpath(out + QStringLiteral("/cells")));
    const QString cell = out + QStringLiteral("/cells/c000000-pg18.json");
    QVERIFY(QFile::link(QStringLiteral("/dev/zero"), cell));
    expectRefused(sweep({spec, QStringLiteral("--merge"), out}), QStringLiteral("it is a character device"));
    QVERIFY(QFile::remove(cell));
    QFile huge(cell);
    QVERIFY(huge.open(QIODevice::WriteOnly) && huge.resize(qint64(1) << 30));
    huge.close();
    expectRefused(sweep({spec, QStringLiteral("--merge"), out}), QStringLiteral("larger than 64.0 MiB"));
}

void TestHostileSweeps::mapsNeverReplaceTheSpec() {
    QTemporaryDir dir;
    // The spec is named like a map the sweep draws, and like its CSV.
    for (const QString& name : {QStringLiteral("collapses.png"), QStringLiteral("slowdown-pg18.svg")}) {
        const QString spec = writeFile(dir.filePath(name), kTinySpec);
        const test::CliResult result = sweep({spec, QStringLiteral("--out"), dir.path()});
        expectRefused(result, QStringLiteral("is the same file as the sweep spec"));
        QCOMPARE(readFile(spec), kTinySpec);
    }
    // --merge reads the runs' files: none may be an output either (a hard link to a map's name).
    const QString spec = writeFile(dir.filePath(QStringLiteral("s.json")), kTinySpec);
    const QString out = dir.filePath(QStringLiteral("m"));
    QVERIFY(QDir().mkpath(out + QStringLiteral("/cells")));
    const QString cell = writeFile(out + QStringLiteral("/cells/c000000-pg18.json"), "{}");
    QCOMPARE(::link(QFile::encodeName(cell).constData(),
                    QFile::encodeName(out + QStringLiteral("/waits-pg18.png")).constData()),
             0);
    expectRefused(sweep({spec, QStringLiteral("--merge"), out}),
                  QStringLiteral("is the same file as the run file"));
    QCOMPARE(readFile(cell), QByteArray("{}"));
}

void TestHostileSweeps::emittedCommandsNeverReplaceAnInput() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("o"));
    QVERIFY(QDir().mkpath(out + QStringLiteral("/cells")));
    const QString spec = writeFile(out + QStringLiteral("/cells/c000000-pg18.json"), kTinySpec);
    expectRefused(sweep({spec, QStringLiteral("--emit-commands"), QStringLiteral("--out"), out}),
                  QStringLiteral("where the emitted commands write their results"));
    QCOMPARE(readFile(spec), kTinySpec);
}

void TestHostileSweeps::unusableOutIsRefusedBeforeAnyRun() {
    QTemporaryDir dir;
    const QString spec = writeFile(dir.filePath(QStringLiteral("s.json")), kTinySpec);
    const QString file = writeFile(dir.filePath(QStringLiteral("plain")), "x");
    // Before the fix both ran every run and then failed with exit 1 and no reason.
    expectRefused(sweep({spec, QStringLiteral("--out"), file}),
                  QStringLiteral("--out '%1' is not a directory").arg(file));
    const test::CliResult missing = sweep({spec, QStringLiteral("--out"), file + QStringLiteral("/sub")});
    expectRefused(missing, QStringLiteral("cannot be made"));
    QVERIFY(!missing.err.contains(QStringLiteral("runs")));
}

void TestHostileSweeps::hugeLabelsAreRefused() {
    QTemporaryDir dir;
    const QByteArray label(3 << 20, 'x'); // a spec is at most 4 MiB
    const QString named =
        writeFile(dir.filePath(QStringLiteral("n.json")),
                  R"({"name": ")" + label + R"(", "axes": [{"option": "eic", "values": [1]}],
                                       "policies": ["pg18"]})");
    const test::CliResult name = sweep({named, QStringLiteral("--out"), dir.filePath(QStringLiteral("o"))});
    expectRefused(name, QStringLiteral("is longer than 200 bytes"));
    QVERIFY(name.err.size() < 1000);
    const QString valued = writeFile(dir.filePath(QStringLiteral("v.json")),
                                     R"({"axes": [{"option": "miss-spacing", "values": [")" +
                                         label.left(1 << 20) + R"("]}], "policies": ["pg18"]})");
    const test::CliResult value = sweep({valued, QStringLiteral("--out"), dir.filePath(QStringLiteral("o"))});
    expectRefused(value, QStringLiteral("is longer than 4096 bytes"));
    QVERIFY(value.err.size() < 1000);
}

void TestHostileSweeps::emitCommandsStreamOverABillionCells() {
    QTemporaryDir dir;
    const QString spec = writeFile(dir.filePath(QStringLiteral("b.json")), kBillionSpec);
    QProcess process;
    process.start(QStringLiteral(LOOKAHEAD_BINARY),
                  {QStringLiteral("sweep"), spec, QStringLiteral("--force"),
                   QStringLiteral("--emit-commands"), QStringLiteral("--out"),
                   dir.filePath(QStringLiteral("o"))});
    QVERIFY(process.waitForStarted());
    // Before the fix every cell was configured and every command built before the first was
    // printed: hours and hundreds of GB for 10^9 cells.
    const QDeadlineTimer deadline(kQuickMs);
    while (process.bytesAvailable() <= (1 << 20) &&
           process.waitForReadyRead(static_cast<int>(deadline.remainingTime()))) {
    }
    QVERIFY(process.bytesAvailable() > (1 << 20));
    const QByteArray first = process.readLine();
    QVERIFY2(first.contains("--summary-json") && first.contains("cells/c000000-pg18.json"),
             first.constData());
    const qint64 peak = peakMiB(process.processId());
    process.kill();
    process.waitForFinished();
    QVERIFY2(peak > 0 && peak < 250, qPrintable(QString::number(peak) + QStringLiteral(" MiB")));
}

void TestHostileSweeps::sigintEndsAWriteBlockedOnAFullPipe() {
    QTemporaryDir dir;
    const QString spec = writeFile(dir.filePath(QStringLiteral("b.json")), kBillionSpec);
    // A reader that reads nothing (this test, holding the pipe's read end): the pipe fills and the
    // sweep blocks in write(2).
    int output[2];
    QVERIFY(::pipe2(output, O_CLOEXEC) == 0);
    const auto closeOutput = qScopeGuard([&] { ::close(output[0]); });
    QVERIFY(test::shrinkPipe(output[0]));
    QProcess process;
    process.setChildProcessModifier([&] { ::dup2(output[1], STDOUT_FILENO); });
    process.start(QStringLiteral(LOOKAHEAD_BINARY),
                  {QStringLiteral("sweep"), spec, QStringLiteral("--force"),
                   QStringLiteral("--emit-commands"), QStringLiteral("--out"),
                   dir.filePath(QStringLiteral("o"))});
    ::close(output[1]);
    QVERIFY(process.waitForStarted());
    // The commands go out 64 KiB at a time: their first bytes mean the sweep sits in that write.
    QVERIFY(test::untilWriterStalls(output[0], kQuickMs));
    QVERIFY2(sigintEnds(process), "the first SIGINT did not end a write blocked on a full pipe");
    QCOMPARE(process.exitCode(), 130);
    QVERIFY(QString::fromUtf8(process.readAllStandardError()).contains(QStringLiteral("sweep cancelled")));
}

void TestHostileSweeps::sigintEndsTheSetUpOfALargeSweep() {
    QTemporaryDir dir;
    // 10^6 cells: their results fit in memory, their set-up takes seconds.
    const QString spec = writeFile(dir.filePath(QStringLiteral("l.json")),
                                   R"({"base": {"dataset": "seq", "pattern-blocks": 2000},
 "axes": [{"option": "consumer-ns", "from": 1, "to": 1000}, {"option": "latency-us", "from": 1, "to": 1000}],
 "policies": ["pg18"]})");
    QProcess process;
    process.start(QStringLiteral(LOOKAHEAD_BINARY),
                  {QStringLiteral("sweep"), spec, QStringLiteral("--force"), QStringLiteral("--out"),
                   dir.filePath(QStringLiteral("o"))});
    QVERIFY(process.waitForStarted());
    QByteArray err;
    QVERIFY(test::waitForStderr(process, "setting up", err, kQuickMs));
    QVERIFY2(sigintEnds(process), "SIGINT did not end the set-up");
    QCOMPARE(process.exitCode(), 130);
    err += process.readAllStandardError();
    QVERIFY2(err.contains("sweep cancelled; nothing was written"), err.constData());
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("o/sweep.csv"))));
}

void TestHostileSweeps::aBillionCellSweepIsRefusedAtOnce() {
    QTemporaryDir dir;
    const QString spec = writeFile(dir.filePath(QStringLiteral("b.json")), kBillionSpec);
    // Its results alone would take hundreds of GB: said at once, before any set-up.
    QElapsedTimer timer;
    timer.start();
    expectRefused(
        sweep({spec, QStringLiteral("--force"), QStringLiteral("--out"), dir.filePath(QStringLiteral("o"))}),
        QStringLiteral("sweep fewer cells"));
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed()) + QStringLiteral(" ms")));
    // Its 2,000 maps per metric and policy likewise, when the results would fit.
    const QString slices =
        writeFile(dir.filePath(QStringLiteral("s.json")),
                  R"({"axes": [{"option": "eic", "values": [1]}, {"option": "latency-us", "values": [66]},
                                                  {"option": "consumer-ns", "from": 1, "to": 2000}],
                                         "policies": ["pg18"]})");
    expectRefused(sweep({slices, QStringLiteral("--out"), dir.filePath(QStringLiteral("o"))}),
                  QStringLiteral("2000 maps of each metric and policy"));
}

// A policy listed twice was refused as "the sweep map 'X' is the same file as the sweep map 'X'"
// (issue 42 defect 11): the spec's mistake is named as such.
void TestHostileSweeps::policyListedTwiceIsSaidSo() {
    QTemporaryDir dir;
    const QString spec = writeFile(dir.filePath(QStringLiteral("twice.json")),
                                   R"({"base": {"dataset": "seq", "pattern-blocks": 2000},
 "axes": [{"option": "eic", "values": [1, 2]}], "policies": ["pg18", "pg19", "pg18"]})");
    const test::CliResult r = sweep({spec, QStringLiteral("--out"), dir.filePath(QStringLiteral("o"))});
    expectRefused(
        r, QStringLiteral("sweep spec %1: policy 'pg18' is listed twice in \"policies\"; list each once")
               .arg(spec));
    QVERIFY2(!r.err.contains(QStringLiteral("same file")), qPrintable(r.err));
}

// A base device profile that cannot be used failed every run and the sweep still exited 0 (issue 42
// defect 11): it is the spec's error, with the profile's own message, before any run.
void TestHostileSweeps::brokenBaseDeviceProfileFailsTheSweep() {
    QTemporaryDir dir;
    const QString profile = writeFile(dir.filePath(QStringLiteral("profile.json")), "{\"schema\": 1}");
    const QString spec =
        writeFile(dir.filePath(QStringLiteral("profiled.json")),
                  R"({"base": {"dataset": "seq", "pattern-blocks": 2000, "device-profile": ")" +
                      QFile::encodeName(profile) +
                      R"("}, "axes": [{"option": "eic", "values": [1, 2]}], "policies": ["pg18"]})");
    const QString out = dir.filePath(QStringLiteral("o"));
    expectRefused(sweep({spec, QStringLiteral("--out"), out}),
                  QStringLiteral("sweep spec %1: cell 1: device profile '%2': schema").arg(spec, profile));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral("/sweep.csv")));
}

QTEST_GUILESS_MAIN(TestHostileSweeps)
#include "tst_hostile_sweeps.moc"
