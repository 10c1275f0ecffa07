// SPDX-License-Identifier: GPL-3.0-or-later
// io_method=worker's pool of I/O workers (docs/mechanics.md, "I/O workers"): PostgreSQL 19's grows
// from io_min_workers one launch per interval up to io_max_workers and shrinks after the idle
// timeout; PostgreSQL 18's is fixed. On the simulated device (virtual clock) and in the real
// worker backend (threads, real files).
#include "block_size.h"
#include "io/run_clock.h"
#include "io/worker_pool.h"
#include "run.h"
#include "sim_device.h"

#include <QTemporaryFile>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

using namespace la;

namespace {

constexpr std::int64_t kMs = 1'000'000;
// How long a real pool may take to reach a size before the test gives up: far more than it needs.
constexpr std::chrono::seconds kPoolPatience{60};

// A PG19 pool with short times, so a test sees it grow and shrink within a few simulated seconds.
IoWorkerSettings quickPool(int maxWorkers) {
    return {2, maxWorkers, 1 * kMs, 10 * kMs};
}

// A device that serves 64 reads at once, 100 us each: the workers are the only limit.
SimDeviceConfig wideDevice(std::optional<IoWorkerSettings> workers) {
    SimDeviceConfig config;
    config.baseLatencyNs = 100'000;
    config.perBlockNs = 0;
    config.parallelism = 64;
    config.workers = workers;
    return config;
}

// Keeps `depth` one-block reads started on `device` for `reads` reads, calling `observe` after each
// wait, with the device's clock at that read's completion.
template <class Observe> void flood(SimDevice& device, int depth, int reads, const Observe& observe) {
    std::deque<std::uint32_t> inFlight;
    std::uint32_t next = 0;
    for (int done = 0; done < reads; ++done) {
        while (inFlight.size() < static_cast<std::size_t>(depth)) {
            device.start({next, next, 1, false, false});
            inFlight.push_back(next++);
        }
        device.wait(inFlight.front());
        inFlight.pop_front();
        observe();
    }
    for (const std::uint32_t ioId : inFlight)
        device.wait(ioId);
}

// The most reads at the device at once, from each read's completion and its service time.
int mostInService(const std::vector<std::pair<std::int64_t, std::int64_t>>& intervals) {
    int most = 0;
    for (const auto& [start, end] : intervals) {
        const auto overlapping = std::count_if(intervals.begin(), intervals.end(), [&](const auto& other) {
            return other.first <= start && start < other.second;
        });
        most = std::max(most, static_cast<int>(overlapping));
    }
    return most;
}

// `count` one-block reads started at once, each waited for; their times at the device.
std::vector<std::pair<std::int64_t, std::int64_t>> burst(SimDevice& device, std::uint32_t count) {
    for (std::uint32_t ioId = 0; ioId < count; ++ioId)
        device.start({ioId, ioId, 1, false, false});
    std::vector<std::pair<std::int64_t, std::int64_t>> intervals;
    for (std::uint32_t ioId = 0; ioId < count; ++ioId) {
        const ReadOutcome outcome = device.wait(ioId);
        const std::int64_t completes = outcome.latencyNs; // all were submitted at 0
        intervals.emplace_back(completes - 100'000, completes);
    }
    return intervals;
}

// A real file of `blocks` blocks and reads of it for the real pool.
class RealFile {
public:
    explicit RealFile(int blocks) : m_buffers(static_cast<std::size_t>(blocks) * kBlockSize) {
        QVERIFY(m_file.open());
        QVERIFY(m_file.write(QByteArray(blocks * int(kBlockSize), 'x')) == blocks * qint64(kBlockSize));
        QVERIFY(m_file.flush());
        m_fd = ::open(m_file.fileName().toLocal8Bit().constData(), O_RDONLY);
        QVERIFY(m_fd >= 0);
        m_reads.resize(static_cast<std::size_t>(blocks));
    }
    ~RealFile() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    // Submits a read of every block at once and waits for them all.
    void readAll(WorkerPool& pool) {
        for (std::size_t block = 0; block < m_reads.size(); ++block) {
            PendingRead& read = m_reads[block];
            read = PendingRead{};
            read.firstBlock = static_cast<std::uint32_t>(block);
            read.nblocks = 1;
            read.fd = m_fd;
            read.fileOffset = block * kBlockSize;
            read.buffer = m_buffers.data() + block * kBlockSize;
            pool.submit(read);
        }
        for (PendingRead& read : m_reads) {
            pool.awaitCompletion(read);
            QCOMPARE(read.result, std::int64_t(kBlockSize));
        }
    }

private:
    QTemporaryFile m_file;
    int m_fd = -1;
    std::vector<std::byte> m_buffers;
    std::vector<PendingRead> m_reads;
};

// A real run's worker figures on the simulated device.
RunSummary simulatedRun(const std::string& policy, IoMethod method) {
    RunConfig config;
    config.dataset.name = "seq";
    config.dataset.blocks = 4096;
    config.prewarm = "none";
    config.stream.ioMethod = method;
    config.directIo = true;
    return runScan(config, policy, {});
}

} // namespace

class TestWorkerPool : public QObject {
    Q_OBJECT
private slots:
    void simStartsAtTheMinimum();
    void simGrowsOneWorkerPerLaunchInterval();
    void simNeverGrowsPastTheMaximum();
    void simShrinksToTheMinimumAfterTheIdleTimeout();
    void simPg18PoolIsFixed();
    void simReadsAtTheDeviceNeverExceedTheWorkers();
    void simFullQueueIsReadBySubmitter();
    void runsReportTheirWorkers();
    void realPoolGrowsToTheMaximumAndShrinksBack();
    void realPg18PoolIsFixed();
};

void TestWorkerPool::simStartsAtTheMinimum() {
    SimDevice device(wideDevice(IoWorkerSettings{}));
    const IoWorkerCounts counts = device.ioWorkers();
    QCOMPARE(counts.start, 2);
    QCOMPARE(counts.end, 2);
    QCOMPARE(counts.peak, 2);
    // A read at a time never queues behind a busy worker: the pool stays at its minimum.
    for (std::uint32_t ioId = 0; ioId < 100; ++ioId) {
        device.start({ioId, ioId, 1, false, false});
        device.wait(ioId);
    }
    QCOMPARE(device.ioWorkers().peak, 2);
}

void TestWorkerPool::simGrowsOneWorkerPerLaunchInterval() {
    const IoWorkerSettings settings = quickPool(8);
    SimDevice device(wideDevice(settings));
    std::vector<std::int64_t> grewAt; // when each new worker was first seen
    int seen = device.ioWorkers().end;
    flood(device, 32, 4000, [&] {
        const int live = device.ioWorkers().end;
        QVERIFY(live >= seen); // nothing is idle in a flood
        for (; seen < live; ++seen)
            grewAt.push_back(device.now());
    });
    QCOMPARE(seen, 8);
    QCOMPARE(grewAt.size(), std::size_t(6));
    // Seen within a read's time of when it joined: launches are a launch interval apart at least.
    constexpr std::int64_t kSeenWithin = 100'000;
    for (std::size_t i = 1; i < grewAt.size(); ++i)
        QVERIFY2(grewAt[i] - grewAt[i - 1] >= settings.launchIntervalNs - kSeenWithin,
                 qPrintable(QStringLiteral("worker %1 joined %2 ns after the one before")
                                .arg(i + 3)
                                .arg(grewAt[i] - grewAt[i - 1])));
}

void TestWorkerPool::simNeverGrowsPastTheMaximum() {
    SimDevice device(wideDevice(quickPool(4)));
    flood(device, 60, 20000, [&] { QVERIFY(device.ioWorkers().end <= 4); });
    QCOMPARE(device.ioWorkers().peak, 4);
}

void TestWorkerPool::simShrinksToTheMinimumAfterTheIdleTimeout() {
    const IoWorkerSettings settings = quickPool(5);
    SimDevice device(wideDevice(settings));
    flood(device, 40, 8000, [] {});
    QCOMPARE(device.ioWorkers().end, 5);
    // The highest worker exits a timeout after its last read, then the next one a timeout later.
    const std::int64_t timeout = settings.idleTimeoutNs;
    device.consume(timeout / 2);
    QCOMPARE(device.ioWorkers().end, 5);
    device.consume(timeout);
    QCOMPARE(device.ioWorkers().end, 4);
    device.consume(timeout);
    QCOMPARE(device.ioWorkers().end, 3);
    device.consume(100 * timeout);
    QCOMPARE(device.ioWorkers().end, 2); // never below io_min_workers
    QCOMPARE(device.ioWorkers().peak, 5);
}

void TestWorkerPool::simPg18PoolIsFixed() {
    SimDevice device(wideDevice(IoWorkerSettings::fixed(3)));
    flood(device, 60, 4000, [] {});
    device.consume(1'000 * kMs * 1'000); // a thousand seconds idle
    const IoWorkerCounts counts = device.ioWorkers();
    QCOMPARE(counts.start, 3);
    QCOMPARE(counts.peak, 3);
    QCOMPARE(counts.end, 3);
}

void TestWorkerPool::simReadsAtTheDeviceNeverExceedTheWorkers() {
    // Without workers the device takes all 16 at once; with two workers, two at a time.
    SimDevice alone(wideDevice(std::nullopt));
    QCOMPARE(mostInService(burst(alone, 16)), 16);
    SimDevice fixed(wideDevice(IoWorkerSettings::fixed(2)));
    QCOMPARE(mostInService(burst(fixed, 16)), 2);

    // A growing pool: at no time more reads at the device than workers then.
    SimDevice growing(wideDevice(quickPool(6)));
    std::vector<std::pair<std::int64_t, std::int64_t>> intervals;
    std::deque<std::pair<std::uint32_t, std::int64_t>> inFlight; // read, submitted
    std::vector<std::pair<std::int64_t, int>> poolAt;            // (time, workers) after each wait
    std::uint32_t next = 0;
    for (int done = 0; done < 6000; ++done) {
        while (inFlight.size() < 24) {
            growing.start({next, next, 1, false, false});
            inFlight.emplace_back(next++, growing.now());
        }
        const ReadOutcome outcome = growing.wait(inFlight.front().first);
        const std::int64_t completes = inFlight.front().second + outcome.latencyNs;
        inFlight.pop_front();
        intervals.emplace_back(completes - 100'000, completes);
        poolAt.emplace_back(growing.now(), growing.ioWorkers().end);
    }
    // The pool never shrinks in a flood, so the workers at a read's completion bound its start.
    for (const auto& [start, end] : intervals) {
        const auto overlapping = std::count_if(intervals.begin(), intervals.end(), [&](const auto& other) {
            return other.first <= start && start < other.second;
        });
        const auto after = std::lower_bound(poolAt.begin(), poolAt.end(), std::pair{end, 0});
        QVERIFY(after != poolAt.end());
        QVERIFY2(
            overlapping <= after->second,
            qPrintable(
                QStringLiteral("%1 reads at the device, %2 workers").arg(overlapping).arg(after->second)));
    }
    QCOMPARE(growing.ioWorkers().peak, 6);
}

void TestWorkerPool::simFullQueueIsReadBySubmitter() {
    SimDevice device(wideDevice(IoWorkerSettings::fixed(1)));
    for (std::uint32_t ioId = 0; ioId < std::uint32_t(kIoWorkerQueueEntries); ++ioId)
        device.start({ioId, ioId, 1, false, false});
    QCOMPARE(device.now(), std::int64_t(0)); // all queued for the one worker
    device.start({99, 99, 1, false, false});
    QCOMPARE(device.now(), std::int64_t(100'000)); // the consumer read the 64th itself
}

void TestWorkerPool::runsReportTheirWorkers() {
    const RunSummary pg19 = simulatedRun("pg19", IoMethod::Worker);
    QCOMPARE(pg19.ioWorkersStart, 2);
    QVERIFY(pg19.ioWorkersPeak >= pg19.ioWorkersEnd);
    QVERIFY(pg19.ioWorkersPeak <= 8);
    const RunSummary pg18 = simulatedRun("pg18", IoMethod::Worker);
    QCOMPARE(pg18.ioWorkersStart, 3);
    QCOMPARE(pg18.ioWorkersEnd, 3);
    QCOMPARE(pg18.ioWorkersPeak, 3);
    const RunSummary uring = simulatedRun("pg19", IoMethod::IoUring);
    QCOMPARE(uring.ioWorkersPeak, 0);
}

void TestWorkerPool::realPoolGrowsToTheMaximumAndShrinksBack() {
    RealFile file(60);
    const RunClock clock;
    WorkerPool pool({2, 5, 1 * kMs, 20 * kMs}, clock);
    QCOMPARE(pool.waitForWorkers([](int live) { return live == 2; }, kPoolPatience), 2);
    // Batches of 60 reads keep more reads queued than workers: one more per launch interval.
    for (int batch = 0; batch < 100'000 && pool.counts().peak < 5; ++batch)
        file.readAll(pool);
    QCOMPARE(pool.counts().peak, 5);
    // Idle, they exit from the top, one idle timeout after another, down to the minimum.
    QCOMPARE(pool.waitForWorkers([](int live) { return live == 2; }, kPoolPatience), 2);
    const IoWorkerCounts counts = pool.counts();
    QCOMPARE(counts.start, 2);
    QCOMPARE(counts.end, 2);
}

void TestWorkerPool::realPg18PoolIsFixed() {
    RealFile file(60);
    const RunClock clock;
    WorkerPool pool(IoWorkerSettings::fixed(3), clock);
    QCOMPARE(pool.waitForWorkers([](int live) { return live == 3; }, kPoolPatience), 3);
    for (int batch = 0; batch < 200; ++batch)
        file.readAll(pool);
    const IoWorkerCounts counts = pool.counts();
    QCOMPARE(counts.peak, 3);
    QCOMPARE(counts.end, 3);
}

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_worker_pool.moc"
