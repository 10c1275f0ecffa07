// SPDX-License-Identifier: GPL-3.0-or-later
// Real files, real reads: every backend with O_DIRECT and buffered reads verifies every page,
// combines as PostgreSQL does, and issues exactly the reads the simulated device sees.
#include "io/block_arena.h"
#include "real_io_harness.h"

#include <QCryptographicHash>
#include <QFile>

#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <random>

using namespace la;
using namespace la::test;

namespace {

std::int64_t threadCpuNs() {
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

QByteArray fileHash(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result();
}

} // namespace

class TestRealIo : public QObject {
    Q_OBJECT
private slots:
    void everyPageVerified_data();
    void everyPageVerified();
    void forwardCombines_data() { addBackendRows(); }
    void forwardCombines();
    void backwardReads_data() { addBackendRows(); }
    void backwardReads();
    void sameReadsAsSimulation_data();
    void sameReadsAsSimulation();
    void consumerCostIsReal();
    void waitsAreReal();
    void warmCacheIsKept();
    void userFile_data();
    void userFile();
    void blockListOnUserFile();
    void arenaNeverOverlaps();

private:
    TempCache m_cache;
};

void TestRealIo::everyPageVerified_data() {
    addBackendRows("dataset", {"seq", "random"});
}

void TestRealIo::everyPageVerified() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    QFETCH(QString, dataset);
    LA_SKIP_UNSUPPORTED(io, direct);
    RunConfig config = realConfig(io, direct);
    config.dataset.name = dataset.toStdString();
    const RealRun run = runReal(config);
    const RunSummary& s = run.summary;
    QCOMPARE(QString::fromStdString(s.error), QString());
    QCOMPARE(QString::fromStdString(s.ioMethodUsed), io);
    QCOMPARE(QString::fromStdString(s.fallbackReason), QString());
    QCOMPARE(s.directIo, direct);
    QCOMPARE(s.blocks, kFileBlocks);
    QCOMPARE(s.pagesVerified, kFileBlocks);
    QCOMPARE(s.bytesRead, kFileBlocks * kBlockSize);
    // Cold start; O_DIRECT leaves the page cache alone, buffered reads fill it.
    QVERIFY(s.osCacheResidentBefore.has_value() && s.osCacheResidentAfter.has_value());
    if (tempIsTmpfs())
        QSKIP("the temporary directory is a tmpfs: its pages are the page cache itself, nothing to evict");
    QVERIFY2(*s.osCacheResidentBefore < 0.05, qPrintable(QString::number(*s.osCacheResidentBefore)));
    if (direct)
        QVERIFY2(*s.osCacheResidentAfter < 0.05, qPrintable(QString::number(*s.osCacheResidentAfter)));
    else
        QVERIFY2(*s.osCacheResidentAfter > 0.9, qPrintable(QString::number(*s.osCacheResidentAfter)));
}

void TestRealIo::forwardCombines() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    LA_SKIP_UNSUPPORTED(io, direct);
    const RealRun run = runReal(realConfig(io, direct));
    QCOMPARE(QString::fromStdString(run.summary.error), QString());
    const auto reads = readRequests(run.trace);
    // Ramp-up (1, 2, 4, 8 blocks), then io_combine_limit-sized reads; only the last may be short.
    std::size_t firstFull = 0;
    while (firstFull < reads.size() && reads[firstFull].second < 16)
        ++firstFull;
    QVERIFY(firstFull <= 5);
    for (std::size_t i = firstFull; i + 1 < reads.size(); ++i)
        QCOMPARE(reads[i].second, 16);
    const auto expected = kFileBlocks / 16;
    QVERIFY2(reads.size() >= expected && reads.size() <= expected + 5,
             qPrintable(QString::number(reads.size())));
    QCOMPARE(run.summary.deviceReads, reads.size());
    QCOMPARE(run.summary.pagesVerified, kFileBlocks);
}

void TestRealIo::backwardReads() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    LA_SKIP_UNSUPPORTED(io, direct);
    RunConfig config = realConfig(io, direct);
    config.dataset.direction = Direction::Backward;
    const RealRun plain = runReal(config);
    QCOMPARE(QString::fromStdString(plain.summary.error), QString());
    const auto plainReads = readRequests(plain.trace);
    QCOMPARE(plainReads.size(), std::size_t{kFileBlocks});
    for (const auto& read : plainReads)
        QCOMPARE(read.second, 1);
    QCOMPARE(plain.summary.pagesVerified, kFileBlocks);

    // Descending runs read as single ascending I/Os: as few reads as forward, and verification
    // proves each lands on the right offsets.
    config.stream.backwardCombining = true;
    const RealRun combined = runReal(config);
    QCOMPARE(QString::fromStdString(combined.summary.error), QString());
    const auto reads = readRequests(combined.trace);
    const auto forward = readRequests(runReal(realConfig(io, direct)).trace);
    QVERIFY2(reads.size() <= forward.size() + 2,
             qPrintable(QStringLiteral("%1 vs forward %2").arg(reads.size()).arg(forward.size())));
    for (const auto& read : reads)
        QVERIFY(read.second <= 16);
    QCOMPARE(combined.summary.pagesVerified, kFileBlocks);

    // CF 7035 as test_aio streams it (READ_STREAM_FULL): ranges of 16 blocks from the top, each read
    // upward and handed back in reverse; cold, so the reads do not depend on the device's timing.
    RunConfig patch = realConfig(io, direct);
    patch.dataset.direction = Direction::Backward;
    patch.stream.fullFlag = true;
    const RealRun reversed = runReal(patch, "cf7035");
    QCOMPARE(QString::fromStdString(reversed.summary.error), QString());
    std::vector<std::pair<std::uint32_t, int>> ranges;
    for (std::uint32_t top = kFileBlocks; top > 0; top -= 16)
        ranges.emplace_back(top - 16, 16);
    QVERIFY(readRequests(reversed.trace) == ranges);
    QCOMPARE(reversed.summary.reversedRanges, kFileBlocks / 16);
    QCOMPARE(reversed.summary.pagesVerified, kFileBlocks);
    std::uint32_t expected = kFileBlocks;
    for (const Event& e : reversed.trace.events)
        if (e.kind == EventKind::Consumed)
            QCOMPARE(e.block, --expected);
    QCOMPARE(expected, 0u);
}

void TestRealIo::sameReadsAsSimulation_data() {
    addBackendRows("policy", {"pg17", "pg18", "fixed:8"});
}

void TestRealIo::sameReadsAsSimulation() {
    QFETCH(QString, io);
    QFETCH(bool, direct);
    QFETCH(QString, policy);
    LA_SKIP_UNSUPPORTED(io, direct);
    // A third of the blocks cached: reads of every size, split by hits.
    RunConfig config = realConfig(io, direct);
    config.prewarm = "fraction:0.3:7";
    const RealRun real = runReal(config, policy.toStdString());
    QCOMPARE(QString::fromStdString(real.summary.error), QString());

    RunConfig sim = config;
    sim.io = IoMode::Sim;
    sim.stream.ioMethod = *ioMethodNamed(io.toStdString());
    sim.directIo = direct; // no advice with O_DIRECT, in PostgreSQL as here
    const RealRun simulated = runReal(sim, policy.toStdString());
    const auto realReads = readRequests(real.trace);
    QVERIFY(realReads.size() > 100);
    QVERIFY(realReads == readRequests(simulated.trace));
    QCOMPARE(real.summary.hits, simulated.summary.hits);
    QCOMPARE(real.summary.pagesVerified, real.summary.bytesRead / kBlockSize);
}

void TestRealIo::consumerCostIsReal() {
    RunConfig config = realConfig(QStringLiteral("sync"), true);
    config.prewarm = "all"; // no I/O at all: only the consumer's cost
    config.dataset.blocks = 128;
    config.consumerNs = 300'000;
    const std::int64_t cpuBefore = threadCpuNs();
    const RealRun run = runReal(config);
    const std::int64_t cpu = threadCpuNs() - cpuBefore;
    QCOMPARE(run.summary.blocks, std::uint64_t{128});
    // The trace ends with the last block handed out, before the consumer spends its time on it.
    QVERIFY2(run.summary.runtimeNs >= 127 * 300'000LL, qPrintable(QString::number(run.summary.runtimeNs)));
    // Spent on the CPU, not slept: most of it even while other processes compete for the CPU.
    QVERIFY2(cpu >= 128 * 300'000LL / 2, qPrintable(QString::number(cpu)));
}

void TestRealIo::waitsAreReal() {
    const QString io = uringSetupError() == 0 ? QStringLiteral("io_uring") : QStringLiteral("worker");
    RunConfig config = realConfig(io, directIoSupported());
    config.dataset.blocks = 256;
    const RealRun eager = runReal(config);
    QCOMPARE(QString::fromStdString(eager.summary.error), QString());
    QVERIFY(eager.summary.waits > 0);
    QVERIFY(eager.summary.waitNs > 0);
    std::int64_t last = 0;
    for (const Event& e : eager.trace.events) {
        QVERIFY(e.time_ns >= last); // one real clock
        last = e.time_ns;
    }

    // A consumer slower than the device only waits while the distance ramps up.
    config.consumerNs = 300'000;
    const RealRun slow = runReal(config);
    QCOMPARE(QString::fromStdString(slow.summary.error), QString());
    QVERIFY2(slow.summary.waits <= 8, qPrintable(QString::number(slow.summary.waits)));
}

void TestRealIo::warmCacheIsKept() {
    if (tempIsTmpfs())
        QSKIP("tmpfs pages are the page cache itself: cold and warm look alike");
    // A buffered run leaves the file cached; --os-cache warm starts the next run from there.
    RunConfig config = realConfig(QStringLiteral("sync"), false);
    runReal(config);
    config.osCacheCold = false;
    const RunSummary warm = runReal(config).summary;
    QVERIFY2(*warm.osCacheResidentBefore > 0.9, qPrintable(QString::number(*warm.osCacheResidentBefore)));
    QCOMPARE(warm.pagesVerified, kFileBlocks);
    // Served from memory: the consumer's reads hardly ever sleep.
    QVERIFY2(warm.waits < kFileBlocks / 16 / 2, qPrintable(QString::number(warm.waits)));
    config.osCacheCold = true;
    const RunSummary cold = runReal(config).summary;
    QVERIFY2(*cold.osCacheResidentBefore < 0.05, qPrintable(QString::number(*cold.osCacheResidentBefore)));
}

void TestRealIo::userFile_data() {
    QTest::addColumn<QString>("io");
    QTest::addColumn<QString>("dataset");
    QTest::addColumn<quint64>("hits");
    for (const char* io : {"sync", "worker", "io_uring"}) {
        QTest::newRow((std::string(io) + "/seq").c_str()) << QString::fromLatin1(io) << "seq" << quint64{0};
        QTest::newRow((std::string(io) + "/random").c_str())
            << QString::fromLatin1(io) << "random" << quint64{0};
        QTest::newRow((std::string(io) + "/alternating").c_str())
            << QString::fromLatin1(io) << "alternating" << quint64{500};
        QTest::newRow((std::string(io) + "/sparse-miss:4").c_str())
            << QString::fromLatin1(io) << "sparse-miss:4" << quint64{750};
    }
}

void TestRealIo::userFile() {
    QFETCH(QString, io);
    QFETCH(QString, dataset);
    QFETCH(quint64, hits);
    LA_SKIP_WITHOUT_URING(io);
    // Not our format: 1000 blocks of random bytes and a partial block.
    const std::string path = m_cache.path("user.dat");
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        std::mt19937_64 rng(5);
        for (std::uint64_t i = 0; i < (1000 * kBlockSize + 100) / 8; ++i) {
            const std::uint64_t word = rng();
            out.write(reinterpret_cast<const char*>(&word), sizeof word);
        }
        out.write("tail", 4);
    }
    ::chmod(path.c_str(), 0444);
    struct stat before {};
    QCOMPARE(::stat(path.c_str(), &before), 0);
    const QByteArray hashBefore = fileHash(QString::fromStdString(path));

    RunConfig config = realConfig(io, directIoSupported());
    config.dataset.name = dataset.toStdString();
    config.dataset.blocks = 0; // sized to the file
    config.file = path;
    const RealRun run = runReal(config);
    const RunSummary& s = run.summary;
    QCOMPARE(QString::fromStdString(s.error), QString());
    QCOMPARE(s.blocks, std::uint64_t{1000});
    QCOMPARE(s.hits, hits);
    QCOMPARE(s.pagesVerified, std::uint64_t{0}); // foreign pages carry no header
    QCOMPARE(s.bytesRead, (1000 - hits) * kBlockSize);
    QCOMPARE(run.notices.size(), std::size_t{1});
    QVERIFY(run.notices[0].find("last 100 bytes") != std::string::npos);
    QVERIFY(run.notices[0].find(path) != std::string::npos);

    // Read-only: same bytes, same size, mtime and ctime untouched.
    struct stat after {};
    QCOMPARE(::stat(path.c_str(), &after), 0);
    QCOMPARE(after.st_size, before.st_size);
    QCOMPARE(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
    QCOMPARE(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    QCOMPARE(after.st_ctim.tv_sec, before.st_ctim.tv_sec);
    QCOMPARE(after.st_ctim.tv_nsec, before.st_ctim.tv_nsec);
    QCOMPARE(fileHash(QString::fromStdString(path)), hashBefore);
}

void TestRealIo::blockListOnUserFile() {
    const std::string path = m_cache.path("user-small.dat");
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        const std::vector<char> zeros(100 * kBlockSize);
        out.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
    }
    const std::string list = m_cache.path("blocks.txt");
    std::ofstream(list) << "# mixed order\n5\n3\n99\n0\n";
    RunConfig config = realConfig(QStringLiteral("worker"), true);
    config.file = path;
    config.blockList = list;
    const RealRun run = runReal(config);
    QCOMPARE(QString::fromStdString(run.summary.error), QString());
    QCOMPARE(run.summary.blocks, std::uint64_t{4});
    QCOMPARE(run.summary.bytesRead, 4 * std::uint64_t{kBlockSize});

    std::ofstream(list) << "5\n100\n";
    try {
        openSource(config);
        QFAIL("a block past the end of the file must be refused");
    } catch (const InputError& error) {
        const std::string what = error.what();
        QVERIFY2(what.find("block 100") != std::string::npos && what.find(path) != std::string::npos &&
                     what.find("100 blocks") != std::string::npos,
                 error.what());
    }
}

void TestRealIo::arenaNeverOverlaps() {
    // Random read sizes, allocated and released in order, never share a block while both live.
    BlockArena arena(100, 16);
    std::mt19937 rng(3);
    std::vector<std::pair<std::int64_t, std::uint32_t>> live;
    std::uint64_t liveBlocks = 0;
    std::uint64_t mostLive = 0;
    for (int step = 0; step < 20000; ++step) {
        const auto n = static_cast<std::uint32_t>(rng() % 16 + 1);
        if (liveBlocks + n <= 100 && rng() % 2 == 0) {
            const std::int64_t offset = arena.allocate(n);
            QVERIFY(offset >= 0); // room for 100 blocks in flight, whatever the sizes
            for (const auto& [other, m] : live)
                QVERIFY(offset + n <= other || other + m <= offset);
            live.emplace_back(offset, n);
            liveBlocks += n;
            mostLive = std::max(mostLive, liveBlocks);
        } else if (!live.empty()) {
            liveBlocks -= live.front().second;
            live.erase(live.begin());
            arena.releaseOldest(live.empty() ? -1 : live.front().first);
        }
    }
    QVERIFY(mostLive > 84); // the arena was nearly full at times: overlaps had every chance
}

QTEST_GUILESS_MAIN(TestRealIo)
#include "tst_real_io.moc"
