// SPDX-License-Identifier: GPL-3.0-or-later
// The offline btree reader's key types beyond the integers (docs/pg-relations.md §3), on index files
// made by real servers (15 and the shared 19): for each type (dates and timestamps, text in the C
// collation, uuid, two-column keys), the heap visits of a key range equal the server's own
// `ORDER BY key, ctid` of the same conditions, the range written as the server prints the type, and
// each date or timestamp bound read as the value the server stores for it. Keys the reader cannot
// compare offline, and damaged tuples, are refused naming what is wrong.
#include "input_error.h"
#include "pg/index_scan.h"
#include "pg/key_range.h"
#include "pg/pg_source.h"
#include "pg/tuple_key.h"
#include "pg_installations.h"
#include "pg_server.h"

#include <QTest>

#include <cstring>
#include <map>
#include <memory>
#include <vector>

using namespace la;

namespace {

constexpr int kRows = 20000;

// Keys in an order unrelated to the heap's, either side of PostgreSQL's epoch (2000-01-01), so a
// range scan hops between blocks and negative stored values are met.
constexpr const char* kSetup =
    "CREATE TABLE keyed(d date, ts timestamp, tz timestamptz, pad text);"
    "INSERT INTO keyed SELECT '1990-01-01'::date + (i * 7919) % 9000,"
    "  '1998-06-01 00:00:00'::timestamp + ((i * 7919) % %1) * interval '1 hour 7 minutes 13.25 seconds',"
    "  '1995-06-01 00:00:00+00'::timestamptz + ((i * 104729) % %1) * interval '3 hours 1.5 seconds',"
    "  repeat('x', 200) FROM generate_series(1, %1) i;"
    "INSERT INTO keyed VALUES (NULL, NULL, NULL, 'nulls sort last');"
    "CREATE INDEX keyed_d ON keyed(d); CREATE INDEX keyed_ts ON keyed(ts); CREATE INDEX keyed_tz ON "
    "keyed(tz);"
    // Text in the C collation with one-byte (short) and four-byte (long) varlena headers, upper and
    // lower case (apart in byte order) and bytes above 0x7F (after every ASCII one, compared unsigned);
    // uuids in random order; two integer columns with many equal leading keys, and NULLs in each.
    "CREATE TABLE kinds(w text COLLATE \"C\", v varchar(200) COLLATE \"C\", u uuid, a int4, b int8, pad "
    "text);"
    "INSERT INTO kinds SELECT t, t, md5(i::text)::uuid, (i * 7919) % 50, (i * 104729) % 1000, repeat('x', "
    "150)"
    "  FROM (SELECT i, CASE WHEN i % 11 = 0 THEN 'é' ELSE '' END || CASE WHEN i % 2 = 0 THEN 'W' ELSE 'w' END"
    "  || lpad(((i * 7919) % %1)::text, 5, '0') || CASE WHEN i % 10 = 0 THEN repeat('-long', 30) ELSE '' END "
    "t"
    "  FROM generate_series(1, %1) i) s;"
    "INSERT INTO kinds VALUES (NULL, NULL, NULL, NULL, NULL, 'nulls'), ('W07000', NULL, NULL, 5, NULL, 'b "
    "null');"
    "CREATE INDEX kinds_w ON kinds(w); CREATE INDEX kinds_v ON kinds(v); CREATE INDEX kinds_u ON kinds(u);"
    "CREATE INDEX kinds_ab ON kinds(a, b); CREATE INDEX kinds_aw ON kinds(a, w);"
    // A text key long enough that the index stores it compressed.
    "CREATE TABLE packed(w text COLLATE \"C\");"
    "INSERT INTO packed SELECT 'p' || i FROM generate_series(1, 500) i;"
    "INSERT INTO packed VALUES ('q' || repeat('compressible', 200));"
    "CREATE INDEX packed_w ON packed(w);"
    // Where the server has ICU: the same text under a collation that is not byte order.
    "DO $$ BEGIN IF EXISTS (SELECT FROM pg_collation WHERE collname = 'und-x-icu') THEN "
    "  CREATE INDEX kinds_w_icu ON kinds(w COLLATE \"und-x-icu\"); END IF; END $$;"
    "CHECKPOINT;";

// The heap blocks of `where`'s rows in `order` (one entry per change of block), as the server gives them.
std::vector<std::uint32_t> serverVisits(const test::PgServer& pg, const QString& table, const QString& where,
                                        const QString& order) {
    return test::visitedBlocks(
        pg.sqlLogged(QStringLiteral("SELECT string_agg(((ctid::text::point)[0]::int)::text, ',' ORDER BY %1) "
                                    "FROM %2 WHERE %3")
                         .arg(order, table, where)));
}

QString indexFile(const test::PgServer& pg, const QString& index) {
    return pg.dataDir() + QLatin1Char('/') +
           pg.sqlLogged(QStringLiteral("SELECT pg_relation_filepath('%1')").arg(index));
}

// The scan of `spec` visits the heap blocks of `table`'s rows matching `where` in `order`, as the
// server lists them, and counts those rows.
void checkVisits(const test::PgServer& pg, const pg::IndexScanSpec& spec, const QString& table,
                 const QString& where, const QString& order) {
    const std::vector<std::uint32_t> expected = serverVisits(pg, table, where, order);
    QVERIFY(expected.size() > 10);
    const pg::IndexVisits visits = pg::scanIndex(spec);
    QCOMPARE(visits.blocks.size(), expected.size());
    QVERIFY(visits.blocks == expected);
    QCOMPARE(
        visits.facts.tids,
        pg.sqlLogged(QStringLiteral("SELECT count(*) FROM %1 WHERE %2").arg(table, where)).toULongLong());
}

} // namespace

class TestPgKeyTypes : public QObject {
    Q_OBJECT

private slots:
    void visitsEqualTheServersOrder_data();
    void visitsEqualTheServersOrder();
    void optionsReachTheScan_data();
    void optionsReachTheScan();
    void uncomparableKeysAreRefused_data();
    void uncomparableKeysAreRefused();
    void tupleKeysAreReadAsLaidOut();
    void damagedTuplesAreRefused_data();
    void damagedTuplesAreRefused();
    void malformedRangesAreRefused_data();
    void malformedRangesAreRefused();

private:
    // The server of the case's row (column "installation"), with the tables made, started on first
    // use; null with the case skipped where that server is not here, or failed where it did not start.
    const test::PgServer* rowServer();
    std::map<QString, std::unique_ptr<test::PgServer>> m_servers;
};

const test::PgServer* TestPgKeyTypes::rowServer() {
    QFETCH(test::PgInstallation, installation);
    if (const QString why = test::PgServer::unavailable(installation); !why.isEmpty()) {
        QTest::qSkip(qPrintable(why), __FILE__, __LINE__);
        return nullptr;
    }
    auto& slot = m_servers[installation.name];
    if (!slot) {
        auto started = std::make_unique<test::PgServer>(installation);
        // Dates and timestamps in the tests' SQL are read, and printed, in UTC.
        QString error = started->start(false, QStringLiteral("timezone = 'UTC'"));
        if (error.isEmpty())
            started->sql(QString::fromUtf8(kSetup).arg(kRows), error);
        if (!error.isEmpty()) {
            QTest::qFail(qPrintable(error), __FILE__, __LINE__);
            return nullptr;
        }
        slot = std::move(started);
    }
    return slot.get();
}

void TestPgKeyTypes::visitsEqualTheServersOrder_data() {
    QTest::addColumn<test::PgInstallation>("installation");
    QTest::addColumn<QString>("index");     // keyed_* or kinds_*, an index of that table
    QTest::addColumn<QString>("types");     // --pg-key
    QTest::addColumn<QString>("range");     // --pg-key-range
    QTest::addColumn<QString>("collation"); // --pg-collation
    QTest::addColumn<QString>("where");     // the same conditions in SQL
    QTest::addColumn<QString>("columns");   // the index's columns, for ORDER BY
    QTest::addColumn<bool>("backward");
    QTest::addColumn<QStringList>("bounds"); // a date or timestamp range's bounds, each read as stored
    struct DateCase {
        const char *type, *column, *lo, *hi;
    };
    const DateCase dates[] = {
        {"date", "d", "1995-03-01", "2001-12-31"},
        {"date", "d", "-infinity", "1991-02-28"},
        {"date", "d", "2014-07-01", "infinity"},
        {"timestamp", "ts", "1998-09-01 12:30:00", "1999-02-03 04:05:06.789"},
        {"timestamp", "ts", "1999-12-31 12:00", "2000-01-02T01:00:00"},
        {"timestamptz", "tz", "1996-02-29", "2001-03-01 18:00:00.5"},
    };
    struct Case {
        const char *name, *index, *types, *range, *collation, *where, *columns;
    };
    const Case kinds[] = {
        // 'W' sorts before 'w' in byte order: the range holds the upper-case half's top and the
        // lower-case half's bottom, long (four-byte header) values among them.
        {"text", "kinds_w", "text", "W05000:w12000", "C", "w BETWEEN 'W05000' AND 'w12000'", "w"},
        // 'é' (0xC3 0xA9) sorts after every ASCII byte when bytes compare unsigned.
        {"text above 0x7F", "kinds_w", "text", "w19000:éW2", "POSIX", "w BETWEEN 'w19000' AND 'éW2'", "w"},
        {"text quoted", "kinds_w", "text", "\"W1\":\"W15\"", "C", "w BETWEEN 'W1' AND 'W15'", "w"},
        {"varchar", "kinds_v", "varchar", "W10000:W15000", "C", "v BETWEEN 'W10000' AND 'W15000'", "v"},
        // Bytes at and above 0x80 sort after those below.
        {"uuid", "kinds_u", "uuid", "7f000000-0000-0000-0000-000000000000:9fffffffffffffffffffffffffffffff",
         "", "u BETWEEN '7f000000-0000-0000-0000-000000000000' AND '9fffffff-ffff-ffff-ffff-ffffffffffff'",
         "u"},
        {"uuid braces", "kinds_u", "uuid",
         "{00000000-0000-0000-0000-000000000000}:{1FFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF}", "",
         "u <= '1fffffff-ffff-ffff-ffff-ffffffffffff'", "u"},
        {"int4 = and int8 range", "kinds_ab", "int4,int8", "5,100:400", "", "a = 5 AND b BETWEEN 100 AND 400",
         "a, b"},
        {"two ranges", "kinds_ab", "int4,int8", "3:6,100:400", "",
         "a BETWEEN 3 AND 6 AND b BETWEEN 100 AND 400", "a, b"},
        {"leading column only", "kinds_ab", "int4,int8", "7:9", "", "a BETWEEN 7 AND 9", "a, b"},
        {"int4 = and text range", "kinds_aw", "int4,text", "5,w00000:w10000", "C",
         "a = 5 AND w BETWEEN 'w00000' AND 'w10000'", "a, w"},
        // The text column is named so that the tuples' layout is known, but not compared: no collation.
        {"text named, not compared", "kinds_aw", "int4,text", "12:13", "", "a BETWEEN 12 AND 13", "a, w"},
    };
    for (const test::PgInstallation& installation : test::pgInstallations())
        for (const bool backward : {false, true}) {
            const char* way = backward ? "backward" : "forward";
            for (const DateCase& c : dates) {
                const QString lo = QString::fromLatin1(c.lo), hi = QString::fromLatin1(c.hi);
                const QString column = QString::fromLatin1(c.column);
                QTest::addRow("%s %s %s:%s %s", qPrintable(installation.name), c.type, c.lo, c.hi, way)
                    << installation << QStringLiteral("keyed_") + column << QString::fromLatin1(c.type)
                    << lo + QLatin1Char(':') + hi << QString()
                    << QStringLiteral("%1 BETWEEN '%2' AND '%3'").arg(column, lo, hi) << column << backward
                    << QStringList{lo, hi};
            }
            for (const Case& c : kinds)
                QTest::addRow("%s %s %s", qPrintable(installation.name), c.name, way)
                    << installation << QString::fromUtf8(c.index) << QString::fromUtf8(c.types)
                    << QString::fromUtf8(c.range) << QString::fromUtf8(c.collation)
                    << QString::fromUtf8(c.where) << QString::fromUtf8(c.columns) << backward
                    << QStringList();
        }
}

void TestPgKeyTypes::visitsEqualTheServersOrder() {
    QFETCH(QString, index);
    QFETCH(QString, types);
    QFETCH(QString, range);
    QFETCH(QString, collation);
    QFETCH(QString, where);
    QFETCH(QString, columns);
    QFETCH(bool, backward);
    QFETCH(QStringList, bounds);
    const test::PgServer* pg = rowServer();
    if (!pg)
        return;

    pg::IndexScanSpec spec;
    spec.index = indexFile(*pg, index).toStdString();
    spec.direction = backward ? Direction::Backward : Direction::Forward;
    spec.range = pg::parseKeyRange(types.toStdString(), range.toStdString(), collation.toStdString());
    QVERIFY(spec.range);

    if (!bounds.isEmpty()) {
        // Each bound is the value the server stores: days, or microseconds, since 2000-01-01.
        const QString stored =
            types == QLatin1String("date")
                ? QStringLiteral("CASE WHEN isfinite(v) THEN v - '2000-01-01'::date "
                                 "WHEN v > '2000-01-01' THEN 2147483647 ELSE -2147483648 END")
                : QStringLiteral("CASE WHEN isfinite(v) THEN (extract(epoch FROM v - "
                                 "'2000-01-01'::%1) * 1000000)::int8 WHEN v > '2000-01-01' "
                                 "THEN 9223372036854775807 ELSE -9223372036854775808 END")
                      .arg(types == QLatin1String("timestamptz") ? QStringLiteral("timestamp") : types);
        const auto storedValue = [&](const QString& literal) {
            const QString v = QStringLiteral("'%1'::%2").arg(literal, types);
            const QString value =
                types == QLatin1String("timestamptz") ? QStringLiteral("(%1 AT TIME ZONE 'UTC')").arg(v) : v;
            return pg->sqlLogged(QStringLiteral("SELECT %1 FROM (SELECT %2 AS v) s").arg(stored, value))
                .toLongLong();
        };
        QCOMPARE(spec.range->lo.values.front().integer, storedValue(bounds.front()));
        QCOMPARE(spec.range->hi.values.front().integer, storedValue(bounds.back()));
    }

    QStringList order;
    for (const QString& column : columns.split(QStringLiteral(", ")))
        order << column + (backward ? QStringLiteral(" DESC") : QString());
    order << (backward ? QStringLiteral("ctid DESC") : QStringLiteral("ctid"));
    checkVisits(*pg, spec, index.section(QLatin1Char('_'), 0, 0), where, order.join(QStringLiteral(", ")));
}

void TestPgKeyTypes::optionsReachTheScan_data() {
    QTest::addColumn<test::PgInstallation>("installation");
    for (const test::PgInstallation& installation : test::pgInstallations())
        QTest::newRow(qPrintable(installation.name)) << installation;
}

// --pg-key, --pg-key-range and --pg-collation as a run takes them (PgScanConfig, openPgSource): the
// collation reaches the range, and a text range without it is refused before the index is read.
void TestPgKeyTypes::optionsReachTheScan() {
    const test::PgServer* pg = rowServer();
    if (!pg)
        return;
    pg::PgScanConfig config;
    config.dataDir = pg->dataDir().toStdString();
    config.index = pg->sqlLogged(QStringLiteral("SELECT pg_relation_filepath('kinds_aw')")).toStdString();
    config.heap = pg->sqlLogged(QStringLiteral("SELECT pg_relation_filepath('kinds')")).toStdString();
    config.keyType = "int4,text";
    config.keyRange = "7,w05000:\"w1\"";
    config.collation = "C";
    pg::IndexFacts facts;
    QVERIFY(pg::openPgSource(config, Direction::Forward, &facts));
    QCOMPARE(facts.tids, pg->sqlLogged(QStringLiteral("SELECT count(*) FROM kinds WHERE a = 7 AND w BETWEEN "
                                                      "'w05000' AND 'w1'"))
                             .toULongLong());
    QVERIFY(facts.tids > 10);
    config.collation.clear();
    try {
        (void)pg::openPgSource(config, Direction::Forward, &facts);
        QFAIL("a text range without a collation was taken");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("give --pg-collation C")), e.what());
    }
}

void TestPgKeyTypes::uncomparableKeysAreRefused_data() {
    QTest::addColumn<test::PgInstallation>("installation");
    QTest::addColumn<QString>("index");
    QTest::addColumn<QString>("types");
    QTest::addColumn<QString>("range");
    QTest::addColumn<QString>("collation");
    QTest::addColumn<QString>("message");
    for (const test::PgInstallation& installation : test::pgInstallations()) {
        const auto row = [&](const char* name) {
            return std::ref(QTest::addRow("%s %s", qPrintable(installation.name), name) << installation);
        };
        row("compressed text") << "packed_w"
                               << "text"
                               << "p:r"
                               << "C"
                               << "its column 1 (text) is a compressed value, which only the server can "
                                  "decompress and compare";
        // A later column is variable-width: which one the reader cannot tell, so it asks.
        row("text column not named") << "kinds_aw"
                                     << "int4"
                                     << "12:13"
                                     << ""
                                     << "its key is flagged variable-width, but --pg-key int4 names "
                                        "fixed-width columns only";
        // Said to be C, sorted by ICU: found out of order, and the collation named.
        row("not byte order") << "kinds_w_icu"
                              << "text"
                              << "A:ÿ"
                              << "C"
                              << "or its collation is not C)";
    }
}

void TestPgKeyTypes::uncomparableKeysAreRefused() {
    QFETCH(QString, index);
    QFETCH(QString, types);
    QFETCH(QString, range);
    QFETCH(QString, collation);
    QFETCH(QString, message);
    const test::PgServer* pg = rowServer();
    if (!pg)
        return;
    const QString file =
        pg->sqlLogged(QStringLiteral("SELECT pg_relation_filepath(to_regclass('%1'))").arg(index));
    if (file.isEmpty())
        QSKIP("this server has no ICU collation");
    pg::IndexScanSpec spec;
    spec.index = (pg->dataDir() + QLatin1Char('/') + file).toStdString();
    spec.range = pg::parseKeyRange(types.toStdString(), range.toStdString(), collation.toStdString());
    for (const Direction direction : {Direction::Forward, Direction::Backward}) {
        spec.direction = direction;
        try {
            (void)pg::scanIndex(spec);
            QFAIL("the scan was not refused");
        } catch (const InputError& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains(message), e.what());
            QVERIFY2(what.startsWith(QStringLiteral("--pg-index ")), e.what());
        }
    }
}

namespace {

constexpr std::uint16_t kVarWidth = 0x4000, kHasNulls = 0x8000;

// An index tuple as PostgreSQL lays one out: a TID, t_info with the size and `flags`, and `body`
// (the null bitmap's 8 bytes first if `flags` has kHasNulls), padded to 8 bytes.
std::vector<std::byte> tupleOf(std::uint16_t flags, const std::string& body) {
    const std::size_t size = (8 + body.size() + 7) / 8 * 8;
    std::vector<std::byte> t(size);
    const std::uint16_t head[4] = {0, 1, 1, static_cast<std::uint16_t>(size | flags)};
    std::memcpy(t.data(), head, sizeof head);
    std::memcpy(t.data() + 8, body.data(), body.size());
    return t;
}

template <typename T> std::string bytesOf(T value) {
    return std::string(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string shortText(const std::string& text) {
    return std::string(1, static_cast<char>(((text.size() + 1) << 1) | 1)) + text;
}

std::string longText(const std::string& text) {
    return bytesOf(static_cast<std::uint32_t>((text.size() + 4) << 2)) + text;
}

// The key `columns` read from `tuple`, as text, or the problem.
QString keyOf(const std::vector<std::byte>& tuple, const std::string& columns) {
    pg::IndexTuple parsed;
    if (const std::string problem =
            pg::parseIndexTuple(tuple.data(), static_cast<std::uint32_t>(tuple.size()), parsed);
        !problem.empty())
        return QString::fromStdString(problem);
    const std::vector<pg::KeyColumn> types = pg::parseKeyColumns(columns);
    pg::TupleKey key;
    const std::string problem = pg::readTupleKey(parsed, types, types.size(), key);
    return QString::fromStdString(problem.empty() ? pg::keyText(types, key) : problem);
}

} // namespace

void TestPgKeyTypes::tupleKeysAreReadAsLaidOut() {
    // int2 then int4: the int4 aligned to 4 bytes, past two pad bytes.
    QCOMPARE(keyOf(tupleOf(0, bytesOf<std::int16_t>(-7) + std::string(2, '\xEE') + bytesOf<std::int32_t>(9)),
                   "int2,int4"),
             QStringLiteral("(-7, 9)"));
    // A short text is not aligned; the int8 after it is, to 8.
    QCOMPARE(keyOf(tupleOf(kVarWidth, shortText("abc") + std::string(4, '\0') + bytesOf<std::int64_t>(-2)),
                   "text,int8"),
             QStringLiteral("('abc', -2)"));
    // A four-byte header is aligned to 4: the zero pad byte before it tells it from a short one.
    QCOMPARE(
        keyOf(tupleOf(kVarWidth, shortText("x") + std::string(2, '\0') + longText(std::string(130, 'y'))),
              "text,varchar"),
        QStringLiteral("('x', '") + QString(40, QLatin1Char('y')) + QStringLiteral("… (130 bytes)')"));
    // uuid has no alignment; a NULL takes no bytes, its bit clear in the bitmap.
    std::string uuid(16, '\0');
    uuid[0] = '\x9f';
    QCOMPARE(keyOf(tupleOf(kHasNulls, std::string("\x05\0\0\0\0\0\0\0", 8) + uuid + bytesOf<std::int32_t>(3)),
                   "uuid,int8,int4"),
             QStringLiteral("(9f000000-0000-0000-0000-000000000000, NULL, 3)"));
}

void TestPgKeyTypes::damagedTuplesAreRefused_data() {
    QTest::addColumn<QByteArray>("tuple");
    QTest::addColumn<QString>("columns");
    QTest::addColumn<QString>("message");
    const auto bytes = [](const std::vector<std::byte>& t) {
        return QByteArray(reinterpret_cast<const char*>(t.data()), qsizetype(t.size()));
    };
    QTest::newRow("short text past the end")
        << bytes(tupleOf(kVarWidth, std::string(1, static_cast<char>((40 << 1) | 1)) + "abc")) << "text"
        << "a variable-width value of 40 bytes where 8 are left in the tuple";
    QTest::newRow("long header cut") << bytes(tupleOf(kVarWidth,
                                                      shortText("abcd") + std::string("\x10\0\0", 3)))
                                     << "text,text"
                                     << "its column 2 (text) is a variable-width value's 4-byte header past";
    QTest::newRow("toast pointer") << bytes(tupleOf(kVarWidth,
                                                    std::string("\x01\x12", 2) + std::string(6, 'p')))
                                   << "text"
                                   << "a value stored out of line (TOAST pointer)";
    QTest::newRow("compressed") << bytes(tupleOf(kVarWidth, bytesOf<std::uint32_t>((8 << 2) | 2) + "zzzz"))
                                << "text"
                                << "a compressed value, which only the server can decompress";
    QTest::newRow("int8 past the end")
        << bytes(tupleOf(0, bytesOf<std::int32_t>(1))) << "int4,int8"
        << "its column 2 (int8) needs 8 bytes at key offset 8, past the key's 8";
    QTest::newRow("uuid past the end") << bytes(tupleOf(0, bytesOf<std::int64_t>(1))) << "uuid"
                                       << "its column 1 (uuid) needs 16 bytes";
    QTest::newRow("text named fixed") << bytes(tupleOf(kVarWidth, shortText("abcdefg"))) << "int8"
                                      << "flagged variable-width, but --pg-key int8 names fixed-width";
}

void TestPgKeyTypes::damagedTuplesAreRefused() {
    QFETCH(QByteArray, tuple);
    QFETCH(QString, columns);
    QFETCH(QString, message);
    std::vector<std::byte> bytes(std::size_t(tuple.size()));
    std::memcpy(bytes.data(), tuple.constData(), bytes.size());
    const QString what = keyOf(bytes, columns.toStdString());
    QVERIFY2(what.contains(message), qPrintable(what));
}

void TestPgKeyTypes::malformedRangesAreRefused_data() {
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("range");
    QTest::addColumn<QString>("message");
    QTest::newRow("not a date") << "date"
                                << "2024-02-30:2024-03-01"
                                << "expected LO:HI, two dates";
    QTest::newRow("a time on a date") << "date"
                                      << "2024-01-01 10:00:2024-03-01"
                                      << "expected LO:HI, two dates";
    QTest::newRow("an integer for a date") << "date"
                                           << "1:2"
                                           << "expected LO:HI, two dates";
    QTest::newRow("hour 24") << "timestamp"
                             << "2024-01-01 24:00:2024-03-01"
                             << "two timestamps";
    QTest::newRow("seven fraction digits") << "timestamptz"
                                           << "2024-01-01 10:00:00.1234567:2024-03-01"
                                           << "two timestamps";
    QTest::newRow("a zone") << "timestamptz"
                            << "2024-01-01 10:00:00+02:2024-03-01"
                            << "two timestamps";
    QTest::newRow("reversed") << "timestamp"
                              << "2024-01-02:2024-01-01 23:59:59.999999"
                              << "LO is greater than HI";
    QTest::newRow("int4 too large") << "int4"
                                    << "1:2147483648"
                                    << "two integers of int4";
    QTest::newRow("unknown type") << "int4,numeric"
                                  << "1:2"
                                  << "'numeric' is not a key type the offline reader knows";
    QTest::newRow("too many conditions") << "int4,int8"
                                         << "1,2,3"
                                         << "has 3 conditions but --pg-key 'int4,int8' names 2 column(s)";
    QTest::newRow("condition of column 2") << "int4,date"
                                           << "5,2024-13-01"
                                           << "condition 2 (date): expected LO:HI, two dates";
    QTest::newRow("uuid digit missing") << "uuid"
                                        << "0000000-0000-0000-0000-000000000000"
                                        << "expected LO:HI, two uuids";
    QTest::newRow("uuid hyphen misplaced") << "uuid"
                                           << "000-00000-0000-0000-0000-000000000000"
                                           << "expected LO:HI, two uuids";
    QTest::newRow("uuid reversed") << "uuid"
                                   << "80000000000000000000000000000000:7fffffffffffffffffffffffffffffff"
                                   << "LO is greater than HI";
    QTest::newRow("text two colons") << "text|C"
                                     << "a:b:c"
                                     << "more than one ':' outside double quotes";
    QTest::newRow("text quote unclosed") << "text|C"
                                         << "\"a:b"
                                         << "expected LO:HI, two strings";
    QTest::newRow("text reversed") << "text|C"
                                   << "b:a"
                                   << "LO is greater than HI";
    QTest::newRow("text without a collation") << "text"
                                              << "a:b"
                                              << "the index's files do not record which";
    QTest::newRow("text in another collation") << "int4,text|en_US.utf8"
                                               << "1,a:b"
                                               << "--pg-collation 'en_US.utf8': only C and POSIX";
}

void TestPgKeyTypes::malformedRangesAreRefused() {
    QFETCH(QString, type);
    QFETCH(QString, range);
    QFETCH(QString, message);
    // A collation after a '|' in the type.
    const QString collation = type.section(QLatin1Char('|'), 1);
    type = type.section(QLatin1Char('|'), 0, 0);
    try {
        (void)pg::parseKeyRange(type.toStdString(), range.toStdString(), collation.toStdString());
        QFAIL("the range was accepted");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
    }
}

QTEST_GUILESS_MAIN(TestPgKeyTypes)
#include "tst_pg_key_types.moc"
