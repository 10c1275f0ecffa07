// SPDX-License-Identifier: GPL-3.0-or-later
// An imported trace's reads told apart: served by the OS page cache or by the device, by how long
// each took (docs/trace-import.md §5, "Page cache and device reads"). Made-up reads of known kinds,
// and the shared real PostgreSQL 19 traces (O_DIRECT: all device reads). A real buffered scan's
// split depends on this machine's timing, so it is no pass/fail test here.
#include "cli_process.h"
#include "experiment/import_summary.h"
#include "experiment/summary_json.h"
#include "observed/observed_summary.h"
#include "observed/read_sources.h"
#include "observed/trace_importer.h"
#include "test_files.h"

#include <QDir>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <vector>

using namespace la;
using namespace la::test;

namespace {

// Reads of one block each, in turn `fast` ones taking 3 to 15 µs (a page-cache hit) and `slow`
// ones 80 to 400 µs (a device read), spread over their ranges.
std::vector<ObservedRead> twoKinds(std::uint32_t fast, std::uint32_t slow) {
    std::vector<ObservedRead> reads;
    for (std::uint32_t i = 0; i < fast + slow; ++i) {
        const bool isFast = i < fast;
        const std::int64_t spread = (std::int64_t(i) * 7919) % 1000;
        const std::int64_t ns = isFast ? 3'000 + spread * 12 : 80'000 + spread * 320;
        reads.push_back({std::int64_t(i) * 500'000, ns, i, 1, 0});
    }
    return reads;
}

ObservedTrace traceOf(std::vector<ObservedRead> reads, bool hasDurations) {
    ObservedTrace trace;
    trace.format = TraceFormat::Strace;
    trace.relation = "base/5/16390";
    trace.processes = {4242};
    trace.backend = 4242;
    trace.hasDurations = hasDurations;
    if (!hasDurations)
        for (ObservedRead& read : reads)
            read.durationNs = 0;
    trace.reads = std::move(reads);
    return trace;
}

QString fixtures() {
    return QStringLiteral(LOOKAHEAD_SHARED_FIXTURES "/pg19-io-workers");
}

} // namespace

class TestReadSources : public QObject {
    Q_OBJECT
private slots:
    void fastAndSlowReadsAreSplitBetweenTheModes();
    void oneKindOfReadIsNamed();
    void largeAndSmallDeviceReadsAreOneKind();
    void afewSlowOutliersAreNotAKind();
    void withoutDurationsNothingIsToldApart();
    void summaryAndCommandLineShowTheSplit();
    void realPostgresDirectIoIsAllDeviceReads_data();
    void realPostgresDirectIoIsAllDeviceReads();
};

void TestReadSources::fastAndSlowReadsAreSplitBetweenTheModes() {
    const std::vector<ObservedRead> reads = twoKinds(5210, 851);
    const ReadSources sources = classifyReadSources(reads, true);
    QCOMPARE(sources.basis, ReadSources::Basis::Valley);
    QCOMPARE(sources.pageCacheReads, std::uint64_t(5210));
    QCOMPARE(sources.deviceReads, std::uint64_t(851));
    QVERIFY2(sources.thresholdNs > 15'000 && sources.thresholdNs < 80'000,
             qPrintable(QString::number(sources.thresholdNs)));
    for (const ObservedRead& read : reads)
        QCOMPARE(sources.fromPageCache(read), read.durationNs < 20'000);
    QVERIFY(sources.pageCacheMedianNs >= 3'000 && sources.pageCacheMedianNs < 15'000);
    QVERIFY(sources.deviceMedianNs >= 80'000 && sources.deviceMedianNs < 400'000);

    // Mostly device reads with a few hits (a warm cache's misses, the other way round) split too.
    const ReadSources fewHits = classifyReadSources(twoKinds(40, 3000), true);
    QCOMPARE(fewHits.basis, ReadSources::Basis::Valley);
    QCOMPARE(fewHits.pageCacheReads, std::uint64_t(40));
    QCOMPARE(fewHits.deviceReads, std::uint64_t(3000));
}

void TestReadSources::oneKindOfReadIsNamed() {
    struct OneKind {
        std::uint32_t pageCacheReads, deviceReads;
        ReadSources::Basis basis;
        const char* said;
    };
    const OneKind kinds[] = {
        {2000, 0, ReadSources::Basis::AllPageCache, "as fast as a copy from the page cache"},
        {0, 2000, ReadSources::Basis::AllDevice, "slower than a copy from the page cache"},
    };
    for (const OneKind& kind : kinds) {
        const ReadSources sources =
            classifyReadSources(twoKinds(kind.pageCacheReads, kind.deviceReads), true);
        QCOMPARE(sources.basis, kind.basis);
        QCOMPARE(sources.pageCacheReads, std::uint64_t{kind.pageCacheReads});
        QCOMPARE(sources.deviceReads, std::uint64_t{kind.deviceReads});
        QVERIFY2(sources.basisText().find(kind.said) != std::string::npos, sources.basisText().c_str());
    }
}

// O_DIRECT reads of 1 block (100-200 µs) and of 16 (1-2 ms) are two modes, but both slower than a
// page-cache copy of their size: all device reads, no threshold.
void TestReadSources::largeAndSmallDeviceReadsAreOneKind() {
    std::vector<ObservedRead> reads;
    for (std::uint32_t i = 0; i < 1000; ++i) {
        const bool large = i % 2 == 0;
        const std::int64_t spread = (std::int64_t(i) * 7919) % 1000;
        reads.push_back({std::int64_t(i) * 3'000'000,
                         large ? 1'000'000 + spread * 1000 : 100'000 + spread * 100, i * 16, large ? 16u : 1u,
                         0});
    }
    const ReadSources sources = classifyReadSources(reads, true);
    QCOMPARE(sources.basis, ReadSources::Basis::AllDevice);
    QCOMPARE(sources.deviceReads, std::uint64_t(1000));

    // And cached reads of 1 and 16 blocks (4 µs, 30 µs) are all page-cache hits.
    for (ObservedRead& read : reads)
        read.durationNs =
            read.nblocks == 16 ? 30'000 + read.durationNs % 5'000 : 4'000 + read.durationNs % 1'000;
    QCOMPARE(classifyReadSources(reads, true).basis, ReadSources::Basis::AllPageCache);
}

// A cached scan's few hits held up (preempted under strace) are outliers, not device reads.
void TestReadSources::afewSlowOutliersAreNotAKind() {
    std::vector<ObservedRead> reads = twoKinds(3000, 0);
    reads[100].durationNs = 2'000'000;
    reads[2000].durationNs = 900'000;
    const ReadSources sources = classifyReadSources(reads, true);
    QCOMPARE(sources.basis, ReadSources::Basis::AllPageCache);
    QCOMPARE(sources.pageCacheReads, std::uint64_t(3000));
}

void TestReadSources::withoutDurationsNothingIsToldApart() {
    const ObservedTrace trace = traceOf(twoKinds(100, 100), false);
    const ReadSources sources = classifyReadSources(trace.reads, trace.hasDurations);
    QVERIFY(!sources.known());
    QCOMPARE(sources.pageCacheReads + sources.deviceReads, std::uint64_t(0));
    for (const ObservedRead& read : trace.reads)
        QVERIFY(!sources.fromPageCache(read));

    // The summary says so: unknown in the JSON (null, not 0), in words on the command line.
    const ObservedSummary summary = summarizeObserved(trace);
    QVERIFY(!summary.run.pageCacheKnown);
    const QJsonObject run = runSummaryObject(summary.run);
    QVERIFY(run.value(QStringLiteral("page_cache_reads")).isNull());
    QVERIFY(run.value(QStringLiteral("device_reads")).isNull());
    QVERIFY(run.value(QStringLiteral("page_cache_threshold_ns")).isNull());
    QCOMPARE(run.value(QStringLiteral("page_cache_known")).toBool(true), false);
    const QString text = QString::fromStdString(describeObserved(summary));
    QVERIFY2(text.contains(QStringLiteral(
                 "  page cache and device reads not told apart: the trace has no read durations\n")),
             qPrintable(text));
}

void TestReadSources::summaryAndCommandLineShowTheSplit() {
    const ObservedSummary summary = summarizeObserved(traceOf(twoKinds(5210, 851), true));
    QVERIFY(summary.run.pageCacheKnown);
    QCOMPARE(summary.run.pageCacheReads, std::uint64_t(5210));
    QCOMPARE(summary.run.deviceReads, std::uint64_t(851));
    QVERIFY(summary.run.pageCacheThresholdNs);
    const QJsonObject run = runSummaryObject(summary.run);
    QCOMPARE(run.value(QStringLiteral("page_cache_reads")).toInteger(), 5210);
    QCOMPARE(run.value(QStringLiteral("device_reads")).toInteger(), 851);
    QCOMPARE(run.value(QStringLiteral("page_cache_threshold_ns")).toDouble(),
             *summary.run.pageCacheThresholdNs);
    QVERIFY(
        run.value(QStringLiteral("page_cache_basis")).toString().startsWith(QStringLiteral("the valley")));

    const QString text = QString::fromStdString(describeObserved(summary));
    const QString threshold =
        QString::fromStdString(durationText(std::int64_t(*summary.run.pageCacheThresholdNs)));
    QVERIFY2(
        text.contains(QStringLiteral("  page cache 5,210 reads, device 851: threshold %1, the valley between "
                                     "the trace's fast reads (median ")
                          .arg(threshold)),
        qPrintable(text));

    // A modelled run tells nothing apart: its page-cache count is unknown, its device reads stand.
    RunSummary model;
    model.policy = "pg18";
    model.deviceReads = 851;
    const QJsonObject modelRun = runSummaryObject(model);
    QVERIFY(modelRun.value(QStringLiteral("page_cache_reads")).isNull());
    QCOMPARE(modelRun.value(QStringLiteral("device_reads")).toInteger(), 851);
    QVERIFY(!modelRun.contains(QStringLiteral("page_cache_basis")));
}

void TestReadSources::realPostgresDirectIoIsAllDeviceReads_data() {
    QTest::addColumn<QString>("run");
    QTest::addColumn<int>("reads");
    QTest::newRow("seq-random-6pct-uncached") << QStringLiteral("seq-random-6pct-uncached") << 923;
    QTest::newRow("seq-all-uncached-scattered") << QStringLiteral("seq-all-uncached-scattered") << 1028;
}

// debug_io_direct = 'data': the page cache plays no part, and every read is the device's.
void TestReadSources::realPostgresDirectIoIsAllDeviceReads() {
    QFETCH(QString, run);
    QFETCH(int, reads);
    const QString path = fixtures() + QLatin1Char('/') + run + QStringLiteral("/io-workers.strace");
    if (!QFileInfo::exists(path))
        QSKIP(qPrintable(QStringLiteral("the traced PostgreSQL 19 runs are not at %1").arg(fixtures())));
    const std::optional<ObservedTrace> trace = importTrace({path.toStdString(), TraceFormat::Auto, {}, {}});
    QVERIFY(trace && trace->hasDurations);
    QCOMPARE(trace->reads.size(), std::size_t(reads));
    const ReadSources sources = classifyReadSources(trace->reads, trace->hasDurations);
    QCOMPARE(sources.basis, ReadSources::Basis::AllDevice);
    QCOMPARE(sources.deviceReads, std::uint64_t(reads));
    qInfo("%s: %s", qPrintable(run), sources.basisText().c_str());
}

QTEST_GUILESS_MAIN(TestReadSources)
#include "tst_read_sources.moc"
