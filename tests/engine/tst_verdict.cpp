// SPDX-License-Identifier: GPL-3.0-or-later
// The A/B verdict names the largest difference and what limited each run, from real simulated runs.
#include "experiment/experiment.h"
#include "experiment/verdict.h"
#include "run.h"

#include <QRegularExpression>
#include <QTest>

using namespace la;

namespace {

RunConfig dataset(const std::string& name, std::uint64_t blocks) {
    RunConfig config;
    config.dataset.name = name;
    config.dataset.blocks = blocks;
    return config;
}

QString verdictOf(const Experiment& experiment) {
    std::vector<RunSummary> summaries;
    for (const RunVariant& run : experiment.runs)
        summaries.push_back(runScan(run.config, run.policy, {}));
    return variantVerdict(experiment, summaries);
}

} // namespace

class TestVerdict : public QObject {
    Q_OBJECT
private slots:
    void collapseIsIoBoundAndNamed();
    void backwardCombiningNamesTheReads();
    void identicalRunsAreTheSameSpeed();
    void restoreAfterResetTogglesB();
};

// PG18 on alternating hits and misses: stuck at distance 1-2 and waiting; PG19 escapes. The waits
// differ most, and the verdict says why A was slow.
void TestVerdict::collapseIsIoBoundAndNamed() {
    RunConfig config = dataset("alternating", 8192);
    config.policy = "pg18";
    config.comparePolicy = "pg19";
    config.consumerNs = 10'000; // slow enough that PG19, looking ahead, never waits
    const QString text = verdictOf(makeExperiment(config, Comparison::Policy));
    QVERIFY2(text.startsWith(QStringLiteral("B (pg19): 4,096 → ")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral(" waits, ")) && text.contains(QStringLiteral("× faster")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("A I/O-bound (waited ")) &&
                 text.contains(QStringLiteral("distance ≤ 2 for 100 % of blocks")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("B consumer-bound")), qPrintable(text));
}

// A backward sequential scan: without backward combining every block is its own 8 kB read; with it
// reads of io_combine_limit blocks. That, not the waits, is the story.
void TestVerdict::backwardCombiningNamesTheReads() {
    RunConfig config = dataset("seq", 4096);
    config.policy = "pg18";
    config.dataset.direction = Direction::Backward;
    const QString text = verdictOf(makeExperiment(config, Comparison::BackwardCombining));
    // 4,096 reads of one block against about 4,096 / 16 (a few smaller while the distance ramps up).
    const QRegularExpression reads(QStringLiteral("4,096 → (2[5-9][0-9]) reads"));
    const QRegularExpressionMatch match = reads.match(text);
    QVERIFY2(match.hasMatch(), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("× faster")), qPrintable(text));
}

// The same configuration twice: the simulation is deterministic (and says so), so every count and the
// run time are equal. No count differs enough to name, and equal run times are "the same speed" ("no
// difference" is left for runs without a run time to compare). What limited A limited B alike.
void TestVerdict::identicalRunsAreTheSameSpeed() {
    RunConfig config = dataset("seq", 4096);
    config.policy = "pg18";
    config.comparePolicy = "pg18";
    const QString text = verdictOf(makeExperiment(config, Comparison::Policy));
    const QRegularExpression sameSpeed(
        QStringLiteral("^B \\(pg18\\): the same speed \\(simulated: deterministic\\); A (.+), B \\1; A and B "
                       "differ in nothing \\(the same policy and "
                       "settings\\): choose what B changes$"));
    QVERIFY2(sameSpeed.match(text).hasMatch(), qPrintable(text));
    // Backward combining on for both (the README's old example) is such a pair; turning it on for B
    // alone is not.
    config.dataset = dataset("linear", 4096).dataset;
    config.dataset.direction = Direction::Backward;
    config.stream.backwardCombining = true;
    QVERIFY(
        verdictOf(makeExperiment(config, Comparison::Policy)).contains(QStringLiteral("differ in nothing")));
    config.stream.backwardCombining = false;
    QVERIFY(!verdictOf(makeExperiment(config, Comparison::BackwardCombining))
                 .contains(QStringLiteral("differ in nothing")));
}

// The seed's A/B (docs/recording.md, "Plans"): B keeps the distance across each reset where A
// starts again at 1, on the same visits and resets. On a random scan reset every 64 blocks, B reads
// the same blocks with fewer waits, and its name says what it changes.
void TestVerdict::restoreAfterResetTogglesB() {
    RunConfig config = dataset("random", 4096);
    config.policy = "pg19";
    config.resetEvery = 64;
    const Experiment experiment = makeExperiment(config, Comparison::RestoreAfterReset);
    QCOMPARE(experiment.runs.size(), std::size_t(2));
    QVERIFY(!experiment.runs[0].config.stream.restoreAfterReset);
    QVERIFY(experiment.runs[1].config.stream.restoreAfterReset);
    QCOMPARE(experiment.runs[1].label, std::string("pg19 + restore after reset"));
    QCOMPARE(comparisonNamed(comparisonName(Comparison::RestoreAfterReset)), Comparison::RestoreAfterReset);
    const RunSummary a = runScan(experiment.runs[0].config, "pg19", {});
    const RunSummary b = runScan(experiment.runs[1].config, "pg19", {});
    QCOMPARE(a.resets, b.resets);
    QCOMPARE(a.resets, 63ull);
    QCOMPARE(a.misses, b.misses);
    QVERIFY2(b.waits < a.waits, qPrintable(QStringLiteral("%1 against %2").arg(b.waits).arg(a.waits)));
    const QString text = verdictOf(experiment);
    QVERIFY2(text.startsWith(QStringLiteral("B (pg19 + restore after reset): ")), qPrintable(text));
}

QTEST_GUILESS_MAIN(TestVerdict)
#include "tst_verdict.moc"
