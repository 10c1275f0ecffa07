// SPDX-License-Identifier: GPL-3.0-or-later
// docs/read-stream-model.md §13: real PostgreSQL 18 on scenarios S1-S8, reproduced by `pg18` on the
// simulated device with the same settings (eic 16, io_combine_limit 16, 1 GB shared buffers,
// max_connections 20 -> max_pinned 272; O_DIRECT, so no advice; io_method worker).
#include "stream_harness.h"

#include "dataset.h"
#include "splitmix64.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace la;
using la::test::StreamRun;

namespace {
constexpr std::uint32_t N = 65536;

std::vector<std::uint32_t> ascending() {
    std::vector<std::uint32_t> blocks(N);
    for (std::uint32_t i = 0; i < N; ++i)
        blocks[i] = i;
    return blocks;
}

std::vector<std::uint32_t> descending() {
    auto blocks = ascending();
    std::reverse(blocks.begin(), blocks.end());
    return blocks;
}

// S6: an index scan of a heap clustered on a hash of the key (the `hash-groups` pattern); S7 reversed.
std::vector<std::uint32_t> hashGroups(bool backward) {
    DatasetRequest request;
    request.name = "hash-groups";
    request.direction = backward ? Direction::Backward : Direction::Forward;
    auto source = makeDataset(request);
    std::vector<std::uint32_t> blocks;
    for (SourceItem item = source->next(); item.step == SourceStep::Block; item = source->next())
        blocks.push_back(item.block);
    return blocks;
}

std::vector<std::uint32_t> shuffled() {
    auto blocks = ascending();
    SplitMix64 rng(7);
    for (std::uint32_t i = N - 1; i > 0; --i)
        std::swap(blocks[i], blocks[rng.below(i + 1)]);
    return blocks;
}

using Histogram = std::map<int, std::uint64_t>;

// Histograms agree when the reads they disagree on are at most `tolerance` of all reads.
double histogramDistance(const Histogram& got, const Histogram& want) {
    std::uint64_t total = 0, diff = 0;
    std::map<int, bool> keys;
    for (const auto& [k, v] : want) {
        total += v;
        keys[k] = true;
    }
    for (const auto& [k, v] : got)
        keys[k] = true;
    for (const auto& [k, unused] : keys) {
        const auto g = got.count(k) ? got.at(k) : 0;
        const auto w = want.count(k) ? want.at(k) : 0;
        diff += g > w ? g - w : w - g;
    }
    return total ? static_cast<double>(diff) / static_cast<double>(total) : 0.0;
}
} // namespace

class TestPgReference : public QObject {
    Q_OBJECT
private slots:
    void pg18_data();
    void pg18();
};

void TestPgReference::pg18_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("prewarm");
    QTest::addColumn<int>("resetEvery");
    QTest::addColumn<Histogram>("hist");
    QTest::addColumn<double>("meanDistance");
    QTest::addColumn<int>("maxDistance");
    QTest::addColumn<double>("fracLe2");
    QTest::newRow("S1 forward") << "S1"
                                << "none" << 0 << Histogram{{1, 2}, {2, 1}, {4, 1}, {8, 1}, {16, 4095}}
                                << 270.7 << 272 << 0.004;
    QTest::newRow("S2 backward") << "S2"
                                 << "none" << 0 << Histogram{{1, 65536}} << 271.9 << 272 << 0.000;
    QTest::newRow("S3 alternating") << "S1"
                                    << "every:2" << 0 << Histogram{{1, 32768}} << 1.5 << 2 << 1.000;
    QTest::newRow("S4 1 miss in 16") << "S1"
                                     << "except-every:16" << 0 << Histogram{{1, 4096}} << 1.1 << 2 << 1.000;
    QTest::newRow("S5 random") << "S5"
                               << "none" << 0 << Histogram{{1, 65534}, {2, 1}} << 271.9 << 272 << 0.000;
    QTest::newRow("S6 hash-clustered") << "S6"
                                       << "none" << 0 << Histogram{{1, 8145}, {2, 14}} << 1.2 << 4 << 0.991;
    QTest::newRow("S7 hash-clustered backward") << "S7"
                                                << "none" << 0 << Histogram{{1, 8173}} << 1.2 << 6 << 0.991;
    QTest::newRow("S8 resets") << "S1"
                               << "except-every:16" << 300 << Histogram{{1, 4096}} << 1.1 << 2 << 1.000;
}

void TestPgReference::pg18() {
    QFETCH(QString, scenario);
    QFETCH(QString, prewarm);
    QFETCH(int, resetEvery);
    QFETCH(Histogram, hist);
    QFETCH(double, meanDistance);
    QFETCH(int, maxDistance);
    QFETCH(double, fracLe2);

    StreamRun run;
    run.policy = "pg18";
    run.stream.sharedBuffers = 131072;
    run.stream.maxConnections = 20;
    run.stream.directIo = true;
    run.prewarm = prewarm.toStdString();
    run.resetEvery = static_cast<std::uint64_t>(resetEvery);
    run.consumerNs = 1'000;
    std::vector<std::uint32_t> blocks;
    if (scenario == QLatin1String("S2"))
        blocks = descending();
    else if (scenario == QLatin1String("S5"))
        blocks = shuffled();
    else if (scenario == QLatin1String("S6") || scenario == QLatin1String("S7"))
        blocks = hashGroups(scenario == QLatin1String("S7"));
    else
        blocks = ascending();
    const std::uint64_t length = blocks.size();
    run.relationBlocks = N;
    run.run(std::move(blocks));
    const RunSummary& s = run.summary;

    std::uint64_t wantIos = 0;
    for (const auto& [size, count] : hist)
        wantIos += count;
    qInfo("ios %llu (want %llu), mean distance %.2f (want %.1f), max %d, <=2 %.4f", (unsigned long long)s.ios,
          (unsigned long long)wantIos, s.distanceMean, meanDistance, s.distanceMax, s.fracDistanceLe2);
    QCOMPARE(s.blocks, length);
    QVERIFY(std::abs(static_cast<double>(s.ios) - static_cast<double>(wantIos)) <=
            0.02 * static_cast<double>(wantIos));
    QVERIFY2(histogramDistance(s.ioSizeHist, hist) <= 0.02, "I/O size histogram differs by more than 2%");
    QVERIFY(std::abs(s.distanceMean - meanDistance) <= 0.05 * meanDistance);
    QCOMPARE(s.distanceMax, maxDistance);
    QVERIFY(std::abs(s.fracDistanceLe2 - fracLe2) <= 0.02);
}

QTEST_GUILESS_MAIN(TestPgReference)
#include "tst_pg_reference.moc"
