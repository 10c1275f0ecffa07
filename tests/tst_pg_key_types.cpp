// SPDX-License-Identifier: GPL-3.0-or-later
// The offline btree reader's key types beyond the integers (docs/pg-relations.md §3), on index files
// made by real servers (15 and the shared 19): for each type, the heap visits of a key range equal the
// server's own `ORDER BY key, ctid` of `key BETWEEN LO AND HI`, the range written as the server prints
// the type, and each bound read as the value the server stores for it.
#include "input_error.h"
#include "pg/index_scan.h"
#include "pg/key_range.h"
#include "pg_installations.h"
#include "pg_server.h"

#include <QTest>

#include <map>
#include <memory>
#include <vector>

using namespace la;

namespace {

constexpr int kRows = 20000;

// Keys in an order unrelated to the heap's, either side of PostgreSQL's epoch (2000-01-01), so a
// range scan hops between blocks and negative stored values are met.
constexpr const char* kSetup =
    "SET TimeZone = 'UTC';"
    "CREATE TABLE keyed(d date, ts timestamp, tz timestamptz, pad text);"
    "INSERT INTO keyed SELECT '1990-01-01'::date + (i * 7919) % 9000,"
    "  '1998-06-01 00:00:00'::timestamp + ((i * 7919) % %1) * interval '1 hour 7 minutes 13.25 seconds',"
    "  '1995-06-01 00:00:00+00'::timestamptz + ((i * 104729) % %1) * interval '3 hours 1.5 seconds',"
    "  repeat('x', 200) FROM generate_series(1, %1) i;"
    "INSERT INTO keyed VALUES (NULL, NULL, NULL, 'nulls sort last');"
    "CREATE INDEX keyed_d ON keyed(d); CREATE INDEX keyed_ts ON keyed(ts); CREATE INDEX keyed_tz ON "
    "keyed(tz);"
    "CHECKPOINT;";

} // namespace

class TestPgKeyTypes : public QObject {
    Q_OBJECT

private slots:
    void visitsEqualTheServersOrder_data();
    void visitsEqualTheServersOrder();
    void malformedRangesAreRefused_data();
    void malformedRangesAreRefused();

private:
    // The server of `installation`, with the table made, started on first use.
    test::PgServer* server(const test::PgInstallation& installation, QString& error);
    std::map<QString, std::unique_ptr<test::PgServer>> m_servers;
};

test::PgServer* TestPgKeyTypes::server(const test::PgInstallation& installation, QString& error) {
    auto& slot = m_servers[installation.name];
    if (!slot) {
        auto started = std::make_unique<test::PgServer>(installation);
        error = started->start();
        if (error.isEmpty())
            started->sql(QString::fromLatin1(kSetup).arg(kRows), error);
        if (!error.isEmpty())
            return nullptr;
        slot = std::move(started);
    }
    return slot.get();
}

void TestPgKeyTypes::visitsEqualTheServersOrder_data() {
    QTest::addColumn<test::PgInstallation>("installation");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("column");
    QTest::addColumn<QString>("lo");
    QTest::addColumn<QString>("hi");
    QTest::addColumn<bool>("backward");
    struct Case {
        const char *type, *column, *lo, *hi;
    };
    const Case cases[] = {
        {"date", "d", "1995-03-01", "2001-12-31"},
        {"date", "d", "-infinity", "1991-02-28"},
        {"date", "d", "2014-07-01", "infinity"},
        {"timestamp", "ts", "1998-09-01 12:30:00", "1999-02-03 04:05:06.789"},
        {"timestamp", "ts", "1999-12-31 12:00", "2000-01-02T01:00:00"},
        {"timestamptz", "tz", "1996-02-29", "2001-03-01 18:00:00.5"},
    };
    for (const test::PgInstallation& installation : test::pgInstallations())
        for (const Case& c : cases)
            for (const bool backward : {false, true})
                QTest::addRow("%s %s %s:%s %s", qPrintable(installation.name), c.type, c.lo, c.hi,
                              backward ? "backward" : "forward")
                    << installation << QString::fromLatin1(c.type) << QString::fromLatin1(c.column)
                    << QString::fromLatin1(c.lo) << QString::fromLatin1(c.hi) << backward;
}

void TestPgKeyTypes::visitsEqualTheServersOrder() {
    QFETCH(test::PgInstallation, installation);
    QFETCH(QString, type);
    QFETCH(QString, column);
    QFETCH(QString, lo);
    QFETCH(QString, hi);
    QFETCH(bool, backward);
    if (const QString why = test::PgServer::unavailable(installation); !why.isEmpty())
        QSKIP(qPrintable(why));
    QString error;
    const test::PgServer* pg = server(installation, error);
    QVERIFY2(pg, qPrintable(error));
    const auto sql = [&](const QString& text) {
        QString problem;
        const QString out = pg->sql(QStringLiteral("SET TimeZone = 'UTC'; ") + text, problem);
        if (!problem.isEmpty())
            qWarning("%s", qPrintable(problem));
        return out;
    };

    pg::IndexScanSpec spec;
    spec.index = (pg->dataDir() + QLatin1Char('/') +
                  sql(QStringLiteral("SELECT pg_relation_filepath('keyed_%1')").arg(column)))
                     .toStdString();
    spec.direction = backward ? Direction::Backward : Direction::Forward;
    spec.range = pg::parseKeyRange(type.toStdString(), (lo + QLatin1Char(':') + hi).toStdString());
    QVERIFY(spec.range);

    // Each bound is the value the server stores: days, or microseconds, since 2000-01-01.
    const QString stored =
        type == QLatin1String("date")
            ? QStringLiteral("CASE WHEN isfinite(v) THEN v - '2000-01-01'::date "
                             "WHEN v > '2000-01-01' THEN 2147483647 ELSE -2147483648 END")
            : QStringLiteral("CASE WHEN isfinite(v) THEN (extract(epoch FROM v - "
                             "'2000-01-01'::%1) * 1000000)::int8 WHEN v > '2000-01-01' "
                             "THEN 9223372036854775807 ELSE -9223372036854775808 END")
                  .arg(type == QLatin1String("timestamptz") ? QStringLiteral("timestamp") : type);
    const auto storedValue = [&](const QString& literal) {
        const QString v = QStringLiteral("'%1'::%2").arg(literal, type);
        const QString value =
            type == QLatin1String("timestamptz") ? QStringLiteral("(%1 AT TIME ZONE 'UTC')").arg(v) : v;
        return sql(QStringLiteral("SELECT %1 FROM (SELECT %2 AS v) s").arg(stored, value)).toLongLong();
    };
    QCOMPARE(spec.range->lo.values.front().integer, storedValue(lo));
    QCOMPARE(spec.range->hi.values.front().integer, storedValue(hi));

    const QString order = backward ? QStringLiteral("%1 DESC, ctid DESC") : QStringLiteral("%1, ctid");
    const std::vector<std::uint32_t> expected = test::visitedBlocks(
        sql(QStringLiteral("SELECT string_agg(((ctid::text::point)[0]::int)::text, ',' ORDER BY %1) "
                           "FROM keyed WHERE %2 BETWEEN '%3' AND '%4'")
                .arg(order.arg(column), column, lo, hi)));
    QVERIFY(expected.size() > 10);
    const pg::IndexVisits visits = pg::scanIndex(spec);
    QCOMPARE(visits.blocks.size(), expected.size());
    QVERIFY(visits.blocks == expected);
    const QString rows =
        sql(QStringLiteral("SELECT count(*) FROM keyed WHERE %1 BETWEEN '%2' AND '%3'").arg(column, lo, hi));
    QCOMPARE(visits.facts.tids, rows.toULongLong());
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
}

void TestPgKeyTypes::malformedRangesAreRefused() {
    QFETCH(QString, type);
    QFETCH(QString, range);
    QFETCH(QString, message);
    try {
        (void)pg::parseKeyRange(type.toStdString(), range.toStdString());
        QFAIL("the range was accepted");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
    }
}

QTEST_GUILESS_MAIN(TestPgKeyTypes)
#include "tst_pg_key_types.moc"
