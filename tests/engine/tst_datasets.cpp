// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset.h"
#include "input_error.h"
#include "vector_source.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

// After the engine's headers: Qt's `emit` macro would rename ReadStream::emit.
#include "data_rows.h"
#include "test_files.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>

using namespace la;

namespace {

std::vector<std::uint32_t> drain(BlockSource& source) {
    std::vector<std::uint32_t> blocks;
    for (SourceItem item = source.next(); item.step != SourceStep::End; item = source.next())
        if (item.step == SourceStep::Block)
            blocks.push_back(item.block);
    return blocks;
}

std::unique_ptr<BlockSource> make(const QString& name, double scale = 0.0, bool backward = false,
                                  std::uint64_t seed = 0, std::uint64_t blocks = 0) {
    DatasetRequest request;
    request.name = name.toStdString();
    request.scale = scale;
    request.seed = seed;
    request.direction = backward ? Direction::Backward : Direction::Forward;
    request.blocks = blocks;
    return makeDataset(request);
}

bool withinOnePercent(double actual, double expected) {
    return std::abs(actual - expected) <= 0.01 * std::abs(expected);
}

// Checks one statistic against the doc; -1 marks a column the doc's table does not give.
// A dataset's figures as docs/datasets.md publishes them; -1 where it gives none.
struct PublishedStats {
    qint64 visits, distinct, ascRuns, descRuns, ios16;
};

// A row of those figures: its name, the dataset and the direction of its scan, and the figures.
struct PublishedRow {
    const char* row;
    const char* name;
    bool backward;
    PublishedStats published;
};

void compareStat(const char* what, std::uint64_t actual, qint64 expected) {
    if (expected < 0)
        return;
    QVERIFY2(
        withinOnePercent(static_cast<double>(actual), static_cast<double>(expected)),
        qPrintable(
            QStringLiteral("%1: measured %2, doc %3").arg(QLatin1String(what)).arg(actual).arg(expected)));
}

// The InputError message `action` throws (empty if it does not throw).
template <typename Action> QString inputErrorOf(Action action) {
    try {
        action();
    } catch (const InputError& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

// A source that asks for a reset half-way, as index-scan rescans do; statistics skip the Reset item.
class ResettingSource final : public BlockSource {
public:
    SourceItem next() override {
        static constexpr SourceItem kItems[] = {
            {SourceStep::Block, 1}, {SourceStep::Reset, 0}, {SourceStep::Block, 2}, {SourceStep::End, 0}};
        return kItems[std::min<std::size_t>(m_next++, 3)];
    }
    std::uint64_t length() const override { return 2; }
    std::uint64_t relationBlocks() const override { return 3; }
    void rewind() override { m_next = 0; }

private:
    std::size_t m_next = 0;
};

// A row for each catalog entry, named after it, with a name that makes the dataset (the
// "sparse-miss:K" entry as sparse-miss:16).
void addCatalogRows() {
    QTest::addColumn<QString>("name");
    for (const DatasetInfo& info : datasetCatalog())
        QTest::newRow(info.name.c_str())
            << QString::fromStdString(info.name == "sparse-miss:K" ? "sparse-miss:16" : info.name);
}

} // namespace

class TestDatasets : public QObject {
    Q_OBJECT
private slots:
    void catalogEntries_data() { addCatalogRows(); }
    void catalogEntries();
    void publishedStats_data();
    void publishedStats();
    void scaledStats_data();
    void scaledStats();
    void backwardIsReverse_data() { addCatalogRows(); }
    void backwardIsReverse();
    void determinism_data();
    void determinism();
    void sequentialPatterns();
    void randomIsPermutation();
    void lazyPatternsAtHugeSizes();
    void hashGroups();
    void parameterErrors_data();
    void parameterErrors();
    void blockList_data();
    void blockList();
    void blockListErrors_data();
    void blockListErrors();
    void blockListResets_data();
    void blockListResets();
    void prewarmListHasNoResets();
    void statsDefinition();
};

// Every entry is findable, generates its default relation quickly, and stays inside it.
void TestDatasets::catalogEntries() {
    QFETCH(QString, name);
    const DatasetInfo& info = findDataset(name.toStdString());
    QCOMPARE(QString::fromStdString(info.name), QString::fromLatin1(QTest::currentDataTag()));
    QVERIFY(!info.group.empty() && !info.description.empty() && !info.defaultPrewarm.empty());
    QVERIFY(info.description.find('\n') == std::string::npos);
    // In a user's words: no IDs of docs/datasets.md ("A2", "S4"), no generator parameters.
    const QString description = QString::fromStdString(info.description);
    static const QRegularExpression internal(QStringLiteral("\\b([ABCS][0-9]+b?|fuzz2?|ff) "));
    QVERIFY2(!description.contains(internal), qPrintable(description));
    QVERIFY2(description.front().isUpper(), qPrintable(description));
    const auto source = make(name);
    const std::vector<std::uint32_t> blocks = drain(*source);
    QCOMPARE(source->relationBlocks(), info.defaultBlocks);
    if (!info.pattern) {
        QVERIFY(info.defaultBlocks <= 32768);
        QVERIFY(info.defaultScale > 0.0 && info.defaultScale <= 1.0);
    }
    QCOMPARE(source->length(), std::uint64_t{blocks.size()});
    QVERIFY(!blocks.empty());
    QVERIFY(*std::max_element(blocks.begin(), blocks.end()) < source->relationBlocks());
}

void TestDatasets::publishedStats_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("backward");
    QTest::addColumn<PublishedStats>("published");

    // All at the published size (scale 1): the generators draw per row but sort only the matching rows,
    // so even the 10M-row tables take well under a second. Family A: docs/datasets.md §3.4, 1M-row range.
    const auto add = [](const PublishedRow& r) {
        QTest::newRow(r.row) << QString::fromLatin1(r.name) << r.backward << r.published;
    };
    const PublishedRow familyA[] = {
        {"uniform", "uniform", false, {1000088, 472278, 1000088, -1, 472278}},
        {"linear", "linear", false, {55556, 55556, 1, -1, 3473}},
        {"linear DESC", "linear", true, {55556, 55556, -1, 1, 55556}},
        {"cyclic", "cyclic", false, {1000100, 55655, 1000100, -1, 55655}},
        {"linear_1", "linear_1", false, {999391, 75751, 999322, -1, 75740}},
        {"linear_10", "linear_10", false, {980216, 236256, 980210, -1, 236255}},
        {"linear_25", "linear_25", false, {800941, 343242, 800940, -1, 343241}},
        {"cyclic_1", "cyclic_1", false, {999995, 75790, 999948, -1, 75785}},
        {"cyclic_10", "cyclic_10", false, {980181, 236259, 980177, -1, 236257}},
        {"cyclic_25", "cyclic_25", false, {800923, 343460, 800919, -1, 343459}},
    };
    for (const PublishedRow& r : familyA)
        add(r);

    // Family B, §4.4. The doc gives "avg asc run"; asc runs here are visits / that average.
    struct B {
        const char* name;
        qint64 visits, distinct, ascRuns, ios16Forward, ios16Backward;
    };
    const B family[] = {
        {"fuzz-b1", 49934, 49934, 1, 3121, 49934},
        {"fuzz-b2", 1048572, 429737, 1048572, 429735, 429735},
        {"fuzz-b3", 81148, 77798, 81148 * 100 / 248, 32717, 77798},
        {"fuzz-b4", 86057, 82215, 86057 * 100 / 263, 32705, 82215},
        {"fuzz-b5", 590434, 99866, 590434 * 100 / 224, 6253, 99863},
        {"fuzz-b6", 13319, 6243, 13319 * 100 / 376, 391, 6243},
        {"fuzz-b7", 159925, 12826, 159925 * 100 / 272, 6803, 12785},
        {"fuzz-b8", 58899, 24972, 58899 * 100 / 208, 15255, 23814},
        {"fuzz-b3-ff100", 42257, 35351, 42257 * 100 / 129, 28567, 35351},
        {"fuzz-did1", 44175, 32538, 44175 * 100 / 135, 25870, 32538},
    };
    for (const B& b : family) {
        QTest::addRow("%s", b.name) << b.name << false
                                    << PublishedStats{b.visits, b.distinct, b.ascRuns, -1, b.ios16Forward};
        QTest::addRow("%s DESC", b.name)
            << b.name << true << PublishedStats{b.visits, b.distinct, -1, -1, b.ios16Backward};
    }

    // Family C, §5.1-5.3.
    const PublishedRow familyC[] = {
        {"C1", "hash-clustered", false, {81148, 77798, 32768, -1, 32717}},
        {"C1 DESC", "hash-clustered", true, {81148, 77798, -1, 32768, 77798}},
        {"C1b", "hash-clustered-twin-correlated", false, {49933, 49933, 1, -1, 3121}},
        {"C1b DESC", "hash-clustered-twin-correlated", true, {49933, 49933, -1, 1, 49933}},
        // C2's ios16 is not in the table; with 16-block runs it is about the run count.
        {"C2", "tpcc-order_line-pk", false, {41551, 41550, 2603, -1, 2603}},
        // E = 1: "the same visits, but nothing combinable".
        {"C2 E=1", "tpcc-order_line-pk-e1", false, {41551, 41550, 41551, -1, 41550}},
        // C3: ~246k leaves (90M / 366), no repeats; forward ~15.4k combined reads, backward one descending
        // run broken every ~287 blocks by an internal page (245,902 / 286 = 860), no combinable pairs.
        {"C3", "pgbench-ios-backward", false, {245902, 245902, 860, -1, 15400}},
        {"C3 DESC", "pgbench-ios-backward", true, {245902, 245902, -1, 860, 245902}},
    };
    for (const PublishedRow& r : familyC)
        add(r);
}

void TestDatasets::publishedStats() {
    QFETCH(QString, name);
    QFETCH(bool, backward);
    QFETCH(PublishedStats, published);
    const auto source = make(name, 1.0, backward);
    QCOMPARE(source->relationBlocks(), findDataset(name.toStdString()).publishedBlocks);
    const DatasetStats stats = computeStats(*source);
    QCOMPARE(stats.visits, source->length());
    compareStat("visits", stats.visits, published.visits);
    compareStat("distinct", stats.distinct, published.distinct);
    compareStat("asc runs", stats.ascRuns, published.ascRuns);
    compareStat("desc runs", stats.descRuns, published.descRuns);
    compareStat("ios16", stats.ios16, published.ios16);
}

void TestDatasets::scaledStats_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("visits");
    QTest::addColumn<double>("distinct");
    // At the default scale (0.05) the doc's published numbers shrink by the same factor, because the domain,
    // the query range and family A's noise are fractions of the table. Not for cyclic (its distinct count
    // carries a fixed ~100-block edge) nor for B presets with fuzz/fuzz2 windows, which stay in rows (§2.6).
    QTest::newRow("uniform") << "uniform" << 1000088 * 0.05 << 472278 * 0.05;
    QTest::newRow("linear") << "linear" << 55556 * 0.05 << 55556 * 0.05;
    QTest::newRow("linear_1") << "linear_1" << 999391 * 0.05 << 75751 * 0.05;
    QTest::newRow("linear_10") << "linear_10" << 980216 * 0.05 << 236256 * 0.05;
    QTest::newRow("cyclic_25") << "cyclic_25" << 800923 * 0.05 << 343460 * 0.05;
    QTest::newRow("fuzz-b2") << "fuzz-b2" << 1048572 * 0.05 << 429737 * 0.05;
    QTest::newRow("hash-clustered") << "hash-clustered" << 81148 * 0.05 << 77798 * 0.05;
}

void TestDatasets::scaledStats() {
    QFETCH(QString, name);
    QFETCH(double, visits);
    QFETCH(double, distinct);
    const auto source = make(name);
    const DatasetStats stats = computeStats(*source);
    QVERIFY2(withinOnePercent(static_cast<double>(stats.visits), visits),
             qPrintable(QStringLiteral("visits %1 vs %2").arg(stats.visits).arg(visits)));
    QVERIFY2(withinOnePercent(static_cast<double>(stats.distinct), distinct),
             qPrintable(QStringLiteral("distinct %1 vs %2").arg(stats.distinct).arg(distinct)));
}

void TestDatasets::backwardIsReverse() {
    QFETCH(QString, name);
    const std::uint64_t blocks = 5000; // patterns only
    const auto forward = make(name, 0.0, false, 0, blocks);
    const auto backward = make(name, 0.0, true, 0, blocks);
    std::vector<std::uint32_t> reversed = drain(*forward);
    std::reverse(reversed.begin(), reversed.end());
    QVERIFY(drain(*backward) == reversed);
    QCOMPARE(backward->length(), forward->length());
    QCOMPARE(backward->relationBlocks(), forward->relationBlocks());
    backward->rewind();
    QVERIFY(drain(*backward) == reversed);
}

void TestDatasets::determinism_data() {
    test::addNameRows("name", {"uniform", "linear_1", "cyclic_10", "fuzz-b2", "fuzz-b7", "hash-clustered",
                               "tpcc-order_line-pk", "random", "hash-groups"});
}

void TestDatasets::determinism() {
    QFETCH(QString, name);
    const auto blocksOf = [&](std::uint64_t seed) {
        const auto source = make(name, 0.0, false, seed);
        return drain(*source);
    };
    QVERIFY(blocksOf(0) == blocksOf(0));
    QVERIFY(blocksOf(12345) == blocksOf(12345));
    QVERIFY(blocksOf(0) != blocksOf(12345));
}

void TestDatasets::sequentialPatterns() {
    for (const char* name : {"seq", "alternating", "sparse-miss:16"}) {
        const auto forward = make(QLatin1String(name), 0.0, false, 0, 1000);
        QCOMPARE(forward->length(), 1000ULL);
        QCOMPARE(forward->relationBlocks(), 1000ULL);
        const std::vector<std::uint32_t> blocks = drain(*forward);
        QCOMPARE(blocks.size(), std::size_t{1000});
        for (std::uint32_t b = 0; b < 1000; ++b)
            QCOMPARE(blocks[b], b);
        const auto backward = make(QLatin1String(name), 0.0, true, 0, 1000);
        QCOMPARE(backward->next().block, 999U);
    }
    QCOMPARE(make(QStringLiteral("seq"))->length(), 65536ULL);
    QCOMPARE(defaultPrewarmFor("seq"), std::string("none"));
    QCOMPARE(defaultPrewarmFor("alternating"), std::string("every:2"));
    QCOMPARE(defaultPrewarmFor("sparse-miss:16"), std::string("except-every:16"));
    QCOMPARE(defaultPrewarmFor("sparse-miss:7"), std::string("except-every:7"));
    QCOMPARE(defaultPrewarmFor("tpcc-order_line-pk"), std::string("fraction:0.18:7"));
    QCOMPARE(findDataset("sparse-miss:7").name, std::string("sparse-miss:K"));
}

void TestDatasets::randomIsPermutation() {
    const std::uint64_t n = 100000;
    for (const bool backward : {false, true}) {
        const auto source = make(QStringLiteral("random"), 0.0, backward, 0, n);
        QCOMPARE(source->length(), n);
        std::vector<bool> seen(n, false);
        std::uint64_t count = 0;
        std::uint64_t inPlace = 0;
        for (SourceItem item = source->next(); item.step != SourceStep::End; item = source->next()) {
            QVERIFY(item.block < n);
            QVERIFY(!seen[item.block]);
            seen[item.block] = true;
            inPlace += item.block == (backward ? n - 1 - count : count);
            ++count;
        }
        QCOMPARE(count, n);
        QVERIFY(inPlace < 10); // shuffled, not the identity
    }
}

// A materialised 2^31-block list would need 8 GB; the lazy patterns start at once and stay in range.
void TestDatasets::lazyPatternsAtHugeSizes() {
    // 2^31 blocks: a pattern that stored its sequence would need 8 GiB here.
    const std::uint64_t n = 1ULL << 31;
    const auto random = make(QStringLiteral("random"), 0.0, false, 0, n);
    const auto seq = make(QStringLiteral("seq"), 0.0, true, 0, n);
    QCOMPARE(random->length(), n);
    QCOMPARE(seq->relationBlocks(), n);
    QCOMPARE(std::uint64_t{seq->next().block}, n - 1);
    std::vector<std::uint32_t> first;
    for (int i = 0; i < 1000; ++i)
        first.push_back(random->next().block);
    std::sort(first.begin(), first.end());
    QVERIFY(std::adjacent_find(first.begin(), first.end()) == first.end());
}

// docs/read-stream-model.md §13 S6: 65,536 TIDs, 65,536 heap pages, one item per TID, 8,173 distinct blocks.
void TestDatasets::hashGroups() {
    const auto source = make(QStringLiteral("hash-groups"));
    QCOMPARE(source->relationBlocks(), 65536ULL);
    QVERIFY(source->length() >= 65536 && source->length() < 65536 + 16);
    const std::vector<std::uint32_t> blocks = drain(*source);
    const DatasetStats stats = computeStats(*source);
    QVERIFY2(withinOnePercent(static_cast<double>(stats.distinct), 8173.0),
             qPrintable(QStringLiteral("distinct %1").arg(stats.distinct)));
    // Not collapsed: a group's rows on one page repeat the block, and a group moves at most one block on.
    QVERIFY(std::adjacent_find(blocks.begin(), blocks.end()) != blocks.end());
    QVERIFY(stats.ascRuns < stats.visits);
}

void TestDatasets::parameterErrors_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<double>("scale");
    QTest::addColumn<qulonglong>("blocks");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown") << "no-such-set" << 0.0 << 0ULL << "'no-such-set'";
    QTest::newRow("sparse-miss:0") << "sparse-miss:0" << 0.0 << 0ULL << "'sparse-miss:0'";
    QTest::newRow("sparse-miss:abc") << "sparse-miss:abc" << 0.0 << 0ULL << "'sparse-miss:abc'";
    QTest::newRow("sparse-miss:") << "sparse-miss:" << 0.0 << 0ULL << "'sparse-miss:'";
    QTest::newRow("sparse-miss:-3") << "sparse-miss:-3" << 0.0 << 0ULL << "'sparse-miss:-3'";
    QTest::newRow("sparse-miss") << "sparse-miss" << 0.0 << 0ULL << "'sparse-miss'";
    QTest::newRow("negative scale") << "uniform" << -0.5 << 0ULL << "scale -0.5";
    QTest::newRow("scale above 1") << "fuzz-b3" << 1.5 << 0ULL << "scale 1.5";
    QTest::newRow("tiny scale") << "linear" << 1e-5 << 0ULL << "scale 1e-05";
    QTest::newRow("NaN scale") << "cyclic" << std::numeric_limits<double>::quiet_NaN() << 0ULL << "scale nan";
    QTest::newRow("too many blocks") << "seq" << 0.0 << (1ULL << 31) + 1 << "blocks 2147483649";
}

void TestDatasets::parameterErrors() {
    QFETCH(QString, name);
    QFETCH(double, scale);
    QFETCH(qulonglong, blocks);
    QFETCH(QString, mentions);
    const QString message = inputErrorOf([&] { make(name, scale, false, 0, blocks); });
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY(!message.contains(QLatin1Char('\n')));
    if (scale == 0.0 && blocks == 0)
        QCOMPARE(inputErrorOf([&] { findDataset(name.toStdString()); }), message);
}

void TestDatasets::blockList_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("backward");
    QTest::addColumn<QList<uint>>("expected");
    QTest::newRow("plain") << QByteArray("# trace of q1\n5\n\n6   # inline\n  7\r\n3\n") << false
                           << QList<uint>{5, 6, 7, 3};
    QTest::newRow("plain backward") << QByteArray("5\n6\n7\n") << true << QList<uint>{7, 6, 5};
    QTest::newRow("csv") << QByteArray("time,block,size\n0.1,10,8192\n# pause\n0.2, 11 ,8192\n") << false
                         << QList<uint>{10, 11};
    QTest::newRow("csv quoted, one column")
        << QByteArray("\"Block\"\n\"3\"\n4\n") << false << QList<uint>{3, 4};
    QTest::newRow("largest block") << QByteArray("4294967294\n0\n") << false << QList<uint>{4294967294U, 0};
}

void TestDatasets::blockList() {
    QFETCH(QByteArray, text);
    QFETCH(bool, backward);
    QFETCH(QList<uint>, expected);
    QTemporaryDir dir;
    const QString path = test::writeFile(dir.filePath(QStringLiteral("list.txt")), text);
    const auto source =
        loadBlockList(path.toStdString(), backward ? Direction::Backward : Direction::Forward);
    const std::vector<std::uint32_t> blocks = drain(*source);
    QCOMPARE(QList<uint>(blocks.begin(), blocks.end()), expected);
    QCOMPARE(source->length(), std::uint64_t(expected.size()));
    QCOMPARE(source->relationBlocks(),
             std::uint64_t{*std::max_element(expected.begin(), expected.end())} + 1);
}

void TestDatasets::blockListErrors_data() {
    QTest::addColumn<QByteArray>("text"); // empty: no file is written
    QTest::addColumn<QString>("mentions");
    QByteArray sixteenGood;
    for (int b = 0; b < 16; ++b)
        sixteenGood += QByteArray::number(b) + '\n';
    QTest::newRow("missing file") << QByteArray() << QString::fromUtf8(std::strerror(ENOENT));
    QTest::newRow("directory") << QByteArray("dir")
                               << QStringLiteral("it is a directory, not a regular file");
    QTest::newRow("malformed")
        << sixteenGood + "abc\n"
        << "line 17: 'abc' is not a block number (expected a whole number 0..4294967294)";
    QTest::newRow("too large") << QByteArray("1\n4294967295\n")
                               << "line 2: '4294967295' is not a block number";
    QTest::newRow("negative") << QByteArray("# c\n-1\n") << "line 2: '-1' is not a block number";
    QTest::newRow("two numbers") << QByteArray("12 13\n") << "line 1: '12 13' is not a block number";
    QTest::newRow("csv short row") << QByteArray("a,block\n1,2\n\n3\n") << "line 4: no value in column 2";
    QTest::newRow("csv bad value") << QByteArray("block,a\n1,2\nx,3\n")
                                   << "line 3: 'x' is not a block number";
    QTest::newRow("csv without block")
        << QByteArray("a,b\n1,2\n") << "line 1: CSV header 'a,b' has no 'block' column";
    QTest::newRow("empty") << QByteArray("# nothing\n\n") << "holds no block numbers";
}

void TestDatasets::blockListErrors() {
    QFETCH(QByteArray, text);
    QFETCH(QString, mentions);
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("list.txt"));
    if (text == "dir") {
        path = dir.path();
    } else if (!text.isEmpty()) {
        test::writeFile(path, text);
    }
    const QString message = inputErrorOf([&] { loadBlockList(path.toStdString(), Direction::Forward); });
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("'%1'").arg(path)), qPrintable(message));
    QVERIFY(!message.contains(QLatin1Char('\n')));
}

void TestDatasets::blockListResets_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("backward");
    QTest::addColumn<QString>("items"); // R for a reset, else the block
    const QByteArray rows(
        "reset # the first outer row found nothing\n5\nRESET\n6\n7\nreset\nreset\n3\nreset\n");
    QTest::newRow("plain") << rows << false << QStringLiteral("R 5 R 6 7 R R 3 R");
    QTest::newRow("plain backward") << rows << true << QStringLiteral("R 3 R R 7 6 R 5 R");
    QTest::newRow("csv") << QByteArray("outer,block\n1,5\n2,reset\n2,\"6\"\n") << false
                         << QStringLiteral("5 R 6");
}

// "reset" in place of a block is a reset of the stream between the blocks around it, in the order
// the file gives (a backward scan reverses both); two in a row are two resets.
void TestDatasets::blockListResets() {
    QFETCH(QByteArray, text);
    QFETCH(bool, backward);
    QFETCH(QString, items);
    QTemporaryDir dir;
    const QString path = test::writeFile(dir.filePath(QStringLiteral("list.txt")), text);
    const auto source =
        loadBlockList(path.toStdString(), backward ? Direction::Backward : Direction::Forward);
    for (int pass = 0; pass < 2; ++pass) { // a rewind replays the resets too
        QStringList seen;
        for (SourceItem item = source->next(); item.step != SourceStep::End; item = source->next())
            seen << (item.step == SourceStep::Reset ? QStringLiteral("R") : QString::number(item.block));
        QCOMPARE(seen.join(QLatin1Char(' ')), items);
        source->rewind();
    }
    QCOMPARE(source->length(), std::uint64_t(items.count(QRegularExpression(QStringLiteral("\\d+")))));
}

// A prewarm list names blocks, not a visit order: a reset marker in it is refused, with its line.
void TestDatasets::prewarmListHasNoResets() {
    QTemporaryDir dir;
    const QString path = test::writeFile(dir.filePath(QStringLiteral("prewarm.txt")), "1\n2\nreset\n3\n");
    const QString message = inputErrorOf([&] { readBlockNumbers(path.toStdString(), "prewarm list"); });
    QVERIFY2(message.contains(QStringLiteral("line 3: 'reset' marks a reset of a stream")),
             qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("'%1'").arg(path)), qPrintable(message));
}

void TestDatasets::statsDefinition() {
    VectorSource source({10, 11, 12, 11, 13, 5, 4, 3, 30, 31}, 40);
    const DatasetStats stats = computeStats(source);
    QCOMPARE(stats.visits, 10ULL);
    QCOMPARE(stats.distinct, 9ULL);
    QCOMPARE(stats.ascRuns, 7ULL);  // 10-12 | 11 | 13 | 5 | 4 | 3 | 30-31
    QCOMPARE(stats.descRuns, 7ULL); // 10 | 11 | 12-11 | 13 | 5-4-3 | 30 | 31
    // First visits 10 11 12 13 5 4 3 30 31: the re-visit of 11 is a hit and does not break 10-13.
    QCOMPARE(stats.ios16, 5ULL);
    QCOMPARE(stats.meanJump, 43.0 / 9.0);
    QCOMPARE(source.next().block, 10U); // rewound afterwards

    std::vector<std::uint32_t> forty(40);
    for (std::uint32_t b = 0; b < 40; ++b)
        forty[b] = b;
    VectorSource sequential(forty);
    QCOMPARE(computeStats(sequential).ios16, 3ULL); // 16 + 16 + 8

    ResettingSource resetting;
    QCOMPARE(computeStats(resetting).visits, 2ULL);
}

QTEST_GUILESS_MAIN(TestDatasets)
#include "tst_datasets.moc"
