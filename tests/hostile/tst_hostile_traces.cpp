// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile traces (issue 22), end to end on the built binary: each test writes a strace, perf trace
// or trace CSV that attacks the importer and checks the one-line error or the note it gets, never a
// crash, a hang, memory that grows with the trace, or a silently wrong run (docs/trace-import.md).
#include "cli_process.h"
#include "test_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <thread>

namespace {

using Result = la::test::CliResult;

constexpr int kTimeoutMs = 60'000;
// The relation every generated trace reads, and how many good reads it has.
const QByteArray kRelation = "/pg/base/5/16390";
constexpr int kGoodReads = 20;

Result lookahead(const QStringList& args, int timeoutMs = kTimeoutMs, rlim_t dataLimit = 0) {
    QProcess process;
#ifdef __SANITIZE_ADDRESS__
    // AddressSanitizer reserves terabytes of shadow address space at start, which no data limit
    // allows: under it these tests check the outcome, and the plain build checks the memory too.
    (void)dataLimit;
#else
    if (dataLimit > 0)
        process.setChildProcessModifier([dataLimit] {
            const rlimit limit{dataLimit, dataLimit};
            ::setrlimit(RLIMIT_DATA, &limit);
        });
#endif
    process.start(QStringLiteral(LOOKAHEAD_BINARY), args);
    return la::test::finishProcess(process, timeoutMs);
}

bool writeFile(const QString& path, const QByteArray& content) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

// One strace -f -ttt -T -yy read of kRelation by process 100, `index` ms after the first.
QByteArray straceRead(int index, qint64 block, qint64 bytes = 8192) {
    return "100 1000." + QByteArray::number(index * 1000 + 1000000).right(6) + " pread64(7<" + kRelation +
           ">, \"\"..., " + QByteArray::number(bytes) + ", " + QByteArray::number(block * 8192) +
           ") = " + QByteArray::number(bytes) + " <0.000100>\n";
}

QByteArray goodStrace() {
    QByteArray text;
    for (int i = 0; i < kGoodReads; ++i)
        text += straceRead(i, i);
    return text;
}

QByteArray csvHeader() {
    return "run,time_ns,position,event,block,nblocks,io_id,in_flight,distance,combine_distance,pinned,miss,"
           "waited\n";
}

QByteArray csvRead(const QByteArray& label, const QByteArray& time, const QByteArray& block,
                   const QByteArray& nblocks, int ioId) {
    return label + "," + time + ",0,read_started," + block + "," + nblocks + "," + QByteArray::number(ioId) +
           ",1,0,0,0,0,0\n";
}

QByteArray goodCsv() {
    QByteArray text = csvHeader();
    for (int i = 0; i < kGoodReads; ++i)
        text += csvRead("pg18", QByteArray::number(1000 * i), QByteArray::number(i), "1", i + 1);
    return text;
}

QByteArray perfRead(int index, qint64 block, const QByteArray& tail = " = 8192") {
    return QByteArray::number(index) + ".000 ( 0.010 ms): postgres/21796 pread64(fd: 7<" + kRelation +
           ">, buf: 0x7f85dbb99c00, count: 8192, pos: " + QByteArray::number(block * 8192) + ")" + tail +
           "\n";
}

QByteArray goodPerf() {
    QByteArray text;
    for (int i = 0; i < kGoodReads; ++i)
        text += perfRead(i + 1, i);
    return text;
}

} // namespace

class TestHostileTraces : public QObject {
    Q_OBJECT

private slots:
    void timeAtTheSentinel_data();
    void timeAtTheSentinel();
    void fifoIsRefused();
    void growingTraceIsReadToItsSizeAtOpen();
    void oneLineDemandingGigabytes_data();
    void oneLineDemandingGigabytes();
    void manyFilesInBoundedMemory();
    void neverResumedCallsInBoundedMemory();
    void overflowsAreMalformed_data();
    void overflowsAreMalformed();
    void realPerfAndStraceLines();
    void malformedShare();
    void manyProcessesInLinearTime();
    void shortReadsCountTheirBlocks();
    void fdOfSeveralFilesIsRefused();
    void escapedNameIsFound();
    void overlongLabelIsMalformed();
    void conflictingOptionsAreRefused_data();
    void conflictingOptionsAreRefused();
    void tracedTextIsEscapedOnStdout();

private:
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    // Imports `content` (written to `name`); --summary-json to name.json.
    Result import(const char* name, const QByteArray& content, const QStringList& extra = {}) {
        const QString trace = path(name);
        if (!writeFile(trace, content))
            return {};
        return lookahead(QStringList{QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace,
                                     QStringLiteral("--summary-json"), trace + QStringLiteral(".json")} +
                         extra);
    }
    QJsonObject observed(const char* name) const {
        return la::test::summaryRun(path(name) + QStringLiteral(".json"));
    }

    QTemporaryDir m_dir;
};

// A read INT64_MAX ns after the first (the merge's old sentinel) is a malformed line, skipped with a
// note, in all three formats and when the import is saved.
void TestHostileTraces::timeAtTheSentinel_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("save");
    // The first read at time 0, so that the last is exactly INT64_MAX ns after it.
    QByteArray strace = "100 0.000000000 pread64(7<" + kRelation + ">, \"\"..., 8192, 0) = 8192 <0.000100>\n";
    strace += goodStrace();
    strace += "100 9223372036.854775807 pread64(7<" + kRelation + ">, \"\"..., 8192, 0) = 8192 <0.000100>\n";
    QByteArray perf = perfRead(0, 0) + goodPerf();
    perf += "9223372036854.775807 ( 0.010 ms): postgres/21796 pread64(fd: 7<" + kRelation +
            ">, buf: 0x7f, count: 8192, pos: 0) = 8192\n";
    QByteArray csv = goodCsv();
    csv += csvRead("pg18", "9223372036854775807", "3", "1", 99);
    QTest::newRow("strace") << strace << false;
    QTest::newRow("perf") << perf << false;
    QTest::newRow("csv") << csv << false;
    QTest::newRow("strace --save") << strace << true;
}

void TestHostileTraces::timeAtTheSentinel() {
    QFETCH(QByteArray, content);
    QFETCH(bool, save);
    const QStringList extra =
        save ? QStringList{QStringLiteral("--save"), path("sentinel.lookahead")} : QStringList{};
    const Result r = import("sentinel.trace", content, extra);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("skipped 1 malformed line(s)")), qPrintable(r.err));
    const QString lastLine = QStringLiteral("line %1: ").arg(content.count('\n')); // the bad one, shown
    QVERIFY2(r.err.contains(lastLine), qPrintable(r.err));
    if (!save)
        QVERIFY(observed("sentinel.trace")[QStringLiteral("ios")].toInt() >= kGoodReads);
}

// A FIFO is refused before it is opened for reading (which would wait for a writer forever).
void TestHostileTraces::fifoIsRefused() {
    const QString fifo = path("trace.fifo");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const Result r =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"), fifo}, 20'000);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(
        r.err.contains(QStringLiteral("trace '%1': it is a FIFO (named pipe), not a regular file").arg(fifo)),
        qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
}

// A trace still being written (issue 42 defect 7) was read for as long as the writer wrote: 6 GB and
// exit 70 after 130 s. It is read up to its size at the open, says so, and has the reads that were
// there then: a writer here appends a read a line for as long as the import runs.
void TestHostileTraces::growingTraceIsReadToItsSizeAtOpen() {
    const QString trace = path("growing.strace");
    const int fd = ::open(QFile::encodeName(trace).constData(),
                          O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    QVERIFY(fd >= 0);
    // Read i: block i, i µs after the first; one write each, so the file grows a whole line at a time.
    const auto writeRead = [fd](qint64 i) {
        const QByteArray line = "100 " + QByteArray::number(1000 + i / 1'000'000) + "." +
                                QByteArray::number(i % 1'000'000).rightJustified(6, '0') + " pread64(7<" +
                                kRelation + ">, \"\"..., 8192, " + QByteArray::number(i * 8192) +
                                ") = 8192 <0.000100>\n";
        return ::write(fd, line.constData(), std::size_t(line.size())) == line.size();
    };
    // Enough lines that reading them takes the import a while: the writer, appending all along, grows
    // the file while it is read however the two are scheduled.
    constexpr qint64 kAtStart = 200'000;
    for (qint64 i = 0; i < kAtStart; ++i)
        QVERIFY(writeRead(i));
    std::atomic<bool> stop{false};
    std::thread writer([&] {
        for (qint64 i = kAtStart; !stop.load() && i < 3'000'000 && writeRead(i); ++i) {
        }
    });
    const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace,
                                QStringLiteral("--summary-json"), trace + QStringLiteral(".json")});
    stop = true;
    writer.join();
    ::close(fd);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    static const QRegularExpression grew(
        QStringLiteral("grew while it was read \\(is it still being written\\?\\): it was read up to its "
                       "(\\d+) bytes at the start"));
    const QRegularExpressionMatch match = grew.match(r.err);
    QVERIFY2(match.hasMatch(), qPrintable(r.err));
    const qint64 atOpen = match.captured(1).toLongLong();
    const QByteArray written = la::test::readFile(trace);
    QVERIFY2(written.size() > atOpen, "the writer wrote nothing while the trace was read");
    QCOMPARE(observed("growing.strace")[QStringLiteral("ios")].toInteger(),
             qint64(written.left(atOpen).count('\n')));
}

// A read longer than one read call can return, or than the blocks a relation can have, is malformed:
// counted, never expanded. Under a 1 GiB data limit, so that expanding it would fail.
void TestHostileTraces::oneLineDemandingGigabytes_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("strace 1 TiB") << goodStrace() + straceRead(kGoodReads, 0, qint64(1) << 40);
    QTest::newRow("csv 2^32-1 blocks") << goodCsv() + csvRead("pg18", "30000", "0", "4294967295", 77);
    QTest::newRow("perf 1 TiB")
        << goodPerf() + perfRead(30, 0, " = 1099511627776").replace("count: 8192", "count: 1099511627776");
}

void TestHostileTraces::oneLineDemandingGigabytes() {
    QFETCH(QByteArray, content);
    const QString trace = path("huge.trace");
    QVERIFY(writeFile(trace, content));
    const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace,
                                QStringLiteral("--summary-json"), trace + QStringLiteral(".json")},
                               kTimeoutMs, rlim_t{1} << 30);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("skipped 1 malformed line(s)")), qPrintable(r.err));
    const QJsonObject run = la::test::summaryRun(trace + QStringLiteral(".json"));
    QCOMPARE(run[QStringLiteral("ios")].toInt(), kGoodReads);
    QCOMPARE(run[QStringLiteral("blocks")].toInt(), kGoodReads);
}

// A million files read once each cost a few counters each for the first 524,288 of them, and
// nothing after (the old inventory took 1.47 GB): under a 256 MiB data limit. A relation is still
// found by its path, even past those counted.
void TestHostileTraces::manyFilesInBoundedMemory() {
    QByteArray text = goodStrace();
    text.reserve(64 << 20);
    for (int i = 0; i < 1'000'000; ++i)
        text += "100 1001.000000 pread64(8</pg/base/5/" + QByteArray::number(1'000'000 + i) +
                ">, \"\"..., 8192, 0) = 8192\n";
    const QString trace = path("files.strace");
    QVERIFY(writeFile(trace, text));
    text.clear();
    for (const QString& relation : {QStringLiteral("5/16390"), QStringLiteral("1999999")}) {
        const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace,
                                    QStringLiteral("--trace-relation"), relation},
                                   kTimeoutMs, rlim_t{256} << 20);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(relation == QLatin1String("5/16390")
                                    ? QStringLiteral("relation /pg/base/5/16390: 20 reads")
                                    : QStringLiteral("relation /pg/base/5/1999999: 1 reads")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("the trace reads 524224 more file(s) than are listed")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("475713 read(s) of files first seen after 524288 others")),
                 qPrintable(r.err));
    }
}

// A million calls that never resume (each from its own process) keep a bounded number pending, and
// are counted in a note (the old scanner kept every one: 345 MB, and said nothing).
void TestHostileTraces::neverResumedCallsInBoundedMemory() {
    QByteArray text = goodStrace();
    text.reserve(80 << 20);
    for (int i = 0; i < 1'000'000; ++i)
        text +=
            QByteArray::number(1000 + i) + " 1001.000000 pread64(7</pg/base/5/16390>,  <unfinished ...>\n";
    const QString trace = path("unfinished.strace");
    QVERIFY(writeFile(trace, text));
    text.clear();
    const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace},
                               kTimeoutMs, rlim_t{160} << 20);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("1000000 call(s) began (<unfinished ...>) but never resumed")),
             qPrintable(r.err));
}

// Numbers whose arithmetic would wrap are malformed lines, not plausible reads.
void TestHostileTraces::overflowsAreMalformed_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("strace offset near 2^64")
        << goodStrace() + "100 1000.900000 pread64(7<" + kRelation +
               ">, \"\"..., 8192, 18446744073709543424) = 8192 <0.000100>\n";
    QTest::newRow("csv block*8192 wraps")
        << goodCsv() + csvRead("pg18", "30000", "2251799813685253", "1", 77);
    QTest::newRow("csv nblocks 2^51") << goodCsv() + csvRead("pg18", "30000", "0", "2251799813685248", 77);
    QTest::newRow("preadv iovecs past 2^64")
        << goodStrace() + "100 1000.900000 preadv(7<" + kRelation +
               ">, [{iov_base=\"\"..., iov_len=18446744073709551615}, {iov_base=\"\"..., iov_len=8193}], 2, "
               "0) = 8192 <0.000100>\n";
    QTest::newRow("strace pid past 2^32") << goodStrace() + "4294967396 1000.900000 pread64(7<" + kRelation +
                                                 ">, \"\"..., 8192, 0) = 8192 <0.000100>\n";
    QTest::newRow("strace duration of days") << goodStrace() + "100 1000.900000 pread64(7<" + kRelation +
                                                    ">, \"\"..., 8192, 0) = 8192 <9223372036.000000>\n";
}

void TestHostileTraces::overflowsAreMalformed() {
    QFETCH(QByteArray, content);
    const Result r = import("overflow.trace", content);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("skipped 1 malformed line(s)")), qPrintable(r.err));
    const QJsonObject run = observed("overflow.trace");
    QCOMPARE(run[QStringLiteral("ios")].toInt(), kGoodReads);
    QCOMPARE(run[QStringLiteral("blocks")].toInt(), kGoodReads);
    QVERIFY(run[QStringLiteral("processes")].toArray().size() == 1);
}

// Real captures: perf's start line of a call another task interrupted, and strace's failed call with
// a negative offset, are a read whose end is unknown and a failed call, not malformed lines.
void TestHostileTraces::realPerfAndStraceLines() {
    QByteArray perf = goodPerf();
    perf += "507.395 (         ): postgres/21796 pread64(fd: 7<" + kRelation +
            ">, buf: 0x7f85dbb99c00, count: 8192, pos: 21159936)   ...\n";
    Result r = import("interrupted.perf", perf);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("1 read(s) were interrupted")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("malformed")), qPrintable(r.err));
    QCOMPARE(observed("interrupted.perf")[QStringLiteral("ios")].toInt(), kGoodReads + 1);

    QByteArray strace = goodStrace();
    strace += "100 1000.900000 pread64(7<" + kRelation +
              ">, 0x7ffd12345678, 8192, -1) = -1 EINVAL (Invalid argument) <0.000010>\n";
    r = import("failed.strace", strace);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("1 read(s) of the relation failed")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("malformed")), qPrintable(r.err));
}

// A few malformed lines are skipped with the first three shown; a large share refuses the trace.
void TestHostileTraces::malformedShare() {
    QByteArray text = goodStrace() + goodStrace();
    text.insert(0, "garbage one\n");
    text += "garbage \x1b[31m two\n100 1000.9 pread64(7<" + kRelation + ">, \"\"..., 81\ngarbage four\n";
    Result r = import("few.strace", text);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(
        r.err.contains(QStringLiteral("skipped 4 malformed line(s) of 44: line 1: 'garbage one'; line 42: "
                                      "'garbage \\x1B[31m two'; line 43")),
        qPrintable(r.err));
    QCOMPARE(observed("few.strace")[QStringLiteral("ios")].toInt(), 2 * kGoodReads);
    for (int i = 0; i < 4; ++i)
        text += "garbage\n";
    r = import("many.strace", text);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(
                 QStringLiteral("8 of 48 lines are not strace output or are cut short, more than 1 in 10")),
             qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
}

// A million reads, each from its own process: the old linear search per read took minutes here
// (11 s for 300,000), far past this test's timeout; a hash map takes seconds.
void TestHostileTraces::manyProcessesInLinearTime() {
    QByteArray text;
    text.reserve(64 << 20);
    for (int i = 0; i < 1'000'000; ++i)
        text += QByteArray::number(1000 + i) + " 1000.000000 pread64(7</r>, \"\"..., 8192, " +
                QByteArray::number(qint64(i % 4096) * 8192) + ") = 8192\n";
    const QString trace = path("pids.strace");
    QVERIFY(writeFile(trace, text));
    text.clear();
    const Result r =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace}, 40'000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("merged the reads of 1000000 processes")), qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("and 999,984 more")), qPrintable(r.out.left(2000)));
}

// A read's result, not its request, says which blocks it read: 8 kB of an 80 kB request is one
// block, a result of 0 (end of file) none.
void TestHostileTraces::shortReadsCountTheirBlocks() {
    QByteArray text = goodStrace();
    text += "100 1000.900000 pread64(7<" + kRelation + ">, \"\"..., 81920, 163840) = 8192 <0.000100>\n";
    text += "100 1000.910000 pread64(7<" + kRelation + ">, \"\"..., 8192, 172032) = 0 <0.000100>\n";
    const Result r = import("short.strace", text);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("2 read(s) returned less than they asked for")),
             qPrintable(r.err));
    const QJsonObject run = observed("short.strace");
    QCOMPARE(run[QStringLiteral("ios")].toInt(), kGoodReads + 1);
    QCOMPARE(run[QStringLiteral("blocks")].toInt(), kGoodReads + 1);
}

// fd:N does not merge different files that the trace names.
void TestHostileTraces::fdOfSeveralFilesIsRefused() {
    QByteArray text = goodStrace();
    text += "100 1000.900000 pread64(7</pg/base/5/99999>, \"\"..., 8192, 0) = 8192 <0.000100>\n";
    const Result r = import("fd.strace", text, {QStringLiteral("--trace-relation"), QStringLiteral("fd:7")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("'/pg/base/5/16390' and '/pg/base/5/99999'")), qPrintable(r.err));
}

// strace -yy escapes a name's unprintable bytes; the real name still finds the file, with a note.
void TestHostileTraces::escapedNameIsFound() {
    QByteArray text = goodStrace();
    text += "100 1000.900000 pread64(8</pg/base/5/odd\\nname>, \"\"..., 8192, 0) = 8192 <0.000100>\n";
    const Result r =
        import("escaped.strace", text, {QStringLiteral("--trace-relation"), QStringLiteral("odd\nname")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("the trace shows 'odd\\x0Aname' as '/pg/base/5/odd\\nname'")),
             qPrintable(r.err));
    QCOMPARE(observed("escaped.strace")[QStringLiteral("ios")].toInt(), 1);
}

// A run label (or path) longer than PATH_MAX is not kept: its lines are malformed.
void TestHostileTraces::overlongLabelIsMalformed() {
    QByteArray text = goodCsv();
    text += csvRead(QByteArray(5000, 'L'), "30000", "3", "1", 99);
    const Result r = import("label.csv", text);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("skipped 1 malformed line(s)")), qPrintable(r.err));
    QVERIFY2(r.err.size() < 2000, qPrintable(r.err.left(300)));
    QVERIFY(r.out.size() < 4000);
}

void TestHostileTraces::conflictingOptionsAreRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString trace = QStringLiteral("t.strace");
    // Without visits the model replays the trace's reads, each a miss: a cache state would be ignored.
    QTest::newRow("--prewarm") << QStringList{QStringLiteral("--import-trace"), trace,
                                              QStringLiteral("--prewarm"), QStringLiteral("all")}
                               << "--prewarm with --import-trace needs the scan's visits";
    QTest::newRow("--compare-index-batches")
        << QStringList{QStringLiteral("--import-trace"), trace, QStringLiteral("--compare-index-batches"),
                       QStringLiteral("ring")}
        << "--compare-index-batches cannot be used with --import-trace";
    QTest::newRow("--compare-direction")
        << QStringList{QStringLiteral("--import-trace"), trace, QStringLiteral("--compare-direction")}
        << "--compare-direction cannot be used with --import-trace";
    QTest::newRow("--trace-relation alone")
        << QStringList{QStringLiteral("--trace-relation"), QStringLiteral("fd:3")} << "needs --import-trace";
}

void TestHostileTraces::conflictingOptionsAreRefused() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    QVERIFY(writeFile(path("t.strace"), goodStrace()));
    for (QString& arg : args)
        if (arg == QLatin1String("t.strace"))
            arg = path("t.strace");
    const Result r = lookahead(QStringList{QStringLiteral("--headless")} + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

// Paths and labels from a trace reach stdout escaped, like stderr.
void TestHostileTraces::tracedTextIsEscapedOnStdout() {
    QByteArray text;
    for (int i = 0; i < kGoodReads; ++i)
        text += "100 1000." + QByteArray::number(100000 + i) +
                " pread64(7</pg/\x1b]0;owned\x07\x1b[2J>, \"\"..., "
                "8192, 0) = 8192\n";
    Result r = import("escape.strace", text);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(!r.out.contains(QLatin1Char('\x1b')) && !r.err.contains(QLatin1Char('\x1b')), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("\\x1B]0;owned")), qPrintable(r.out));
    QByteArray csv = csvHeader();
    for (int i = 0; i < kGoodReads; ++i)
        csv += csvRead("\x1b[31mred", QByteArray::number(1000 * i), QByteArray::number(i), "1", i + 1);
    r = import("escape.csv", csv);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(!r.out.contains(QLatin1Char('\x1b')) && !r.err.contains(QLatin1Char('\x1b')), qPrintable(r.out));
}

QTEST_GUILESS_MAIN(TestHostileTraces)
#include "tst_hostile_traces.moc"
