// SPDX-License-Identifier: GPL-3.0-or-later
// The summary fields' table (core/summary/summary_fields.h) is every figure once, and everything that writes,
// reads or shows a summary agrees with it: the summary JSON, the session, the text, the panel and the
// exports, the import summary, sweeps.
#include "cli/summary_text.h"
#include "experiment/import_summary.h"
#include "experiment/summary_json.h"
#include "figure_text.h"
#include "input_error.h"
#include "observed/observed_fields.h"
#include "run/run.h"
#include "session/session_summary.h"
#include "summary_fields.h"
#include "summary_rows.h"
#include "sweep/sweep_results.h"

#include <QFile>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <set>
#include <sstream>

using namespace la;

namespace {

// Every figure set to something no default has, the index facts and an error included.
RunSummary everyFigureSet() {
    RunSummary s;
    s.policy = "pg18";
    s.mechanics = "pg18";
    s.streamFlags = "full,sequential";
    s.reversedRanges = 12;
    s.blocks = 4000;
    s.hits = 3750;
    s.misses = 250;
    s.ios = 240;
    s.ioSizeHist = {{1, 230}, {2, 10}};
    s.deviceReads = 239;
    s.pageCacheKnown = true;
    s.pageCacheReads = 1;
    s.pageCacheThresholdNs = 18'250.0;
    s.pageCacheBasis = "the valley between the trace's fast reads and its slow ones";
    s.bytesRead = 249 * 8192;
    s.waits = 17;
    s.waitNs = 1'234'567;
    s.waitsScope = "the backend's own reads";
    s.waitTimeUnknown = true;
    s.cacheFromTrace = "cache state from the trace: 4,000 visits give 250 misses";
    s.traceDisagreements = 3;
    s.serverExplain = R"({"node":"Seq Scan","shared_read":983})";
    s.runtimeNs = 53'069'047;
    s.resets = 2;
    s.distanceAfterResetMean = 3.5;
    s.blocksAfterEnd = 40;
    s.readsBeforeStream = 4;
    s.waitsBeforeStream = 3;
    s.distanceMean = 1.0622499999999999;
    s.distanceTimeMean = 0.86592855153400439;
    s.distanceMax = 94;
    s.fracDistanceLe2 = 0.125;
    s.pinnedMean = 1.87;
    s.inFlightMean = 0.06;
    s.maxPinned = 94;
    s.ioCombineLimit = 16;
    s.sharedBuffers = 16384;
    s.strategy = "BULKREAD";
    s.ringBuffers = 94;
    s.residentAfter = 3844;
    s.collapseIntervals = {{15, 3999}, {4100, 4200}};
    s.explainIo = {3999, 7000, 5, 94, 17, 240, 250, 300, false, true};
    s.ioMethodUsed = "worker";
    s.fallbackReason = "io_uring to worker";
    s.directIo = true;
    s.ioWorkersStart = 2;
    s.ioWorkersEnd = 3;
    s.ioWorkersPeak = 5;
    s.pagesVerified = 249;
    s.osCacheResidentBefore = 0.25;
    s.osCacheResidentAfter = 1.0;
    s.pgIndex = pg::IndexFacts{10, 8, 4000, 3, 1, 300, 250, 200, 50, 49, true};
    s.cancelled = true;
    s.error = "read failed";
    return s;
}

QStringList words(const char* text) {
    return QString::fromLatin1(text).split(QLatin1Char(' '));
}

// The table's figures that `in` says are there, in its order.
QStringList tableNames(bool (SummaryField::*in)() const) {
    QStringList names;
    for (const SummaryField& field : summaryFieldTable())
        if ((field.*in)())
            names << QString::fromUtf8(field.name.data(), qsizetype(field.name.size()));
    return names;
}

QStringList keysOf(const QJsonObject& object) {
    QStringList keys = object.keys();
    keys.sort();
    return keys;
}

QStringList namesOf(const NameValues& fields) {
    QStringList names;
    for (const auto& [name, value] : fields)
        names << QString::fromStdString(name);
    return names;
}

// `ios` reads of which `bytes` reached the device.
RunSummary reads(const char* policy, std::uint64_t ios, std::uint64_t bytes) {
    RunSummary s;
    s.policy = policy;
    s.ios = ios;
    s.bytesRead = bytes;
    return s;
}

// A figure changed to a value it did not have: a text longer, a number more than doubled, a flag flipped, a
// list longer, an absent value present (and a present index scan absent).
struct Nudge {
    void operator()(std::string* value) const { *value += "+"; }
    template <class T>
    requires std::is_arithmetic_v<T>
    void operator()(T* value) const {
        if constexpr (std::is_same_v<T, bool>)
            *value = !*value;
        else
            *value += *value + static_cast<T>(7.25); // doubled and more: seen at any rounding
    }
    void operator()(std::optional<double>* value) const { *value = value->value_or(0.0) + 7.25; }
    void operator()(std::map<int, std::uint64_t>* value) const { (*value)[7] += 3; }
    void operator()(std::vector<CollapseInterval>* value) const { value->emplace_back(9000, 9100); }
    void operator()(ExplainIo* value) const {
        value->ioCount += 7;
        value->ioBlocks += 30;
    }
    void operator()(std::optional<pg::IndexFacts>* value) const {
        if (*value)
            value->reset();
        else
            *value = pg::IndexFacts{};
    }
    void operator()(CombinableRuns* value) const { value->readsSaved += 7; }
    void operator()(std::vector<std::pair<std::uint32_t, std::uint64_t>>* value) const {
        value->emplace_back(4242, 7);
    }
};

QString name(std::string_view figure) {
    return QString::fromUtf8(figure.data(), qsizetype(figure.size()));
}

// The table's figures flagged `flag`: stored ones, whose effect on an output is seen by changing them,
// and derived ones apart.
QStringList flagged(FieldFlag flag, bool derived) {
    QStringList names;
    for (const SummaryField& field : summaryFieldTable())
        if (field.has(flag) && (field.derive != nullptr) == derived)
            names << name(field.name);
    return names;
}

// The stored figures an output prints: those of which a change alone (by `nudge`) changes what it
// prints, in one of `bases` at least (summaries that take each of its branches).
template <class Summary>
QStringList printedFigures(const std::vector<Summary>& bases,
                           const std::function<QString(const Summary&)>& print,
                           const std::function<void(Summary&, FieldSlot (*)(RunSummary&))>& nudge) {
    QStringList printed;
    for (const SummaryField& field : summaryFieldTable()) {
        if (!field.slot)
            continue;
        for (Summary base : bases) {
            const QString before = print(base);
            nudge(base, field.slot);
            if (print(base) != before) {
                printed << name(field.name);
                break;
            }
        }
    }
    return printed;
}

// What two lists of figures do not share, said for a failure: "" when they have the same figures.
QString differences(const QStringList& printed, const QStringList& flagged) {
    QStringList onlyPrinted, onlyFlagged;
    for (const QString& figure : printed)
        if (!flagged.contains(figure))
            onlyPrinted << figure;
    for (const QString& figure : flagged)
        if (!printed.contains(figure))
            onlyFlagged << figure;
    if (onlyPrinted.isEmpty() && onlyFlagged.isEmpty())
        return {};
    return QStringLiteral("printed, not flagged: %1; flagged, not printed: %2")
        .arg(onlyPrinted.join(' '), onlyFlagged.join(' '));
}

QString panelValue(const RunSummary& s, const QString& label) {
    for (const SummaryRow& row : summaryRows({&s}))
        if (row.label == label)
            return row.values.front();
    return {};
}

// What a run's events say of its resets, counted apart from the summary's builder: the distance at
// each reset, and the buffers handed out at distance 0.
struct ResetEvents final : EventSink {
    std::vector<std::uint16_t> afterReset;
    std::uint64_t atZero = 0;
    void onEvents(std::span<const Event> batch) override {
        for (const Event& event : batch) {
            if (event.kind == EventKind::Reset)
                afterReset.push_back(event.distance);
            atZero += event.kind == EventKind::Consumed && event.distance == 0 ? 1 : 0;
        }
    }
};

} // namespace

class TestSummaryFields : public QObject {
    Q_OBJECT
private slots:
    void everyNameOnce();
    void jsonIsTheTable();
    void explainIoIsTheTablesExplainFigures();
    void pgIndexIsTheTablesIndexFacts();
    void sessionIsTheTable();
    void sessionKeepsEveryFigure();
    void layoutsNameOnlyFiguresOfTheTable();
    void textAndPanelAgreeOnTheMeanReadSize();
    void sweepsKeepTheTablesSweepFigures();
    void exportsShowTheTablesExportFigures();
    void importSummaryPrintsTheTablesImportFigures();
    void resetFiguresOfARunThatRescans();
};

void TestSummaryFields::everyNameOnce() {
    std::set<std::string_view> names;
    for (const SummaryField& field : summaryFieldTable()) {
        QVERIFY2(names.insert(field.name).second, field.name.data());
        // A stored figure has its place in a summary; a derived one its computation.
        QCOMPARE(field.store == FieldStore::Derived, field.view == nullptr);
        QCOMPARE(field.view == nullptr, field.slot == nullptr);
        QCOMPARE(field.view == nullptr, field.derive != nullptr);
        QCOMPARE(&summaryFieldNamed(field.name), &field);
    }
    QVERIFY_THROWS_EXCEPTION(std::logic_error, summaryFieldNamed("no_such_figure"));
}

// The JSON's keys of a run are the table's JSON figures, the ones left out when unset only then.
void TestSummaryFields::jsonIsTheTable() {
    const QStringList published = words(
        "blocks blocks_after_end bytes_read cache_from_trace cancelled collapse_intervals "
        "device_readahead_reads device_reads direct_io distance_after_reset_mean "
        "distance_max distance_mean distance_time_mean error explain_io fallback_reason "
        "frac_distance_le2 hits in_flight_mean io_combine_limit io_method_used io_size_hist "
        "io_workers_end io_workers_peak io_workers_start ios max_pinned mechanics misses "
        "os_cache_resident_after os_cache_resident_before page_cache_basis page_cache_known "
        "page_cache_reads page_cache_threshold_ns pages_verified pg_index pinned_mean policy "
        "reads_before_stream resets resident_after reversed_ranges ring_buffers runtime_ns shared_buffers "
        "strategy stream_flags trace_disagreements wait_ns wait_time_unknown waits "
        "waits_before_stream waits_scope waits_unknown");
    QStringList table = tableNames(&SummaryField::inJson);
    table.sort();
    QCOMPARE(table, published);
    // Every run also has its repeats' figures (docs/repeats.md), those it knows: EXPLAIN's waits but
    // not its prefetch distances, not its wait time (unknown here).
    const QStringList repeatKeys =
        words("explain_io_waits_runs explain_io_waits_spread median_repeat read_throughput_runs "
              "read_throughput_spread repeats runtime_ns_runs runtime_ns_spread waits_runs waits_spread");
    QStringList objectKeys = published + repeatKeys;
    objectKeys.sort();
    QCOMPARE(keysOf(runSummaryObject(everyFigureSet())), objectKeys);

    RunSummary unset = everyFigureSet();
    unset.pgIndex.reset();
    unset.error.clear();
    unset.osCacheResidentAfter.reset();
    unset.waitsScope.clear();
    unset.cacheFromTrace.clear();
    unset.pageCacheKnown = false;
    unset.pageCacheThresholdNs.reset();
    unset.pageCacheBasis.clear();
    unset.strategy.clear();
    unset.distanceAfterResetMean.reset();
    QStringList whenSet = objectKeys;
    whenSet.removeAll(QStringLiteral("distance_after_reset_mean"));
    whenSet.removeAll(QStringLiteral("strategy"));
    whenSet.removeAll(QStringLiteral("cache_from_trace"));
    whenSet.removeAll(QStringLiteral("waits_scope"));
    whenSet.removeAll(QStringLiteral("page_cache_basis"));
    whenSet.removeAll(QStringLiteral("pg_index"));
    whenSet.removeAll(QStringLiteral("error"));
    const QJsonObject object = runSummaryObject(unset);
    QCOMPARE(keysOf(object), whenSet);
    QVERIFY(object.value(QStringLiteral("os_cache_resident_after")).isNull()); // not measured: null
    // Reads not told apart: the page cache's count is unknown, not 0; a model's device reads stand,
    // an observed run's are unknown too.
    QVERIFY(object.value(QStringLiteral("page_cache_reads")).isNull());
    QVERIFY(object.value(QStringLiteral("page_cache_threshold_ns")).isNull());
    QCOMPARE(object.value(QStringLiteral("device_reads")).toInteger(), 239);
    unset.policy = "observed";
    QVERIFY(runSummaryObject(unset).value(QStringLiteral("device_reads")).isNull());

    // What the JSON keeps reads back as it was (a sweep's merge reads its figures so).
    const RunSummary back = runSummaryOf(runSummaryObject(everyFigureSet()));
    QCOMPARE(back.runtimeNs, everyFigureSet().runtimeNs);
    QCOMPARE(back.distanceMean, everyFigureSet().distanceMean);
    QCOMPARE(back.collapseIntervals, everyFigureSet().collapseIntervals);
    QCOMPARE(back.ioSizeHist, everyFigureSet().ioSizeHist);
    QCOMPARE(back.error, everyFigureSet().error);
    // All but EXPLAIN's averages and the index facts' shares, whose counts the JSON does not keep.
    QJsonObject original = runSummaryObject(everyFigureSet());
    QJsonObject readBack = runSummaryObject(back);
    for (QJsonObject* object : {&original, &readBack})
        for (const QString& key :
             {QStringLiteral("explain_io"), QStringLiteral("pg_index"),
              QStringLiteral("explain_io_waits_runs"), QStringLiteral("explain_io_waits_spread")})
            object->remove(key);
    QCOMPARE(readBack, original);
}

// The JSON's EXPLAIN (IO) object holds the table's kInExplainIo figures, each under its name after
// "explain_", as explain.c computes it: null where the run does not know it.
void TestSummaryFields::explainIoIsTheTablesExplainFigures() {
    QStringList figures;
    for (const QString& figure : flagged(kInExplainIo, true))
        figures << figure.mid(int(std::string_view("explain_").size()));
    figures.sort();
    RunSummary run = everyFigureSet(); // waits known, prefetch distances not
    const QJsonObject io = runSummaryObject(run).value(QStringLiteral("explain_io")).toObject();
    QCOMPARE(keysOf(io), figures);
    QCOMPARE(io.value(QStringLiteral("io_count")).toInteger(), 240);
    QCOMPARE(io.value(QStringLiteral("io_waits")).toInteger(), 17);
    QCOMPARE(io.value(QStringLiteral("io_size_avg")).toDouble(), 250.0 / 240.0);
    QCOMPARE(io.value(QStringLiteral("io_inprogress_avg")).toDouble(), 300.0 / 240.0);
    for (const char* unknown : {"prefetch_avg", "prefetch_max", "prefetch_capacity"})
        QVERIFY2(io.value(QLatin1String(unknown)).isNull(), unknown);

    run.explainIo.prefetchKnown = true;
    const QJsonObject known = runSummaryObject(run).value(QStringLiteral("explain_io")).toObject();
    QCOMPARE(known.value(QStringLiteral("prefetch_avg")).toDouble(), 7000.0 / 3999.0);
    QCOMPARE(known.value(QStringLiteral("prefetch_max")).toInteger(), 5);
    QCOMPARE(known.value(QStringLiteral("prefetch_capacity")).toInteger(), 94);
    QVERIFY(known.value(QStringLiteral("note")).toString().contains(QStringLiteral("index scan")));
}

// The JSON's index scan object holds the table's kInPgIndex figures under their names after "pg.":
// its counts as they are, its steps as shares of the 299 steps between its 300 visits.
void TestSummaryFields::pgIndexIsTheTablesIndexFacts() {
    QStringList figures{QStringLiteral("checksums_verified")};
    for (const SummaryField& field : summaryFieldTable())
        if (field.has(kInPgIndex))
            figures << name(field.name).mid(3);
    figures.sort();
    QCOMPARE(figures, words("ascending_share checksums_verified dead_items descending_share distinct_blocks "
                            "index_blocks leaf_pages posting_lists random_share tids visits"));
    const QJsonObject index = runSummaryObject(everyFigureSet()).value(QStringLiteral("pg_index")).toObject();
    QCOMPARE(keysOf(index), figures);
    QCOMPARE(index.value(QStringLiteral("tids")).toInteger(), 4000);
    QCOMPARE(index.value(QStringLiteral("ascending_share")).toDouble(), 200.0 / 299.0);
    QCOMPARE(index.value(QStringLiteral("random_share")).toDouble(), 49.0 / 299.0);
    QCOMPARE(index.value(QStringLiteral("checksums_verified")).toBool(), true);
}

// A session's fields are the table's session figures in its order (docs/session-format.md).
void TestSummaryFields::sessionIsTheTable() {
    const QStringList documented = words(
        "policy mechanics stream_flags reversed_ranges blocks hits misses ios io_size_hist device_reads "
        "page_cache_known "
        "page_cache_reads page_cache_threshold_ns page_cache_basis device_readahead_reads bytes_read waits "
        "wait_ns "
        "waits_unknown wait_time_unknown waits_scope runtime_ns resets distance_after_reset_mean "
        "reads_before_stream waits_before_stream "
        "distance_mean blocks_after_end distance_time_mean distance_max frac_distance_le2 pinned_mean "
        "in_flight_mean max_pinned io_combine_limit shared_buffers strategy ring_buffers resident_after "
        "collapse_intervals explain.prefetch_count "
        "explain.distance_sum explain.distance_max explain.distance_capacity explain.wait_count "
        "explain.io_count explain.io_blocks explain.io_in_progress explain.prefetch_known "
        "explain.waits_known io_method_used fallback_reason direct_io io_workers_start io_workers_end "
        "io_workers_peak pages_verified "
        "os_cache_resident_before os_cache_resident_after pg.index_blocks pg.leaf_pages pg.tids "
        "pg.posting_lists pg.dead_items pg.visits pg.distinct_blocks pg.ascending_steps "
        "pg.descending_steps pg.random_steps pg.checksums cache_from_trace server_explain "
        "trace_disagreements reconciliation "
        "cancelled error");
    QCOMPARE(tableNames(&SummaryField::inSession), documented);
    QCOMPARE(namesOf(summaryFields(everyFigureSet())), documented);

    RunSummary noIndex = everyFigureSet();
    noIndex.pgIndex.reset();
    QStringList withoutIndex = documented;
    withoutIndex.removeIf([](const QString& name) { return name.startsWith(QStringLiteral("pg.")); });
    QCOMPARE(namesOf(summaryFields(noIndex)), withoutIndex);
    QVERIFY(!summaryFromFields(summaryFields(noIndex)).pgIndex);
}

// Written and read back, every figure is what it was, exactly.
void TestSummaryFields::sessionKeepsEveryFigure() {
    const RunSummary s = everyFigureSet();
    const RunSummary back = summaryFromFields(summaryFields(s));
    QCOMPARE(summaryFields(back), summaryFields(s));
    QCOMPARE(runSummaryObject(back), runSummaryObject(s));
    QCOMPARE(back.explainIo.ioInProgress, s.explainIo.ioInProgress);
    QCOMPARE(back.explainIo.prefetchKnown, s.explainIo.prefetchKnown);
    QCOMPARE(back.pgIndex->randomSteps, s.pgIndex->randomSteps);

    // Each field is required: a session without one is damaged, naming it.
    NameValues fields = summaryFields(s);
    std::erase_if(fields, [](const auto& field) { return field.first == "hits"; });
    QVERIFY_THROWS_EXCEPTION(InputError, summaryFromFields(fields));
    try {
        summaryFromFields(fields);
    } catch (const InputError& error) {
        QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("summary field 'hits' is missing")),
                 error.what());
    }
    // Except the figures newer than the first sessions: one written before them reads them as 0.
    NameValues older = summaryFields(s);
    std::erase_if(older, [](const auto& field) {
        return field.first == "reads_before_stream" || field.first.starts_with("io_workers_") ||
               field.first.starts_with("page_cache_") || field.first == "stream_flags" ||
               field.first == "reversed_ranges";
    });
    QCOMPARE(older.size() + 10, summaryFields(s).size());
    QCOMPARE(summaryFromFields(older).reversedRanges, std::uint64_t(0));
    QVERIFY(!summaryFromFields(older).pageCacheKnown); // not told apart: not "0 page-cache reads"
    QVERIFY(!summaryFromFields(older).pageCacheThresholdNs);
    QCOMPARE(summaryFromFields(older).readsBeforeStream, std::uint64_t(0));
    QCOMPARE(summaryFromFields(older).waitsBeforeStream, s.waitsBeforeStream);
    QCOMPARE(summaryFromFields(older).ioWorkersPeak, 0);
}

// The text's and the panel's layouts print every run, one with nothing measured too (a name that is
// not the table's would throw).
void TestSummaryFields::layoutsNameOnlyFiguresOfTheTable() {
    RunSummary nothing;
    nothing.policy = "pg18";
    for (const RunSummary& s : {nothing, everyFigureSet()}) {
        QVERIFY(!describeRun("A", s).empty());
        for (const SummaryRow& row : summaryRows({&s}))
            QVERIFY2(!row.label.isEmpty() && !row.values.front().isEmpty(), qPrintable(row.label));
    }
}

// Real I/O: 100 reads of one block, one of which joined a read already in flight and moved no bytes
// itself. The mean read size is the blocks the reads brought in over the reads, in the text, the
// panel and EXPLAIN alike; for an imported trace, whose every block was read, too.
void TestSummaryFields::textAndPanelAgreeOnTheMeanReadSize() {
    // 100 one-block reads, one of which joined a read in flight: PostgreSQL counts its block as a hit.
    RunSummary joined = reads("pg19", 100, 99 * 8192);
    joined.ioSizeHist = {{1, 100}};
    joined.blocks = 1000;
    joined.misses = 99;
    joined.explainIo.ioCount = 100;
    joined.explainIo.ioBlocks = 100;
    QVERIFY(QString::fromStdString(describeRun("A", joined)).contains(QStringLiteral("(mean 1.00 blocks)")));
    QCOMPARE(panelValue(joined, QStringLiteral("Mean I/O size")), QStringLiteral("1.00 blocks (8 KiB)"));
    QCOMPARE(figureNumber(summaryFieldNamed("mean_read_blocks"), joined), joined.explainIo.ioSizeAvg());

    RunSummary observed = reads("observed", 4, 5 * 8192); // 3 reads of one block, 1 of two
    observed.ioSizeHist = {{1, 3}, {2, 1}};
    observed.blocks = 5;
    QVERIFY(QString::fromStdString(describeRun("observed", observed))
                .contains(QStringLiteral("(mean 1.25 blocks)")));
    QCOMPARE(panelValue(observed, QStringLiteral("Mean I/O size")), QStringLiteral("1.25 blocks (10 KiB)"));
}

// A sweep keeps, maps and writes exactly the figures sweepFigureTable() lists, each the table's number of
// the run: a figure added to that list is in the sweep's runs, maps and CSV with nothing else to edit.
void TestSummaryFields::sweepsKeepTheTablesSweepFigures() {
    const RunSummary run = everyFigureSet();
    const SweepFigures kept = figuresOf(run);
    const SweepFigures readBack = figuresOf(runSummaryObject(run));
    std::vector<std::string> mapped{"slowdown"}, counts;
    std::set<std::string_view> fields;
    for (const SweepFigure& figure : sweepFigureTable()) {
        QVERIFY2(fields.insert(figure.field).second, figure.field.data());
        const double number = figureNumber(summaryFieldNamed(figure.field), run);
        QVERIFY2(!std::isnan(number) && number != 0, figure.field.data()); // everyFigureSet() sets it
        QCOMPARE(kept.value(figure.field), number);
        QCOMPARE(readBack.value(figure.field), number);
        (figure.mapped ? mapped : counts).emplace_back(figure.column);
    }
    QVERIFY_THROWS_EXCEPTION(std::logic_error, kept.value("hits")); // the table has it, sweeps do not

    std::vector<std::string> metrics;
    for (const SweepMetric& metric : sweepMetrics())
        metrics.emplace_back(metric.key);
    QCOMPARE(metrics, mapped);

    // The CSV's header: the cell and its policy, the maps' figures, the noise, the counts, the error.
    std::vector<std::string> columns{"cell", "policy", "baseline"};
    columns.insert(columns.end(), mapped.begin(), mapped.end());
    columns.emplace_back("vs_baseline");
    columns.insert(columns.end(), counts.begin(), counts.end());
    columns.emplace_back("error");
    const std::string csv = sweepCsv(SweepResults{});
    std::vector<std::string> header;
    std::istringstream line(csv.substr(0, csv.find('\n')));
    for (std::string column; std::getline(line, column, ',');)
        header.push_back(column);
    QCOMPARE(header, columns);
}

// The exports' summary table (the window's summary panel) shows exactly the figures the table flags
// kInExport: a figure it shows that is not flagged, or a flagged one it leaves out, fails here. An
// observed run beside its model, as an import's export shows them; and the branches the first pair
// leaves out: the kernel capture's reads, known wait times and EXPLAIN's prefetch figures, a run that
// stopped without an error.
void TestSummaryFields::exportsShowTheTablesExportFigures() {
    RunSummary model = everyFigureSet();
    RunSummary other = model;
    other.pageCacheThresholdNs.reset();
    other.pageCacheBasis = kKernelCaptureSourceBasis;
    other.waitTimeUnknown = false;
    other.explainIo.prefetchKnown = true;
    other.error.clear();
    const auto observedOf = [](RunSummary run) {
        run.policy = "observed";
        return run;
    };
    using Pair = std::pair<RunSummary, RunSummary>;
    const std::vector<Pair> bases{{observedOf(model), model}, {observedOf(other), other}};
    const auto table = [](const Pair& runs) {
        QString text;
        for (const SummaryRow& row : summaryRows({&runs.first, &runs.second}))
            text += row.label + QLatin1Char(':') +
                    QStringList(row.values.begin(), row.values.end()).join('|') + QLatin1Char('\n');
        return text;
    };
    // Each figure changed in both runs, as in both columns.
    const std::function<void(Pair&, FieldSlot(*)(RunSummary&))> nudge = [](Pair& runs, auto slot) {
        std::visit(Nudge{}, slot(runs.first));
        std::visit(Nudge{}, slot(runs.second));
    };
    const QString missed = differences(
        printedFigures(bases, std::function<QString(const Pair&)>(table), nudge), flagged(kInExport, false));
    QVERIFY2(missed.isEmpty(), qPrintable(missed));
    // A derived figure flagged is printed in its own format.
    const QString shown = table(bases.front());
    for (const QString& derived : flagged(kInExport, true))
        QVERIFY2(shown.contains(figureText(model, derived.toStdString())), qPrintable(derived));
}

// The import summary prints exactly the figures the tables flag kInImport: the run's of the summary
// fields' table, and every one of the trace's own (observed_fields.h). Observed runs that take each
// branch: reads told apart at a threshold, waits without their time; reads not told apart, waits not
// in the trace; all of one kind, waits with their time, EXPLAIN's prefetch figures.
void TestSummaryFields::importSummaryPrintsTheTablesImportFigures() {
    ObservedSummary split;
    split.run = everyFigureSet();
    split.run.policy = "observed";
    split.source = "strace";
    split.relation = "base/5/16384";
    split.deviceTimeNs = 41'000'000;
    split.megabytesPerSecond = 38.5;
    split.meanReadBlocks = 1.04;
    split.combinable = {3, 5};
    split.readsByProcess = {{101, 200}, {102, 40}};
    ObservedSummary unknown = split;
    unknown.run.pageCacheKnown = false;
    unknown.run.waitsUnknown = true;
    ObservedSummary timed = split;
    timed.run.pageCacheThresholdNs.reset();
    timed.run.waitTimeUnknown = false;
    timed.run.explainIo.prefetchKnown = true;
    const std::vector<ObservedSummary> bases{split, unknown, timed};
    const std::function<QString(const ObservedSummary&)> print = [](const ObservedSummary& o) {
        return QString::fromStdString(describeObserved(o));
    };
    const std::function<void(ObservedSummary&, FieldSlot(*)(RunSummary&))> nudge =
        [](ObservedSummary& o, auto slot) { std::visit(Nudge{}, slot(o.run)); };
    const QString missed = differences(printedFigures(bases, print, nudge), flagged(kInImport, false));
    QVERIFY2(missed.isEmpty(), qPrintable(missed));
    QVERIFY(flagged(kInImport, true).isEmpty());

    // The trace's own figures: each flagged, each printed, none named as a run's figure.
    for (const ObservedField& field : observedFieldTable()) {
        QVERIFY2(field.has(kInImport), field.name.data());
        ObservedSummary nudged = split;
        std::visit(Nudge{}, field.slot(nudged));
        QVERIFY2(print(nudged) != print(split), field.name.data());
        QCOMPARE(observedFieldNamed(field.name), &field);
    }
}

// A nested loop's inner scan: 4 rows of 40 uncached blocks three apart, a reset between two rows. The
// resets, the distance each starts again at (1 in PostgreSQL 19, the distance before it where it is
// restored) and the buffers handed out after each row's end are the run's events' own; the text,
// the panel and the JSON say them, and say nothing of resets for a run without one.
void TestSummaryFields::resetFiguresOfARunThatRescans() {
    QTemporaryDir dir;
    const QString list = dir.filePath(QStringLiteral("rescans.txt"));
    QFile file(list);
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (std::uint32_t row = 0; row < 4; ++row) {
        if (row > 0)
            file.write("reset\n");
        for (std::uint32_t visit = 0; visit < 40; ++visit)
            file.write(QByteArray::number(row * 1000 + 3 * visit) + '\n');
    }
    file.close();
    double restoredMean = 0.0;
    for (const bool restore : {false, true}) {
        RunConfig config;
        config.blockList = list.toStdString();
        config.relationBlocks = 5000;
        config.stream.restoreAfterReset = restore;
        ResetEvents events;
        RunCallbacks callbacks;
        callbacks.sinks = {&events};
        const RunSummary s = runScan(config, "pg19", callbacks);
        QCOMPARE(s.resets, 3ull);
        QCOMPARE(events.afterReset.size(), std::size_t(3));
        double sum = 0.0;
        for (const std::uint16_t distance : events.afterReset)
            sum += distance;
        QVERIFY(s.distanceAfterResetMean);
        QCOMPARE(*s.distanceAfterResetMean, sum / 3.0);
        if (!restore)
            QCOMPARE(*s.distanceAfterResetMean, 1.0); // read_stream_reset()'s rule
        else
            restoredMean = *s.distanceAfterResetMean;
        QCOMPARE(s.blocksAfterEnd, events.atZero);
        QVERIFY(s.blocksAfterEnd >= 4); // every row's last buffer at least
        const double ahead = figureNumber(summaryFieldNamed("distance_mean_ahead"), s);
        QCOMPARE(ahead, s.distanceMean * 160.0 / static_cast<double>(160 - s.blocksAfterEnd));

        const QString text = QString::fromStdString(describeRun("inner", s));
        QVERIFY2(text.contains(QStringLiteral("resets (rescans) 3: the distance after a reset %1 on average")
                                   .arg(*s.distanceAfterResetMean, 0, 'f', 2)),
                 qPrintable(text));
        QCOMPARE(panelValue(s, QStringLiteral("Resets (rescans)")), QStringLiteral("3"));
        QCOMPARE(panelValue(s, QStringLiteral("Blocks after their scan's end")),
                 QStringLiteral("%1 blocks").arg(s.blocksAfterEnd));
        QCOMPARE(panelValue(s, QStringLiteral("Distance after a reset (mean)")),
                 QStringLiteral("%1 blocks").arg(*s.distanceAfterResetMean, 0, 'f', 2));
        QVERIFY(
            panelValue(s, QStringLiteral("Mean distance")).endsWith(QStringLiteral(" while looking ahead")));
        const QJsonObject json = runSummaryObject(s);
        QCOMPARE(json.value(QStringLiteral("resets")).toInteger(), 3);
        QCOMPARE(json.value(QStringLiteral("distance_after_reset_mean")).toDouble(),
                 *s.distanceAfterResetMean);
    }
    QVERIFY(restoredMean > 1.0); // the rows ramp up and the reset gives their distance back

    // The same visits in one scan: no reset, no reset figures.
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (std::uint32_t visit = 0; visit < 160; ++visit)
        file.write(QByteArray::number(3 * visit) + '\n');
    file.close();
    RunConfig config;
    config.blockList = list.toStdString();
    config.relationBlocks = 5000;
    const RunSummary s = runScan(config, "pg19", {});
    QCOMPARE(s.resets, 0ull);
    QVERIFY(!s.distanceAfterResetMean);
    QVERIFY(!QString::fromStdString(describeRun("scan", s)).contains(QStringLiteral("reset")));
    QVERIFY(panelValue(s, QStringLiteral("Resets (rescans)")).isNull());
    QVERIFY(panelValue(s, QStringLiteral("Distance after a reset (mean)")).isNull());
    QVERIFY(panelValue(s, QStringLiteral("Blocks after their scan's end")).isNull());
    QVERIFY(!panelValue(s, QStringLiteral("Mean distance")).contains(QStringLiteral("looking ahead")));
    QVERIFY(!runSummaryObject(s).contains(QStringLiteral("distance_after_reset_mean")));
}

QTEST_GUILESS_MAIN(TestSummaryFields)
#include "tst_summary_fields.moc"
