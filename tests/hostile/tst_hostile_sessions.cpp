// SPDX-License-Identifier: GPL-3.0-or-later
// Session files are untrusted input (issue 22): a session damaged with the sqlite3 tool, as a hostile
// sender would, gets one line naming the file and what is wrong and exit code 2 from the built
// binary; never a crash, a hang or an allocation the file's size does not justify. Labels are capped,
// and a save that fills the file system says so (docs/session-format.md, "Damaged files").
#include "hostile_session.h"
#include "small_file_system.h"
#include "test_files.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

namespace {

using la::test::CliResult;

CliResult lookahead(const QStringList& args) {
    return la::test::runLookahead(args, la::test::kSessionTimeoutMs);
}

const QString kDamaged = QStringLiteral("is damaged or was not written by Lookahead: ");

} // namespace

class TestHostileSessions : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void damagedSessionIsRefused_data();
    void damagedSessionIsRefused();
    void hugeLabelIsCapped();
    void repeatsThatAgreeOpen();
    void refusalsSayWhatIsWrong();
    void hugeSummaryJsonCostsLittle_data();
    void hugeSummaryJsonCostsLittle();
    void saveOnFullFileSystemSaysSo();
    void longCommandLineIsKeptOpenable();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
    QString m_observed; // an imported strace, saved
    QString m_model;    // a modelled A/B run, saved
};

void TestHostileSessions::initTestCase() {
    if (la::test::sqlite3Tool().isEmpty())
        QSKIP("the sqlite3 tool is not installed (packaging/install-deps.sh installs it)");
    QVERIFY(m_dir.isValid());
    const QString trace = path(QStringLiteral("scan.strace"));
    QVERIFY(la::test::writeSmallStrace(trace));
    m_observed = path(QStringLiteral("observed.lookahead"));
    QVERIFY(la::test::saveImportedSession(trace, m_observed));
    m_model = path(QStringLiteral("model.lookahead"));
    const CliResult r =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("alternating"),
                   QStringLiteral("--pattern-blocks"), QStringLiteral("4096"), QStringLiteral("--policy"),
                   QStringLiteral("pg18"), QStringLiteral("--compare-policy"), QStringLiteral("pg19"),
                   QStringLiteral("--save"), m_model});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // Both open cleanly before any damage, summaries and pictures alike.
    for (const QString& session : {m_observed, m_model})
        for (const QString& output : {QStringLiteral("--summary-json"), QStringLiteral("--export-png")}) {
            const QString out = path(output == QLatin1String("--export-png") ? QStringLiteral("ok.png")
                                                                             : QStringLiteral("ok.json"));
            const CliResult ok =
                lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), session, output, out});
            QVERIFY2(ok.exitCode == 0, qPrintable(session + QLatin1Char(' ') + ok.err));
        }
}

void TestHostileSessions::damagedSessionIsRefused_data() {
    QTest::addColumn<bool>("observed"); // damage the imported trace's session, else the model's
    QTest::addColumn<QString>("sql");
    QTest::addColumn<bool>("drawn"); // found when the events are read (--export-png), not on open
    QTest::addColumn<QString>("expected");
    const auto row = [](const char* name, bool observed, const char* sql, bool drawn, const char* expected) {
        QTest::newRow(name) << observed << QString::fromUtf8(sql) << drawn << QString::fromUtf8(expected);
    };
    // Indices and ranges of an imported trace.
    row("read's process past the list (issue 22 #1)", true, "UPDATE observed_reads SET process = 99999",
        false, "run 0's imported read 0: its process index is 99999, not in 0..1");
    row("read of 2^32-1 blocks", true, "UPDATE observed_reads SET nblocks = 4294967295 WHERE read = 3", false,
        "imported read 3: its block count (one read(2), below block 2^32) is 4294967295");
    row("read past block 2^32", true,
        "UPDATE observed_reads SET block = 4294967295, nblocks = 2 WHERE read = 5", false,
        "imported read 5: its block count");
    row("negative block", true, "UPDATE observed_reads SET block = -1 WHERE read = 2", false,
        "imported read 2: its first block is -1");
    row("reads out of start order", true, "UPDATE observed_reads SET start_ns = 1 WHERE read = 2", false,
        "imported read 2: its start (ns, reads in start order) is 1");
    row("absurd duration", true, "UPDATE observed_reads SET duration_ns = 9223372036854775807 WHERE read = 1",
        false, "imported read 1: its duration (ns) is 9223372036854775807");
    row("text where a number belongs", true, "UPDATE observed_reads SET nblocks = 'many' WHERE read = 4",
        false, "imported read 4: its block count (one read(2), below block 2^32) is not a whole number");
    row("wait for a read that is not there", true, "INSERT INTO observed_waits VALUES (0, 0, 10, 5000)",
        false, "run 0's imported wait 0: its read is 5000, not in 0..39");
    row("a read missing", true, "DELETE FROM observed_reads WHERE read = 39", false,
        "run 0 has 39 of its 40 imported reads");
    row("reads renumbered", true, "UPDATE observed_reads SET read = read + 100 WHERE read = 7", false,
        "imported read 7: its number (reads are numbered 0, 1, ...) is 8, not in 7..7");
    row("malformed process list", true, "UPDATE observed SET processes = '100 x'", false,
        "run 0's imported trace has a malformed process list");
    row("unknown trace format", true, "UPDATE observed SET format = 'ebpf'", false,
        "run 0's imported trace has the unknown format ebpf");
    row("imported trace of a modelled run", true, "UPDATE runs SET observed = 0", false,
        "an imported trace of a run that is not an observed one");
    // Counts and run indices of the runs table.
    row("event count beyond the file", false, "UPDATE runs SET events = 1000000000000 WHERE run = 1", false,
        "run 1's event count is 1000000000000, not in 0..");
    row("runs not numbered 0, 1", false, "UPDATE runs SET run = 7 WHERE run = 1", false,
        "run 1's number (runs are numbered 0, 1, ...) is 7");
    row("observed flag not a flag", false, "UPDATE runs SET observed = 7 WHERE run = 0", false,
        "run 0's observed flag is 7, not in 0..1");
    row("absurd io_combine_limit", false, "UPDATE runs SET io_combine_limit = 100000 WHERE run = 0", false,
        "run 0's io_combine_limit is 100000, not in 0..128");
    row("collapse window 0", false, "UPDATE runs SET collapse_window = 0 WHERE run = 1", false,
        "run 1's collapse_window is 0, not in 1..");
    row("options of a run not listed", false, "UPDATE options SET run = 42 WHERE run = 1", false,
        "a row of table options names a run that is 42, not in 0..1");
    row("events of a run not listed", false, "UPDATE events SET run = 9 WHERE run = 1", false,
        "it has events of a run it does not list");
    row("repeat summary without its fields", false,
        "UPDATE runs SET summary_json = json_set(summary_json, '$.repeat_summaries', json('[{}, {}]')) WHERE "
        "run = 1",
        false, "summary field");
    row("more repeats than --repeat allows", false,
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 100) UPDATE runs SET "
        "summary_json = "
        "json_set(summary_json, '$.repeat_summaries', (SELECT json_group_array(json('{}')) FROM n)) WHERE "
        "run = 1",
        false, "run 1 keeps 101 repeats' summaries, more than 100");
    // Figures out of the range any run has (issue 42 defect 9), the run's own and its repeats'.
    row("run time -1", false, "UPDATE summary SET value = '-1' WHERE run = 1 AND name = 'runtime_ns'", false,
        "run 1: summary field 'runtime_ns' is -1, out of its range 0..1152921504606846976 ns");
    row("waits 2^64-1", false,
        "UPDATE summary SET value = '18446744073709551615' WHERE run = 0 AND name = 'waits'", false,
        "run 0: summary field 'waits' is 18446744073709551615, out of its range 0..9007199254740992");
    // The repeats are the run's own summary (run 1 of the modelled session) with one figure changed.
    const auto repeats = [](std::initializer_list<const char*> changes) {
        QStringList items;
        for (const char* change : changes)
            items << QStringLiteral(
                         "json_set((SELECT json_group_object(name, value) FROM summary WHERE run = 1)%1)")
                         .arg(QString::fromLatin1(change));
        return QStringLiteral("UPDATE runs SET summary_json = json_set(summary_json, '$.repeat_summaries', "
                              "json_array(%1)) WHERE run = 1")
            .arg(items.join(QStringLiteral(", ")))
            .toUtf8();
    };
    const auto repeatRow = [&](const char* name, std::initializer_list<const char*> changes,
                               const char* expected) {
        QTest::newRow(name) << false << QString::fromUtf8(repeats(changes)) << false
                            << QString::fromUtf8(expected);
    };
    repeatRow(
        "repeat's run time -1", {", '$.runtime_ns', '-1'", ""},
        "run 1's repeat 1: summary field 'runtime_ns' is -1, out of its range 0..1152921504606846976 ns");
    repeatRow("repeat's run time 0", {", '$.runtime_ns', '0'", ""},
              "run 1's repeat 1's runtime_ns is 0, out of a finished run's range 1..2^60 ns");
    repeatRow("repeat's run time 2^63-1", {"", ", '$.runtime_ns', '9223372036854775807'"},
              "run 1's repeat 2: summary field 'runtime_ns' is 9223372036854775807, out of its range");
    repeatRow("repeat's waits 2^64-1", {", '$.waits', '18446744073709551615'", ""},
              "run 1's repeat 1: summary field 'waits' is 18446744073709551615, out of its range "
              "0..9007199254740992");
    repeatRow("repeats that are not the run's",
              {", '$.runtime_ns', '1000'", ", '$.runtime_ns', '2000'", ", '$.runtime_ns', '3000'"},
              "run 1's figures are not its median repeat's (run 1's repeat 2: runtime_ns 2000");
    repeatRow("repeat of another scan", {", '$.blocks', '7'", ""},
              "run 1's repeat 1 is not of its run (policy pg19, 7 blocks");
    repeatRow("repeat that failed", {"", ", '$.error', 'read failed'"},
              "run 1's repeat 2 did not finish, and only finished repeats are kept");
    row("read size 0 in the summary", false, "UPDATE summary SET value = '0:5' WHERE name = 'io_size_hist'",
        false, "summary field 'io_size_hist' has a read size outside 1..255");
    row("collapse interval backwards", false,
        "UPDATE summary SET value = '10:5' WHERE name = 'collapse_intervals'", false,
        "summary field 'collapse_intervals' has an interval that ends before it starts");
    row("10 kB policy in the summary", false,
        "UPDATE summary SET value = hex(zeroblob(5000)) WHERE run = 0 AND name = 'policy'", false,
        "a summary field's name or value is longer than 4096 bytes");
    row("10 kB traced relation", true, "UPDATE observed SET relation = hex(zeroblob(5000))", false,
        "run 0's traced relation is longer than 4096 bytes");
    row("100 kB provenance entry", false,
        "UPDATE provenance SET value = hex(zeroblob(50000)) WHERE key = 'command_line'", false,
        "a meta or provenance entry is longer than 65536 bytes");
    // The stored events, read when the runs are drawn.
    row("chunk count off its BLOB", false, "UPDATE events SET count = count + 1 WHERE run = 0", true,
        "run 0's event chunk 0: its size in bytes (32 per event) is");
    row("600 MB BLOB (read only after its size is checked)", false,
        "UPDATE events SET data = zeroblob(64 * 1024 * 1024) WHERE run = 0 AND chunk = 0", true,
        "run 0's event chunk 0: its size in bytes (32 per event) is 67108864");
    row("chunk that is text", false, "UPDATE events SET data = 'abc' WHERE run = 0 AND chunk = 0", true,
        "run 0's event chunk 0 is not a BLOB");
    row("chunk renumbered", false, "UPDATE events SET chunk = 5 WHERE run = 1 AND chunk = 0", true,
        "run 1's event chunk 0: its number (chunks are numbered 0, 1, ...) is 5");
    row("fewer positions than events say", false, "UPDATE runs SET positions = positions - 1 WHERE run = 1",
        true, "the run has more positions than it says");
    row("fewer reads than events say", false, "UPDATE runs SET reads = reads - 1 WHERE run = 0", true,
        "the run has more reads than it says");
    row("more reads than events say", false, "UPDATE runs SET reads = reads + 1 WHERE run = 0", true,
        "run 0 has ");
    row("altered chunk", false, "UPDATE events SET hash = hash + 1 WHERE run = 0", true,
        "run 0's events are cut, altered or out of order");
}

void TestHostileSessions::damagedSessionIsRefused() {
    QFETCH(bool, observed);
    QFETCH(QString, sql);
    QFETCH(bool, drawn);
    QFETCH(QString, expected);
    const QString file = path(QStringLiteral("damaged.lookahead"));
    QVERIFY(la::test::damagedCopy(observed ? m_observed : m_model, file, sql));
    const QString json = path(QStringLiteral("damaged.json"));
    const QString png = path(QStringLiteral("damaged.png"));
    QStringList outputs{QStringLiteral("--export-png")};
    if (!drawn)
        outputs << QStringLiteral("--summary-json");
    for (const QString& output : outputs) {
        const CliResult r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), file, output,
                                       output == QLatin1String("--export-png") ? png : json});
        QCOMPARE(r.exitCode, 2);
        const QStringList lines =
            r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts).filter(QStringLiteral("lookahead: "));
        QCOMPARE(lines.size(), 1);
        // One line: the file, that it is damaged, what is wrong, and what to do.
        QVERIFY2(lines.front().startsWith(QStringLiteral("lookahead: session '%1' ").arg(file) + kDamaged),
                 qPrintable(r.err));
        QVERIFY2(lines.front().contains(expected), qPrintable(r.err));
        QVERIFY2(lines.front().endsWith(QStringLiteral("; ask for the session again or re-run")),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(json));
        QVERIFY(!QFileInfo::exists(png));
    }
}

// A 10 MB label took 64 s and 1.2 GB to draw: a session keeps at most 200 characters of one.
void TestHostileSessions::hugeLabelIsCapped() {
    const QString file = path(QStringLiteral("label.lookahead"));
    QVERIFY(
        la::test::damagedCopy(m_model, file,
                              QStringLiteral("UPDATE runs SET label = 'A' || substr(hex(zeroblob(5000000)), "
                                             "1, 10000000) WHERE run = 0")));
    // The run's description names it, cut.
    const CliResult described =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), file,
                   QStringLiteral("--summary-json"), path(QStringLiteral("label.json"))});
    QVERIFY2(described.exitCode == 0, qPrintable(described.err.left(500)));
    const QString capped = QStringLiteral("A") + QString(199, QLatin1Char('0')) + QStringLiteral("…");
    QVERIFY2(described.out.contains(QStringLiteral("run %1 (policy pg18)").arg(capped)),
             qPrintable(described.out.left(500)));
    QVERIFY2(described.out.size() < 20'000, qPrintable(QString::number(described.out.size())));
    // And drawing it takes what drawing any run takes.
    QElapsedTimer timer;
    timer.start();
    const QString png = path(QStringLiteral("label.png"));
    const CliResult drawn = lookahead(
        {QStringLiteral("--headless"), QStringLiteral("--open"), file, QStringLiteral("--export-png"), png});
    QVERIFY2(drawn.exitCode == 0, qPrintable(drawn.err.left(500)));
    QVERIFY(QFileInfo::exists(png));
    QVERIFY2(timer.elapsed() < 30'000, qPrintable(QString::number(timer.elapsed())));
}

// Repeats that are the run's own figures, as a repeated run keeps them, open as such.
void TestHostileSessions::repeatsThatAgreeOpen() {
    const QString file = path(QStringLiteral("repeats.lookahead"));
    const QString repeat =
        QStringLiteral("(SELECT json_group_object(name, value) FROM summary WHERE run = 1)");
    QVERIFY(
        la::test::damagedCopy(m_model, file,
                              QStringLiteral("UPDATE runs SET summary_json = json_set(summary_json, "
                                             "'$.repeat_summaries', json_array(%1, %1, %1)) WHERE run = 1")
                                  .arg(repeat)));
    const QString json = path(QStringLiteral("repeats.json"));
    const CliResult r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), file,
                                   QStringLiteral("--summary-json"), json});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(la::test::summaryRun(json, 1)[QStringLiteral("repeats")].toInteger(), 3);
}

// What is wrong is said as it is (issue 42 defect 11): a newer format by its number, not "1"; a file
// without runs as such, not "not in 0..-1".
void TestHostileSessions::refusalsSayWhatIsWrong() {
    const struct {
        const char* sql;
        QString expected;
    } cases[] = {
        {"UPDATE meta SET value = '999999999999' WHERE key = 'format_version'",
         QStringLiteral("(session format 999999999999); this is Lookahead")},
        {"DELETE FROM runs", QStringLiteral("it holds no runs; save a run that has finished")},
    };
    for (const auto& [sql, expected] : cases) {
        const QString file = path(QStringLiteral("refused.lookahead"));
        QVERIFY(la::test::damagedCopy(m_model, file, QString::fromLatin1(sql)));
        const CliResult r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("lookahead: session '%1': ").arg(file)) &&
                     r.err.contains(expected),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }
}

void TestHostileSessions::hugeSummaryJsonCostsLittle_data() {
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("expected");
    // 300 MB in runs.summary_json: it cost 950 MB to open (read whole, then parsed).
    QTest::newRow("300 MB summary JSON")
        << QStringLiteral(
               "UPDATE runs SET summary_json = printf('{\"pad\": \"%.*c\"}', 300000000, 'x') WHERE run = 1")
        << QStringLiteral("run 1's summary JSON is 286.1 MiB, more than the 8.0 MiB");
    // 100,000 repeats, each a whole summary: 890 MB before they were counted.
    QTest::newRow("100,000 whole repeats")
        << QStringLiteral(
               "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
               "UPDATE runs SET summary_json = json_set(summary_json, '$.repeat_summaries', (SELECT "
               "json_group_array(json((SELECT json_group_object(name, value) FROM summary WHERE run = "
               "1))) FROM n)) WHERE run = 1")
        << QStringLiteral("run 1's summary JSON is ");
    // 100,000 empty repeats fit the bound: counted, and refused, before any is read.
    QTest::newRow("100,000 empty repeats")
        << QStringLiteral(
               "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
               "UPDATE runs SET summary_json = json_set(summary_json, '$.repeat_summaries', (SELECT "
               "json_group_array(json('{}')) FROM n)) WHERE run = 1")
        << QStringLiteral("run 1 keeps 100000 repeats' summaries, more than 100");
    // 3,000,000 summary rows (and options rows) were read and held (540 MB), then ignored: counted,
    // no further than a run can have, and refused.
    for (const char* table : {"summary", "options"})
        QTest::newRow(qPrintable(QStringLiteral("3,000,000 %1 rows").arg(QLatin1String(table))))
            << QStringLiteral(
                   "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) "
                   "INSERT INTO %1 SELECT 0, 'junk_' || i, 'x' FROM n")
                   .arg(QLatin1String(table))
            << QStringLiteral("its table %1 holds more than the 4096 rows a run has at most")
                   .arg(QLatin1String(table));
}

// Memory is bounded by what is shown of a session (issue 42 defect 7): measured on the built binary.
void TestHostileSessions::hugeSummaryJsonCostsLittle() {
    QFETCH(QString, sql);
    QFETCH(QString, expected);
    const QString file = path(QStringLiteral("huge.lookahead"));
    QVERIFY(la::test::damagedCopy(m_model, file, sql));
    const la::test::MeasuredRun m =
        la::test::runMeasured({QStringLiteral("--headless"), QStringLiteral("--open"), file,
                               QStringLiteral("--summary-json"), path(QStringLiteral("huge.json"))},
                              m_dir.path(), la::test::kSessionTimeoutMs);
    QFile::remove(file);
    QCOMPARE(m.result.exitCode, 2);
    QVERIFY2(m.result.err.contains(expected), qPrintable(m.result.err.left(500)));
    qInfo("peak memory %ld kB", m.maxRssKb);
    // The binary alone needs some tens of MB; the file's text would take hundreds.
    QVERIFY2(m.maxRssKb > 0 && m.maxRssKb < 150 * 1024, qPrintable(QString::number(m.maxRssKb) + " kB"));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("huge.json"))));
}

// ENOSPC during --save: "No space left on device" and the I/O-error exit code, no temporary left,
// where it said "internal error ... no such table: events" (exit 70).
void TestHostileSessions::saveOnFullFileSystemSaysSo() {
    const QString mount = path(QStringLiteral("small-fs"));
    const la::test::SmallFileSystem fs(mount, 1 << 20);
    if (!fs.skipReason().isEmpty())
        QSKIP(qPrintable(fs.skipReason()));
    QVERIFY2(fs.error().isEmpty(), qPrintable(fs.error()));
    const QString session = mount + QStringLiteral("/full.lookahead");
    const CliResult r = lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"),
                                   QStringLiteral("alternating"), QStringLiteral("--pattern-blocks"),
                                   QStringLiteral("200000"), QStringLiteral("--save"), session});
    const QStringList left = QDir(mount).entryList(QDir::Files | QDir::Hidden);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("cannot write session '%1'").arg(session)) &&
                 r.err.contains(QStringLiteral("No space left on device")),
             qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("internal error")), qPrintable(r.err));
    QCOMPARE(left, QStringList());
}

// A 70,000-character command line (a long query) was saved whole, past the 64 KiB a reader takes of
// a provenance entry, and the session Lookahead had just written was refused as damaged. It is cut
// where it is written, saying so.
void TestHostileSessions::longCommandLineIsKeptOpenable() {
    const QString file = path(QStringLiteral("long.lookahead"));
    const CliResult saved =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("seq"),
                   QStringLiteral("--pattern-blocks"), QStringLiteral("256"), QStringLiteral("--eic"),
                   QString(70'000, QLatin1Char('0')) + QStringLiteral("16"), QStringLiteral("--save"), file});
    QVERIFY2(saved.exitCode == 0, qPrintable(saved.err.left(500)));
    const CliResult opened = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), file,
                                        QStringLiteral("--summary-json"), path(QStringLiteral("long.json"))});
    QVERIFY2(opened.exitCode == 0, qPrintable(opened.err.left(500)));
    const QString commandLine =
        la::test::querySql(file, QStringLiteral("SELECT value FROM provenance WHERE key = 'command_line'"))
            .value_or(QString());
    QVERIFY2(commandLine.size() <= 65536 && commandLine.contains(QStringLiteral(" bytes more not kept]")),
             qPrintable(commandLine.right(200)));
    QFile::remove(file);
}

QTEST_MAIN(TestHostileSessions)
#include "tst_hostile_sessions.moc"
