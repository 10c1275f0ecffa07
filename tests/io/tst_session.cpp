// SPDX-License-Identifier: GPL-3.0-or-later
// Session files (docs/session-format.md), end to end through the built binary: a saved run reopens
// with the same summary JSON and the same exported pixels; bad files get one clear line and exit
// code 2; a save killed midway leaves the old file; opening never changes the file.
#include "cli_process.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>
#include <sys/stat.h>

#include <csignal>
#include <tuple>

namespace {

constexpr int kTimeoutMs = 120'000;

using Result = la::test::CliResult;

Result lookahead(const QStringList& args) {
    return la::test::runLookahead(args, kTimeoutMs);
}

QByteArray contents(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

// Runs SQL on a copy of a session, as a user with sqlite3 might.
void execSql(const QString& path, const char* sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
    const QString message = QString::fromUtf8(error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, qPrintable(message));
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}

const QStringList kAbRun{QStringLiteral("--headless"),  QStringLiteral("--dataset"),
                         QStringLiteral("alternating"), QStringLiteral("--policy"),
                         QStringLiteral("pg18"),        QStringLiteral("--compare-policy"),
                         QStringLiteral("pg19")};

} // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void roundTripExport();
    void roundTripHeadless();
    void roundTripImport();
    void badInput_data();
    void badInput();
    void sessionWithoutEvents();
    void nodeNeedsARecordedPlan();
    void openNeverModifies();
    void killedSaveLeavesOldFile();
    void saveNeverReplacesAnInput();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
    QString m_session; // alternating, pg18 against pg19, saved by the export path
};

void TestSession::initTestCase() {
#ifdef __SANITIZE_THREAD__
    QSKIP("runs the binary with QProcess, which TSan cannot follow through fork");
#endif
    QVERIFY(m_dir.isValid());
    m_session = path(QStringLiteral("ab.lookahead"));
}

void TestSession::roundTripExport() {
    const QString live = path(QStringLiteral("live.png"));
    const QString liveJson = path(QStringLiteral("live.json"));
    Result r =
        lookahead(kAbRun + QStringList{QStringLiteral("--save"), m_session, QStringLiteral("--export-png"),
                                       live, QStringLiteral("--summary-json"), liveJson});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("wrote %1 (session)").arg(m_session)), qPrintable(r.out));

    const QString opened = path(QStringLiteral("opened.png"));
    const QString openedJson = path(QStringLiteral("opened.json"));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), m_session,
                   QStringLiteral("--export-png"), opened, QStringLiteral("--summary-json"), openedJson});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    // The same summary, provenance included, byte for byte.
    const QByteArray json = contents(liveJson);
    QVERIFY(!json.isEmpty());
    QCOMPARE(contents(openedJson), json);
    const QJsonObject provenance =
        QJsonDocument::fromJson(json).object()[QStringLiteral("provenance")].toObject();
    for (const char* key : {"lookahead_version", "kernel", "date", "command_line", "io_uring", "o_direct"})
        QVERIFY2(provenance.contains(QLatin1String(key)), key);
    QVERIFY(provenance[QStringLiteral("command_line")].toString().contains(QStringLiteral("--save")));
    // The same pixels as the live run's export.
    const QImage a(live);
    const QImage b(opened);
    QVERIFY(!a.isNull());
    QCOMPARE(b.size(), a.size());
    QVERIFY(b.convertToFormat(QImage::Format_ARGB32) == a.convertToFormat(QImage::Format_ARGB32));
    // The PNG's metadata carries the provenance too.
    QVERIFY(a.text(QStringLiteral("lookahead.summary")).contains(QStringLiteral("\"provenance\"")));
}

void TestSession::roundTripHeadless() {
    // Without a window: the run's events go straight from the engine into the session.
    const QString session = path(QStringLiteral("plain.lookahead"));
    const QString liveJson = path(QStringLiteral("plain-live.json"));
    Result r = lookahead(
        kAbRun + QStringList{QStringLiteral("--save"), session, QStringLiteral("--summary-json"), liveJson});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString liveOut = r.out;
    const QString openedJson = path(QStringLiteral("plain-opened.json"));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), session,
                   QStringLiteral("--summary-json"), openedJson});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(contents(openedJson), contents(liveJson));
    // The printed summaries and verdict are the live run's.
    const QString verdict = liveOut.section(QLatin1Char('\n'), -3, -3);
    QVERIFY2(verdict.startsWith(QStringLiteral("B (pg19)")), qPrintable(liveOut));
    QVERIFY2(r.out.contains(verdict), qPrintable(r.out));
    // Its traces draw: the export from it equals the one from the export path's session.
    const QString png = path(QStringLiteral("plain.png"));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), session,
                   QStringLiteral("--export-png"), png});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QImage(png).convertToFormat(QImage::Format_ARGB32) ==
            QImage(path(QStringLiteral("live.png"))).convertToFormat(QImage::Format_ARGB32));
}

void TestSession::roundTripImport() {
    // An observed run (a --trace-csv of ours, imported) beside its model: the imported reads are
    // kept, so the import's summary document and caption come back too.
    const QString trace = path(QStringLiteral("scan.csv"));
    Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"),
                          QStringLiteral("alternating"), QStringLiteral("--pattern-blocks"),
                          QStringLiteral("4096"), QStringLiteral("--trace-csv"), trace});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString session = path(QStringLiteral("import.lookahead"));
    const QString liveJson = path(QStringLiteral("import-live.json"));
    const QString livePng = path(QStringLiteral("import-live.png"));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace,
                   QStringLiteral("--compare-policy"), QStringLiteral("pg18"), QStringLiteral("--save"),
                   session, QStringLiteral("--summary-json"), liveJson, QStringLiteral("--export-png"),
                   livePng});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString openedJson = path(QStringLiteral("import-opened.json"));
    const QString openedPng = path(QStringLiteral("import-opened.png"));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), session,
                   QStringLiteral("--summary-json"), openedJson, QStringLiteral("--export-png"), openedPng});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(contents(openedJson), contents(liveJson));
    QCOMPARE(QJsonDocument::fromJson(contents(openedJson)).object()[QStringLiteral("compare")].toString(),
             QStringLiteral("observed"));
    QVERIFY(QImage(openedPng).convertToFormat(QImage::Format_ARGB32) ==
            QImage(livePng).convertToFormat(QImage::Format_ARGB32));
}

void TestSession::badInput_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("expected");
    // The row, the kind of bad file, what the message says.
    const std::tuple<const char*, const char*, const char*> cases[] = {
        {"missing", "missing", "No such file"},
        {"empty", "empty", "not a Lookahead session (not an SQLite database)"},
        {"png", "png", "not a Lookahead session (not an SQLite database)"},
        {"plain sqlite", "sqlite", "an SQLite database but not a Lookahead session"},
        {"newer format", "newer", "made by Lookahead 9.9.0 (session format 2); this is Lookahead "},
        {"truncated", "truncated", "is damaged"},
        {"corrupt events", "blob", "is damaged"},
        {"corrupt schema", "schema", "is damaged"},
        {"bad summary", "summary", "summary field 'ios' is not a whole number"},
    };
    for (const auto& [row, kind, expected] : cases)
        QTest::newRow(row) << QString::fromLatin1(kind) << QString::fromLatin1(expected);
}

void TestSession::badInput() {
    QFETCH(QString, kind);
    QFETCH(QString, expected);
    QVERIFY2(QFileInfo::exists(m_session), "roundTripExport saves the session the cases start from");
    const QString file = path(QStringLiteral("bad-%1.lookahead").arg(kind));
    const QByteArray good = contents(m_session);
    QFile::remove(file);
    if (kind == QLatin1String("empty")) {
        writeFile(file, {});
    } else if (kind == QLatin1String("png")) {
        writeFile(file, contents(path(QStringLiteral("live.png"))));
    } else if (kind == QLatin1String("sqlite")) {
        execSql(file, "CREATE TABLE t(x); INSERT INTO t VALUES (1)");
    } else if (kind != QLatin1String("missing")) {
        writeFile(file, good);
        QByteArray bytes = good;
        if (kind == QLatin1String("newer")) {
            execSql(
                file,
                "PRAGMA user_version = 2; UPDATE meta SET value = '9.9.0' WHERE key = 'lookahead_version';"
                "UPDATE meta SET value = '2' WHERE key = 'format_version'");
            bytes.clear();
        } else if (kind == QLatin1String("summary")) {
            execSql(file, "UPDATE summary SET value = 'many' WHERE run = 1 AND name = 'ios'");
            bytes.clear();
        } else if (kind == QLatin1String("truncated")) {
            bytes.truncate(bytes.size() * 3 / 5);
        } else if (kind == QLatin1String("blob")) {
            // Inside the events' BLOBs, which SQLite itself never checks.
            for (qsizetype i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
                bytes[i] = char(bytes[i] ^ 0x5a);
        } else if (kind == QLatin1String("schema")) {
            for (qsizetype i = 100; i < 400; ++i)
                bytes[i] = char(0xff);
        }
        if (!bytes.isEmpty())
            writeFile(file, bytes);
    }
    for (const QStringList& output :
         {QStringList{QStringLiteral("--export-png"), path(QStringLiteral("bad.png"))},
          QStringList{QStringLiteral("--summary-json"), path(QStringLiteral("bad.json"))}}) {
        const Result r =
            lookahead(QStringList{QStringLiteral("--headless"), QStringLiteral("--open"), file} + output);
        QCOMPARE(r.exitCode, 2);
        // One line that names the file and says what is wrong.
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QVERIFY2(r.err.contains(file), qPrintable(r.err));
        const QStringList lines =
            r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts).filter(QStringLiteral("lookahead: "));
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.front().contains(expected) && lines.front().contains(file), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("bad.png"))));
        QVERIFY(!QFileInfo::exists(path(QStringLiteral("bad.json"))));
        if (kind == QLatin1String("truncated") || kind == QLatin1String("blob"))
            break; // the summaries are intact; only drawing reads the events (sessionWithoutEvents)
    }
}

// --node chooses a node of a recording's plan (tst_record_plan opens one): without --open, with a
// malformed id, or on a session that recorded no plan, it is refused saying so.
void TestSession::nodeNeedsARecordedPlan() {
    Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--node"), QStringLiteral("1")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(
                 QStringLiteral("--node chooses a node of a saved recording: give the session with --open")),
             qPrintable(r.err));
    const QString saved = path(QStringLiteral("no-plan.lookahead"));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--save"), saved});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), saved, QStringLiteral("--node"),
                   QStringLiteral("two")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--node 'two': give a node_id of the recorded plan")),
             qPrintable(r.err));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), saved, QStringLiteral("--node"),
                   QStringLiteral("0"), QStringLiteral("--export-png"), path(QStringLiteral("no-plan.png"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(
        r.err.contains(QStringLiteral("is no recording of a plan (it was not saved by lookahead record)")),
        qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("no-plan.png"))));
}

void TestSession::sessionWithoutEvents() {
    // A session whose run B lost its events: the summaries are still there, the views are not.
    const QString file = path(QStringLiteral("no-events.lookahead"));
    QFile::remove(file);
    QVERIFY(QFile::copy(m_session, file));
    execSql(file, "DELETE FROM events WHERE run = 1");
    const QString json = path(QStringLiteral("no-events.json"));
    Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), file,
                          QStringLiteral("--summary-json"), json});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(contents(json), contents(path(QStringLiteral("live.json"))));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), file,
                   QStringLiteral("--export-png"), path(QStringLiteral("no-events.png"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("run 1 has 0 of its")) && r.err.contains(file), qPrintable(r.err));
}

void TestSession::openNeverModifies() {
    const QString file = path(QStringLiteral("readonly.lookahead"));
    QFile::remove(file);
    QVERIFY(QFile::copy(m_session, file));
    QVERIFY(::chmod(QFile::encodeName(file).constData(), 0644) == 0);
    {
        // An hour old: a write would move the mtime, however coarse the clock and however soon.
        QFile old(file);
        QVERIFY(old.open(QIODevice::ReadWrite));
        QVERIFY(
            old.setFileTime(QDateTime::currentDateTime().addSecs(-3600), QFileDevice::FileModificationTime));
    }
    struct stat before {};
    QCOMPARE(::stat(QFile::encodeName(file).constData(), &before), 0);
    const QByteArray hash = QCryptographicHash::hash(contents(file), QCryptographicHash::Sha256);
    const QStringList filesBefore = entries(m_dir.path());
    const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), file,
                                QStringLiteral("--export-png"), path(QStringLiteral("readonly.png"))});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    struct stat after {};
    QCOMPARE(::stat(QFile::encodeName(file).constData(), &after), 0);
    QCOMPARE(after.st_size, before.st_size);
    QCOMPARE(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
    QCOMPARE(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    QCOMPARE(QCryptographicHash::hash(contents(file), QCryptographicHash::Sha256), hash);
    // No journal, -wal or -shm file beside it: only the PNG is new.
    QStringList expected = filesBefore + QStringList{QStringLiteral("readonly.png")};
    expected.sort();
    QCOMPARE(entries(m_dir.path()), expected);
}

void TestSession::killedSaveLeavesOldFile() {
    const QString dir = path(QStringLiteral("kill"));
    QVERIFY(QDir().mkpath(dir));
    const QString file = dir + QStringLiteral("/run.lookahead");
    QVERIFY(QFile::copy(m_session, file));
    const QByteArray old = contents(file);
    QProcess process;
    // 20 M blocks on the simulated device: far longer than it takes the save to begin.
    process.start(QStringLiteral(LOOKAHEAD_BINARY),
                  {QStringLiteral("--headless"), QStringLiteral("--dataset"),
                   QStringLiteral("sparse-miss:16"), QStringLiteral("--pattern-blocks"),
                   QStringLiteral("20000000"), QStringLiteral("--save"), file});
    QVERIFY(process.waitForStarted());
    // The events stream into the temporary file as the run goes: wait until it has grown.
    QString temp;
    QVERIFY(la::test::untilWrittenIn(
        dir,
        [&] {
            for (const QString& name : entries(dir))
                if (name.endsWith(QLatin1String(".tmp")) &&
                    QFileInfo(dir + QLatin1Char('/') + name).size() > (1 << 20))
                    temp = name;
            return !temp.isEmpty();
        },
        kTimeoutMs));
    const qint64 pid = process.processId();
    ::kill(static_cast<pid_t>(pid), SIGKILL);
    QVERIFY(process.waitForFinished(kTimeoutMs));
    QCOMPARE(process.exitStatus(), QProcess::CrashExit);
    // The old session is whole; what is left besides it is the dead process's temporary file.
    QCOMPARE(contents(file), old);
    QVERIFY(temp.startsWith(QStringLiteral(".run.lookahead.%1.").arg(pid)));
    QCOMPARE(entries(dir), (QStringList{temp, QStringLiteral("run.lookahead")}));
    // The next save to that directory removes it.
    const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"),
                                QStringLiteral("seq"), QStringLiteral("--pattern-blocks"),
                                QStringLiteral("1024"), QStringLiteral("--save"), file});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(entries(dir), QStringList{QStringLiteral("run.lookahead")});
    QVERIFY(contents(file) != old);
}

void TestSession::saveNeverReplacesAnInput() {
    const QString blocks = path(QStringLiteral("blocks.txt"));
    writeFile(blocks, "1\n2\n3\n");
    Result r = lookahead(
        {QStringLiteral("--headless"), QStringLiteral("--blocks"), blocks, QStringLiteral("--save"), blocks});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--save")), qPrintable(r.err));
    QCOMPARE(contents(blocks), QByteArray("1\n2\n3\n"));
    // Nor the session being opened.
    const QByteArray session = contents(m_session);
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--open"), m_session,
                   QStringLiteral("--summary-json"), m_session});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(contents(m_session), session);
    // A directory that does not exist: refused before the run, naming the file.
    const QString nowhere = path(QStringLiteral("no/such/dir/x.lookahead"));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("seq"),
                   QStringLiteral("--save"), nowhere});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(nowhere), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
