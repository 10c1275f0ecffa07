// SPDX-License-Identifier: GPL-3.0-or-later
// Real PostgreSQL 15 relations read by our own parsers (docs/pg-relations.md): the heap visits an
// index scan derives from the btree equal what the server's own ORDER BY returns, for tables with
// and without correlation, with posting lists and with LP_DEAD items, both directions, with and
// without data checksums; checksums match the server's, and the one-page checks accept its pages;
// bad input is refused and never written.
#include "block_size.h"
#include "input_error.h"
#include "io/file_backend.h"
#include "io/segment_path.h"
#include "pg/btree_page.h"
#include "pg/checksum.h"
#include "pg/heap_page.h"
#include "pg/index_scan.h"
#include "pg/index_tuple.h"
#include "pg/page_header.h"
#include "pg/relation_files.h"
#include "pg_server.h"
#include "test_files.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

using namespace la;

namespace {

constexpr int kRows = 40'000;

// The tables of the seed experiments, small. Each is indexed on a.
const char* const kSetup =
    // 1. Stored in hash order: an index scan by a jumps around the heap.
    "CREATE TABLE hashed(a int8, pad text);"
    "INSERT INTO hashed SELECT g, repeat('x', 200) FROM generate_series(1, %1) g ORDER BY hashint8(g);"
    "CREATE INDEX hashed_a ON hashed(a);"
    // 2. Stored in key order: the scan walks the heap forward (or backward).
    "CREATE TABLE correlated(a int8, pad text);"
    "INSERT INTO correlated SELECT g, repeat('x', 200) FROM generate_series(1, %1) g;"
    "CREATE INDEX correlated_a ON correlated(a);"
    // 3. 300 distinct keys in hash order: deduplication makes posting lists.
    "CREATE TABLE dups(a int8, pad text);"
    "INSERT INTO dups SELECT g % 300, repeat('y', 60) FROM generate_series(1, %1) g ORDER BY hashint8(g);"
    "CREATE INDEX dups_a ON dups(a);"
    // 4. Rows deleted, then an index scan over them: it marks their index items LP_DEAD.
    "CREATE TABLE deleted(a int8, pad text);"
    "INSERT INTO deleted SELECT g, repeat('z', 200) FROM generate_series(1, %1) g ORDER BY hashint8(g);"
    "CREATE INDEX deleted_a ON deleted(a);"
    "DELETE FROM deleted WHERE a % 3 = 0;"
    // Bad input: indexes of other access methods, and a btree on text.
    "CREATE INDEX hashed_hash ON hashed USING hash(a);"
    "CREATE TABLE shapes(p point);"
    "INSERT INTO shapes SELECT point(g, g) FROM generate_series(1, 2000) g;"
    "CREATE INDEX shapes_gist ON shapes USING gist(p);"
    "CREATE INDEX shapes_spgist ON shapes USING spgist(p);"
    "CREATE INDEX hashed_brin ON hashed USING brin(a);"
    "CREATE TABLE tagged(tags int4[]);"
    "INSERT INTO tagged SELECT ARRAY[g, g + 1] FROM generate_series(1, 2000) g;"
    "CREATE INDEX tagged_gin ON tagged USING gin(tags);"
    "CREATE TABLE words(s text);"
    "INSERT INTO words SELECT md5(g::text) FROM generate_series(1, 2000) g;"
    "CREATE INDEX words_s ON words(s);";

struct Cluster {
    std::unique_ptr<test::PgServer> server;
    bool checksums = false;
};

QByteArray fileDigest(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

std::int64_t mtimeNs(const QString& path) {
    struct stat st {};
    if (::stat(qPrintable(path), &st) != 0)
        return -1;
    return std::int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
}

struct CliResult {
    int exitCode = -1;
    QString out, err;
};

CliResult runCli(const QStringList& args) {
    QProcess cli;
    cli.start(QStringLiteral(LOOKAHEAD_BINARY), QStringList{QStringLiteral("--headless")} + args);
    CliResult r;
    if (!cli.waitForFinished(120'000))
        return r;
    r.exitCode = cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1;
    r.out = QString::fromUtf8(cli.readAllStandardOutput());
    r.err = QString::fromUtf8(cli.readAllStandardError());
    return r;
}

// Writes `bytes` at `offset` into a copy of a file.
bool patch(const QString& path, qint64 offset, const QByteArray& bytes) {
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite) || !file.seek(offset))
        return false;
    return file.write(bytes) == bytes.size();
}

QByteArray u32(std::uint32_t v) {
    return QByteArray(reinterpret_cast<const char*>(&v), sizeof v);
}

} // namespace

class TestPgRelation : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void visitsEqualTheServersOrder_data();
    void visitsEqualTheServersOrder();
    void checksumsMatchTheServers();
    void corruptedPageFailsItsChecksum();
    void postingListOffsetCannotWrap();
    void cliScansTheRealHeap();
    void resetAndStartAfterShapeTheStream();
    void segmentsMapBlocks();
    void truncatedSegmentsAreRefused();
    void badInputIsRefusedAndNeverWritten_data();
    void badInputIsRefusedAndNeverWritten();

private:
    QString file(const Cluster& c, const QString& relation) const;
    QString query(const Cluster& c, const QString& sql) const;

    Cluster m_plain, m_checked;
    QTemporaryDir m_tmp;
};

QString TestPgRelation::query(const Cluster& c, const QString& sql) const {
    QString error;
    const QString out = c.server->sql(sql, error);
    if (!error.isEmpty())
        qWarning("%s", qPrintable(error));
    return out;
}

QString TestPgRelation::file(const Cluster& c, const QString& relation) const {
    return c.server->dataDir() + QLatin1Char('/') +
           query(c, QStringLiteral("SELECT pg_relation_filepath('%1')").arg(relation));
}

void TestPgRelation::initTestCase() {
    if (const QString why = test::PgServer::unavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY(m_tmp.isValid());
    for (Cluster* c : {&m_plain, &m_checked}) {
        c->checksums = c == &m_checked;
        c->server = std::make_unique<test::PgServer>();
        QString error = c->server->start(c->checksums);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        c->server->sql(QString::fromLatin1(kSetup).arg(kRows), error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // An index scan over every deleted row, once they are dead to all: it kills their items.
        c->server->sql(QStringLiteral("SET enable_seqscan = off; SET enable_bitmapscan = off; "
                                      "SET enable_indexonlyscan = off; "
                                      "SELECT sum(length(pad)) FROM deleted WHERE a BETWEEN 1 AND %1")
                           .arg(kRows),
                       error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        c->server->sql(QStringLiteral("CHECKPOINT"), error); // the files hold every page
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
}

void TestPgRelation::visitsEqualTheServersOrder_data() {
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("range"); // empty: the whole index
    QTest::addColumn<bool>("backward");
    QTest::addColumn<bool>("checksums");
    for (const char* table : {"hashed", "correlated", "dups", "deleted"}) {
        // The whole index, a range inside it, and ones across its ends (dups has keys 0..299, each
        // on several leaf pages: the descent must find the first and last of equal keys).
        const bool dups = std::strcmp(table, "dups") == 0;
        for (const char* range :
             {"", dups ? "10:40" : "1000:9000", dups ? "-5:3" : "-5:120", dups ? "299:400" : "39990:40010"})
            for (const bool backward : {false, true})
                for (const bool checksums : {false, true})
                    QTest::addRow("%s %s %s %s", table, *range ? range : "all",
                                  backward ? "backward" : "forward", checksums ? "checksums" : "plain")
                        << QString::fromLatin1(table) << QString::fromLatin1(range) << backward << checksums;
    }
}

void TestPgRelation::visitsEqualTheServersOrder() {
    QFETCH(QString, table);
    QFETCH(QString, range);
    QFETCH(bool, backward);
    QFETCH(bool, checksums);
    const Cluster& c = checksums ? m_checked : m_plain;
    pg::IndexScanSpec spec;
    spec.index = file(c, table + QStringLiteral("_a")).toStdString();
    spec.direction = backward ? Direction::Backward : Direction::Forward;
    QString where = QStringLiteral("true");
    if (!range.isEmpty()) {
        spec.range = pg::parseKeyRange("int8", range.toStdString());
        where = QStringLiteral("a BETWEEN %1 AND %2")
                    .arg(spec.range->lo.values.front().integer)
                    .arg(spec.range->hi.values.front().integer);
    }
    // Since PostgreSQL 12 equal keys are ordered by heap TID, and a backward scan reverses that.
    const QString order = backward ? QStringLiteral("a DESC, ctid DESC") : QStringLiteral("a, ctid");
    const std::vector<std::uint32_t> expected = test::visitedBlocks(query(
        c, QStringLiteral("SELECT string_agg(((ctid::text::point)[0]::int)::text, ',' ORDER BY %1) FROM %2 "
                          "WHERE %3")
               .arg(order, table, where)));
    QVERIFY(!expected.empty());

    const pg::IndexVisits visits = pg::scanIndex(spec);
    QCOMPARE(visits.blocks.size(), expected.size());
    QVERIFY(visits.blocks == expected);
    QCOMPARE(visits.facts.checksums, checksums);
    QCOMPARE(visits.facts.visits, std::uint64_t(expected.size()));
    QVERIFY(visits.facts.leafPages >= 1);
    QCOMPARE(visits.batchStarts.size() + 1 <= visits.facts.leafPages, true);
    const std::uint64_t steps =
        visits.facts.ascendingSteps + visits.facts.descendingSteps + visits.facts.randomSteps;
    QCOMPARE(steps, std::uint64_t(expected.size() - 1));
    const QString rows = query(c, QStringLiteral("SELECT count(*) FROM %1 WHERE %2").arg(table, where));
    QCOMPARE(visits.facts.tids, rows.toULongLong());
    if (table == QLatin1String("dups"))
        QVERIFY2(visits.facts.postingLists > 0, "deduplication made no posting lists");
    if (table == QLatin1String("deleted") && range.isEmpty())
        QVERIFY2(visits.facts.deadItems > 0, "the index scan marked no items LP_DEAD");
    if (table == QLatin1String("correlated") && range.isEmpty())
        QVERIFY(backward ? visits.facts.descendingSteps > visits.facts.randomSteps
                         : visits.facts.ascendingSteps > visits.facts.randomSteps);
}

void TestPgRelation::checksumsMatchTheServers() {
    // Every page the server wrote with checksums on carries the checksum we compute.
    for (const QString& relation :
         {QStringLiteral("hashed"), QStringLiteral("hashed_a"), QStringLiteral("dups_a")}) {
        const pg::SegmentedRelation rel(file(m_checked, relation).toStdString(), "test");
        std::vector<std::byte> page(kBlockSize);
        std::uint64_t checked = 0;
        for (std::uint64_t b = 0; b < rel.blocks(); ++b) {
            rel.read(b, page.data());
            const pg::PageHeader header = pg::readPageHeader(page.data());
            if (pg::isNewPage(header))
                continue;
            QCOMPARE(pg::pageChecksum(page.data(), static_cast<std::uint32_t>(b)), header.checksum);
            // The one-page checks (docs/pg-relations.md §2.4) accept every page the server wrote.
            const std::string problem =
                relation == QLatin1String("hashed")
                    ? pg::heapPageProblem(page.data(), static_cast<std::uint32_t>(b), true)
                : b == 0 ? std::string()
                         : pg::btreePageProblem(page.data(), static_cast<std::uint32_t>(b), true);
            QVERIFY2(problem.empty(), problem.c_str());
            ++checked;
        }
        QVERIFY(checked > 10);
    }
    // Without checksums the server leaves the field zero: auto-detection turns verification off.
    const pg::SegmentedRelation plain(file(m_plain, QStringLiteral("hashed")).toStdString(), "test");
    std::vector<std::byte> page(kBlockSize);
    plain.read(0, page.data());
    QCOMPARE(pg::readPageHeader(page.data()).checksum, std::uint16_t(0));
}

void TestPgRelation::corruptedPageFailsItsChecksum() {
    const QString heap = file(m_checked, QStringLiteral("hashed"));
    const QString copy = m_tmp.filePath(QStringLiteral("corrupt-heap"));
    QFile::remove(copy);
    QVERIFY(QFile::copy(heap, copy));
    std::vector<std::byte> page(kBlockSize);
    {
        const pg::SegmentedRelation rel(copy.toStdString(), "test");
        rel.read(3, page.data());
    }
    QVERIFY(pg::heapPageProblem(page.data(), 3, true).empty());
    QVERIFY(!pg::heapPageProblem(page.data(), 4, true).empty()); // the block number is in the sum
    page[5000] ^= std::byte{0x01};                               // one bit of a tuple
    QVERIFY(pg::heapPageProblem(page.data(), 3, true).find("checksum mismatch") != std::string::npos);
    QVERIFY(pg::heapPageProblem(page.data(), 3, false).empty());

    // The same bit flipped in the copy's file: the real-I/O scan stops there, naming file and block.
    QVERIFY(patch(copy, 3 * qint64(kBlockSize) + 5000,
                  QByteArray(1, static_cast<char>(std::to_integer<int>(page[5000])))));
    const CliResult r = runCli({QStringLiteral("--pg-index"), file(m_checked, QStringLiteral("hashed_a")),
                                QStringLiteral("--pg-heap"), copy, QStringLiteral("--io"),
                                QStringLiteral("sync"), QStringLiteral("--buffered")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QLatin1String("checksum mismatch")) && r.err.contains(copy) &&
                 r.err.contains(QLatin1String("block 3 at offset 24576")),
             qPrintable(r.out + r.err));
}

void TestPgRelation::postingListOffsetCannotWrap() {
    // A posting list whose 32-bit offset plus its size wraps past 2^32 to a small number: it must
    // not pass the bounds check (it would read 4 GB past the tuple).
    std::vector<std::byte> tuple(24, std::byte{0});
    const std::uint32_t offset = 0xFFFFFFF4; // + 4 TIDs * 6 bytes = 2^32 + 12
    const std::uint16_t hi = offset >> 16, lo = offset & 0xFFFF, status = 0x2000 | 4; // BT_IS_POSTING, 4 TIDs
    const std::uint16_t info = 24 | 0x2000; // size, INDEX_ALT_TID_MASK
    std::memcpy(tuple.data(), &hi, 2);
    std::memcpy(tuple.data() + 2, &lo, 2);
    std::memcpy(tuple.data() + 4, &status, 2);
    std::memcpy(tuple.data() + 6, &info, 2);
    pg::IndexTuple parsed;
    const std::string problem = pg::parseIndexTuple(tuple.data(), 24, parsed);
    QVERIFY2(problem.find("does not fit") != std::string::npos, problem.c_str());
}

void TestPgRelation::cliScansTheRealHeap() {
    const QString json = m_tmp.filePath(QStringLiteral("summary.json"));
    const QString csv = m_tmp.filePath(QStringLiteral("trace.csv"));
    // The data-directory form, paths as pg_relation_filepath prints them.
    const QString heap = query(m_checked, QStringLiteral("SELECT pg_relation_filepath('hashed')"));
    const QString index = query(m_checked, QStringLiteral("SELECT pg_relation_filepath('hashed_a')"));
    const CliResult r = runCli({QStringLiteral("--pg-datadir"),
                                m_checked.server->dataDir(),
                                QStringLiteral("--pg-index"),
                                index,
                                QStringLiteral("--pg-heap"),
                                heap,
                                QStringLiteral("--pg-key"),
                                QStringLiteral("int8"),
                                QStringLiteral("--pg-key-range"),
                                QStringLiteral("100:3000"),
                                QStringLiteral("--direction"),
                                QStringLiteral("backward"),
                                QStringLiteral("--io"),
                                QStringLiteral("worker"),
                                QStringLiteral("--policy"),
                                QStringLiteral("pg18"),
                                QStringLiteral("--compare-policy"),
                                QStringLiteral("pg19"),
                                QStringLiteral("--summary-json"),
                                json,
                                QStringLiteral("--trace-csv"),
                                csv});
    QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    const std::vector<std::uint32_t> expected = test::visitedBlocks(
        query(m_checked,
              QStringLiteral("SELECT string_agg(((ctid::text::point)[0]::int)::text, ',' ORDER BY a DESC) "
                             "FROM hashed WHERE a BETWEEN 100 AND 3000")));
    QFile jsonFile(json);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    const QJsonArray runs =
        QJsonDocument::fromJson(jsonFile.readAll()).object()[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    for (const QJsonValue& run : runs) {
        const QJsonObject o = run.toObject();
        QCOMPARE(o[QStringLiteral("blocks")].toInteger(), qint64(expected.size()));
        QVERIFY(o[QStringLiteral("pages_verified")].toInteger() > 0);
        QCOMPARE(o[QStringLiteral("pages_verified")].toInteger(),
                 o[QStringLiteral("bytes_read")].toInteger() / 8192);
        const QJsonObject facts = o[QStringLiteral("pg_index")].toObject();
        QCOMPARE(facts[QStringLiteral("visits")].toInteger(), qint64(expected.size()));
        QCOMPARE(facts[QStringLiteral("tids")].toInteger(), qint64(2901));
        QCOMPARE(facts[QStringLiteral("checksums_verified")].toBool(), true);
        QVERIFY(facts[QStringLiteral("random_share")].toDouble() > 0.9); // hash order: jumps
    }
    // The trace's requested events, run A's, follow the visit order.
    QFile trace(csv);
    QVERIFY(trace.open(QIODevice::ReadOnly));
    std::vector<std::uint32_t> requested;
    const QString firstLabel = runs[0].toObject()[QStringLiteral("label")].toString();
    while (!trace.atEnd()) {
        const QList<QByteArray> cols = trace.readLine().trimmed().split(',');
        if (cols.size() > 4 && cols[3] == "requested" && QString::fromUtf8(cols[0]) == firstLabel)
            requested.push_back(cols[4].toUInt());
    }
    QVERIFY(requested == expected);
}

void TestPgRelation::resetAndStartAfterShapeTheStream() {
    const QString index = file(m_plain, QStringLiteral("hashed_a"));
    const QString heap = file(m_plain, QStringLiteral("hashed"));
    const QString json = m_tmp.filePath(QStringLiteral("reset.json"));
    const auto run = [&](const QStringList& extra) {
        QFile::remove(json);
        const CliResult r =
            runCli(QStringList{QStringLiteral("--pg-index"), index, QStringLiteral("--pg-heap"), heap,
                               QStringLiteral("--summary-json"), json} +
                   extra);
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(r.out + r.err));
        return test::summaryRun(json);
    };
    const QJsonObject continued = run({QStringLiteral("--index-batches"), QStringLiteral("continue")});
    const QJsonObject reset = run({QStringLiteral("--index-batches"), QStringLiteral("reset")});
    const QJsonObject late = run({QStringLiteral("--stream-start-after"), QStringLiteral("4")});
    pg::IndexScanSpec spec;
    spec.index = index.toStdString();
    const pg::IndexVisits visits = pg::scanIndex(spec);
    QVERIFY(visits.facts.leafPages > 10);
    QCOMPARE(continued[QStringLiteral("resets")].toInteger(), qint64(0));
    // One reset per leaf-page boundary that brings a new heap block.
    QCOMPARE(reset[QStringLiteral("resets")].toInteger(), qint64(visits.batchStarts.size()));
    QVERIFY(visits.batchStarts.size() + 5 >= visits.facts.leafPages);
    // The early reads are the run's, kept apart: no reset of the stream, no EXPLAIN read.
    QCOMPARE(late[QStringLiteral("resets")].toInteger(), qint64(0));
    QCOMPARE(late[QStringLiteral("reads_before_stream")].toInteger(), qint64(4));
    QCOMPARE(late[QStringLiteral("explain_io")].toObject()[QStringLiteral("io_count")].toInteger(),
             late[QStringLiteral("ios")].toInteger() - 4);
    QCOMPARE(reset[QStringLiteral("blocks")].toInteger(), continued[QStringLiteral("blocks")].toInteger());
    // The reset stream keeps starting over at distance 1: it looks ahead less.
    QVERIFY(reset[QStringLiteral("distance_mean")].toDouble() <
            continued[QStringLiteral("distance_mean")].toDouble());
}

void TestPgRelation::segmentsMapBlocks() {
    // A relation split the way PostgreSQL splits one: a full 1 GiB first segment (sparse: its holes
    // read as new, all-zero pages) and a short second one. Marker pages show where each block lands.
    const std::string base = m_tmp.filePath(QStringLiteral("16500")).toStdString();
    const auto marker = [](std::uint64_t block) {
        std::vector<std::byte> page(kBlockSize, std::byte{0});
        std::memcpy(page.data() + 100, &block, sizeof block);
        return page;
    };
    {
        QFile seg0(QString::fromStdString(base)), seg1(QString::fromStdString(base + ".1"));
        QVERIFY(seg0.open(QIODevice::WriteOnly) && seg1.open(QIODevice::WriteOnly));
        for (const std::uint64_t b : {std::uint64_t{0}, kBlocksPerSegment - 1}) {
            QVERIFY(seg0.seek(qint64(b * kBlockSize)));
            seg0.write(reinterpret_cast<const char*>(marker(b).data()), kBlockSize);
        }
        QVERIFY(seg0.resize(qint64(kBlocksPerSegment * kBlockSize)));
        for (std::uint64_t b = kBlocksPerSegment; b < kBlocksPerSegment + 3; ++b)
            seg1.write(reinterpret_cast<const char*>(marker(b).data()), kBlockSize);
    }
    const pg::SegmentedRelation rel(base, "test");
    QCOMPARE(rel.blocks(), kBlocksPerSegment + 3);
    QCOMPARE(rel.segments().size(), std::size_t(2));
    std::vector<std::byte> page(kBlockSize);
    for (const std::uint64_t b :
         {std::uint64_t{0}, kBlocksPerSegment - 1, kBlocksPerSegment, kBlocksPerSegment + 2}) {
        rel.read(b, page.data());
        QVERIFY(page == marker(b));
    }
    QVERIFY(
        rel.where(kBlocksPerSegment + 2).find(base + ".1' block 2 (relation block 131074) at offset 16384") !=
        std::string::npos);
    QVERIFY_THROWS_EXCEPTION(InputError, rel.read(kBlocksPerSegment + 3, page.data()));

    // The real-I/O backend reads across the boundary, a part from each file.
    FileBackendOptions options;
    options.path = base;
    options.segments = {base, base + ".1"};
    options.direct = false;
    options.maxIos = 2;
    options.maxInFlightBlocks = 16;
    options.maxReadBlocks = 8;
    std::vector<std::uint64_t> seen;
    options.pageCheck = [&](const std::byte* p, std::uint32_t block) {
        std::uint64_t mark = 0;
        std::memcpy(&mark, p + 100, sizeof mark);
        seen.push_back(block);
        const bool zero = std::all_of(p, p + kBlockSize, [](std::byte x) { return x == std::byte{0}; });
        return mark == block || zero ? std::string() : "holds block " + std::to_string(mark);
    };
    FileBackend backend(options);
    ReadRequest request;
    request.ioId = 1;
    request.firstBlock = static_cast<std::uint32_t>(kBlocksPerSegment - 2);
    request.nblocks = 4;
    request.synchronous = true;
    backend.start(request);
    backend.wait(1);
    QCOMPARE(seen, (std::vector<std::uint64_t>{kBlocksPerSegment - 2, kBlocksPerSegment - 1,
                                               kBlocksPerSegment, kBlocksPerSegment + 1}));
    QCOMPARE(backend.pagesVerified(), std::uint64_t(4));
}

void TestPgRelation::truncatedSegmentsAreRefused() {
    const std::string base = m_tmp.filePath(QStringLiteral("16600")).toStdString();
    {
        QFile seg0(QString::fromStdString(base)), seg1(QString::fromStdString(base + ".1"));
        QVERIFY(seg0.open(QIODevice::WriteOnly) && seg1.open(QIODevice::WriteOnly));
        QVERIFY(seg0.resize(qint64(10 * kBlockSize)));
        QVERIFY(seg1.resize(qint64(kBlockSize)));
    }
    try {
        pg::SegmentedRelation rel(base, "--pg-heap");
        QFAIL("a short first segment followed by another was accepted");
    } catch (const InputError& error) {
        QVERIFY2(std::string(error.what()).find("truncated at block 10") != std::string::npos, error.what());
    }
    QFile::remove(QString::fromStdString(base + ".1"));
    QVERIFY(QFile(QString::fromStdString(base)).resize(qint64(10 * kBlockSize + 100)));
    try {
        pg::SegmentedRelation rel(base, "--pg-heap");
        QFAIL("a partial block was accepted");
    } catch (const InputError& error) {
        QVERIFY2(std::string(error.what()).find("not a whole number of 8192-byte blocks") !=
                     std::string::npos,
                 error.what());
    }
}

void TestPgRelation::badInputIsRefusedAndNeverWritten_data() {
    QTest::addColumn<QString>("index");     // relation name, or "copy:" plus how the copy is damaged
    QTest::addColumn<QStringList>("extra"); // more options
    QTest::addColumn<QString>("message");   // what the one line must say
    QTest::newRow("heap as index") << QStringLiteral("hashed") << QStringList{}
                                   << QStringLiteral(
                                          "block 0 at offset 0: not a btree index: block 0 is a heap");
    QTest::newRow("hash index") << QStringLiteral("hashed_hash") << QStringList{}
                                << QStringLiteral("a hash index page");
    QTest::newRow("gist index") << QStringLiteral("shapes_gist") << QStringList{}
                                << QStringLiteral("a GiST index page");
    // 8 bytes of special space each: SP-GiST was called "GIN or BRIN" (issue 42 defect 11).
    QTest::newRow("sp-gist index") << QStringLiteral("shapes_spgist") << QStringList{}
                                   << QStringLiteral("not a btree index: block 0 is an SP-GiST index page");
    QTest::newRow("brin index") << QStringLiteral("hashed_brin") << QStringList{}
                                << QStringLiteral("not a btree index: block 0 is a BRIN index page");
    QTest::newRow("gin index") << QStringLiteral("tagged_gin") << QStringList{}
                               << QStringLiteral("not a btree index: block 0 is a GIN index page");
    QTest::newRow("text key")
        << QStringLiteral("words_s") << QStringList{QStringLiteral("--pg-key-range"), QStringLiteral("1:10")}
        << QStringLiteral("its key is flagged variable-width, but --pg-key int8 names fixed-width");
    QTest::newRow("old version") << QStringLiteral("copy:version") << QStringList{}
                                 << QStringLiteral("btree version 3 is older than PostgreSQL 13; REINDEX it");
    QTest::newRow("wrong magic") << QStringLiteral("copy:magic") << QStringList{}
                                 << QStringLiteral("not a btree metapage");
    QTest::newRow("zeroed page") << QStringLiteral("copy:zero") << QStringList{} << QStringLiteral("zeroed");
    QTest::newRow("torn page") << QStringLiteral("copy:torn") << QStringList{} << QStringLiteral("torn page");
    QTest::newRow("index checksum") << QStringLiteral("copy:checksum") << QStringList{}
                                    << QStringLiteral("checksum mismatch (stored");
    QTest::newRow("truncated") << QStringLiteral("copy:truncate") << QStringList{}
                               << QStringLiteral("not a whole number of 8192-byte blocks");
}

void TestPgRelation::badInputIsRefusedAndNeverWritten() {
    QFETCH(QString, index);
    QFETCH(QStringList, extra);
    QFETCH(QString, message);
    QString path;
    if (index.startsWith(QLatin1String("copy:"))) {
        const QString how = index.mid(5);
        path = m_tmp.filePath(QStringLiteral("bad-") + how);
        QFile::remove(path);
        // The checksum case needs a cluster with checksums; the others one without, so that the
        // damage they do is what is reported, not the checksum it breaks.
        const Cluster& from = how == QLatin1String("checksum") ? m_checked : m_plain;
        QVERIFY(QFile::copy(file(from, QStringLiteral("hashed_a")), path));
        QFile(path).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        // The metapage's root block: the page every scan reads after it.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray meta = f.read(kBlockSize);
        f.close();
        std::uint32_t root = 0;
        std::memcpy(&root, meta.constData() + 32, sizeof root);
        if (how == QLatin1String("version"))
            QVERIFY(patch(path, 28, u32(3)));
        else if (how == QLatin1String("magic"))
            QVERIFY(patch(path, 24, u32(0x12345)));
        else if (how == QLatin1String("zero"))
            QVERIFY(patch(path, qint64(root) * kBlockSize, QByteArray(kBlockSize, '\0')));
        else if (how == QLatin1String("checksum"))
            QVERIFY(patch(path, qint64(root) * kBlockSize + 4000, QByteArray(1, '\x5a'))); // free space
        else if (how == QLatin1String("torn"))
            QVERIFY(patch(path, qint64(root) * kBlockSize + 14, QByteArray(2, '\0'))); // pd_upper = 0
        else
            QVERIFY(QFile(path).resize(QFileInfo(path).size() - 100));
    } else {
        path = file(m_plain, index);
    }
    const QString heap = file(m_plain, QStringLiteral("hashed"));
    const QByteArray indexBefore = fileDigest(path), heapBefore = fileDigest(heap);
    const std::int64_t indexMtime = mtimeNs(path), heapMtime = mtimeNs(heap);

    const CliResult r =
        runCli(QStringList{QStringLiteral("--pg-index"), path, QStringLiteral("--pg-heap"), heap} + extra);
    QCOMPARE(r.exitCode, 2);
    const QStringList lines = r.err.trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].contains(message) && lines[0].contains(path) &&
                 lines[0].contains(QLatin1String("block")),
             qPrintable(lines[0]));
    QCOMPARE(fileDigest(path), indexBefore);
    QCOMPARE(fileDigest(heap), heapBefore);
    QCOMPARE(mtimeNs(path), indexMtime);
    QCOMPARE(mtimeNs(heap), heapMtime);
}

QTEST_GUILESS_MAIN(TestPgRelation)
#include "tst_pg_relation.moc"
