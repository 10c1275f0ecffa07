// SPDX-License-Identifier: GPL-3.0-or-later
// Repeated runs (docs/repeats.md): the statistics on fixed numbers, the verdict on recorded run times
// (never on this machine's speed), the summary JSON's and the session's repeats, and the driver's
// interleaved order on small real files.
#include "experiment/experiment.h"
#include "experiment/runner.h"
#include "experiment/session_io.h"
#include "experiment/summary_json.h"
#include "experiment/verdict.h"
#include "repeat_stats.h"
#include "run.h"
#include "summary_rows.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace la;

namespace {

// A real-I/O run whose repeats took `milliseconds`, the median one standing for it as the driver
// leaves it; waits alike in every repeat, so that only the run time can differ.
RunSummary recorded(const std::vector<double>& milliseconds, const char* policy = "pg18") {
    std::vector<RunSummary> repeats;
    for (double ms : milliseconds) {
        RunSummary repeat;
        repeat.policy = policy;
        repeat.ioMethodUsed = "io_uring";
        repeat.blocks = repeat.misses = repeat.ios = 1000;
        repeat.waits = 100;
        repeat.runtimeNs = static_cast<std::int64_t>(ms * 1e6);
        repeats.push_back(repeat);
    }
    RunSummary run = repeats[medianRepeat(repeats)];
    if (repeats.size() > 1)
        run.repeats = repeats;
    return run;
}

QString verdictOf(const std::vector<double>& a, const std::vector<double>& b) {
    return verdict(recorded(a), recorded(b, "pg19"));
}

} // namespace

class TestRepeats : public QObject {
    Q_OBJECT
private slots:
    void spreadIsQuartilesAndRange();
    void rankTestExactAndApproximate();
    void ratioIntervalFollowsTheTest();
    void identicalishRunsAreNoDifference();
    void separatedRunsAreFasterWithInterval();
    void fewRunsSayTheyAreFew();
    void simulatedRunsAreDeterministic();
    void verdictAndTableNameTheSameMedians();
    void jsonKeepsEveryRepeat();
    void realRunsInterleaveAndKeepTheMedian();
};

void TestRepeats::spreadIsQuartilesAndRange() {
    const Spread five = spreadOf({5, 1, 4, 2, 3});
    QCOMPARE(five.min, 1.0);
    QCOMPARE(five.q1, 2.0);
    QCOMPARE(five.median, 3.0);
    QCOMPARE(five.q3, 4.0);
    QCOMPARE(five.max, 5.0);
    const Spread four = spreadOf({1, 2, 3, NAN, 4});
    QCOMPARE(four.median, 2.5);
    QCOMPARE(four.q1, 1.75);
    // The lower median's repeat stands for the run; equal ones count in the order they ran.
    QCOMPARE(medianRepeat(recorded({30, 10, 20, 40}).repeats), std::size_t(2));
    QCOMPARE(medianRepeat(recorded({7, 7, 7}).repeats), std::size_t(1));
}

void TestRepeats::rankTestExactAndApproximate() {
    // Five against five, fully apart: the exact two-sided p is 2 / C(10, 5).
    QCOMPARE(rankTestP({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 2.0 / 252.0);
    QCOMPARE(smallestRankTestP(5, 5), 2.0 / 252.0);
    QCOMPARE(smallestRankTestP(3, 3), 0.1);
    // Interleaved: nothing to see.
    QVERIFY(rankTestP({1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}) > 0.5);
    // Ties and larger samples go by the normal approximation, which agrees on a clear case.
    std::vector<double> low, high;
    for (int i = 0; i < 30; ++i) {
        low.push_back(i % 10);
        high.push_back(20 + i % 10);
    }
    QVERIFY(rankTestP(low, high) < 1e-6);
    QCOMPARE(rankTestP({4, 4, 4}, {4, 4, 4}), 1.0);
}

void TestRepeats::ratioIntervalFollowsTheTest() {
    const RatioEstimate apart = ratioEstimate({150, 152, 149, 155, 151}, {100, 99, 101, 102, 98}, 0.05);
    QVERIFY(std::abs(apart.ratio - 1.51) < 0.01);
    QVERIFY(apart.low > 1.0 && apart.low < apart.ratio && apart.ratio < apart.high);
    const RatioEstimate alike = ratioEstimate({100, 103, 98, 101, 99}, {101, 99, 102, 100, 98}, 0.05);
    QVERIFY(alike.low < 1.0 && alike.high > 1.0);
}

void TestRepeats::identicalishRunsAreNoDifference() {
    const QString text = verdictOf({100, 103, 98, 101, 99}, {101, 99, 102, 100, 98});
    QVERIFY2(QRegularExpression(QStringLiteral("^B \\(pg19\\): no difference beyond noise \\(±[1-9] %\\); "))
                 .match(text)
                 .hasMatch(),
             qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("waits,")), qPrintable(text));
}

void TestRepeats::separatedRunsAreFasterWithInterval() {
    const QString faster = verdictOf({150, 152, 149, 155, 151}, {100, 99, 101, 102, 98});
    const QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("B \\(pg19\\): 1\\.5\\d× faster \\((1\\.\\d\\d)–(1\\.\\d\\d)\\);"))
            .match(faster);
    QVERIFY2(match.hasMatch(), qPrintable(faster));
    QVERIFY(match.captured(1).toDouble() > 1.0 && match.captured(1).toDouble() < 1.52 &&
            match.captured(2).toDouble() > 1.52);
    const QString slower = verdictOf({100, 99, 101, 102, 98}, {150, 152, 149, 155, 151});
    QVERIFY2(QRegularExpression(QStringLiteral("1\\.5\\d× slower \\(1\\.\\d\\d–1\\.\\d\\d\\)"))
                 .match(slower)
                 .hasMatch(),
             qPrintable(slower));
}

void TestRepeats::fewRunsSayTheyAreFew() {
    const QString one = verdictOf({150}, {100});
    QVERIFY2(one.contains(QStringLiteral(
                 "1.50× faster (one run each: differences under 20 % may be noise; use --repeat 5)")),
             qPrintable(one));
    const QString three = verdictOf({150, 152, 149}, {100, 99, 101});
    QVERIFY2(three.contains(QStringLiteral("3 and 3 runs are too few to tell it from noise")),
             qPrintable(three));
}

void TestRepeats::simulatedRunsAreDeterministic() {
    RunSummary a = recorded({150}), b = recorded({100}, "pg19");
    a.ioMethodUsed = b.ioMethodUsed = "sim";
    const QString text = verdict(a, b);
    QVERIFY2(text.contains(QStringLiteral("1.50× faster (simulated: deterministic)")), qPrintable(text));
}

// The waits' median over the repeats is not the median repeat's waits: the verdict and the summary
// table both give the medians, and say so (issue 46: "165 → 40 waits" beside "168 (141–177)").
void TestRepeats::verdictAndTableNameTheSameMedians() {
    const auto repeated = [](const char* policy, std::vector<std::pair<double, std::uint64_t>> runs) {
        std::vector<double> ms;
        for (const auto& [time, waits] : runs)
            ms.push_back(time);
        RunSummary run = recorded(ms, policy);
        for (std::size_t i = 0; i < runs.size(); ++i)
            run.repeats[i].waits = runs[i].second;
        run.waits = run.repeats[medianRepeat(run.repeats)].waits;
        return run;
    };
    const RunSummary a = repeated("pg18", {{150, 165}, {152, 141}, {149, 168}, {155, 177}, {151, 160}});
    const RunSummary b = repeated("pg19", {{100, 40}, {99, 37}, {101, 38}, {102, 39}, {98, 41}});
    QCOMPARE(a.waits, 160u); // the median repeat (151 ms) waited 160 times; the median is 165
    const QString text = verdict(a, b);
    QVERIFY2(text.contains(QStringLiteral("median waits 165 → 39")), qPrintable(text));
    const std::vector<SummaryRow> rows = summaryRows({&a, &b});
    const auto row = std::find_if(rows.begin(), rows.end(), [](const SummaryRow& r) {
        return r.label == QStringLiteral("Waits (time)");
    });
    QVERIFY(row != rows.end());
    QVERIFY2(row->values[0].startsWith(QStringLiteral("median 165 (141–177)")), qPrintable(row->values[0]));
    QVERIFY2(row->values[1].startsWith(QStringLiteral("median 39 (37–41)")), qPrintable(row->values[1]));
}

void TestRepeats::jsonKeepsEveryRepeat() {
    const RunSummary run = recorded({30, 10, 20});
    const QJsonObject o = runSummaryObject(run);
    QCOMPARE(o.value(QStringLiteral("repeats")).toInteger(), 3);
    QCOMPARE(o.value(QStringLiteral("median_repeat")).toInteger(), 2);
    QCOMPARE(o.value(QStringLiteral("runtime_ns_runs")).toArray(),
             (QJsonArray{30'000'000, 10'000'000, 20'000'000}));
    QCOMPARE(
        o.value(QStringLiteral("runtime_ns_spread")).toObject().value(QStringLiteral("median")).toDouble(),
        20e6);
    QCOMPARE(o.value(QStringLiteral("waits_runs")).toArray().size(), 3);
    // EXPLAIN's waits are known, its prefetch distance not (no samples): only the waits are kept.
    QCOMPARE(o.value(QStringLiteral("explain_io_waits_runs")).toArray().size(), 3);
    QVERIFY(!o.contains(QStringLiteral("explain_prefetch_avg_runs")));
    const RunSummary back = runSummaryOf(o);
    QCOMPARE(back.repeats.size(), std::size_t(3));
    QCOMPARE(back.repeats[1].runtimeNs, std::int64_t(10'000'000));
    // A single run has its one value.
    QCOMPARE(runSummaryObject(recorded({5})).value(QStringLiteral("runtime_ns_runs")).toArray().size(), 1);
}

// Three repeats each of two real-I/O runs, read with pread: they go A B B A A B, each hands its
// events to the front end while it runs, and then each run is handed on once, as its median repeat,
// with all three; a session keeps every repeat's summary and the median's events.
void TestRepeats::realRunsInterleaveAndKeepTheMedian() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    RunConfig config;
    config.io = IoMode::Sync;
    config.directIo = false;
    config.cacheDir = dir.filePath(QStringLiteral("datasets")).toStdString();
    config.dataset.name = "seq";
    config.dataset.blocks = 512;
    config.policy = "pg18";
    config.comparePolicy = "pg19";
    config.repeat = 3;
    Experiment experiment = makeExperiment(config, Comparison::Policy);
    ExperimentOutputs outputs;
    outputs.session = dir.filePath(QStringLiteral("repeats.lookahead")).toStdString();
    ExperimentCallbacks callbacks;
    QStringList order;
    callbacks.repeatStarted = [&](int run, int repeat, int repeats, std::vector<EventSink*>&) {
        QCOMPARE(repeats, 3);
        order << QStringLiteral("%1%2").arg(QLatin1Char(run == 0 ? 'A' : 'B')).arg(repeat);
    };
    std::vector<int> finished;
    callbacks.runFinished = [&](int run, const RunSummary& summary, std::shared_ptr<EventSpool>) {
        finished.push_back(run);
        QCOMPARE(summary.repeats.size(), std::size_t(3));
    };
    const ExperimentResult result = runExperiment(experiment, outputs, callbacks);
    QCOMPARE(order, QStringList({"A0", "B0", "B1", "A1", "A2", "B2"}));
    QCOMPARE(finished, std::vector<int>({0, 1}));
    QVERIFY(result.sessionWritten);
    QCOMPARE(result.summaries.size(), std::size_t(2));
    for (const RunSummary& summary : result.summaries) {
        const std::size_t median = medianRepeat(summary.repeats);
        QCOMPARE(summary.runtimeNs, summary.repeats[median].runtimeNs);
    }
    const OpenedSession session = openSession(outputs.session);
    QCOMPARE(session.summaries.size(), std::size_t(2));
    for (std::size_t run = 0; run < 2; ++run) {
        QCOMPARE(session.summaries[run].repeats.size(), std::size_t(3));
        for (std::size_t i = 0; i < 3; ++i)
            QCOMPARE(session.summaries[run].repeats[i].runtimeNs, result.summaries[run].repeats[i].runtimeNs);
    }
}

QTEST_MAIN(TestRepeats)
#include "tst_repeats.moc"
