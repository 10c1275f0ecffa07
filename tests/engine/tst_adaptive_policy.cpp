// SPDX-License-Identifier: GPL-3.0-or-later
// What the adaptive policy promises (docs/adaptive-policy.md), checked on the simulated device's
// virtual clock, so run times here are exact and repeatable, not wall-clock timings.
#include "stream_harness.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

// After the engine's headers: Qt's `emit` macro would rename ReadStream::emit.
#include "data_rows.h"

using namespace la;
using la::test::firstBlocks;
using la::test::StreamRun;

namespace {

RunSummary run(const std::string& policy, const std::string& prewarm, std::vector<std::uint32_t> blocks,
               std::int64_t consumerNs = 10'000) {
    StreamRun r;
    r.policy = policy;
    r.prewarm = prewarm;
    r.consumerNs = consumerNs;
    r.run(std::move(blocks));
    return r.summary;
}

} // namespace

class TestAdaptivePolicy : public QObject {
    Q_OBJECT
private slots:
    void escapesCollapse_data();
    void escapesCollapse();
    void pinsOnlyWhatItNeeds();
    void decaysOnCachedData();
};

void TestAdaptivePolicy::escapesCollapse_data() {
    // Alternating hits and misses, then one miss in 16 and in 64.
    test::addNameRows("prewarm", {"every:2", "except-every:16", "except-every:64"});
}

void TestAdaptivePolicy::escapesCollapse() {
    QFETCH(QString, prewarm);
    const auto blocks = firstBlocks(50000);
    const RunSummary adaptive = run("adaptive", prewarm.toStdString(), blocks);
    const RunSummary fixedMax = run("fixed:94", prewarm.toStdString(), blocks);
    const RunSummary pg18 = run("pg18", prewarm.toStdString(), blocks);
    qInfo("run time adaptive %.1f ms, fixed:94 %.1f ms, pg18 %.1f ms; waits %llu / %llu / %llu",
          static_cast<double>(adaptive.runtimeNs) / 1e6, static_cast<double>(fixedMax.runtimeNs) / 1e6,
          static_cast<double>(pg18.runtimeNs) / 1e6, (unsigned long long)adaptive.waits,
          (unsigned long long)fixedMax.waits, (unsigned long long)pg18.waits);
    QVERIFY(adaptive.collapseIntervals.empty());
    QVERIFY(adaptive.fracDistanceLe2 < 0.01);
    QVERIFY(static_cast<double>(adaptive.runtimeNs) <= 1.1 * static_cast<double>(fixedMax.runtimeNs));
    QVERIFY(adaptive.runtimeNs < pg18.runtimeNs);
}

void TestAdaptivePolicy::pinsOnlyWhatItNeeds() {
    // A slow consumer (1 ms per block) on an uncached sequential scan: the device is never the
    // bottleneck, so one combined read of look-ahead hides every read. PG18 still pins
    // max_pinned_buffers (94).
    const auto blocks = firstBlocks(5000);
    const RunSummary adaptive = run("adaptive", "none", blocks, 1'000'000);
    const RunSummary pg18 = run("pg18", "none", blocks, 1'000'000);
    qInfo("pinned mean adaptive %.1f vs pg18 %.1f; waits %llu / %llu", adaptive.pinnedMean, pg18.pinnedMean,
          (unsigned long long)adaptive.waits, (unsigned long long)pg18.waits);
    QVERIFY(adaptive.pinnedMean * 4 < pg18.pinnedMean);
    QVERIFY(adaptive.waits <= 3);
    QVERIFY(static_cast<double>(adaptive.runtimeNs) <= 1.01 * static_cast<double>(pg18.runtimeNs));
}

void TestAdaptivePolicy::decaysOnCachedData() {
    // 10,000 misses, then 10,000 cached blocks: once the misses stop, the distance decays to 1 and
    // the stream settles in the fast path instead of pinning far ahead for nothing.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString list =
        test::writeFile(dir.filePath(QStringLiteral("cached.txt")), test::blockLines(10000, 20000));

    StreamRun r;
    r.policy = "adaptive";
    r.prewarm = "list:" + list.toStdString();
    r.run(firstBlocks(20000));
    QVERIFY(r.summary.distanceMax > 16);
    int tail = 0;
    for (auto it = r.trace.events.rbegin(); it != r.trace.events.rend() && tail < 5000; ++it) {
        if (it->kind != EventKind::Consumed || it->distance == 0)
            continue;
        QCOMPARE(static_cast<int>(it->distance), 1);
        ++tail;
    }
    QCOMPARE(tail, 5000);
}

QTEST_GUILESS_MAIN(TestAdaptivePolicy)
#include "tst_adaptive_policy.moc"
