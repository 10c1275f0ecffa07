// SPDX-License-Identifier: GPL-3.0-or-later
// Every fault of real I/O ends in a fallback with a notice or in a clear error: never a crash,
// a hang or a silent wrong plot.
#include "child_process.h"
#include "real_io_harness.h"

#include "io/page_format.h"

#include <QDir>
#include <QFile>
#include <QSet>

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <atomic>
#include <fstream>
#include <optional>

using namespace la;
using namespace la::test;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

#define LA_VERIFY_CONTAINS(text, part)                                                                       \
    QVERIFY2(contains((text), (part)),                                                                       \
             qPrintable(QStringLiteral("'%1' lacks '%2'")                                                    \
                            .arg(QString::fromStdString(text), QString::fromStdString(part))))

// Sets an environment variable for one test. Through Qt, whose environment lock QtTest's watchdog
// thread also takes: a bare setenv() can move `environ` under the watchdog's getenv().
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : m_name(name) { qputenv(name, value); }
    ~ScopedEnv() { qunsetenv(m_name); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* m_name;
};

void writeFile(const std::string& path, std::uint64_t bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const std::vector<char> chunk(kBlockSize, 'x');
    for (std::uint64_t done = 0; done < bytes; done += chunk.size())
        out.write(chunk.data(),
                  static_cast<std::streamsize>(std::min<std::uint64_t>(chunk.size(), bytes - done)));
}

// Sets `cancel` once the consumer has taken `blocks` blocks.
class CancelAfterConsumed final : public EventSink {
public:
    CancelAfterConsumed(std::atomic<bool>& cancel, std::uint64_t blocks) : m_cancel(cancel), m_left(blocks) {}
    void onEvents(std::span<const Event> batch) override {
        for (const Event& e : batch)
            if (e.kind == EventKind::Consumed && m_left > 0 && --m_left == 0)
                m_cancel = true;
    }

private:
    std::atomic<bool>& m_cancel;
    std::uint64_t m_left;
};

std::size_t entriesIn(const char* dir) {
    std::size_t n = 0;
    if (DIR* d = ::opendir(dir)) {
        while (::readdir(d) != nullptr)
            ++n;
        ::closedir(d);
    }
    return n;
}

// The process's threads, by id. io_uring's kernel workers (iou-wrk-*, iou-sqp-*) are left out:
// the kernel starts and retires them on its own schedule, even after the ring is closed.
QSet<QString> ownThreads() {
    QSet<QString> tids;
    for (const QString& tid :
         QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(QStringLiteral("/proc/self/task/%1/comm").arg(tid));
        if (comm.open(QIODevice::ReadOnly) && !comm.readAll().startsWith("iou-"))
            tids.insert(tid);
    }
    return tids;
}

// Whether thread `tid` of this process ends within `timeoutMs`: a descriptor for the thread alone
// (pidfd with PIDFD_THREAD, Linux 6.9) becomes readable when it has exited; one already reaped has
// none to open. A joined thread is still listed in /proc until the kernel reaps it, a moment after
// its join; a leaked one never ends. Empty where the kernel has no thread pidfds (EINVAL).
std::optional<bool> threadEnds(const QString& tid, int timeoutMs) {
    constexpr unsigned kPidfdThread = O_EXCL; // PIDFD_THREAD: <linux/pidfd.h> of Debian 12 lacks it
    const int fd = static_cast<int>(::syscall(SYS_pidfd_open, tid.toInt(), kPidfdThread));
    if (fd < 0) {
        if (errno == EINVAL)
            return std::nullopt;
        return errno == ESRCH;
    }
    pollfd ended{fd, POLLIN, 0};
    const int ready = ::poll(&ended, 1, timeoutMs);
    ::close(fd);
    return ready > 0;
}

// The first block device in /dev, if any.
std::string someBlockDevice() {
    for (const QString& name : QDir(QStringLiteral("/dev")).entryList(QDir::System)) {
        struct stat st {};
        const std::string path = "/dev/" + name.toStdString();
        if (::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode))
            return path;
    }
    return {};
}

// Truncates a file once the first batch of events arrives, i.e. in the middle of the run.
class ShrinkFile final : public EventSink {
public:
    ShrinkFile(std::string path, std::uint64_t bytes) : m_path(std::move(path)), m_bytes(bytes) {}
    void onEvents(std::span<const Event> batch) override {
        if (events == 0)
            ::truncate(m_path.c_str(), static_cast<off_t>(m_bytes));
        events += batch.size();
    }
    std::size_t events = 0;

private:
    std::string m_path;
    std::uint64_t m_bytes;
};

std::string describeRun(const RunSummary& s) {
    return s.ioMethodUsed + "|" + s.fallbackReason + "|" + std::to_string(s.pagesVerified) + "|" +
           std::to_string(s.blocks) + "|" + s.error;
}

} // namespace

class TestRealIoFaults : public QObject {
    Q_OBJECT
private slots:
    void uringDisabledByEnvironment();
    void uringRefusedByKernel_data();
    void uringRefusedByKernel();
    void directRefusedAtOpen_data() { addBackendRows(); }
    void directRefusedAtOpen();
    void directRefusedOnFirstRead_data() { addBackendRows(); }
    void directRefusedOnFirstRead();
    void badFile_data();
    void badFile();
    void fileShrinks_data() { addBackendRows(); }
    void fileShrinks();
    void ioError_data();
    void ioError();
    void corruptPage_data() { addBackendRows(); }
    void corruptPage();
    void misplacedPage();
    void cancelMidRun_data() { addBackendRows(); }
    void cancelMidRun();

private:
    TempCache m_cache;
};

void TestRealIoFaults::uringDisabledByEnvironment() {
    const ScopedEnv env("LOOKAHEAD_DISABLE_IO_URING", "1");
    const RealRun run = runReal(realConfig(QStringLiteral("io_uring"), true));
    QCOMPARE(QString::fromStdString(run.summary.error), QString());
    QCOMPARE(QString::fromStdString(run.summary.ioMethodUsed), QStringLiteral("worker"));
    LA_VERIFY_CONTAINS(run.summary.fallbackReason, "LOOKAHEAD_DISABLE_IO_URING");
    QCOMPARE(run.notices.size(), std::size_t{1});
    QCOMPARE(run.notices[0], run.summary.fallbackReason);
    QCOMPARE(run.summary.pagesVerified, kFileBlocks);
}

void TestRealIoFaults::uringRefusedByKernel_data() {
    QTest::addColumn<int>("error");
    QTest::newRow("EPERM (docker seccomp, io_uring_disabled)") << EPERM;
    QTest::newRow("ENOSYS (old kernel)") << ENOSYS;
}

void TestRealIoFaults::uringRefusedByKernel() {
    QFETCH(int, error);
    if (kAuditArch == 0)
        QSKIP("no seccomp filter for this architecture");
    if (!kChildCanStartThreads)
        QSKIP("the worker pool it falls back to cannot start in a forked child under ThreadSanitizer");
    runReal(realConfig(QStringLiteral("sync"), true)); // write the dataset file before the child
    const std::string out = inChild([error] {
        if (!failSyscall(__NR_io_uring_setup, error))
            return std::string("seccomp refused");
        return describeRun(runReal(realConfig(QStringLiteral("io_uring"), true)).summary);
    });
    LA_VERIFY_CONTAINS(out, "worker|io_uring is not available (io_uring_queue_init: " +
                                std::string(std::strerror(error)));
    LA_VERIFY_CONTAINS(out, "|" + std::to_string(kFileBlocks) + "|" + std::to_string(kFileBlocks) + "|");
    QVERIFY2(out.back() == '|', out.c_str()); // no error
}

void TestRealIoFaults::directRefusedAtOpen() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    LA_SKIP_WITHOUT_URING(io); // O_DIRECT is refused whatever the file system
    const ScopedEnv env("LOOKAHEAD_DISABLE_O_DIRECT", "1");
    const RealRun run = runReal(realConfig(io, direct));
    QCOMPARE(QString::fromStdString(run.summary.error), QString());
    QCOMPARE(QString::fromStdString(run.summary.ioMethodUsed), io);
    QCOMPARE(run.summary.directIo, false);
    QCOMPARE(run.summary.pagesVerified, kFileBlocks);
    if (direct) {
        LA_VERIFY_CONTAINS(run.summary.fallbackReason, "O_DIRECT disabled");
        QCOMPARE(run.notices.size(), std::size_t{1});
    } else {
        QVERIFY(run.summary.fallbackReason.empty()); // nothing refused what was not asked for
    }
}

void TestRealIoFaults::directRefusedOnFirstRead() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    LA_SKIP_UNSUPPORTED(io, direct);
    const ScopedEnv env("LOOKAHEAD_DISABLE_O_DIRECT", "read");
    const RealRun run = runReal(realConfig(io, direct));
    QCOMPARE(QString::fromStdString(run.summary.error), QString());
    QCOMPARE(run.summary.pagesVerified, kFileBlocks);
    if (!direct) {
        QVERIFY(run.summary.fallbackReason.empty());
        QVERIFY(!run.summary.directIo);
        return;
    }
    if (run.summary.directIo)
        QSKIP("this file system accepts misaligned O_DIRECT buffers (tmpfs?): the kernel refused nothing");
    LA_VERIFY_CONTAINS(run.summary.fallbackReason, "refused an O_DIRECT read (EINVAL)");
    QCOMPARE(run.notices.size(), std::size_t{1});
}

void TestRealIoFaults::badFile_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("problem");
    const QString dir = QString::fromStdString(m_cache.path());
    writeFile(m_cache.path("empty.dat"), 0);
    writeFile(m_cache.path("short.dat"), 100);
    ::mkfifo(m_cache.path("fifo").c_str(), 0644);
    QTest::newRow("missing") << dir + QStringLiteral("/missing.dat")
                             << QString::fromLatin1(std::strerror(ENOENT));
    // Root reads anything by mode bits, except procfs entries without a read bit.
    const QString denied =
        ::geteuid() == 0 ? QStringLiteral("/proc/sys/vm/drop_caches") : dir + QStringLiteral("/denied");
    if (::geteuid() != 0) {
        writeFile(denied.toStdString(), kBlockSize);
        ::chmod(denied.toLocal8Bit().constData(), 0);
    }
    QTest::newRow("permission denied") << denied << QString::fromLatin1(std::strerror(EACCES));
    QTest::newRow("directory") << dir << QStringLiteral("is a directory");
    QTest::newRow("FIFO") << dir + QStringLiteral("/fifo") << QStringLiteral("is a FIFO");
    QTest::newRow("character device")
        << QStringLiteral("/dev/null") << QStringLiteral("is a character device");
    QTest::newRow("block device") << QString::fromStdString(someBlockDevice())
                                  << QStringLiteral("is a block device");
    QTest::newRow("empty") << dir + QStringLiteral("/empty.dat") << QStringLiteral("is empty");
    QTest::newRow("shorter than a block")
        << dir + QStringLiteral("/short.dat") << QStringLiteral("shorter than one 8 kB block (100 bytes)");
}

void TestRealIoFaults::badFile() {
    QFETCH(QString, path);
    QFETCH(QString, problem);
    if (path.isEmpty())
        QSKIP("no block device in /dev");
    if (problem == QLatin1String(std::strerror(EACCES))) {
        const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY);
        if (fd >= 0) {
            ::close(fd);
            QSKIP("this process can read every file: no way to be denied here");
        }
    }
    RunConfig config = realConfig(QStringLiteral("sync"), true);
    config.file = path.toStdString();
    config.dataset.blocks = 0;
    // Refused before anything runs, by openSource (the CLI's first step) and by runScan alike.
    for (int attempt = 0; attempt < 2; ++attempt) {
        try {
            if (attempt == 0)
                openSource(config);
            else
                runScan(config, "pg18", {});
            QFAIL("the file must be refused");
        } catch (const InputError& error) {
            LA_VERIFY_CONTAINS(std::string(error.what()), path.toStdString());
            LA_VERIFY_CONTAINS(std::string(error.what()), problem.toStdString());
        }
    }
}

void TestRealIoFaults::fileShrinks() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    LA_SKIP_UNSUPPORTED(io, direct);
    const std::string path = m_cache.path("shrinking.dat");
    writeFile(path, kFileBlocks * kBlockSize);
    RunConfig config = realConfig(io, direct);
    config.file = path;
    config.dataset.blocks = 0;
    ShrinkFile shrink(path, kFileBlocks / 2 * kBlockSize + 100);
    RunCallbacks callbacks;
    callbacks.sinks.push_back(&shrink);
    const RunSummary s = runScan(config, "pg18", callbacks);
    LA_VERIFY_CONTAINS(s.error, "short read from '" + path + "' at block ");
    LA_VERIFY_CONTAINS(s.error, "did it shrink");
    QVERIFY2(s.blocks > 0 && s.blocks < kFileBlocks, qPrintable(QString::number(s.blocks)));
    QVERIFY(shrink.events > 512); // the trace up to the failure reached the sinks
    QVERIFY(!s.cancelled);
}

void TestRealIoFaults::ioError_data() {
    QTest::addColumn<QString>("io");
    QTest::addColumn<bool>("direct");
    for (const char* io : {"sync", "worker"})
        for (const bool direct : {true, false})
            QTest::addRow("%s/%s", io, direct ? "direct" : "buffered") << QString::fromLatin1(io) << direct;
    QTest::newRow("uring (submission)") << "io_uring" << true;
}

void TestRealIoFaults::ioError() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    LA_SKIP_UNSUPPORTED(io, direct);
    if (kAuditArch == 0)
        QSKIP("no seccomp filter for this architecture");
    if (io == QLatin1String("worker") && !kChildCanStartThreads)
        QSKIP("worker threads cannot start in a forked child under ThreadSanitizer");
    // The kernel answers EIO: to pread64 from block 256 on, or to io_uring_enter (io_uring's reads
    // never pass through a syscall a filter could fail on their own).
    const std::string path = m_cache.path("eio.dat");
    writeFile(path, kFileBlocks * kBlockSize);
    RunConfig config = realConfig(io, direct);
    config.file = path;
    config.dataset.blocks = 0;
    const bool uring = io == QLatin1String("io_uring");
    const std::string out = inChild([&] {
        const bool filtered =
            uring ? failSyscall(__NR_io_uring_enter, EIO) : failSyscall(__NR_pread64, EIO, 256 * kBlockSize);
        if (!filtered)
            return std::string("seccomp refused");
        const RunSummary s = runScan(config, "pg18", {});
        return s.error + "|" + std::to_string(s.blocks);
    });
    LA_VERIFY_CONTAINS(out, path);
    LA_VERIFY_CONTAINS(out, std::strerror(EIO));
    if (!uring) {
        LA_VERIFY_CONTAINS(out, "failed: ");
        const auto blocks = std::stoull(out.substr(out.rfind('|') + 1));
        QVERIFY2(blocks > 0 && blocks < 256 + 16, out.c_str());
    }
}

void TestRealIoFaults::corruptPage() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    LA_SKIP_UNSUPPORTED(io, direct);
    // A damaged page that the sampled check when reusing the file does not look at.
    RunConfig config = realConfig(io, direct);
    config.cacheDir = m_cache.path("corrupt");
    const std::string file = config.cacheDir + "/synthetic-1-0-1024.heap";
    if (!QFile::exists(QString::fromStdString(file))) {
        QCOMPARE(QString::fromStdString(runReal(config).summary.error), QString());
        const int fd = ::open(file.c_str(), O_WRONLY);
        QVERIFY(fd >= 0);
        QCOMPARE(::pwrite(fd, "!", 1, 5 * kBlockSize + 1000), ssize_t{1});
        ::close(fd);
    }
    const RunSummary s = runReal(config).summary;
    LA_VERIFY_CONTAINS(s.error, "page verification failed for '" + file + "' at block 5 (offset 40960)");
    LA_VERIFY_CONTAINS(s.error, "checksum mismatch");
    QVERIFY(s.pagesVerified <= 5);
    QVERIFY(s.blocks <= 5);
}

void TestRealIoFaults::misplacedPage() {
    // Page 7's bytes where page 5 belongs: what a read at a wrong offset would return.
    RunConfig config = realConfig(QStringLiteral("worker"), true);
    config.cacheDir = m_cache.path("misplaced");
    QCOMPARE(QString::fromStdString(runReal(config).summary.error), QString());
    const std::string file = config.cacheDir + "/synthetic-1-0-1024.heap";
    const int fd = ::open(file.c_str(), O_RDWR);
    QVERIFY(fd >= 0);
    std::vector<std::byte> page(kBlockSize);
    QCOMPARE(::pread(fd, page.data(), kBlockSize, 7 * kBlockSize), ssize_t{kBlockSize});
    QCOMPARE(::pwrite(fd, page.data(), kBlockSize, 5 * kBlockSize), ssize_t{kBlockSize});
    ::close(fd);
    const RunSummary s = runReal(config).summary;
    LA_VERIFY_CONTAINS(s.error, "at block 5 (offset 40960): holds block 7");
}

void TestRealIoFaults::cancelMidRun() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    LA_SKIP_UNSUPPORTED(io, direct);
    RunConfig config = realConfig(io, direct);
    config.dataset.name = "random"; // many 1-block reads in flight at any time
    runReal(config);                // dataset file written, cache warm for the counts below
    config.consumerNs = 1'000'000;  // a one-second run
    const std::size_t fdsBefore = entriesIn("/proc/self/fd");
    const QSet<QString> threadsBefore = ownThreads();

    // The consumer asks to stop after kCancelAfter blocks, as the window's Stop does mid-run. How
    // soon it stops in milliseconds is measured by bench/cancel_bench.sh, not asserted here.
    constexpr std::uint64_t kCancelAfter = 100;
    std::atomic<bool> cancel{false};
    CancelAfterConsumed canceller(cancel, kCancelAfter);
    RunCallbacks callbacks;
    callbacks.cancel = &cancel;
    callbacks.sinks.push_back(&canceller);
    const RunSummary s = runScan(config, "pg18", callbacks);
    QVERIFY(s.cancelled);
    QCOMPARE(QString::fromStdString(s.error), QString());
    // Cancel is checked at every block; the sink sees events a batch (512 events) late.
    QVERIFY2(s.blocks >= kCancelAfter && s.blocks <= kCancelAfter + 512,
             qPrintable(QStringLiteral("stopped after %1 blocks").arg(s.blocks)));
    // Ring, descriptors and worker threads all gone (buffers: the ASan build's leak check).
    QCOMPARE(entriesIn("/proc/self/fd"), fdsBefore);
    for (const QString& tid : ownThreads() - threadsBefore) {
        const std::optional<bool> ended = threadEnds(tid, 5000);
        if (!ended)
            QSKIP("the worker threads' end needs thread pidfds (PIDFD_THREAD, Linux 6.9 or later)");
        QVERIFY2(*ended, qPrintable(QStringLiteral("thread %1 still runs").arg(tid)));
    }
}

QTEST_GUILESS_MAIN(TestRealIoFaults)
#include "tst_real_io_faults.moc"
