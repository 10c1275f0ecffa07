// SPDX-License-Identifier: GPL-3.0-or-later
// The command-line contract, end to end: the built binary, its files and its exit codes.
#include "cli_process.h"
#include "test_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Result = la::test::CliResult;

Result lookahead(const QStringList& args) {
    return la::test::runLookahead(args, 120'000);
}

using la::test::blockLines;
using la::test::readJson;
using la::test::summaryRun;
using la::test::writeFile;

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpAndVersion();
    void listDatasets();
    void compareWritesSummaryAndTrace();
    void blockListRun();
    void repeatKeepsEveryRun();
    void explainIoFigures();
    void compareModes_data();
    void compareModes();
    void directGovernsSimulatedAdvice_data();
    void directGovernsSimulatedAdvice();
    void policyOnOtherMechanics();
    void badInput_data();
    void badInput();

private:
    QTemporaryDir m_dir;
};

void TestCli::helpAndVersion() {
    const Result help = lookahead({QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains(QLatin1String("--compare-policy")));
    const Result version = lookahead({QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QVERIFY(version.out.startsWith(QLatin1String("lookahead ")));
}

void TestCli::listDatasets() {
    const Result r = lookahead({QStringLiteral("--list-datasets")});
    QCOMPARE(r.exitCode, 0);
    for (const char* name : {"alternating", "sparse-miss:K", "random", "seq", "uniform", "linear", "cyclic",
                             "hash-clustered", "tpcc-order_line-pk", "pgbench-ios-backward"})
        QVERIFY2(r.out.contains(QLatin1String(name)), name);
}

void TestCli::compareWritesSummaryAndTrace() {
    const QString json = m_dir.filePath(QStringLiteral("summary.json"));
    const QString csv = m_dir.filePath(QStringLiteral("trace.csv"));
    const Result r = lookahead(
        {QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("alternating"),
         QStringLiteral("--policy"), QStringLiteral("pg18"), QStringLiteral("--compare-policy"),
         QStringLiteral("pg19"), QStringLiteral("--summary-json"), json, QStringLiteral("--trace-csv"), csv});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QLatin1String("DISTANCE COLLAPSE")));
    QVERIFY(r.out.contains(QLatin1String("B (pg19):")));

    const QJsonObject doc = readJson(json);
    QVERIFY(!doc.isEmpty());
    QCOMPARE(doc[QStringLiteral("schema")].toString(), QStringLiteral("lookahead.summary/1"));
    QCOMPARE(doc[QStringLiteral("config")].toObject()[QStringLiteral("dataset")].toString(),
             QStringLiteral("alternating"));
    const QJsonArray runs = doc[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    for (const char* key :
         {"policy", "blocks", "hits", "misses", "ios", "io_size_hist", "bytes_read", "waits", "wait_ns",
          "runtime_ns", "distance_mean", "distance_max", "frac_distance_le2", "collapse_intervals"})
        QVERIFY2(runs[0].toObject().contains(QLatin1String(key)), key);
    const QJsonObject pg18 = runs[0].toObject();
    const QJsonObject pg19 = runs[1].toObject();
    QCOMPARE(pg18[QStringLiteral("policy")].toString(), QStringLiteral("pg18"));
    QCOMPARE(pg18[QStringLiteral("blocks")].toInteger(), pg18[QStringLiteral("hits")].toInteger() * 2);
    QCOMPARE(pg18[QStringLiteral("waits")].toInteger(), pg18[QStringLiteral("misses")].toInteger());
    QCOMPARE(pg18[QStringLiteral("io_size_hist")].toObject()[QStringLiteral("1")].toInteger(),
             pg18[QStringLiteral("ios")].toInteger());
    QCOMPARE(pg18[QStringLiteral("collapse_intervals")].toArray().size(), 1);
    QCOMPARE(pg19[QStringLiteral("collapse_intervals")].toArray().size(), 0);
    QVERIFY(pg19[QStringLiteral("runtime_ns")].toInteger() < pg18[QStringLiteral("runtime_ns")].toInteger());

    QFile trace(csv);
    QVERIFY(trace.open(QIODevice::ReadOnly));
    const QByteArray header = trace.readLine();
    QVERIFY(header.startsWith("run,time_ns,position,event,block"));
    qint64 rows = 0;
    bool sawPg19 = false;
    while (!trace.atEnd()) {
        const QByteArray line = trace.readLine();
        sawPg19 |= line.startsWith("pg19,");
        ++rows;
    }
    QVERIFY(rows > 65536 * 2);
    QVERIFY(sawPg19);
}

void TestCli::blockListRun() {
    const QString list = m_dir.filePath(QStringLiteral("blocks.txt"));
    writeFile(list, "# three blocks, then a descending run\n5\n6\n7\n\n100\n99\n98\n");
    const QString json = m_dir.filePath(QStringLiteral("list.json"));
    const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--blocks"), list,
                                QStringLiteral("--summary-json"), json});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject run = summaryRun(json);
    QVERIFY(!run.isEmpty());
    QCOMPARE(run[QStringLiteral("blocks")].toInteger(), 6);
    QCOMPARE(run[QStringLiteral("misses")].toInteger(), 6);
}

// --repeat with real I/O (pread of a small file in a cache directory of the test's own): each run's
// object keeps every repeat's run time, and the verdict judges them as repeats (docs/repeats.md).
void TestCli::repeatKeepsEveryRun() {
    const QString json = m_dir.filePath(QStringLiteral("repeat.json"));
    const Result r =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--io"), QStringLiteral("sync"),
                   QStringLiteral("--cache-dir"), m_dir.filePath(QStringLiteral("repeat-cache")),
                   QStringLiteral("--dataset"), QStringLiteral("seq"), QStringLiteral("--pattern-blocks"),
                   QStringLiteral("512"), QStringLiteral("--policy"), QStringLiteral("pg18"),
                   QStringLiteral("--compare-policy"), QStringLiteral("pg19"), QStringLiteral("--repeat"),
                   QStringLiteral("3"), QStringLiteral("--summary-json"), json});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QLatin1String("B (pg19), repeat 3: run time")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QLatin1String("3 and 3 runs are too few")), qPrintable(r.out));
    const QJsonArray runs = readJson(json)[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    for (const QJsonValue& run : runs) {
        const QJsonObject o = run.toObject();
        QCOMPARE(o[QStringLiteral("repeats")].toInteger(), 3);
        const QJsonArray times = o[QStringLiteral("runtime_ns_runs")].toArray();
        QCOMPARE(times.size(), 3);
        QVERIFY(times.contains(o[QStringLiteral("runtime_ns")]));
        QCOMPARE(o[QStringLiteral("waits_runs")].toArray().size(), 3);
        QCOMPARE(o[QStringLiteral("runtime_ns_spread")].toObject()[QStringLiteral("median")].toInteger(),
                 o[QStringLiteral("runtime_ns")].toInteger());
    }
    // Out of range: refused before anything runs.
    const Result tooMany =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--repeat"), QStringLiteral("101")});
    QCOMPARE(tooMany.exitCode, 2);
    QVERIFY(tooMany.err.contains(QLatin1String("--repeat")));
}

void TestCli::explainIoFigures() {
    // EXPLAIN (ANALYZE, IO)'s figures (docs/explain-io.md): in the JSON unrounded, on stdout in
    // explain.c's text form, and agreeing with the run's own counts.
    const QString list = writeFile(m_dir.filePath(QStringLiteral("seq.txt")), blockLines(0, 64));
    const QString json = m_dir.filePath(QStringLiteral("explain.json"));
    const Result r =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--blocks"), list, QStringLiteral("--policy"),
                   QStringLiteral("fixed:8"), QStringLiteral("--summary-json"), json});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject run = summaryRun(json);
    QVERIFY(!run.isEmpty());
    const QJsonObject io = run[QStringLiteral("explain_io")].toObject();
    for (const char* key : {"prefetch_avg", "prefetch_max", "prefetch_capacity", "io_count", "io_waits",
                            "io_size_avg", "io_inprogress_avg"})
        QVERIFY2(io.contains(QLatin1String(key)) && !io[QLatin1String(key)].isNull(), key);
    const qint64 ios = run[QStringLiteral("ios")].toInteger();
    QCOMPARE(io[QStringLiteral("io_count")].toInteger(), ios);
    QCOMPARE(io[QStringLiteral("io_size_avg")].toDouble() * double(ios), 64.0); // every block read once
    QCOMPARE(io[QStringLiteral("prefetch_capacity")].toInteger(),
             run[QStringLiteral("max_pinned")].toInteger());
    QVERIFY(io[QStringLiteral("prefetch_max")].toInteger() <= 8);       // a distance of 8 pins at most 8
    QVERIFY(io[QStringLiteral("io_inprogress_avg")].toDouble() >= 1.0); // each read counts itself

    const QString prefetch = QStringLiteral("  Prefetch: avg=%1 max=%2 capacity=%3\n")
                                 .arg(io[QStringLiteral("prefetch_avg")].toDouble(), 0, 'f', 2)
                                 .arg(io[QStringLiteral("prefetch_max")].toInteger())
                                 .arg(io[QStringLiteral("prefetch_capacity")].toInteger());
    const QString reads = QStringLiteral("  I/O: count=%1 waits=%2 size=%3 in-progress=%4\n")
                              .arg(ios)
                              .arg(io[QStringLiteral("io_waits")].toInteger())
                              .arg(io[QStringLiteral("io_size_avg")].toDouble(), 0, 'f', 2)
                              .arg(io[QStringLiteral("io_inprogress_avg")].toDouble(), 0, 'f', 2);
    QVERIFY2(r.out.contains(prefetch + reads), qPrintable(r.out));
    // Not an index scan: the lines are those PostgreSQL 19 prints for the three scan nodes it has them for.
    const QString note = io[QStringLiteral("note")].toString();
    QVERIFY2(note.contains(QStringLiteral("Seq Scan, Bitmap Heap Scan and TID Range Scan")),
             qPrintable(note));
    QVERIFY2(r.out.contains(prefetch + reads + QStringLiteral("  (%1)\n").arg(note)), qPrintable(r.out));
}

void TestCli::compareModes_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("compare");
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QStringList>("directions");
    const QStringList backward{QStringLiteral("--dataset"),   QStringLiteral("linear"),
                               QStringLiteral("--direction"), QStringLiteral("backward"),
                               QStringLiteral("--policy"),    QStringLiteral("pg18")};
    QTest::newRow("backward combining")
        << (backward + QStringList{QStringLiteral("--compare-backward-combining")})
        << QStringLiteral("backward-combining")
        << QStringList{QStringLiteral("pg18"), QStringLiteral("pg18 + backward combining")}
        << QStringList{QStringLiteral("backward"), QStringLiteral("backward")};
    QTest::newRow("direction") << (backward + QStringList{QStringLiteral("--compare-direction")})
                               << QStringLiteral("direction")
                               << QStringList{QStringLiteral("pg18 backward"), QStringLiteral("pg18 forward")}
                               << QStringList{QStringLiteral("backward"), QStringLiteral("forward")};
    QTest::newRow("none") << backward << QStringLiteral("none") << QStringList{QStringLiteral("pg18")}
                          << QStringList{QStringLiteral("backward")};
}

// The command line runs the same experiments as the window, and the JSON says which run is which.
void TestCli::compareModes() {
    QFETCH(QStringList, args);
    QFETCH(QString, compare);
    QFETCH(QStringList, labels);
    QFETCH(QStringList, directions);
    const QString json = m_dir.filePath(QStringLiteral("compare-%1.json").arg(compare));
    const Result r =
        lookahead(QStringList{QStringLiteral("--headless"), QStringLiteral("--summary-json"), json} + args);
    QCOMPARE(r.exitCode, 0);
    const QJsonObject doc = readJson(json);
    QVERIFY(!doc.isEmpty());
    QCOMPARE(doc[QStringLiteral("compare")].toString(), compare);
    const QJsonArray runs = doc[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), labels.size());
    for (int i = 0; i < runs.size(); ++i) {
        const QJsonObject run = runs[i].toObject();
        QCOMPARE(run[QStringLiteral("label")].toString(), labels[i]);
        QCOMPARE(run[QStringLiteral("direction")].toString(), directions[i]);
        QCOMPARE(run[QStringLiteral("options")].toObject()[QStringLiteral("direction")].toString(),
                 directions[i]);
        QVERIFY2(r.out.contains(labels[i]), qPrintable(r.out));
    }
    if (compare == QLatin1String("backward-combining")) {
        // One 8 kB read per block without combining, 128 kB reads with it.
        const QJsonObject a = runs[0].toObject();
        const QJsonObject b = runs[1].toObject();
        QCOMPARE(a[QStringLiteral("ios")].toInteger(), a[QStringLiteral("blocks")].toInteger());
        QVERIFY(b[QStringLiteral("ios")].toInteger() * 10 < a[QStringLiteral("ios")].toInteger());
        QCOMPARE(b[QStringLiteral("options")].toObject()[QStringLiteral("backward_combining")].toBool(),
                 true);
    }
}

void TestCli::directGovernsSimulatedAdvice_data() {
    QTest::addColumn<QString>("flag");
    QTest::addColumn<bool>("direct");
    QTest::addColumn<int>("distance");
    // PG17 advises random reads unless O_DIRECT is on: doubling (C) up to max_pinned 64, else
    // behaviour B up to io_combine_limit. The simulated device defaults to buffered.
    QTest::newRow("default") << QString() << false << 64;
    QTest::newRow("--buffered") << QStringLiteral("--buffered") << false << 64;
    QTest::newRow("--direct") << QStringLiteral("--direct") << true << 16;
}

void TestCli::directGovernsSimulatedAdvice() {
    QFETCH(QString, flag);
    QFETCH(bool, direct);
    QFETCH(int, distance);
    const QString list = writeFile(m_dir.filePath(QStringLiteral("spaced.txt")), blockLines(0, 6000, 2));
    const QString json = m_dir.filePath(QStringLiteral("direct.json"));
    QStringList args{
        QStringLiteral("--headless"), QStringLiteral("--blocks"),       list, QStringLiteral("--policy"),
        QStringLiteral("pg17"),       QStringLiteral("--summary-json"), json};
    if (!flag.isEmpty())
        args << flag;
    const Result r = lookahead(args);
    QCOMPARE(r.exitCode, 0);
    const QJsonObject run = summaryRun(json);
    QVERIFY(!run.isEmpty());
    QCOMPARE(run[QStringLiteral("direct_io")].toBool(), direct);
    QCOMPARE(run[QStringLiteral("distance_max")].toInt(), distance);
}

void TestCli::policyOnOtherMechanics() {
    const QString json = m_dir.filePath(QStringLiteral("mechanics.json"));
    const Result r =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--pattern-blocks"), QStringLiteral("4096"),
                   QStringLiteral("--policy"), QStringLiteral("adaptive"), QStringLiteral("--mechanics"),
                   QStringLiteral("pg18"), QStringLiteral("--compare-policy"), QStringLiteral("pg19"),
                   QStringLiteral("--summary-json"), json});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject summary = readJson(json);
    QVERIFY(!summary.isEmpty());
    QCOMPARE(summary[QStringLiteral("config")].toObject()[QStringLiteral("mechanics")].toString(),
             QStringLiteral("pg18"));
    const QJsonArray runs = summary[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].toObject()[QStringLiteral("mechanics")].toString(), QStringLiteral("pg18"));
    QCOMPARE(runs[1].toObject()[QStringLiteral("mechanics")].toString(), QStringLiteral("pg18"));
    QVERIFY(lookahead({QStringLiteral("--help")}).out.contains(QStringLiteral("--mechanics M")));
}

void TestCli::badInput_data() {
    QTest::addColumn<QStringList>("args"); // after --headless
    QTest::addColumn<QString>("message");
    const QString bad = m_dir.filePath(QStringLiteral("bad.txt"));
    writeFile(bad, "1\n2\nthree\n4\n");
    QTest::newRow("unknown dataset") << QStringList{QStringLiteral("--dataset"), QStringLiteral("nope")}
                                     << QStringLiteral("nope");
    QTest::newRow("unknown policy") << QStringList{QStringLiteral("--policy"), QStringLiteral("pg16")}
                                    << QStringLiteral("unknown policy 'pg16'");
    QTest::newRow("unknown mechanics")
        << QStringList{QStringLiteral("--mechanics"), QStringLiteral("pg16")}
        << QStringLiteral("--mechanics 'pg16': choose pg17, pg18, pg19 or cf7035");
    QTest::newRow("bad fixed distance")
        << QStringList{QStringLiteral("--policy"), QStringLiteral("fixed:0")} << QStringLiteral("fixed:0");
    QTest::newRow("malformed block list")
        << QStringList{QStringLiteral("--blocks"), bad} << QStringLiteral("line 3");
    QTest::newRow("unreadable file") << QStringList{QStringLiteral("--blocks"),
                                                    QStringLiteral("/nonexistent/blocks.txt")}
                                     << QStringLiteral("/nonexistent/blocks.txt");
    QTest::newRow("eic out of range")
        << QStringList{QStringLiteral("--eic"), QStringLiteral("5000")} << QStringLiteral("--eic");
    QTest::newRow("combine limit 0") << QStringList{QStringLiteral("--io-combine-limit"), QStringLiteral("0")}
                                     << QStringLiteral("--io-combine-limit");
    QTest::newRow("not a number") << QStringList{QStringLiteral("--consumer-ns"), QStringLiteral("fast")}
                                  << QStringLiteral("--consumer-ns 'fast'");
    QTest::newRow("bad prewarm") << QStringList{QStringLiteral("--prewarm"), QStringLiteral("every:0")}
                                 << QStringLiteral("prewarm 'every:0'");
    QTest::newRow("bad direction") << QStringList{QStringLiteral("--direction"), QStringLiteral("sideways")}
                                   << QStringLiteral("sideways");
    QTest::newRow("bad scale") << QStringList{QStringLiteral("--dataset"), QStringLiteral("uniform"),
                                              QStringLiteral("--scale"), QStringLiteral("2")}
                               << QStringLiteral("--scale");
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate")}
                                    << QStringLiteral("--frobnicate");
    QTest::newRow("missing value") << QStringList{QStringLiteral("--dataset")}
                                   << QStringLiteral("--dataset needs a value");
    QTest::newRow("two compare modes")
        << QStringList{QStringLiteral("--compare-direction"), QStringLiteral("--compare-policy"),
                       QStringLiteral("pg19")}
        << QStringLiteral("choose one");
    QTest::newRow("unwritable summary")
        << QStringList{QStringLiteral("--summary-json"), QStringLiteral("/nonexistent/dir/s.json")}
        << QStringLiteral("/nonexistent/dir/s.json");
}

void TestCli::badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Result r = lookahead(QStringList{QStringLiteral("--headless")} + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one line
    QVERIFY(r.err.startsWith(QLatin1String("lookahead: ")));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
