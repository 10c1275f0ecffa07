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
#include <string>
#include <string_view>

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

// What PostgreSQL 18 did in a scenario: the blocks it read (S1 ascending, S2 descending, S5
// shuffled, S6 hash-clustered, S7 that backward) with what was cached and how often the scan reset,
// and the figures it gave.
struct Reference {
    std::string scenario;
    std::string prewarm;
    int resetEvery = 0;
    Histogram ioSizes; // reads by size in blocks
    double meanDistance = 0.0;
    int maxDistance = 0;
    double fracLe2 = 0.0; // the share of the scan with a distance of 2 or less
};
} // namespace

class TestPgReference : public QObject {
    Q_OBJECT
private slots:
    void pg18_data();
    void pg18();
};

void TestPgReference::pg18_data() {
    QTest::addColumn<Reference>("want");
    QTest::newRow("S1 forward") << Reference{
        "S1", "none", 0, {{1, 2}, {2, 1}, {4, 1}, {8, 1}, {16, 4095}}, 270.7, 272, 0.004};
    QTest::newRow("S2 backward") << Reference{"S2", "none", 0, {{1, 65536}}, 271.9, 272, 0.000};
    QTest::newRow("S3 alternating") << Reference{"S1", "every:2", 0, {{1, 32768}}, 1.5, 2, 1.000};
    QTest::newRow("S4 1 miss in 16") << Reference{"S1", "except-every:16", 0, {{1, 4096}}, 1.1, 2, 1.000};
    QTest::newRow("S5 random") << Reference{"S5", "none", 0, {{1, 65534}, {2, 1}}, 271.9, 272, 0.000};
    QTest::newRow("S6 hash-clustered") << Reference{"S6", "none", 0, {{1, 8145}, {2, 14}}, 1.2, 4, 0.991};
    QTest::newRow("S7 hash-clustered backward") << Reference{"S7", "none", 0, {{1, 8173}}, 1.2, 6, 0.991};
    QTest::newRow("S8 resets") << Reference{"S1", "except-every:16", 300, {{1, 4096}}, 1.1, 2, 1.000};
}

void TestPgReference::pg18() {
    QFETCH(Reference, want);
    const std::string_view scenario = want.scenario;

    StreamRun run;
    run.policy = "pg18";
    run.stream.sharedBuffers = 131072;
    run.stream.maxConnections = 20;
    run.stream.directIo = true;
    run.prewarm = want.prewarm;
    run.resetEvery = static_cast<std::uint64_t>(want.resetEvery);
    run.consumerNs = 1'000;
    std::vector<std::uint32_t> blocks;
    if (scenario == "S2")
        blocks = descending();
    else if (scenario == "S5")
        blocks = shuffled();
    else if (scenario == "S6" || scenario == "S7")
        blocks = hashGroups(scenario == "S7");
    else
        blocks = ascending();
    const std::uint64_t length = blocks.size();
    run.relationBlocks = N;
    run.run(std::move(blocks));
    const RunSummary& s = run.summary;

    std::uint64_t wantIos = 0;
    for (const auto& [size, count] : want.ioSizes)
        wantIos += count;
    qInfo("ios %llu (want %llu), mean distance %.2f (want %.1f), max %d, <=2 %.4f", (unsigned long long)s.ios,
          (unsigned long long)wantIos, s.distanceMean, want.meanDistance, s.distanceMax, s.fracDistanceLe2);
    QCOMPARE(s.blocks, length);
    QVERIFY(std::abs(static_cast<double>(s.ios) - static_cast<double>(wantIos)) <=
            0.02 * static_cast<double>(wantIos));
    QVERIFY2(histogramDistance(s.ioSizeHist, want.ioSizes) <= 0.02,
             "I/O size histogram differs by more than 2%");
    QVERIFY(std::abs(s.distanceMean - want.meanDistance) <= 0.05 * want.meanDistance);
    QCOMPARE(s.distanceMax, want.maxDistance);
    QVERIFY(std::abs(s.fracDistanceLe2 - want.fracLe2) <= 0.02);
}

QTEST_GUILESS_MAIN(TestPgReference)
#include "tst_pg_reference.moc"
