// SPDX-License-Identifier: GPL-3.0-or-later
// `lookahead capture` with the kernel tracer (docs/trace-import.md, "Kernel captures"): device
// requests mapped to file offsets through extents, tracefs lines read, the capture format, the
// refusal without privileges; and, as root, Lookahead's own scans of a real file captured and
// compared with the reads the scan itself records.
#include "capture/tracefs.h"
#include "capture/tracer.h"
#include "cli_process.h"
#include "observed/extent_map.h"
#include "observed/ftrace_line.h"
#include "observed/kernel_capture.h"
#include "observed/kernel_capture_format.h"
#include "observed/observed_summary.h"
#include "observed/trace_importer.h"
#include "session/session_file.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <map>
#include <set>

using namespace la;
using namespace la::test;

namespace {

constexpr std::uint64_t kBlock = 8192;

// One read as the scan's CSV or the capture gives it, in blocks.
struct BlockRead {
    std::uint64_t first = 0, count = 0;
};

// The reads a scan itself started (--trace-csv read_started rows: block, nblocks).
std::vector<BlockRead> scanReads(const QString& csv) {
    std::vector<BlockRead> reads;
    for (const QByteArray& line : readFile(csv).split('\n')) {
        const QList<QByteArray> f = line.split(',');
        if (f.size() == 13 && f[3] == "read_started")
            reads.push_back({f[4].toULongLong(), f[5].toULongLong()});
    }
    return reads;
}

// The device reads (DeviceRead) or the read calls (Read) of `path` in a kernel capture, by time.
std::vector<BlockRead> capturedReads(const QString& capture, const QString& path,
                                     LineKind kind = LineKind::DeviceRead) {
    std::vector<BlockRead> reads;
    for (const QByteArray& line : readFile(capture).split('\n')) {
        TraceLine parsed;
        if (parseKernelCaptureLine(std::string_view(line.constData(), std::size_t(line.size())), parsed) ==
                kind &&
            parsed.path == path.toStdString())
            reads.push_back({parsed.offset / kBlock, parsed.bytes / kBlock});
    }
    return reads;
}

std::map<std::uint64_t, int> blocksOf(const std::vector<BlockRead>& reads) {
    std::map<std::uint64_t, int> blocks;
    for (const BlockRead& r : reads)
        for (std::uint64_t b = r.first; b < r.first + r.count; ++b)
            ++blocks[b];
    return blocks;
}

// A file of random bytes on disk (not sparse, not delayed: its extents are placed).
QString makeDataFile(const QString& dir, int mib) {
    const QString path = dir + QStringLiteral("/data.bin");
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    QByteArray chunk(1 << 20, Qt::Uninitialized);
    for (int i = 0; i < mib; ++i) {
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32*>(chunk.data()), chunk.size() / 4);
        file.write(chunk);
    }
    file.flush();
    ::fsync(file.handle());
    ::posix_fadvise(file.handle(), 0, 0, POSIX_FADV_DONTNEED);
    return path;
}

QStringList scanArgs(const QString& file, const QString& io, bool direct, const QString& csv) {
    return {QStringLiteral("--headless"),
            QStringLiteral("--file"),
            file,
            QStringLiteral("--io"),
            io,
            direct ? QStringLiteral("--direct") : QStringLiteral("--buffered"),
            QStringLiteral("--dataset"),
            QStringLiteral("seq"),
            QStringLiteral("--trace-csv"),
            csv};
}

// `lookahead capture --tracer kernel [options]` of a scan of `file` (scanArgs).
CliResult captureScan(const QString& capture, const QString& file, const QString& io, bool direct,
                      const QString& csv, const QStringList& options = {}) {
    return runLookahead(QStringList{QStringLiteral("capture"), QStringLiteral("--tracer"),
                                    QStringLiteral("kernel"), QStringLiteral("--out"), capture,
                                    QStringLiteral("--files"), file} +
                            options + QStringList{QStringLiteral("--"), QStringLiteral(LOOKAHEAD_BINARY)} +
                            scanArgs(file, io, direct, csv),
                        120'000);
}

bool instanceExists(qint64 pid) {
    return QDir(tracefs::root() + QStringLiteral("/instances"))
        .exists(QStringLiteral("lookahead-%1").arg(pid));
}

} // namespace

class TestCapture : public QObject {
    Q_OBJECT

private:
    // Skips unless the kernel tracer can run on files in `dir`; the reason otherwise.
    void requireKernelTracer(const QString& file) {
        if (::geteuid() != 0)
            QSKIP("the kernel tracer needs root (CI runs as root)");
        CaptureTargets targets;
        targets.files << file;
        const QString why = makeTracer(TracerKind::Kernel)->unavailable(targets);
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
    }

    QTemporaryDir m_dir{QDir::currentPath() + QStringLiteral("/capture-XXXXXX")};

private slots:
    void extentsMapRequestsToFiles();
    void ftraceLinesAreRead();
    void captureLinesRoundTrip();
    void captureReissuedAndFailedRequests();
    void callsAreToldByALookupBeforeAClose();
    void accessProblemNamesWhatIsMissing();
    void nonRootIsRefused();
    void capturedReadsAreTheScansReads_data();
    void capturedReadsAreTheScansReads();
    void bufferedScanReportsPageCacheFills();
    void bufferedCallsAreTheScansReads_data();
    void bufferedCallsAreTheScansReads();
    void noCallsCapturesTheDeviceOnly();
    void straceCapturesAHeldCommand();
    void interruptedCaptureLeavesNoInstance();
};

void TestCapture::extentsMapRequestsToFiles() {
    ExtentMap map;
    // File 0: bytes 0..64k at device 1M, 64k..128k at device 4M. File 1: 0..32k right after file 0's
    // first extent. File 2 on another device at the same addresses.
    QVERIFY(map.add(7, 0, {{0, 1 << 20, 65536}, {65536, 4 << 20, 65536}}));
    QVERIFY(map.add(7, 1, {{0, (1 << 20) + 65536, 32768}}));
    QVERIFY(map.add(9, 2, {{0, 1 << 20, 65536}}));
    // Inside one extent.
    auto pieces = map.map(7, (1 << 20) + 8192, 16384);
    QCOMPARE(pieces.size(), std::size_t(1));
    QCOMPARE(pieces[0].file, 0U);
    QCOMPARE(pieces[0].offset, std::uint64_t(8192));
    QCOMPARE(pieces[0].bytes, std::uint64_t(16384));
    // Across two files: the end of file 0's first extent and the start of file 1.
    pieces = map.map(7, (1 << 20) + 57344, 16384);
    QCOMPARE(pieces.size(), std::size_t(2));
    QCOMPARE(pieces[0].file, 0U);
    QCOMPARE(pieces[0].offset, std::uint64_t(57344));
    QCOMPARE(pieces[0].bytes, std::uint64_t(8192));
    QCOMPARE(pieces[1].file, 1U);
    QCOMPARE(pieces[1].offset, std::uint64_t(0));
    QCOMPARE(pieces[1].bytes, std::uint64_t(8192));
    // Partly outside every file: only the inside part.
    pieces = map.map(7, (4 << 20) + 61440, 16384);
    QCOMPARE(pieces.size(), std::size_t(1));
    QCOMPARE(pieces[0].offset, std::uint64_t(65536 + 61440));
    QCOMPARE(pieces[0].bytes, std::uint64_t(4096));
    // Outside, another device, an empty request, a range past 2^64.
    QVERIFY(map.map(7, 0, 4096).empty());
    QCOMPARE(map.map(9, (1 << 20), 4096).front().file, 2U);
    QVERIFY(map.map(7, 1 << 20, 0).empty());
    QVERIFY(map.map(7, UINT64_MAX - 10, 4096).empty());
    // Shared blocks (a reflinked copy) map to both files; a long extent before a short one is found.
    ExtentMap shared;
    QVERIFY(shared.add(1, 0, {{0, 0, 1 << 20}}));
    QVERIFY(shared.add(1, 1, {{0, 4096, 4096}}));
    pieces = shared.map(1, 500000, 4096);
    QCOMPARE(pieces.size(), std::size_t(1));
    QCOMPARE(pieces[0].offset, std::uint64_t(500000));
    QCOMPARE(shared.map(1, 4096, 4096).size(), std::size_t(2));
    // An extent whose end passes 2^64 is refused whole.
    QVERIFY(!shared.add(1, 2, {{0, 0, 4096}, {0, UINT64_MAX - 100, 4096}}));
    QCOMPARE(shared.map(1, 0, 4096).size(), std::size_t(1));
}

void TestCapture::ftraceLinesAreRead() {
    FtraceEvent e;
    QVERIFY(parseFtraceLine(
        "   io_uring-sq 12-4711    [001] ..... 51703.453708: block_rq_issue: 254,0 RS 8192 () "
        "383747648 + 16 be,0,4 [postgres]",
        e));
    QCOMPARE(e.kind, FtraceEventKind::Issue);
    QCOMPARE(e.pid, 4711U);
    QCOMPARE(e.comm, std::string_view("io_uring-sq 12"));
    QCOMPARE(e.timeNs, std::int64_t(51703453708000));
    QCOMPARE(e.major, 254U);
    QCOMPARE(e.sector, std::uint64_t(383747648));
    QCOMPARE(e.sectors, 16U);
    QVERIFY(e.isRead());
    // tracefs did not know the task's name: the event's own is taken.
    QVERIFY(parseFtraceLine(
        "  <...>-99 [000] ..... 1.000001: block_rq_issue: 8,16 RA 4096 () 10 + 8 [kworker/0:1H]", e));
    QCOMPARE(e.comm, std::string_view("kworker/0:1H"));
    QCOMPARE(e.minor, 16U);
    QVERIFY(parseFtraceLine(
        "<idle>-0 [001] ..s1. 2.5: block_rq_complete: 254,0 RS () 383747648 + 16 be,0,4 [-5]", e));
    QCOMPARE(e.kind, FtraceEventKind::Complete);
    QCOMPARE(e.error, -5);
    QCOMPARE(e.timeNs, std::int64_t(2500000000));
    QVERIFY(parseFtraceLine("head-11529 [001] ..... 3.0: mm_filemap_add_to_page_cache: dev 254:0 ino 574118 "
                            "pfn=0x10d3ac ofs=8192 order=1",
                            e));
    QCOMPARE(e.kind, FtraceEventKind::PageCacheAdd);
    QCOMPARE(e.inode, std::uint64_t(0x574118));
    QCOMPARE(e.offset, std::uint64_t(8192));
    QCOMPARE(e.order, 1U);
    // Read calls as kernel 6.18 prints them: decimal below 10, else hexadecimal; -errno as 2^64 - errno.
    QVERIFY(parseFtraceLine("python3-24828 [001] ..... 4.0: sys_pread64(fd: 3, buf: 0x55e3ee5fa240, count: "
                            "0x2000, pos: 0x1000)",
                            e));
    QCOMPARE(e.kind, FtraceEventKind::CallEnter);
    QCOMPARE(e.fd, std::int64_t(3));
    QCOMPARE(e.offset, std::uint64_t(0x1000));
    QVERIFY(
        parseFtraceLine("postgres-77 [000] ..... 4.0: sys_preadv2(fd: 0x1c, vec: 0x7f17d95a46f0, vlen: 1, "
                        "pos_l: 0xa000, pos_h: 0, flags: 1)",
                        e));
    QCOMPARE(e.fd, std::int64_t(28));
    QCOMPARE(e.offset, std::uint64_t(0xa000));
    QVERIFY(parseFtraceLine(
        "postgres-77 [000] ..... 4.1: sys_preadv(fd: 5, vec: 0x1, vlen: 2, pos_l: 0, pos_h: 0)", e));
    QCOMPARE(e.kind, FtraceEventKind::CallEnter);
    QVERIFY(parseFtraceLine("postgres-77 [000] ..... 4.2: sys_preadv2 -> 0x64", e));
    QCOMPARE(e.kind, FtraceEventKind::CallExit);
    QCOMPARE(e.result, std::int64_t(100));
    QVERIFY(parseFtraceLine("python3-1 [001] ..... 4.3: sys_pread64 -> 0xffffffffffffffea", e));
    QCOMPARE(e.result, std::int64_t(-22));
    QVERIFY(!parseFtraceLine("python3-1 [001] ..... 4.3: sys_pread64(fd: 3, buf: 0x1", e));
    // With record-tgid: a worker thread's call names its process, whose descriptors it used.
    QVERIFY(parseFtraceLine("lookahead-31620    (  31618) [001] ..... 4.4: sys_pread64 -> 0x2000", e));
    QCOMPARE(e.pid, 31620U);
    QCOMPARE(e.tgid, 31618U);
    QCOMPARE(QByteArray(e.comm.data(), qsizetype(e.comm.size())), QByteArray("lookahead"));
    QVERIFY(parseFtraceLine("<...>-31621    (-------) [000] ..... 4.5: sys_pread64 -> 0x2000", e));
    QCOMPARE(e.pid, 31621U);
    QCOMPARE(e.tgid, 0U);
    QVERIFY(parseFtraceLine("python3-1 [001] ..... 4.3: sys_pread64 -> 0x1", e));
    QCOMPARE(e.tgid, 0U); // not recorded
    QVERIFY(!parseFtraceLine("python3-1    (  1x) [001] ..... 4.3: sys_pread64 -> 0x1", e));
    QVERIFY(parseFtraceLine("CPU:1 [LOST 42 EVENTS]", e));
    QCOMPARE(e.lost, std::uint64_t(42));
    // Cut short, another event, a sector past 2^64.
    QVERIFY(!parseFtraceLine("head-1 [001] ..... 3.0: block_rq_issue: 254,0 RS 8192 () 38", e));
    QVERIFY(!parseFtraceLine("head-1 [001] ..... 3.0: sched_switch: prev_comm=x", e));
    QVERIFY(!parseFtraceLine(
        "head-1 [001] ..... 3.0: block_rq_issue: 254,0 RS 8192 () 99999999999999999999 + 8 [x]", e));
}

void TestCapture::captureLinesRoundTrip() {
    // Built whole: GCC 12 at -O3 takes assigning "RA" to a default-constructed member for a read of
    // uninitialized bytes (-Wmaybe-uninitialized).
    const KernelCaptureRecord read{
        KernelRecordKind::DeviceRead, 1000, 250, 42, "io worker 1", "RA", 819200, 131072};
    const std::string line = kernelCaptureLine(read, "/data/base/5/16390");
    QCOMPARE(line, std::string("read 1000 250 42 io\\040worker\\0401 RA 819200 131072 /data/base/5/16390\n"));
    TraceLine parsed;
    QCOMPARE(parseKernelCaptureLine(std::string_view(line).substr(0, line.size() - 1), parsed),
             LineKind::DeviceRead);
    QCOMPARE(parsed.timeNs, std::int64_t(1000));
    QCOMPARE(parsed.durationNs, std::int64_t(250));
    QCOMPARE(parsed.pid, 42U);
    QCOMPARE(parsed.offset, std::uint64_t(819200));
    QCOMPARE(parsed.bytes, std::uint64_t(131072));
    QCOMPARE(parsed.path, std::string_view("/data/base/5/16390"));
    QVERIFY(parsed.readAhead);
    QCOMPARE(parseKernelCaptureLine("read 5 - 1 x R 0 8192 /a b", parsed), LineKind::DeviceRead);
    QCOMPARE(parsed.durationNs, std::int64_t(-1));
    QCOMPARE(parsed.path, std::string_view("/a b"));
    QCOMPARE(parseKernelCaptureLine("fill 5 1 x 4096 8192 /a", parsed), LineKind::PageCacheFill);
    // A read call: no flags; what it returned.
    const KernelCaptureRecord call{KernelRecordKind::Call, 900, 400, 42, "lookahead", "", 819200, 131072};
    const std::string callLine = kernelCaptureLine(call, "/data/base/5/16390");
    QCOMPARE(callLine, std::string("call 900 400 42 lookahead 819200 131072 /data/base/5/16390\n"));
    QCOMPARE(parseKernelCaptureLine(std::string_view(callLine).substr(0, callLine.size() - 1), parsed),
             LineKind::Read);
    QCOMPARE(parsed.durationNs, std::int64_t(400));
    QCOMPARE(parsed.bytes, std::uint64_t(131072));
    QVERIFY(!parsed.readAhead);
    QCOMPARE(parseKernelCaptureLine("call 5 7 1 x RA 0 8192 /a", parsed), LineKind::Bad);
    QCOMPARE(parseKernelCaptureLine("# lookahead kernel capture 1", parsed), LineKind::Other);
    QCOMPARE(detectTraceFormat({"# lookahead kernel capture 1", "read 5 - 1 x R 0 8192 /a"}),
             std::optional<TraceFormat>(TraceFormat::Kernel));
    QCOMPARE(parseKernelCaptureLine(kKernelCaptureHeader, parsed), LineKind::Other);
    QCOMPARE(parseKernelCaptureLine("read 5 - 1 x R 0 8192", parsed), LineKind::Bad);
    QCOMPARE(parseKernelCaptureLine("read 5 7 1 x R 0 0 /a", parsed), LineKind::Bad);
    QCOMPARE(parseKernelCaptureLine("read 99999999999999999999 7 1 x R 0 8192 /a", parsed), LineKind::Bad);
    QCOMPARE(parseKernelCaptureLine("read 5 7 1 x R 0 4294967296 /a", parsed), LineKind::Bad);
    QCOMPARE(detectTraceFormat({std::string(kKernelCaptureHeader), "read 5 - 1 x R 0 8192 /a"}),
             std::optional<TraceFormat>(TraceFormat::Kernel));
}

void TestCapture::captureReissuedAndFailedRequests() {
    ExtentMap map;
    QVERIFY(map.add(kernelDevice(8, 0), 0, {{0, 1 << 20, 1 << 20}}));
    KernelCapture capture({{"/f", kernelDevice(8, 1), 12}}, std::move(map));
    const auto event = [](FtraceEventKind kind, std::int64_t t, std::uint64_t sector,
                          std::int32_t error = 0) {
        FtraceEvent e;
        e.kind = kind;
        e.timeNs = t;
        e.pid = 7;
        e.comm = "pg";
        e.major = 8;
        e.rwbs = "RS";
        e.sector = sector;
        e.sectors = 16;
        e.error = error;
        return e;
    };
    const std::uint64_t at = (1 << 20) / 512;
    capture.add(event(FtraceEventKind::Issue, 100, at + 16));
    capture.add(event(FtraceEventKind::Issue, 150, at + 16)); // issued again: the driver was busy
    capture.add(event(FtraceEventKind::Complete, 400, at + 16));
    capture.add(event(FtraceEventKind::Issue, 500, at + 32));
    capture.add(event(FtraceEventKind::Complete, 600, at + 32, -5));
    capture.add(event(FtraceEventKind::Issue, 700, 0)); // outside the file
    FtraceEvent fill;
    fill.kind = FtraceEventKind::PageCacheAdd;
    fill.major = 8;
    fill.minor = 1;
    fill.inode = 12;
    fill.offset = 4096;
    fill.order = 2;
    capture.add(fill);
    std::string text;
    capture.write({"a note"}, [&](std::string_view bytes) { text.append(bytes); });
    QCOMPARE(capture.counts().deviceReads, std::uint64_t(3));
    QCOMPARE(capture.counts().mappedReads, std::uint64_t(2));
    QCOMPARE(capture.counts().requeued, std::uint64_t(1));
    QCOMPARE(capture.counts().failed, std::uint64_t(1));
    QCOMPARE(capture.counts().fills, std::uint64_t(1));
    QVERIFY2(text.find("read 100 300 7 pg RS 8192 8192 /f\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("fill 0 0 ? 4096 16384 /f\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("# a note\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("read 500") == std::string::npos, text.c_str()); // the failed read is left out
}

// A call's descriptor looked up after the task closed it and gave its number to another file (a
// scan's output after its input): the lookup before the close tells it; a call that no lookup made
// before a close tells is counted as not told, never put on another file.
void TestCapture::callsAreToldByALookupBeforeAClose() {
    using FdAnswer = KernelCapture::FdAnswer;
    using FdFile = KernelCapture::FdFile;
    std::map<std::int64_t, FdFile> lookups; // what the resolver answers, by descriptor
    KernelCapture capture(
        {{"/f", kernelDevice(8, 1), 12}}, ExtentMap{},
        [&](std::uint32_t pid, std::int64_t fd) { return pid == 50 ? lookups[fd] : FdFile{}; });
    const auto call = [&](std::uint32_t pid, std::int64_t fd, std::int64_t t, std::uint64_t offset) {
        FtraceEvent e;
        e.kind = FtraceEventKind::CallEnter;
        e.pid = pid;
        e.tgid = 50;
        e.comm = "lookahead";
        e.timeNs = t;
        e.fd = fd;
        e.offset = offset;
        capture.add(e);
        e.kind = FtraceEventKind::CallExit;
        e.timeNs = t + 100;
        e.result = 8192;
        capture.add(e);
    };
    const auto close = [&](std::int64_t fd, std::int64_t t) {
        FtraceEvent e;
        QVERIFY(parseFtraceLine("lookahead-51    (     50) [001] ..... 0.000000: sys_close(fd: 0x5)", e));
        QCOMPARE(e.kind, FtraceEventKind::Close);
        QCOMPARE(e.fd, std::int64_t(5));
        e.fd = e.lastFd = fd;
        e.timeNs = t;
        capture.add(e);
    };
    // fd 5: the file, looked up at 1 ms; closed at 10 ms; then the output on the same number,
    // looked up at 20 ms.
    lookups[5] = FdFile{FdAnswer{std::nullopt, 20'000'000, 20'000'010}, FdAnswer{0U, 1'000'000, 1'000'010}};
    call(51, 5, 5'000'000, 8192); // after the earlier lookup, before the close: the file's
    close(5, 10'000'000);
    call(51, 5, 15'000'000, 0); // on the output: dropped
    // fd 6: a library's at the first lookup, closed; then opened, read and closed between two lookups:
    // not told.
    lookups[6] = FdFile{FdAnswer{0U, 30'000'000, 30'000'010}, FdAnswer{std::nullopt, 1'000'000, 1'000'010}};
    close(6, 2'000'000);
    call(52, 6, 12'000'000, 16384);
    close(6, 13'000'000);
    // fd 7: the file at both lookups, the call between them: the latest tells it.
    lookups[7] = FdFile{FdAnswer{0U, 40'000'000, 40'000'010}, FdAnswer{0U, 1'000'000, 1'000'010}};
    call(51, 7, 35'000'000, 24576);
    // A call whose entry was not seen.
    FtraceEvent exit;
    exit.kind = FtraceEventKind::CallExit;
    exit.pid = 53;
    exit.result = 8192;
    capture.add(exit);
    std::string text;
    capture.write({}, [&](std::string_view bytes) { text.append(bytes); });
    QCOMPARE(capture.counts().calls, std::uint64_t(5));
    QCOMPARE(capture.counts().callsOfFiles, std::uint64_t(2));
    QCOMPARE(capture.counts().unresolved, std::uint64_t(2));
    QVERIFY2(text.find("call 5000000 100 51 lookahead 8192 8192 /f\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("call 35000000 100 51 lookahead 24576 8192 /f\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find(" 0 8192 /f") == std::string::npos, text.c_str());
    QVERIFY2(text.find(" 16384 8192 /f") == std::string::npos, text.c_str());
    // The other closes as tracefs prints them.
    FtraceEvent e;
    QVERIFY(parseFtraceLine("x-1 [000] ..... 1.0: sys_close_range(fd: 3, max_fd: 0xffffffff, flags: 0)", e));
    QCOMPARE(e.kind, FtraceEventKind::Close);
    QCOMPARE(e.fd, std::int64_t(3));
    QCOMPARE(e.lastFd, std::int64_t(INT32_MAX));
    QVERIFY(parseFtraceLine("x-1 [000] ..... 1.0: sys_dup2(oldfd: 3, newfd: 0xa)", e));
    QCOMPARE(e.fd, std::int64_t(10));
    QCOMPARE(e.lastFd, std::int64_t(10));
    QVERIFY(parseFtraceLine("x-1 [000] ..... 1.0: sys_dup3(oldfd: 3, newfd: 4, flags: 0x80000)", e));
    QCOMPARE(e.fd, std::int64_t(4));
    QVERIFY(!parseFtraceLine("x-1 [000] ..... 1.0: sys_close_range(fd: 9, max_fd: 3, flags: 0)", e));
    QVERIFY(!parseFtraceLine("x-1 [000] ..... 1.0: sys_close(fd: 3", e));
}

void TestCapture::accessProblemNamesWhatIsMissing() {
    tracefs::Access nobody;
    nobody.mounted = true;
    const QString refused = tracefs::accessProblem(nobody);
    QVERIFY2(refused.contains(QStringLiteral("root")) && refused.contains(QStringLiteral("CAP_PERFMON")) &&
                 refused.contains(QStringLiteral("instances")),
             qPrintable(refused));
    tracefs::Access unmounted;
    unmounted.perfmon = true;
    QVERIFY(tracefs::accessProblem(unmounted).contains(QStringLiteral("not mounted")));
    tracefs::Access root;
    root.root = true; // root mounts tracefs itself
    QVERIFY(tracefs::accessProblem(root).isEmpty());
    root.mounted = true;
    root.instancesWritable = true;
    root.missingEvents << QStringLiteral("filemap/mm_filemap_add_to_page_cache");
    QVERIFY(tracefs::accessProblem(root).contains(QStringLiteral("mm_filemap_add_to_page_cache")));
}

void TestCapture::nonRootIsRefused() {
    if (::geteuid() != 0)
        QSKIP("runs the binary as user nobody, which needs root");
    const QString file = makeDataFile(m_dir.path(), 1);
    // A file the user may read: what is refused is the tracer, not the file (every --files is opened).
    QVERIFY(QFile::setPermissions(m_dir.path(),
                                  QFile::permissions(m_dir.path()) | QFile::ReadOther | QFile::ExeOther));
    QVERIFY(QFile::setPermissions(file, QFile::permissions(file) | QFile::ReadOther));
    QProcess process;
    process.setChildProcessModifier([] {
        if (::setgid(65534) != 0 || ::setuid(65534) != 0)
            ::_exit(99);
    });
    process.start(QStringLiteral(LOOKAHEAD_BINARY),
                  {QStringLiteral("capture"), QStringLiteral("--tracer"), QStringLiteral("kernel"),
                   QStringLiteral("--out"), QStringLiteral("/nonexistent-dir/capture.txt"),
                   QStringLiteral("--files"), file, QStringLiteral("--"), QStringLiteral("true")});
    const CliResult r = finishProcess(process, 60'000);
    QVERIFY2(r.exitCode == 2, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("neither root nor has CAP_PERFMON")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("--tracer strace")), qPrintable(r.err));
}

void TestCapture::capturedReadsAreTheScansReads_data() {
    QTest::addColumn<QString>("io");
    for (const char* io : {"io_uring", "worker", "sync"})
        QTest::newRow(io) << QString::fromLatin1(io);
}

// O_DIRECT: every read the scan makes is a device request. The block layer may split a read where
// the file's extents break and merge reads submitted together; neither changes which blocks were
// read or where the scan's reads start.
void TestCapture::capturedReadsAreTheScansReads() {
    QFETCH(QString, io);
    const QString file = makeDataFile(m_dir.path(), 16);
    requireKernelTracer(file);
    const QString capture = m_dir.filePath(QStringLiteral("capture-") + io);
    const QString csv = m_dir.filePath(QStringLiteral("scan-") + io + QStringLiteral(".csv"));
    const CliResult r = captureScan(capture, file, io, true, csv);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // Its cost is stated, and how to measure the overhead said.
    QVERIFY(readFile(capture).contains("\n# the command took "));
    QVERIFY2(r.err.contains(QStringLiteral("add --measure-overhead")), qPrintable(r.err));
    const std::vector<BlockRead> scan = scanReads(csv);
    const std::vector<BlockRead> captured = capturedReads(capture, file);
    QVERIFY(scan.size() > 100);
    QCOMPARE(blocksOf(captured), blocksOf(scan));
    std::set<std::uint64_t> scanStarts, capturedStarts;
    for (const BlockRead& read : scan)
        scanStarts.insert(read.first);
    for (const BlockRead& read : captured)
        capturedStarts.insert(read.first);
    // Every read the scan started begins a device read, or lies inside one that merged it.
    for (const BlockRead& read : scan) {
        const bool begins = capturedStarts.contains(read.first);
        const bool merged = std::any_of(captured.begin(), captured.end(), [&](const BlockRead& c) {
            return c.first < read.first && read.first + read.count <= c.first + c.count;
        });
        QVERIFY2(begins || merged, qPrintable(QStringLiteral("read at block %1").arg(read.first)));
    }
    // And the capture imports as the observed run of that file.
    TraceImportRequest request;
    request.path = capture.toStdString();
    const std::optional<ObservedTrace> trace = importTrace(request);
    QVERIFY(trace);
    QCOMPARE(trace->format, TraceFormat::Kernel);
    QVERIFY(trace->hasDurations);
    QCOMPARE(trace->relationBlocks(), std::uint64_t(2048));
}

void TestCapture::bufferedScanReportsPageCacheFills() {
    const QString file = makeDataFile(m_dir.path(), 16);
    requireKernelTracer(file);
    const QString capture = m_dir.filePath(QStringLiteral("capture-buffered"));
    const QString csv = m_dir.filePath(QStringLiteral("scan-buffered.csv"));
    const CliResult r = runLookahead(QStringList{QStringLiteral("capture"), QStringLiteral("--out"), capture,
                                                 QStringLiteral("--files"), file, QStringLiteral("--"),
                                                 QStringLiteral(LOOKAHEAD_BINARY)} +
                                         scanArgs(file, QStringLiteral("sync"), false, csv),
                                     120'000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("kernel tracer")), qPrintable(r.err)); // auto chose it
    qint64 filled = 0;
    for (const QByteArray& line : readFile(capture).split('\n')) {
        TraceLine parsed;
        if (parseKernelCaptureLine(std::string_view(line.constData(), std::size_t(line.size())), parsed) ==
            LineKind::PageCacheFill)
            filled += qint64(parsed.bytes);
    }
    QCOMPARE(filled, qint64(16 << 20)); // the file was evicted first: every page entered once
    TraceImportRequest request;
    request.path = capture.toStdString();
    const std::optional<ObservedTrace> trace = importTrace(request);
    QVERIFY(trace);
    const bool noted = std::any_of(trace->notes.begin(), trace->notes.end(), [](const std::string& note) {
        return note.find("the page cache took in 16384 kB") != std::string::npos;
    });
    QVERIFY(noted);
}

// --no-calls: the device's reads all the same, no call, and the capture says why.
void TestCapture::noCallsCapturesTheDeviceOnly() {
    const QString file = makeDataFile(m_dir.path(), 16);
    requireKernelTracer(file);
    const QString capture = m_dir.filePath(QStringLiteral("capture-no-calls"));
    const QString csv = m_dir.filePath(QStringLiteral("scan-no-calls.csv"));
    const CliResult r =
        captureScan(capture, file, QStringLiteral("sync"), false, csv, {QStringLiteral("--no-calls")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(capturedReads(capture, file, LineKind::Read).empty());
    QCOMPARE(blocksOf(capturedReads(capture, file)).size(), std::size_t(2048));
    QVERIFY2(readFile(capture).contains("read calls not recorded: --no-calls"),
             readFile(capture).left(2000).constData());
}

void TestCapture::bufferedCallsAreTheScansReads_data() {
    QTest::addColumn<QString>("io");
    for (const char* io : {"worker", "sync"})
        QTest::newRow(io) << QString::fromLatin1(io);
}

// A buffered scan: the capture holds the scan's read calls beside the device's reads (the kernel's
// read-ahead among them); imported, each call is the page cache's or the device's, and a session
// saved from it keeps the device reads.
void TestCapture::bufferedCallsAreTheScansReads() {
    QFETCH(QString, io);
    const QString file = makeDataFile(m_dir.path(), 16);
    requireKernelTracer(file);
    const QString capture = m_dir.filePath(QStringLiteral("capture-calls-") + io);
    const QString csv = m_dir.filePath(QStringLiteral("scan-calls-") + io + QStringLiteral(".csv"));
    const CliResult r = captureScan(capture, file, io, false, csv);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    std::vector<BlockRead> scan = scanReads(csv);
    std::vector<BlockRead> calls = capturedReads(capture, file, LineKind::Read);
    QVERIFY(scan.size() > 100);
    // I/O workers take the reads in any order: the same reads, each once.
    const auto byBlock = [](const BlockRead& a, const BlockRead& b) {
        return a.first != b.first ? a.first < b.first : a.count < b.count;
    };
    // Every call captured is one of the scan's reads, and every read is captured or counted as a call
    // whose file could not be told: on a loaded machine (CI, ASan) the scan may close its file before
    // the reader looks its descriptor up (docs/trace-import.md §2.4). None is dropped unseen.
    std::sort(scan.begin(), scan.end(), byBlock);
    std::sort(calls.begin(), calls.end(), byBlock);
    const auto sameRead = [](const BlockRead& a, const BlockRead& b) {
        return a.first == b.first && a.count == b.count;
    };
    std::vector<BlockRead> missed;
    std::set_difference(scan.begin(), scan.end(), calls.begin(), calls.end(), std::back_inserter(missed),
                        byBlock);
    QVERIFY(std::includes(scan.begin(), scan.end(), calls.begin(), calls.end(), byBlock));
    QVERIFY(std::adjacent_find(calls.begin(), calls.end(), sameRead) == calls.end());
    const QByteArray header = readFile(capture);
    const qsizetype told = header.indexOf("calls whose file could not be told ");
    QVERIFY2(told >= 0, header.left(2000).constData());
    const qint64 notTold = header.mid(told + qsizetype(std::strlen("calls whose file could not be told ")))
                               .split('\n')
                               .first()
                               .toLongLong();
    QVERIFY2(qint64(missed.size()) <= notTold,
             qPrintable(QStringLiteral("%1 of the scan's %2 reads missing, %3 calls not told")
                            .arg(missed.size())
                            .arg(scan.size())
                            .arg(notTold)));
    if (!missed.empty())
        qInfo("%zu of the scan's %zu reads were closed before their lookup: counted as not told",
              missed.size(), scan.size());
    // The file was evicted first: the device read all of it, mostly as the kernel's read-ahead.
    const std::vector<BlockRead> device = capturedReads(capture, file);
    QCOMPARE(blocksOf(device).size(), std::size_t(2048));
    std::uint64_t readAhead = 0;
    for (const QByteArray& line : readFile(capture).split('\n')) {
        TraceLine parsed;
        if (parseKernelCaptureLine(std::string_view(line.constData(), std::size_t(line.size())), parsed) ==
            LineKind::DeviceRead)
            readAhead += parsed.readAhead ? 1 : 0;
    }
    QVERIFY(readAhead > 0);

    TraceImportRequest request;
    request.path = capture.toStdString();
    const std::optional<ObservedTrace> trace = importTrace(request);
    QVERIFY(trace);
    QVERIFY(trace->sourcesExact);
    QCOMPARE(trace->reads.size(), scan.size());
    QCOMPARE(trace->deviceReads.size(), device.size());
    const ObservedSummary summary = summarizeObserved(*trace);
    QVERIFY(summary.run.pageCacheKnown);
    QCOMPARE(summary.run.pageCacheReads + summary.run.deviceReads, std::uint64_t(scan.size()));
    QVERIFY(summary.run.deviceReads > 0); // the first call waited for the device at least
    QCOMPARE(summary.run.deviceReadAheadReads, readAhead);

    // Saved and reopened, the observed run keeps its device reads.
    const QString session = m_dir.filePath(QStringLiteral("calls-") + io + QStringLiteral(".lookahead"));
    const CliResult saved = runLookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"),
                                          capture, QStringLiteral("--save"), session},
                                         120'000);
    QVERIFY2(saved.exitCode == 0, qPrintable(saved.err));
    const SessionReader reader(session.toStdString());
    std::uint64_t started = 0, completed = 0, readAheadEvents = 0;
    reader.readEvents(0, [&](std::span<const Event> batch) {
        for (const Event& event : batch) {
            started += event.kind == EventKind::DeviceReadStarted ? 1 : 0;
            completed += event.kind == EventKind::DeviceReadCompleted ? 1 : 0;
            readAheadEvents +=
                event.kind == EventKind::DeviceReadStarted && (event.flags & event_flag::readAhead) ? 1 : 0;
        }
    });
    QCOMPARE(started, std::uint64_t(device.size()));
    QCOMPARE(completed, started);
    QCOMPARE(readAheadEvents, readAhead);
}

// strace on a command started held: attached before the command runs, it sees every read call, so
// for a synchronous O_DIRECT scan the captured calls are the scan's reads themselves, in order. With
// --measure-overhead the command ran untraced first and the file states the ratio in a `#` line
// that the import skips.
void TestCapture::straceCapturesAHeldCommand() {
    const QString file = makeDataFile(m_dir.path(), 16);
    CaptureTargets self;
    self.pids = {qint64(::getpid())};
    if (const QString why = makeTracer(TracerKind::Strace)->unavailable(self); !why.isEmpty())
        QSKIP(qPrintable(why));
    const QString capture = m_dir.filePath(QStringLiteral("capture-strace"));
    const QString csv = m_dir.filePath(QStringLiteral("scan-strace.csv"));
    const CliResult r = runLookahead(
        QStringList{QStringLiteral("capture"), QStringLiteral("--tracer"), QStringLiteral("strace"),
                    QStringLiteral("--measure-overhead"), QStringLiteral("--out"), capture,
                    QStringLiteral("--files"), file, QStringLiteral("--"), QStringLiteral(LOOKAHEAD_BINARY)} +
            scanArgs(file, QStringLiteral("sync"), true, csv),
        120'000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("untraced: ")), qPrintable(r.err));
    const QByteArray text = readFile(capture);
    const qsizetype overhead = text.indexOf("\n# overhead: the command took ");
    QVERIFY2(overhead > 0, text.right(400).constData());
    QVERIFY(text.indexOf(" traced (strace tracer): ratio ", overhead) > overhead);

    TraceImportRequest request;
    request.path = capture.toStdString();
    request.relation = QFileInfo(file).canonicalFilePath().toStdString();
    const std::optional<ObservedTrace> trace = importTrace(request);
    QVERIFY(trace);
    QCOMPARE(trace->format, TraceFormat::Strace);
    for (const std::string& note : trace->notes)
        QVERIFY2(note.find("malformed") == std::string::npos, note.c_str());
    std::vector<BlockRead> captured;
    for (const ObservedRead& read : trace->reads)
        captured.push_back({read.block, read.nblocks});
    const std::vector<BlockRead> scan = scanReads(csv);
    QVERIFY(scan.size() > 100);
    QCOMPARE(captured.size(), scan.size());
    for (std::size_t i = 0; i < scan.size(); ++i)
        QVERIFY2(captured[i].first == scan[i].first && captured[i].count == scan[i].count,
                 qPrintable(QStringLiteral("read %1: captured block %2 +%3, the scan's %4 +%5")
                                .arg(i)
                                .arg(captured[i].first)
                                .arg(captured[i].count)
                                .arg(scan[i].first)
                                .arg(scan[i].count)));
}

void TestCapture::interruptedCaptureLeavesNoInstance() {
    const QString file = makeDataFile(m_dir.path(), 1);
    requireKernelTracer(file);
    const auto startCapture = [&](QProcess& process, const QString& out) {
        process.start(QStringLiteral(LOOKAHEAD_BINARY),
                      {QStringLiteral("capture"), QStringLiteral("--tracer"), QStringLiteral("kernel"),
                       QStringLiteral("--out"), out, QStringLiteral("--files"), file});
        QByteArray err;
        return waitForStderr(process, "capturing", err, 60'000);
    };
    // Killed outright, it cannot remove its instance: the next capture removes it.
    QProcess killed;
    QVERIFY(startCapture(killed, m_dir.filePath(QStringLiteral("killed"))));
    QVERIFY(instanceExists(killed.processId()));
    const qint64 killedPid = killed.processId();
    killed.kill();
    QVERIFY(killed.waitForFinished());
    QVERIFY(instanceExists(killedPid));
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("killed"))));

    QProcess interrupted;
    const QString out = m_dir.filePath(QStringLiteral("interrupted"));
    QVERIFY(startCapture(interrupted, out));
    const qint64 pid = interrupted.processId();
    QVERIFY(instanceExists(pid));
    QVERIFY(!instanceExists(killedPid));
    ::kill(pid_t(pid), SIGINT);
    const CliResult r = finishProcess(interrupted, 60'000);
    QVERIFY2(r.exitCode == 130, qPrintable(r.err));
    QVERIFY(!instanceExists(pid));
    QVERIFY(readFile(out).startsWith(
        QByteArray(kKernelCaptureHeader.data(), qsizetype(kKernelCaptureHeader.size()))));
}

QTEST_GUILESS_MAIN(TestCapture)
#include "tst_capture.moc"
