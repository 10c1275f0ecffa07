// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the real-I/O tests: runs on small real files, with the dataset cache in a temporary
// directory so no test touches the user's cache.

#include "block_size.h"
#include "input_error.h"
#include "run.h"
#include "stream_harness.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <liburing.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace la::test {

inline constexpr std::uint64_t kFileBlocks = 1024; // an 8 MiB dataset file

// Points XDG_CACHE_HOME at a fresh temporary directory for the test's lifetime.
class TempCache {
public:
    TempCache() {
        QVERIFY(m_dir.isValid());
        // qputenv, not setenv: QtTest's watchdog thread reads the environment under Qt's lock.
        qputenv("XDG_CACHE_HOME", m_dir.path().toLocal8Bit());
    }
    std::string path(const std::string& name = {}) const {
        return (m_dir.path() + QLatin1Char('/') + QString::fromStdString(name)).toStdString();
    }

private:
    QTemporaryDir m_dir;
};

// The errno io_uring_queue_init gives here (0 if io_uring works).
inline int uringSetupError() {
    io_uring ring{};
    const int rc = io_uring_queue_init(4, &ring, 0);
    if (rc == 0)
        io_uring_queue_exit(&ring);
    return -rc;
}

// Real-I/O run of the "seq" pattern over kFileBlocks blocks, all cold, no consumer cost.
inline RunConfig realConfig(const QString& io, bool direct) {
    RunConfig config;
    config.io = *ioModeNamed(io.toStdString());
    config.directIo = direct;
    config.dataset.name = "seq";
    config.dataset.blocks = kFileBlocks;
    config.consumerNs = 0;
    return config;
}

// Rows io x (direct, buffered); uring rows are skipped at run time where io_uring is refused. With a
// third column, `column`, the rows once for each of its `values`.
inline void addBackendRows(const char* column = nullptr, std::initializer_list<const char*> values = {}) {
    QTest::addColumn<QString>("io");
    QTest::addColumn<bool>("direct");
    if (column)
        QTest::addColumn<QString>(column);
    const std::vector<const char*> each =
        column ? std::vector<const char*>(values) : std::vector<const char*>{nullptr};
    for (const char* value : each)
        for (const char* io : {"sync", "worker", "io_uring"})
            for (const bool direct : {true, false}) {
                const std::string name = std::string(io) + (direct ? "/direct" : "/buffered");
                QTestData& row =
                    value ? QTest::addRow("%s/%s", name.c_str(), value) : QTest::newRow(name.c_str());
                row << QString::fromLatin1(io) << direct;
                if (value)
                    row << QString::fromLatin1(value);
            }
}

// False where the temporary directory's file system refuses O_DIRECT (tmpfs before Linux 6.6).
inline bool directIoSupported() {
    const QString path = QDir::tempPath() + QStringLiteral("/lookahead-direct-probe");
    const int fd = ::open(path.toLocal8Bit().constData(), O_RDWR | O_CREAT | O_DIRECT, 0600);
    ::unlink(path.toLocal8Bit().constData());
    if (fd < 0)
        return false;
    ::close(fd);
    return true;
}

// True where the temporary directory is tmpfs: its pages are the page cache and cannot be evicted.
inline bool tempIsTmpfs() {
    struct statfs fs {};
    return ::statfs(QDir::tempPath().toLocal8Bit().constData(), &fs) == 0 && fs.f_type == TMPFS_MAGIC;
}

#define LA_SKIP_WITHOUT_URING(io)                                                                            \
    do {                                                                                                     \
        if ((io) == QLatin1String("io_uring") && ::la::test::uringSetupError() != 0)                         \
            QSKIP("io_uring_queue_init is refused here (EPERM/ENOSYS)");                                     \
    } while (0)

#define LA_SKIP_UNSUPPORTED(io, direct)                                                                      \
    do {                                                                                                     \
        LA_SKIP_WITHOUT_URING(io);                                                                           \
        if ((direct) && !::la::test::directIoSupported())                                                    \
            QSKIP("the temporary directory's file system refuses O_DIRECT");                                 \
    } while (0)

struct RealRun {
    RunSummary summary;
    TraceRecorder trace;
    std::vector<std::string> notices;
};

inline RealRun runReal(const RunConfig& config, const std::string& policy = "pg18") {
    RealRun run;
    RunCallbacks callbacks;
    callbacks.sinks.push_back(&run.trace);
    callbacks.notice = [&run](const std::string& message) { run.notices.push_back(message); };
    run.summary = runScan(config, policy, callbacks);
    return run;
}

// (first block, nblocks) of every read the stream started.
inline std::vector<std::pair<std::uint32_t, int>> readRequests(const TraceRecorder& trace) {
    std::vector<std::pair<std::uint32_t, int>> reads;
    for (const Event& e : trace.events)
        if (e.kind == EventKind::ReadStarted)
            reads.emplace_back(e.block, e.nblocks);
    return reads;
}

} // namespace la::test
