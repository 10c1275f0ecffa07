// SPDX-License-Identifier: GPL-3.0-or-later
// PostgreSQL 19's read-stream rules, one test each (docs/read-stream-model.md §5.3, §6, §8.2 and
// docs/mechanics.md): each fails if the model stops following the rule it names.

#include "stream_harness.h"

#include <QFile>
#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace la;
using namespace la::test;

namespace {

// The simulated device, with every request and wait it is asked for written down in order.
class RecordingDevice final : public IoBackend {
public:
    explicit RecordingDevice(const SimDeviceConfig& config) : m_device(config) {}

    struct Call {
        bool isStart = false;
        ReadRequest request; // for a start
        std::uint32_t ioId = 0;
    };
    std::vector<Call> calls;

    std::int64_t now() override { return m_device.now(); }
    void start(const ReadRequest& request) override {
        calls.push_back({true, request, request.ioId});
        m_device.start(request);
    }
    ReadOutcome wait(std::uint32_t ioId) override {
        calls.push_back({false, {}, ioId});
        return m_device.wait(ioId);
    }
    void consume(std::int64_t ns) override { m_device.consume(ns); }
    std::uint64_t deviceReads() const override { return m_device.deviceReads(); }
    std::uint64_t deviceBytes() const override { return m_device.deviceBytes(); }

private:
    SimDevice m_device;
};

// A device that keeps up with the consumer: even a 16-block read (4.5 µs) is done before the
// consumer (10 µs a block) is through its first block.
StreamRun keepingUp() {
    StreamRun run;
    run.policy = "pg19";
    run.consumerNs = 10'000;
    run.device.baseLatencyNs = 500;
    run.device.perBlockNs = 250;
    run.device.parallelism = 64;
    return run;
}

} // namespace

class TestPg19Rules : public QObject {
    Q_OBJECT
private slots:
    void fastPathMissIsReadByTheBackendAtOnce();
    void readAheadDoublesOnlyOnAWait();
    void combineDistanceGrowsWithoutWaits();
    void hitsDecayOnlyAfterTheHoldoff();
    void hitsWithReadsInFlightLeaveTheDistances();
    void backendReadsWhatTheRealBackendRead_data();
    void backendReadsWhatTheRealBackendRead();
};

void TestPg19Rules::fastPathMissIsReadByTheBackendAtOnce() {
    // cceb1bf45e: a miss met on the all-cached fast path is read synchronously by the backend, inside
    // StartReadBuffer, even with io_method=worker; being synchronous, it counts as a wait and doubles
    // the read-ahead distance.
    const std::uint32_t n = 400, missing = 300;
    const std::vector<std::uint32_t> blocks = firstBlocks(n);
    VectorSource source(blocks);
    auto policy = makePolicy("pg19");
    BufferPool pool(2 * n, n);
    for (std::uint32_t b = 0; b < n; ++b)
        if (b != missing)
            pool.prewarm(b);
    StreamConfig config;
    config.ioMethod = IoMethod::Worker;
    RecordingDevice io(SimDeviceConfig{});
    Tracer tracer;
    ExplainIo explain;
    ReadStream stream(config, *policy, kPg19Mechanics, pool, io, source, tracer);
    stream.countExplainIo(explain);
    std::uint32_t block = 0;
    bool fastPathBeforeMiss = false;
    for (std::uint32_t i = 0; i < n; ++i) {
        QVERIFY(stream.nextBuffer(block));
        QCOMPARE(block, i);
        if (block == missing - 2) // the next call pins the miss, and leaves the fast path
            fastPathBeforeMiss = stream.inFastPath();
        if (block == missing)
            QCOMPARE(stream.distances().readahead, 2); // doubled by its (synchronous) wait
        stream.consume(3'000);
    }
    QVERIFY(fastPathBeforeMiss);
    QCOMPARE(io.calls.size(), std::size_t{2});
    QVERIFY(io.calls[0].isStart);
    QCOMPARE(io.calls[0].request.firstBlock, missing);
    QVERIFY2(io.calls[0].request.synchronous, "the fast path's miss went to an I/O worker");
    QVERIFY(!io.calls[1].isStart); // waited for at once, before anything else is started
    QCOMPARE(io.calls[1].ioId, io.calls[0].ioId);
    QCOMPARE(explain.ioCount, 1ull);
    QCOMPARE(explain.waitCount, 1ull);
}

void TestPg19Rules::readAheadDoublesOnlyOnAWait() {
    // f63ca33790 with 513374a47a: the read-ahead distance doubles only when WaitReadBuffers() really
    // waited. An all-miss stream never decays, so its highest distance is 2 to the number of waits.
    StreamRun run = keepingUp();
    std::vector<std::uint32_t> blocks;
    for (std::uint32_t i = 0; i < 4000; ++i)
        blocks.push_back(3 * i); // no combining
    run.run(blocks);
    const ExplainIo& io = run.summary.explainIo;
    QCOMPARE(io.ioCount, 4000ull);
    QVERIFY2(io.waitCount > 0 && io.waitCount < 10, qPrintable(QString::number(io.waitCount)));
    QCOMPARE(run.summary.distanceMax, 1 << io.waitCount);

    // Where every read waits (io_method=sync), it doubles on every one, up to max_pinned_buffers.
    StreamRun sync = keepingUp();
    sync.stream.ioMethod = IoMethod::Sync;
    sync.run(blocks);
    QCOMPARE(sync.summary.explainIo.waitCount, 4000ull);
    QCOMPARE(sync.summary.distanceMax, computeLimits(sync.stream, kPg19Mechanics).maxPinned);
}

void TestPg19Rules::combineDistanceGrowsWithoutWaits() {
    // 8ca147d582: the combine distance is apart from the read-ahead distance and doubles on every
    // completed read, waited for or not, so a sequential scan that never waits still reads
    // io_combine_limit blocks at a time while its read-ahead distance stays small.
    StreamRun run = keepingUp();
    run.run(firstBlocks(8000));
    const int limit = run.stream.ioCombineLimit;
    QVERIFY2(run.summary.distanceMax < limit, qPrintable(QString::number(run.summary.distanceMax)));
    const std::vector<int> sizes = run.trace.readSizes();
    QVERIFY(!sizes.empty());
    QCOMPARE(*std::max_element(sizes.begin(), sizes.end()), limit);
    const auto full = std::count(sizes.begin(), sizes.end(), limit);
    QVERIFY(full * limit > 7000); // nearly every block came in a full-sized read
}

void TestPg19Rules::hitsDecayOnlyAfterTheHoldoff() {
    // 6e36930f9a: after a read that needed I/O, max_pinned_buffers calls that needed none (with
    // nothing in flight) pass before the distances decay; the next one takes one off each.
    StreamRun run;
    run.policy = "pg19";
    run.stream.ioMethod = IoMethod::Sync; // the one read is a wait: the distance goes to 2
    run.prewarm = "except-every:100000";  // only block 0 is missing
    run.run(firstBlocks(2000));
    const int maxPinned = computeLimits(run.stream, kPg19Mechanics).maxPinned;
    const std::vector<Event>& events = run.trace.events;
    const auto completed = std::find_if(events.begin(), events.end(),
                                        [](const Event& e) { return e.kind == EventKind::ReadCompleted; });
    QVERIFY(completed != events.end());
    int hitCalls = 0;
    auto it = completed;
    for (; it != events.end(); ++it) {
        if (it->kind == EventKind::Hit)
            ++hitCalls;
        if (it->kind == EventKind::DistanceChanged && it->distance < 2)
            break;
    }
    QVERIFY(it != events.end());
    QCOMPARE(hitCalls, maxPinned + 1);
    QCOMPARE(int(it->combine_distance), 1); // both distances decay together
}

void TestPg19Rules::hitsWithReadsInFlightLeaveTheDistances() {
    // 8ca147d582 (decay's final form): a call that needed no I/O changes nothing while a read is in
    // flight; only with none in flight does it count down the hold-off or decay the distances.
    auto policy = makePolicy("pg19");
    StreamLimits limits;
    limits.maxPinned = 64;
    limits.ioCombineLimit = 16;
    Distances d{8, 4, 0};
    policy->onNoIo(d, limits, 1);
    QCOMPARE(d.readahead, 8);
    QCOMPARE(d.combine, 4);
    policy->onNoIo(d, limits, 0);
    QCOMPARE(d.readahead, 7);
    QCOMPARE(d.combine, 3);
    d.holdoff = 2;
    policy->onNoIo(d, limits, 3);
    QCOMPARE(d.holdoff, 2);
    policy->onNoIo(d, limits, 0);
    QCOMPARE(d.holdoff, 1);
    QCOMPARE(d.readahead, 7);
}

void TestPg19Rules::backendReadsWhatTheRealBackendRead_data() {
    QTest::addColumn<QString>("run");
    for (const char* traced : {"seq-random-6pct-uncached", "seq-all-uncached-scattered"})
        QTest::newRow(traced) << QStringLiteral(LOOKAHEAD_SHARED_FIXTURES "/pg19-io-workers/") +
                                     QLatin1String(traced);
}

void TestPg19Rules::backendReadsWhatTheRealBackendRead() {
    // A real PostgreSQL 19 Seq Scan with io_method=worker, traced: the reads its backend made itself
    // (not its I/O workers) are the model's synchronous reads, block for block: the fast path's misses.
    QFETCH(QString, run);
    QFile reads(run + QStringLiteral("/strace-reads.csv"));
    if (!reads.open(QIODevice::ReadOnly))
        QSKIP(qPrintable(QStringLiteral("the traced PostgreSQL 19 runs are not at %1").arg(run)));
    std::vector<std::uint32_t> backendBlocks;
    for (const QByteArray& line : reads.readAll().split('\n')) {
        const QList<QByteArray> columns = line.split(','); // ts,pid,proc,syscall,iovcnt,first_block,...
        if (columns.size() >= 7 && columns[2] == "backend")
            backendBlocks.push_back(columns[5].toUInt());
    }

    const std::uint32_t n = 16384; // the table, scanned in order
    const std::vector<std::uint32_t> blocks = firstBlocks(n);
    VectorSource source(blocks);
    auto policy = makePolicy("pg19");
    BufferPool pool(n + 1, n);
    PrewarmSpec::parse("list:" + (run + QStringLiteral("/cached.txt")).toStdString()).apply(pool, n);
    StreamConfig config; // the server's settings (settings.txt), a Seq Scan's flags
    config.ioMethod = IoMethod::Worker;
    config.sharedBuffers = 131072;
    config.directIo = true;
    config.sequentialFlag = true;
    RecordingDevice io(SimDeviceConfig{});
    Tracer tracer;
    ReadStream stream(config, *policy, kPg19Mechanics, pool, io, source, tracer);
    consumeStream(stream, 3'000, nullptr, [](const ReadStream&, std::uint64_t) {});
    std::vector<std::uint32_t> synchronousBlocks;
    for (const RecordingDevice::Call& call : io.calls)
        if (call.isStart && call.request.synchronous)
            synchronousBlocks.push_back(call.request.firstBlock);
    QCOMPARE(synchronousBlocks, backendBlocks);
}

QTEST_GUILESS_MAIN(TestPg19Rules)
#include "tst_pg19_rules.moc"
