// SPDX-License-Identifier: GPL-3.0-or-later
// The plot model without widgets: pixel/value mappings, bucket reduction, per-pixel binning, tooltips.
#include "axis_map.h"
#include "figure_text.h"
#include "hit_miss_raster.h"
#include "io_size_scatter.h"
#include "number_text.h"
#include "registry.h"
#include "request_raster.h"
#include "run.h"
#include "run_trace.h"
#include "series_columns.h"
#include "summary_rows.h"
#include "tooltips.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <span>

using namespace la;

namespace {

// A synthetic run: position p is handed out at p * 1000 ns with distance `distance(p)`, a miss every
// `missEvery`-th block (waited for if `waitEvery` divides it too), and a read of `readBlocks` issued
// at every miss.
struct Synthetic {
    std::uint64_t positions = 100;
    int missEvery = 4;
    int waitEvery = 8;
    int readBlocks = 4;
    std::uint16_t (*distance)(std::uint64_t) = [](std::uint64_t p) {
        return static_cast<std::uint16_t>(p % 7 + 1);
    };

    std::vector<Event> events() const {
        std::vector<Event> out;
        for (std::uint64_t p = 0; p < positions; ++p) {
            const bool miss = p % static_cast<std::uint64_t>(missEvery) == 0;
            if (miss) {
                Event read;
                read.kind = EventKind::ReadStarted;
                read.time_ns = static_cast<std::int64_t>(p * 1000);
                read.position = static_cast<std::uint32_t>(p);
                read.block = static_cast<std::uint32_t>(p);
                read.nblocks = static_cast<std::uint8_t>(readBlocks);
                out.push_back(read);
            }
            Event consumed;
            consumed.kind = EventKind::Consumed;
            consumed.time_ns = static_cast<std::int64_t>(p * 1000 + 500);
            consumed.position = static_cast<std::uint32_t>(p);
            consumed.block = static_cast<std::uint32_t>(p);
            consumed.distance = distance(p);
            consumed.pinned = 3;
            consumed.in_flight = 1;
            consumed.flags = static_cast<std::uint8_t>(
                (miss ? event_flag::miss : 0) |
                (miss && p % static_cast<std::uint64_t>(waitEvery) == 0 ? event_flag::waited : 0));
            out.push_back(consumed);
        }
        Event end;
        end.kind = EventKind::EndOfStream;
        end.time_ns = static_cast<std::int64_t>(positions * 1000 + 500);
        out.push_back(end);
        return out;
    }

    RunTrace trace(std::size_t capacity = std::size_t(1) << 20) const {
        RunTrace t("test", RunLimits{94, 16}, capacity);
        const std::vector<Event> e = events();
        t.append(e);
        return t;
    }
};

Polyline reduce(const RunTrace& trace, XAxis mode, StateSeries series, const AxisMap& map) {
    SeriesColumns columns;
    if (!columns.update(trace, SeriesColumns::Key{mode, map}, UINT64_MAX))
        return {};
    return columns.polyline(series);
}

// The first run's value in the summary row labelled `label`; empty where there is no such row.
QString firstValue(const std::vector<SummaryRow>& rows, const QString& label) {
    for (const SummaryRow& r : rows)
        if (r.label == label)
            return r.values[0];
    return QString();
}

// 4,096 blocks of alternating hits and misses: pg18 collapses on them.
RunConfig collapsingRun() {
    RunConfig config;
    config.dataset.name = "alternating";
    config.dataset.blocks = 4096;
    return config;
}

} // namespace

class TestGuiModel : public QObject {
    Q_OBJECT
private slots:
    void axisMap_data();
    void axisMap();
    void bucketsMergeKeepMinMaxAndCounts_data();
    void bucketsMergeKeepMinMaxAndCounts();
    void timePositionMapping_data();
    void timePositionMapping();
    void positionsInXCoversPixel();
    void reducedSeriesExactWhenZoomedIn();
    void reducedSeriesPerColumnWhenZoomedOut_data();
    void reducedSeriesPerColumnWhenZoomedOut();
    void seriesColumnsGrowWithTheRun();
    void positionWalkerMatchesMapping_data();
    void positionWalkerMatchesMapping();
    void hitMissValue_data();
    void hitMissValue();
    void hitMissRasterCountsEveryPosition();
    void hitMissRasterProgressiveEqualsOneShot();
    void hitMissRasterZoomedInFillsColumns();
    void reductionsFoldWhenTheLiveAxisDoubles();
    void requestRasterPaintsReadSpans();
    void ioSizeScatterOnePointPerSizeAndColumn();
    void tooltipsDescribeThePixel();
    void spilledTraceReadsBackExactly();
    void unwritableSpillKeepsColumnsInMemory();
    void realRunFeedsTrace();
    void collapsesAppearWhileRunning();
    void pinLimitIsTheRingsOnceKnown();
    void summaryRowsFormatNumbers();
    void durationSpansTellTheirEndsApart();
    void explainRowsSayWherePostgresPrintsThem();
};

void TestGuiModel::axisMap_data() {
    QTest::addColumn<AxisMap>("map");
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("cell"); // the cell holding it
    QTest::newRow("min") << AxisMap{0.0, 100.0, 10} << 0.0 << 0;
    QTest::newRow("half") << AxisMap{0.0, 100.0, 10} << 50.0 << 5;
    QTest::newRow("just below max") << AxisMap{0.0, 100.0, 10} << 99.999 << 9;
    QTest::newRow("max is outside") << AxisMap{0.0, 100.0, 10} << 100.0 << 10;
    QTest::newRow("left of range") << AxisMap{0.0, 100.0, 10} << -0.5 << -1;
    QTest::newRow("zoomed min") << AxisMap{1e6, 1e6 + 16, 1600} << 1e6 << 0;
    QTest::newRow("zoomed half") << AxisMap{1e6, 1e6 + 16, 1600} << 1e6 + 8 << 800;
    QTest::newRow("zoomed last") << AxisMap{1e6, 1e6 + 16, 1600} << 1e6 + 15.995 << 1599;
    QTest::newRow("time seconds") << AxisMap{0.0, 2.5, 1000} << 1.25 << 500;
}

void TestGuiModel::axisMap() {
    QFETCH(AxisMap, map);
    QFETCH(double, value);
    QFETCH(int, cell);
    QVERIFY(map.valid());
    QCOMPARE(map.cellOf(value), cell);
    if (cell >= 0 && cell < map.cells) {
        QVERIFY(map.cellStart(cell) <= value);
        QVERIFY(map.cellStart(cell + 1) > value);
        QCOMPARE(map.cellOf(map.cellCentre(cell)), cell);
    }
}

void TestGuiModel::bucketsMergeKeepMinMaxAndCounts_data() {
    QTest::addColumn<int>("capacity");
    QTest::addColumn<int>("positions");
    QTest::addColumn<int>("width");
    QTest::newRow("fits: exact") << 64 << 64 << 1;
    QTest::newRow("one merge") << 64 << 65 << 2;
    QTest::newRow("three merges") << 8 << 60 << 8;
    QTest::newRow("odd capacity rounds down") << 9 << 17 << 4;
    QTest::newRow("long run") << 1024 << 100'000 << 128;
}

void TestGuiModel::bucketsMergeKeepMinMaxAndCounts() {
    QFETCH(int, capacity);
    QFETCH(int, positions);
    QFETCH(int, width);
    Synthetic s;
    s.positions = static_cast<std::uint64_t>(positions);
    const RunTrace trace = s.trace(static_cast<std::size_t>(capacity));
    const StateBuckets& b = trace.state();
    QCOMPARE(b.positions(), std::uint64_t(positions));
    QCOMPARE(b.width(), std::uint64_t(width));
    QVERIFY(b.size() <= static_cast<std::size_t>(capacity));
    // Every bucket holds exactly the min/max and counts of its positions.
    for (std::size_t bucket = 0; bucket < b.size(); ++bucket) {
        std::uint16_t lo = UINT16_MAX, hi = 0;
        std::uint64_t misses = 0;
        for (std::uint64_t p = b.bucketStart(bucket);
             p < std::min<std::uint64_t>(b.bucketStart(bucket + 1), positions); ++p) {
            lo = std::min(lo, s.distance(p));
            hi = std::max(hi, s.distance(p));
            misses += p % 4 == 0;
        }
        QCOMPARE(b.lo(StateSeries::Distance, bucket), lo);
        QCOMPARE(b.hi(StateSeries::Distance, bucket), hi);
        QCOMPARE(b.span(bucket, bucket + 1).misses, misses);
        QCOMPARE(b.misses(bucket, bucket + 1), misses);
        QCOMPARE(b.misses(0, bucket + 1), b.span(0, bucket + 1).misses);
        QCOMPARE(b.firstTime(bucket), static_cast<std::int64_t>(b.bucketStart(bucket) * 1000 + 500));
    }
    QCOMPARE(b.span(0, b.size()).misses, std::uint64_t((positions + 3) / 4));
    QCOMPARE(b.misses(0, b.size()), std::uint64_t((positions + 3) / 4));
    QCOMPARE(b.maxValue(StateSeries::Distance), std::uint16_t(std::min(positions, 7)));
}

void TestGuiModel::timePositionMapping_data() {
    QTest::addColumn<int>("capacity");
    QTest::addColumn<double>("position");
    QTest::addColumn<double>("timeNs");
    QTest::newRow("first") << 1 << 0.0 << 500.0;
    QTest::newRow("exact 10") << 1 << 10.0 << 10'500.0;
    QTest::newRow("half way") << 1 << 10.5 << 11'000.0;
    QTest::newRow("last position") << 1 << 99.0 << 99'500.0;
    QTest::newRow("end of trace") << 1 << 100.0 << 100'500.0;
    QTest::newRow("merged bucket start") << 16 << 32.0 << 32'500.0;
    QTest::newRow("merged bucket middle") << 16 << 36.0 << 36'500.0;
}

void TestGuiModel::timePositionMapping() {
    QFETCH(int, capacity);
    QFETCH(double, position);
    QFETCH(double, timeNs);
    Synthetic s;
    const RunTrace trace = s.trace(capacity == 1 ? std::size_t(1) << 20 : static_cast<std::size_t>(capacity));
    QCOMPARE(trace.timeNsAt(position), timeNs);
    QVERIFY(std::fabs(trace.positionAtTimeNs(timeNs) - position) < 1e-9);
    QCOMPARE(xOfPosition(trace, XAxis::Time, position), timeNs / 1e9);
    QCOMPARE(xOfPosition(trace, XAxis::Position, position), position);
    QVERIFY(std::fabs(positionAtX(trace, XAxis::Time, timeNs / 1e9) - position) < 1e-6);
}

void TestGuiModel::positionsInXCoversPixel() {
    const RunTrace trace = Synthetic{}.trace();
    // One pixel inside position 10's time extent: exactly position 10.
    IndexRange range = positionsInX(trace, XAxis::Time, 10'600e-9, 10'700e-9);
    QCOMPARE(range.first, std::uint64_t(10));
    QCOMPARE(range.end, std::uint64_t(11));
    range = positionsInX(trace, XAxis::Position, 10.0, 20.0);
    QCOMPARE(range.first, std::uint64_t(10));
    QCOMPARE(range.end, std::uint64_t(20));
    range = positionsInX(trace, XAxis::Position, -5.0, 1e9);
    QCOMPARE(range.first, std::uint64_t(0));
    QCOMPARE(range.end, std::uint64_t(100));
}

void TestGuiModel::reducedSeriesExactWhenZoomedIn() {
    const RunTrace trace = Synthetic{}.trace();
    // 10 positions over 1000 pixels: a step per position, value as sampled.
    const Polyline line = reduce(trace, XAxis::Position, StateSeries::Distance, AxisMap{20.0, 30.0, 1000});
    QVERIFY(line.size() >= 20);
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (i > 0)
            QVERIFY(line.x[i] >= line.x[i - 1]);
        const double p = line.x[i];
        if (p >= 20.0 && p < 30.0 && (i + 1 < line.size() && line.x[i + 1] > p))
            QCOMPARE(line.y[i], static_cast<double>(static_cast<std::uint64_t>(p) % 7 + 1));
    }
}

void TestGuiModel::reducedSeriesPerColumnWhenZoomedOut_data() {
    QTest::addColumn<int>("columns");
    QTest::newRow("100 columns") << 100;
    QTest::newRow("7 columns") << 7;
    QTest::newRow("1 column") << 1;
}

void TestGuiModel::reducedSeriesPerColumnWhenZoomedOut() {
    QFETCH(int, columns);
    Synthetic s;
    s.positions = 100'000;
    const RunTrace trace = s.trace();
    const AxisMap map{0.0, 100'000.0, columns};
    const Polyline line = reduce(trace, XAxis::Position, StateSeries::Distance, map);
    QVERIFY2(line.size() <= static_cast<std::size_t>(3 * columns + 3),
             qPrintable(QString::number(line.size())));
    // Every column's stroke reaches the full 1..7 range of the data under it.
    for (int c = 0; c < columns; ++c) {
        double lo = 1e9, hi = -1e9;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line.x[i] == map.cellStart(c)) {
                lo = std::min(lo, line.y[i]);
                hi = std::max(hi, line.y[i]);
            }
        }
        QCOMPARE(lo, 1.0);
        QCOMPARE(hi, 7.0);
    }
}

void TestGuiModel::seriesColumnsGrowWithTheRun() {
    // Binned while the run grows (and its buckets merge) = binned once at the end.
    Synthetic s;
    s.positions = 3'000;
    const std::vector<Event> events = s.events();
    RunTrace growing("live", {}, 64);
    const SeriesColumns::Key key{XAxis::Position, AxisMap{0.0, 3'000.0, 50}};
    SeriesColumns live;
    for (std::size_t i = 0; i < events.size(); i += 97) {
        growing.append(
            std::span<const Event>(events).subspan(i, std::min<std::size_t>(97, events.size() - i)));
        live.update(growing, key, 5);
    }
    while (!live.update(growing, key, 5)) {
    }
    SeriesColumns once;
    QVERIFY(once.update(s.trace(64), key, UINT64_MAX));
    for (std::size_t series = 0; series < kStateSeriesCount; ++series) {
        const Polyline a = live.polyline(static_cast<StateSeries>(series));
        const Polyline b = once.polyline(static_cast<StateSeries>(series));
        QCOMPARE(a.x, b.x);
        QCOMPARE(a.y, b.y);
    }
}

void TestGuiModel::positionWalkerMatchesMapping_data() {
    QTest::addColumn<int>("capacity");
    QTest::addColumn<int>("mode");
    QTest::newRow("time, exact") << (1 << 20) << int(XAxis::Time);
    QTest::newRow("time, merged buckets") << 16 << int(XAxis::Time);
    QTest::newRow("position") << 16 << int(XAxis::Position);
}

void TestGuiModel::positionWalkerMatchesMapping() {
    QFETCH(int, capacity);
    QFETCH(int, mode);
    const RunTrace trace = Synthetic{}.trace(static_cast<std::size_t>(capacity));
    const auto axis = static_cast<XAxis>(mode);
    PositionWalker walker(trace, axis, 3);
    QVERIFY(trace.positions() > 4);
    for (std::uint64_t p = 3; p < trace.positions(); ++p) {
        QCOMPARE(walker.position(), p);
        QVERIFY(std::fabs(walker.x() - xOfPosition(trace, axis, static_cast<double>(p))) < 1e-12);
        const double next = walker.advance();
        QVERIFY(std::fabs(next - xOfPosition(trace, axis, static_cast<double>(p + 1))) < 1e-12);
    }
}

void TestGuiModel::hitMissValue_data() {
    QTest::addColumn<int>("blocks");
    QTest::addColumn<int>("misses");
    QTest::addColumn<int>("waits");
    QTest::addColumn<double>("value");
    QTest::newRow("empty") << 0 << 0 << 0 << std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("all hits") << 10 << 0 << 0 << 0.0;
    QTest::newRow("half misses") << 10 << 5 << 0 << 0.5;
    QTest::newRow("all misses, no wait") << 10 << 10 << 0 << 1.0;
    QTest::newRow("half the misses waited") << 10 << 4 << 2 << 1.5;
    QTest::newRow("every miss waited") << 10 << 5 << 5 << 2.0;
}

void TestGuiModel::hitMissValue() {
    QFETCH(int, blocks);
    QFETCH(int, misses);
    QFETCH(int, waits);
    QFETCH(double, value);
    const HitMissCell cell{static_cast<std::uint32_t>(blocks), static_cast<std::uint32_t>(misses),
                           static_cast<std::uint32_t>(waits)};
    if (std::isnan(value))
        QVERIFY(std::isnan(la::hitMissValue(cell)));
    else
        QCOMPARE(la::hitMissValue(cell), value);
}

void TestGuiModel::hitMissRasterCountsEveryPosition() {
    Synthetic s;
    s.positions = 10'000;
    const RunTrace trace = s.trace();
    const RasterKey key{XAxis::Time, AxisMap{0.0, 10'000'500e-9, 50}, AxisMap{0.0, 10'000.0, 20}};
    HitMissRaster raster;
    QVERIFY(raster.update(trace, key, UINT64_MAX));
    std::uint64_t blocks = 0, misses = 0, waits = 0;
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 50; ++x) {
            blocks += raster.cells().at(x, y).blocks;
            misses += raster.cells().at(x, y).misses;
            waits += raster.cells().at(x, y).waits;
        }
    QCOMPARE(blocks, std::uint64_t(10'000));
    QCOMPARE(misses, std::uint64_t(2'500));
    QCOMPARE(waits, std::uint64_t(1'250));
    // Block p is consumed at position p: a diagonal, so only cells near it are filled.
    QVERIFY(raster.cells().at(0, 0).blocks > 0);
    QCOMPARE(raster.cells().at(0, 19).blocks, 0u);
}

void TestGuiModel::hitMissRasterProgressiveEqualsOneShot() {
    Synthetic s;
    s.positions = 5'000;
    const RunTrace trace = s.trace();
    const RasterKey key{XAxis::Position, AxisMap{100.0, 4'000.0, 37}, AxisMap{0.0, 5'000.0, 11}};
    HitMissRaster once;
    QVERIFY(once.update(trace, key, UINT64_MAX));
    HitMissRaster steps;
    int calls = 1;
    while (!steps.update(trace, key, 97))
        ++calls;
    QVERIFY(calls > 10);
    for (int y = 0; y < 11; ++y)
        for (int x = 0; x < 37; ++x)
            QCOMPARE(steps.cells().at(x, y).blocks, once.cells().at(x, y).blocks);
    // A new key starts over.
    const RasterKey other{XAxis::Position, AxisMap{0.0, 5'000.0, 5}, AxisMap{0.0, 5'000.0, 5}};
    QVERIFY(steps.update(trace, other, UINT64_MAX));
    QCOMPARE(steps.cells().nx(), 5);
}

// A live run's axes double as it grows: what was binned folds into the wider grid, so only the new
// positions and reads are binned (one budget of exactly that much completes it), and the result is the
// one binning the whole run for the wider grid gives.
void TestGuiModel::reductionsFoldWhenTheLiveAxisDoubles() {
    Synthetic s;
    s.positions = 16'000;
    const std::vector<Event> events = s.events();
    const auto split =
        std::find_if(events.begin(), events.end(), [](const Event& e) { return e.position >= 4'000; });
    RunTrace trace("test", RunLimits{94, 16});
    trace.append(std::span<const Event>(events.begin(), split));
    const RasterKey before{XAxis::Position, AxisMap{0.0, 4'096.0, 64}, AxisMap{0.0, 4'096.0, 16}};
    const RasterKey after{XAxis::Position, AxisMap{0.0, 16'384.0, 64}, AxisMap{0.0, 16'384.0, 16}};
    // The reductions a raster key bins, each brought up to date within its budget: positions for the
    // hit/miss raster, reads for the request raster and the size scatter.
    struct Rasters {
        HitMissRaster hitMiss;
        RequestRaster requests;
        IoSizeScatter sizes;
        void update(const RunTrace& run, const RasterKey& key, std::uint64_t positions, std::uint64_t reads) {
            QVERIFY(hitMiss.update(run, key, positions));
            QVERIFY(requests.update(run, key, reads));
            QVERIFY(sizes.update(run, ColumnKey{key.mode, key.x}, reads));
        }
    };
    Rasters folded;
    SeriesColumns series;
    folded.update(trace, before, UINT64_MAX, UINT64_MAX);
    QVERIFY(series.update(trace, ColumnKey{before.mode, before.x}, UINT64_MAX));
    trace.append(std::span<const Event>(split, events.end()));
    // 12,000 new positions, 3,000 new reads (one bucket a position: the run is short).
    folded.update(trace, after, 12'000, 3'000);
    QVERIFY(series.update(trace, ColumnKey{after.mode, after.x}, 12'001)); // and the last bucket again

    Rasters once;
    once.update(trace, after, UINT64_MAX, UINT64_MAX);
    QVERIFY(!QTest::currentTestFailed());
    for (int y = 0; y < 16; ++y) {
        for (int x = 0; x < 64; ++x) {
            QCOMPARE(folded.hitMiss.cells().at(x, y).blocks, once.hitMiss.cells().at(x, y).blocks);
            QCOMPARE(folded.hitMiss.cells().at(x, y).misses, once.hitMiss.cells().at(x, y).misses);
            QCOMPARE(folded.hitMiss.cells().at(x, y).waits, once.hitMiss.cells().at(x, y).waits);
            QCOMPARE(folded.requests.cells().at(x, y), once.requests.cells().at(x, y));
        }
    }
    QCOMPARE(folded.hitMiss.cells().at(0, 0).blocks, 256u); // a column is 256 positions, on blocks 0-255
    QCOMPARE(folded.sizes.points().size(), once.sizes.points().size());
    const Polyline distance = series.polyline(StateSeries::Distance);
    const Polyline distanceOnce = reduce(trace, XAxis::Position, StateSeries::Distance, after.x);
    QCOMPARE(distance.x, distanceOnce.x);
    QCOMPARE(distance.y, distanceOnce.y);
}

void TestGuiModel::hitMissRasterZoomedInFillsColumns() {
    const RunTrace trace = Synthetic{}.trace();
    // 4 positions over 100 columns and 4 blocks over 8 rows: each position fills 25 columns × 2 rows.
    const RasterKey key{XAxis::Position, AxisMap{10.0, 14.0, 100}, AxisMap{10.0, 14.0, 8}};
    HitMissRaster raster;
    QVERIFY(raster.update(trace, key, UINT64_MAX));
    int filled = 0;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 100; ++x)
            filled += raster.cells().at(x, y).blocks > 0;
    QCOMPARE(filled, 4 * 25 * 2);
    QCOMPARE(raster.cells().at(0, 0).blocks, 1u);
    QCOMPARE(raster.cells().at(99, 7).blocks, 1u);
    QCOMPARE(raster.cells().at(0, 7).blocks, 0u);
}

void TestGuiModel::requestRasterPaintsReadSpans() {
    Synthetic s;
    s.readBlocks = 16;
    const RunTrace trace = s.trace();
    // Position axis 0..100 in 100 columns, blocks 0..128 in 128 rows: the read at position 8 covers
    // rows 8..23.
    const RasterKey key{XAxis::Position, AxisMap{0.0, 100.0, 100}, AxisMap{0.0, 128.0, 128}};
    RequestRaster raster;
    QVERIFY(raster.update(trace, key, UINT64_MAX));
    for (int y = 0; y < 128; ++y)
        QCOMPARE(raster.cells().at(8, y), std::uint8_t(y >= 8 && y < 24 ? 16 : 0));
    QCOMPARE(raster.cells().at(9, 10), std::uint8_t(0));
    const IndexRange reads = readsInX(trace, XAxis::Position, 8.0, 16.0);
    QCOMPARE(reads.end - reads.first, std::uint64_t(2));
}

void TestGuiModel::ioSizeScatterOnePointPerSizeAndColumn() {
    Synthetic s;
    s.positions = 1'000;
    const RunTrace trace = s.trace();
    IoSizeScatter scatter;
    QVERIFY(
        scatter.update(trace, IoSizeScatter::Key{XAxis::Position, AxisMap{0.0, 1'000.0, 10}}, UINT64_MAX));
    const auto points = scatter.points();
    QCOMPARE(points.size(), std::size_t(10));
    for (const auto& point : points)
        QCOMPARE(point.blocks, 4);
    QCOMPARE(trace.readSizeCounts()[4], std::uint64_t(250));
    QCOMPARE(trace.largestRead(), 4);
}

void TestGuiModel::tooltipsDescribeThePixel() {
    const RunTrace trace = Synthetic{}.trace();
    const QString one = stateTooltip(trace, XAxis::Position, 12.2, 12.3);
    QVERIFY2(one.contains(QStringLiteral("position 12")), qPrintable(one));
    QVERIFY2(one.contains(QStringLiteral("distance 6")), qPrintable(one));
    QVERIFY2(one.contains(QStringLiteral("pinned 3")), qPrintable(one));
    const QString many = stateTooltip(trace, XAxis::Position, 0.0, 50.0);
    QVERIFY2(many.contains(QStringLiteral("distance 1–7")), qPrintable(many));
    QVERIFY2(many.contains(QStringLiteral("13 misses, 7 waited")), qPrintable(many));
    const QString read = requestTooltip(trace, XAxis::Position, 8.0, 9.0, 9.0, 10.0);
    QVERIFY2(read.contains(QStringLiteral("blocks 8–11")), qPrintable(read));
    QVERIFY2(
        ioSizeTooltip(trace, XAxis::Position, 0.0, 10.0).contains(QStringLiteral("4 blocks (32 KiB) ×3")),
        qPrintable(ioSizeTooltip(trace, XAxis::Position, 0.0, 10.0)));
    QCOMPARE(collapseLabel(trace, {0, 15}), QStringLiteral("distance stuck at 1↔2 for 4 misses"));
}

// A long run's exact columns on disk read back as they were appended, in any order, and the views'
// rasters drawn from them are the in-memory trace's, cell for cell.
void TestGuiModel::spilledTraceReadsBackExactly() {
    Synthetic s;
    s.positions = 300'000; // 4.6 chunks of positions, 1.1 of reads
    s.readBlocks = 3;
    const std::vector<Event> events = s.events();
    RunTrace inMemory("memory", RunLimits{94, 16});
    inMemory.append(events);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    RunTrace spilled("spilled", RunLimits{94, 16});
    spilled.spillTo(dir.path().toStdString());
    // In uneven batches, as the worker posts them.
    for (std::size_t first = 0; first < events.size(); first += 7'919)
        spilled.append(std::span(events).subspan(first, std::min<std::size_t>(7'919, events.size() - first)));
    QVERIFY2(spilled.storageProblem().empty(), spilled.storageProblem().c_str());
    // 4 full chunks of blocks (4 B) and flags (1 B), 1 of each read column (8 + 4 + 4 + 1 B).
    QCOMPARE(spilled.spilledBytes(), std::uint64_t(65'536) * (4 * 5 + 17));
    QCOMPARE(spilled.positions(), inMemory.positions());
    QCOMPARE(spilled.reads(), inMemory.reads());

    std::vector<std::uint64_t> order(spilled.positions());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937_64(42));
    for (const std::uint64_t p : order)
        if (spilled.blockAt(p) != inMemory.blockAt(p) || spilled.flagsAt(p) != inMemory.flagsAt(p))
            QFAIL(qPrintable(QStringLiteral("position %1 differs").arg(p)));
    for (std::size_t r = 0; r < spilled.reads(); ++r) {
        const ReadRecord a = spilled.read(r);
        const ReadRecord b = inMemory.read(r);
        if (a.startNs != b.startNs || a.position != b.position || a.block != b.block ||
            a.nblocks != b.nblocks)
            QFAIL(qPrintable(QStringLiteral("read %1 differs").arg(r)));
    }
    // The search over chunk starts finds what a scan of every read finds.
    for (const double x : {-1.0, 0.0, 4.0, 262'143.0, 262'144.0, 262'145.0, 299'999.0, 1e9}) {
        std::size_t expected = 0;
        while (expected < inMemory.reads() && inMemory.readPosition(expected) < x)
            ++expected;
        QCOMPARE(firstReadAtX(spilled, XAxis::Position, x), expected);
        QCOMPARE(firstReadAtX(spilled, XAxis::Time, x * 1e-6), firstReadAtX(inMemory, XAxis::Time, x * 1e-6));
    }
    for (const RasterKey& key : {RasterKey{XAxis::Time, AxisMap{0.0, 0.3, 640}, AxisMap{0.0, 300'000.0, 200}},
                                 RasterKey{XAxis::Position, AxisMap{131'000.0, 131'100.0, 300},
                                           AxisMap{131'000.0, 131'100.0, 50}}}) {
        HitMissRaster a, b;
        QVERIFY(a.update(spilled, key, UINT64_MAX));
        QVERIFY(b.update(inMemory, key, UINT64_MAX));
        RequestRaster ra, rb;
        QVERIFY(ra.update(spilled, key, UINT64_MAX));
        QVERIFY(rb.update(inMemory, key, UINT64_MAX));
        for (int y = 0; y < key.y.cells; ++y)
            for (int x = 0; x < key.x.cells; ++x) {
                QCOMPARE(a.cells().at(x, y).blocks, b.cells().at(x, y).blocks);
                QCOMPARE(a.cells().at(x, y).misses, b.cells().at(x, y).misses);
                QCOMPARE(a.cells().at(x, y).waits, b.cells().at(x, y).waits);
                QCOMPARE(ra.cells().at(x, y), rb.cells().at(x, y));
            }
    }
}

// Where no spill file can be made, the columns stay in memory, exact, and the trace says why.
void TestGuiModel::unwritableSpillKeepsColumnsInMemory() {
    Synthetic s;
    s.positions = 140'000;
    RunTrace trace("no disk");
    trace.spillTo("/nonexistent/lookahead-spill");
    trace.append(s.events());
    QVERIFY(trace.storageProblem().find("/nonexistent/lookahead-spill") != std::string::npos);
    QCOMPARE(trace.spilledBytes(), std::uint64_t(0));
    QCOMPARE(trace.positions(), std::uint64_t(140'000));
    QCOMPARE(trace.blockAt(139'999), 139'999u);
    QCOMPARE(trace.flagsAt(65'536), std::uint8_t(event_flag::miss | event_flag::waited));
}

void TestGuiModel::realRunFeedsTrace() {
    const RunConfig config = collapsingRun();
    RunTrace trace("pg18");
    struct Sink : EventSink {
        RunTrace* trace;
        void onEvents(std::span<const Event> batch) override { trace->append(batch); }
    } sink;
    sink.trace = &trace;
    RunCallbacks callbacks;
    callbacks.sinks.push_back(&sink);
    const RunSummary summary = runScan(config, "pg18", callbacks);
    trace.setSummary(summary);
    QCOMPARE(trace.positions(), summary.blocks);
    QCOMPARE(trace.reads(), static_cast<std::size_t>(summary.ios));
    QCOMPARE(trace.state().span(0, trace.state().size()).misses, summary.misses);
    QCOMPARE(trace.state().span(0, trace.state().size()).waits, summary.waits);
    QCOMPARE(trace.endTimeNs(), summary.runtimeNs);
    QVERIFY(!summary.collapseIntervals.empty());
    QVERIFY(stateTooltip(trace, XAxis::Position, 2000.0, 2000.5).contains(QStringLiteral("in a collapse")));
}

// A sequential scan of a relation above a quarter of shared_buffers reads through the BULKREAD
// ring, which the run chooses once it knows the relation's size: the trace starts with the settings'
// limit and takes the ring's from the summary, which is the line the distance plot draws.
void TestGuiModel::pinLimitIsTheRingsOnceKnown() {
    RunConfig config;
    config.dataset.name = "seq";
    config.dataset.blocks = 20000;
    config.stream.sequentialFlag = true;
    config.stream.effectiveIoConcurrency = 16;
    config.poolBlocks = 16384;
    const StreamLimits settings =
        computeLimits(streamConfigFor(config), mechanicsFor("pg17", config.mechanics));
    RunTrace trace("pg17", RunLimits{settings.maxPinned, settings.ioCombineLimit});
    const RunSummary summary = runScan(config, "pg17", {});
    QCOMPARE(summary.strategy, std::string("BULKREAD"));
    QVERIFY2(summary.maxPinned < settings.maxPinned, qPrintable(QString::number(settings.maxPinned)));
    trace.setSummary(summary);
    QCOMPARE(trace.limits().maxPinned, summary.ringBuffers);
    QCOMPARE(trace.limits().ringBuffers, summary.ringBuffers);
    // An observed run has no limits of its own: its summary gives it none.
    RunTrace observed("observed");
    observed.setSummary(summary);
    QCOMPARE(observed.limits().maxPinned, 0);
}

// The trace gets only the kinds the views read (as the worker posts them) and finds the collapses
// while the run goes, by the summary's rule: the same intervals the summary reports at the end.
void TestGuiModel::collapsesAppearWhileRunning() {
    const RunConfig config = collapsingRun();
    RunTrace trace("pg18");
    struct Sink : EventSink {
        RunTrace* trace;
        std::vector<Event> viewed;
        std::size_t batches = 0;
        std::size_t batchesWithCollapse = 0;
        void onEvents(std::span<const Event> batch) override {
            viewed.clear();
            std::copy_if(batch.begin(), batch.end(), std::back_inserter(viewed),
                         [](const Event& e) { return isViewedEvent(e.kind); });
            trace->append(viewed);
            ++batches;
            batchesWithCollapse += trace->collapseCount() > 0;
        }
    } sink;
    sink.trace = &trace;
    RunCallbacks callbacks;
    callbacks.sinks.push_back(&sink);
    const RunSummary summary = runScan(config, "pg18", callbacks);
    QVERIFY(!trace.summary());
    QVERIFY2(sink.batches > 2, qPrintable(QString::number(sink.batches)));
    QVERIFY(sink.batchesWithCollapse > 0);
    QCOMPARE(trace.collapseCount(), summary.collapseIntervals.size());
    for (std::size_t i = 0; i < trace.collapseCount(); ++i)
        QCOMPARE(trace.collapse(i), summary.collapseIntervals[i]);
    QCOMPARE(trace.positions(), summary.blocks);
    QCOMPARE(trace.reads(), static_cast<std::size_t>(summary.ios));
    QCOMPARE(trace.endTimeNs(), summary.runtimeNs);
}

void TestGuiModel::summaryRowsFormatNumbers() {
    QCOMPARE(formatDuration(997e6), QStringLiteral("997 ms"));
    QCOMPARE(formatDuration(1.5e9), QStringLiteral("1.5 s"));
    QCOMPARE(formatDuration(12.25e3), QStringLiteral("12.3 µs"));
    QCOMPARE(formatDuration(125e9), QStringLiteral("2 min 5 s"));
    QCOMPARE(formatBytes(65536.0 * 8192.0), QStringLiteral("512 MiB"));
    QCOMPARE(formatBytes(8192.0), QStringLiteral("8 KiB"));
    QCOMPARE(formatBlocks(16), QStringLiteral("16 blocks (128 KiB)"));
    RunSummary s;
    s.policy = "pg18";
    s.blocks = 65536;
    s.hits = 32768;
    s.misses = 32768;
    s.ios = 32768;
    s.collapseIntervals = {{1, 65535}};
    const auto rows = summaryRows({&s, nullptr});
    bool sawBlocks = false, sawCollapse = false;
    for (const SummaryRow& row : rows) {
        QCOMPARE(row.values.size(), std::size_t(2));
        QCOMPARE(row.values[1], QStringLiteral("…"));
        sawBlocks = sawBlocks || row.values[0] == QStringLiteral("65,536 (32,768 / 32,768)");
        sawCollapse = sawCollapse || row.values[0] == QStringLiteral("1 (65,535 blocks)");
    }
    QVERIFY(sawBlocks);
    QVERIFY(sawCollapse);

    // An observed run's reads told apart by the page cache that served them; a model's are not.
    RunSummary observed;
    observed.policy = "observed";
    observed.pageCacheKnown = true;
    observed.pageCacheReads = 5210;
    observed.deviceReads = 851;
    observed.pageCacheThresholdNs = 18'250.0;
    RunSummary untimed = observed;
    untimed.pageCacheKnown = false;
    const auto pageCache = summaryRows({&observed, &s, &untimed});
    const auto row = std::find_if(pageCache.begin(), pageCache.end(), [](const SummaryRow& r) {
        return r.label == QStringLiteral("Reads (page cache / device)");
    });
    QVERIFY(row != pageCache.end());
    QCOMPARE(row->values[0], QStringLiteral("5,210 / 851 (split at 18.3 µs)"));
    QCOMPARE(row->values[1], QStringLiteral("–"));
    QCOMPARE(row->values[2], QStringLiteral("– (no read durations in the trace)"));

    // A repeated run (docs/repeats.md): the median repeat's figures with the range of all beside them.
    RunSummary repeated = s;
    for (const std::int64_t ms : {430, 398, 412}) {
        RunSummary repeat = s;
        repeat.runtimeNs = ms * 1'000'000;
        repeat.waits = static_cast<std::uint64_t>(ms / 2);
        repeated.repeats.push_back(repeat);
    }
    repeated.runtimeNs = 412'000'000;
    repeated.waits = 206;
    const auto spread = summaryRows({&repeated});
    const auto cell = [&spread](const QString& label) { return firstValue(spread, label); };
    QCOMPARE(cell(QStringLiteral("Run time")), QStringLiteral("median 412 ms (398 ms–430 ms)"));
    QVERIFY2(cell(QStringLiteral("Waits (time)")).startsWith(QStringLiteral("median 206 (199–215) (")),
             qPrintable(cell(QStringLiteral("Waits (time)"))));

    // The waits' median is not the median repeat's waits: the table shows the median, as the verdict
    // does (docs/repeats.md), and says so.
    RunSummary mixed = s;
    const std::pair<std::int64_t, std::uint64_t> repeats[] = {
        {100, 165}, {101, 141}, {102, 168}, {103, 177}, {104, 160}};
    for (const auto& [ms, waits] : repeats) {
        RunSummary repeat = s;
        repeat.runtimeNs = ms * 1'000'000;
        repeat.waits = waits;
        repeat.waitNs = static_cast<std::int64_t>(waits) * 100'000;
        mixed.repeats.push_back(repeat);
    }
    mixed.runtimeNs = 102'000'000; // the median repeat's
    mixed.waits = 168;
    mixed.waitNs = 16'800'000;
    const auto mixedRows = summaryRows({&mixed});
    const auto mixedCell = [&mixedRows](const QString& label) { return firstValue(mixedRows, label); };
    QCOMPARE(mixedCell(QStringLiteral("Waits (time)")), QStringLiteral("median 165 (141–177) (16.5 ms)"));
    QCOMPARE(medianText(mixed, "waits"), QStringLiteral("165"));
    mixed.repeats.pop_back(); // four: the median falls between two whole numbers
    QCOMPARE(medianText(mixed, "waits"), QStringLiteral("166.5"));
}

// A tooltip zoomed in far enough that two times agree to four digits still tells its ends apart: as
// many digits as it takes, in one unit, down to the nanosecond.
void TestGuiModel::durationSpansTellTheirEndsApart() {
    QCOMPARE(formatDurationSpan(403.21e6, 403.38e6), QStringLiteral("403.2 ms – 403.4 ms"));
    QCOMPARE(formatDurationSpan(403.21e6, 403.22e6), QStringLiteral("403.21 ms – 403.22 ms"));
    QCOMPARE(formatDurationSpan(403'000'001.0, 403'000'002.0),
             QStringLiteral("403.000001 ms – 403.000002 ms"));
    QCOMPARE(formatDurationSpan(1e9, 1.0001e9), QStringLiteral("1.0000 s – 1.0001 s"));
    QCOMPARE(formatDurationSpan(125e9, 125.2e9), QStringLiteral("2 min 5.0 s – 2 min 5.2 s"));
    QCOMPARE(formatDurationSpan(12e6, 300e6), QStringLiteral("12 ms – 300 ms"));
    QCOMPARE(formatDurationSpan(403.2e6, 403.2e6), QStringLiteral("403 ms"));
    // Always: any two times a nanosecond or more apart read differently.
    std::mt19937_64 random(46);
    for (int i = 0; i < 20'000; ++i) {
        const double from = std::uniform_real_distribution<double>(0.0, 200e9)(random);
        const double to = from + std::ldexp(1.0, std::uniform_int_distribution<int>(0, 30)(random));
        const QString text = formatDurationSpan(from, to);
        const QStringList ends = text.split(QStringLiteral(" – "));
        QVERIFY2(ends.size() == 2 && ends[0] != ends[1], qPrintable(text));
    }
}

void TestGuiModel::explainRowsSayWherePostgresPrintsThem() {
    // PostgreSQL 19 prints EXPLAIN (IO) for Seq, Bitmap Heap and TID Range scans only: a seq-like
    // run's rows say so, and an index scan's values are marked as what only the patch would print.
    RunSummary seq;
    seq.policy = "pg19";
    seq.explainIo.distanceCapacity = 272;
    seq.explainIo.countPrefetch(1);
    RunSummary index = seq;
    index.pgIndex = pg::IndexFacts{};
    int explainRows = 0;
    for (const SummaryRow& row : summaryRows({&seq})) {
        if (!row.label.startsWith(QStringLiteral("EXPLAIN (IO)")))
            continue;
        ++explainRows;
        QVERIFY2(row.note.contains(QStringLiteral("Seq Scan, Bitmap Heap Scan and TID Range Scan")),
                 qPrintable(row.note));
    }
    QCOMPARE(explainRows, 2);
    const auto rows = summaryRows({&seq, &index});
    const auto prefetch = std::find_if(rows.begin(), rows.end(), [](const SummaryRow& row) {
        return row.label == QStringLiteral("EXPLAIN (IO) Prefetch");
    });
    QVERIFY(prefetch != rows.end());
    QCOMPARE(prefetch->values[0], QStringLiteral("avg=1.00 max=1 capacity=272"));
    QCOMPARE(prefetch->values[1], QStringLiteral("avg=1.00 max=1 capacity=272 (index scan: patch only)"));
    QVERIFY2(prefetch->note.contains(QStringLiteral("index scan prints no such lines")),
             qPrintable(prefetch->note));
}

QTEST_GUILESS_MAIN(TestGuiModel)
#include "tst_gui_model.moc"
