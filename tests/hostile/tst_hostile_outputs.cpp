// SPDX-License-Identifier: GPL-3.0-or-later
// Outputs against hostile surroundings, end to end on the built binary: no output replaces or adds
// a segment or fork of a relation that is read, none follows a symlink another user planted in a
// shared sticky directory, stale-temporary cleanup deletes only files marked as ours, and text
// from users' files reaches stdout escaped.
#include "cli_process.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace {

using la::test::readFile;
using la::test::writeFile;

constexpr int kTimeoutMs = 60'000;

using Result = la::test::CliResult;

Result lookahead(const QStringList& args) {
    return la::test::runLookahead(args, kTimeoutMs);
}

QByteArray local(const QString& path) {
    return path.toLocal8Bit();
}

// A short simulated run: nothing to read but the pattern, so it only writes outputs.
QStringList simulatedRun() {
    return {QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("seq"),
            QStringLiteral("--pattern-blocks"), QStringLiteral("32")};
}

// The PID of a process that has exited (and whose number nobody has taken again yet).
qint64 deadPid() {
    QProcess gone;
    gone.start(QStringLiteral("true"));
    gone.waitForFinished();
    return gone.processId() > 0 ? gone.processId() : 4194000;
}

// Terminal control bytes anywhere in `text`.
bool hasControlBytes(const QString& text) {
    for (const QChar c : text)
        if ((c.unicode() < 0x20 && c != QLatin1Char('\n')) || (c.unicode() >= 0x7F && c.unicode() < 0xA0))
            return true;
    return false;
}

// After a refusal: one line of error, and the victim as it was before the run (there or not, the same
// bytes).
void checkOneLineAndUntouched(const Result& r, const QString& victim, bool existed,
                              const QByteArray& before) {
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    QCOMPARE(QFileInfo::exists(victim), existed);
    QCOMPARE(readFile(victim), before);
}

} // namespace

class TestHostileOutputs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();

    void relationFamilyIsAnInput_data();
    void relationFamilyIsAnInput();

    void plantedSymlinkIsRefused_data();
    void plantedSymlinkIsRefused();
    void trustedSymlinksAreFollowed();

    void userFilesNamedLikeTempsStay();

    void stdoutIsEscaped_data();
    void stdoutIsEscaped();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
};

void TestHostileOutputs::initTestCase() {
    QVERIFY(m_dir.isValid());
    // Qt warns on stderr without a runtime directory; the messages checked here are one line.
    const QString runtime = path(QStringLiteral("runtime"));
    QVERIFY(QDir().mkpath(runtime));
    QCOMPARE(::chmod(local(runtime).constData(), 0700), 0);
    qputenv("XDG_RUNTIME_DIR", local(runtime));
}

void TestHostileOutputs::relationFamilyIsAnInput_data() {
    QTest::addColumn<QStringList>("outputs");
    QTest::addColumn<QString>("victim");
    // A relation's files as PostgreSQL names them; the run refuses before reading any page, so
    // their content does not matter.
    const QString data = path(QStringLiteral("base"));
    QVERIFY(QDir().mkpath(data));
    for (const QString& name : {QStringLiteral("17489"), QStringLiteral("17489.1"),
                                QStringLiteral("17489_fsm"), QStringLiteral("17490")})
        writeFile(data + QLatin1Char('/') + name, QByteArray(2 * 8192, 'r'));
    const QString segment = data + QStringLiteral("/17489.1");
    const QString hardLink = path(QStringLiteral("segment-link"));
    QCOMPARE(::link(local(segment).constData(), local(hardLink).constData()), 0);
    QTest::newRow("--summary-json onto heap segment 1")
        << QStringList{QStringLiteral("--summary-json"), segment} << segment;
    QTest::newRow("--save onto heap segment 1") << QStringList{QStringLiteral("--save"), segment} << segment;
    QTest::newRow("--trace-csv as a new index segment")
        << QStringList{QStringLiteral("--trace-csv"), data + QStringLiteral("/17490.1")}
        << data + QStringLiteral("/17490.1");
    QTest::newRow("--summary-json onto the free space map")
        << QStringList{QStringLiteral("--summary-json"), data + QStringLiteral("/17489_fsm")}
        << data + QStringLiteral("/17489_fsm");
    QTest::newRow("--trace-csv as a new visibility map segment")
        << QStringList{QStringLiteral("--trace-csv"), data + QStringLiteral("/17489_vm.2")}
        << data + QStringLiteral("/17489_vm.2");
    QTest::newRow("--export-png onto heap segment 1")
        << QStringList{QStringLiteral("--export-png"), segment} << segment;
    QTest::newRow("--summary-json onto a hard link of segment 1")
        << QStringList{QStringLiteral("--summary-json"), hardLink} << segment;
}

void TestHostileOutputs::relationFamilyIsAnInput() {
    QFETCH(QStringList, outputs);
    QFETCH(QString, victim);
    const QString data = path(QStringLiteral("base"));
    const bool existed = QFileInfo::exists(victim);
    const QByteArray before = readFile(victim);
    const Result r = lookahead(QStringList{QStringLiteral("--headless"), QStringLiteral("--pg-heap"),
                                           data + QStringLiteral("/17489"), QStringLiteral("--pg-index"),
                                           data + QStringLiteral("/17490")} +
                               outputs);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("segment or fork of the relation")) ||
                 r.err.contains(QStringLiteral("same file as --pg-heap")),
             qPrintable(r.err));
    checkOneLineAndUntouched(r, victim, existed, before);
}

void TestHostileOutputs::plantedSymlinkIsRefused_data() {
    QTest::addColumn<QStringList>("outputs");
    QTest::addColumn<QString>("victim");
    if (::geteuid() != 0)
        QSKIP("giving a symlink to another user needs root");
    // Another user's links in a shared sticky directory, as anyone can plant them in /tmp.
    const QString shared = path(QStringLiteral("shared"));
    QVERIFY(QDir().mkpath(shared));
    QCOMPARE(::chmod(local(shared).constData(), 01777), 0);
    const QString victim = path(QStringLiteral("victim.txt"));
    writeFile(victim, "precious\n");
    const QString victimDir = path(QStringLiteral("victim-dir"));
    QVERIFY(QDir().mkpath(victimDir));
    const auto plant = [&](const QString& target, const QString& name) {
        const QString link = shared + QLatin1Char('/') + name;
        QVERIFY(QFile::link(target, link));
        QCOMPARE(::lchown(local(link).constData(), 65534, 65534), 0);
    };
    plant(victim, QStringLiteral("out.json"));
    plant(victim, QStringLiteral("out.csv"));
    plant(victim, QStringLiteral("out.lookahead"));
    plant(victim, QStringLiteral("out.png"));
    plant(victimDir, QStringLiteral("dir"));
    QTest::newRow("--summary-json") << QStringList{QStringLiteral("--summary-json"), shared + "/out.json"}
                                    << victim;
    QTest::newRow("--trace-csv") << QStringList{QStringLiteral("--trace-csv"), shared + "/out.csv"} << victim;
    QTest::newRow("--save") << QStringList{QStringLiteral("--save"), shared + "/out.lookahead"} << victim;
    QTest::newRow("--export-png") << QStringList{QStringLiteral("--export-png"), shared + "/out.png"}
                                  << victim;
    QTest::newRow("through a planted directory link")
        << QStringList{QStringLiteral("--summary-json"), shared + "/dir/new.json"} << victimDir + "/new.json";
}

void TestHostileOutputs::plantedSymlinkIsRefused() {
    QFETCH(QStringList, outputs);
    QFETCH(QString, victim);
    const bool existed = QFileInfo::exists(victim);
    const QByteArray before = readFile(victim);
    const Result r = lookahead(simulatedRun() + outputs);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(
        r.err.contains(QStringLiteral("is a symlink owned by user 65534 in the shared sticky directory")),
        qPrintable(r.err));
    checkOneLineAndUntouched(r, victim, existed, before);
}

void TestHostileOutputs::trustedSymlinksAreFollowed() {
    if (::geteuid() != 0)
        QSKIP("giving a symlink to another user needs root");
    // Our own link in a sticky directory, and another user's link where only its owner may write:
    // both are followed, as the kernel follows them, and the file they point at is written.
    const QString sticky = path(QStringLiteral("sticky-own"));
    const QString plain = path(QStringLiteral("plain"));
    for (const auto& [dir, mode] : {std::pair{sticky, 01777}, std::pair{plain, 0755}}) {
        QVERIFY(QDir().mkpath(dir));
        QCOMPARE(::chmod(local(dir).constData(), static_cast<mode_t>(mode)), 0);
    }
    const QString ownTarget = path(QStringLiteral("own-target.json"));
    const QString otherTarget = path(QStringLiteral("other-target.json"));
    QVERIFY(QFile::link(ownTarget, sticky + QStringLiteral("/out.json")));
    QVERIFY(QFile::link(otherTarget, plain + QStringLiteral("/out.json")));
    QCOMPARE(::lchown(local(plain + QStringLiteral("/out.json")).constData(), 65534, 65534), 0);
    for (const auto& [link, target] : {std::pair{sticky + QStringLiteral("/out.json"), ownTarget},
                                       std::pair{plain + QStringLiteral("/out.json"), otherTarget}}) {
        writeFile(target, "old\n");
        const Result r = lookahead(simulatedRun() + QStringList{QStringLiteral("--summary-json"), link});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(readFile(target).startsWith('{'));
        QVERIFY(QFileInfo(link).isSymLink());
    }
}

void TestHostileOutputs::userFilesNamedLikeTempsStay() {
    // Files of the user's that happen to look like our temporaries of a process that is gone: in a
    // dataset directory, and beside a session being saved.
    const QString cache = path(QStringLiteral("cache"));
    const QString sessions = path(QStringLiteral("sessions"));
    for (const QString& dir : {cache, sessions}) {
        QVERIFY(QDir().mkpath(dir));
        QCOMPARE(::chmod(local(dir).constData(), 0700), 0);
    }
    const qint64 pid = deadPid();
    const QString inCache = cache + QStringLiteral("/.notes.txt.%1.0123456789abcdef.tmp").arg(pid);
    const QString beside = sessions + QStringLiteral("/.s.lookahead.%1.0123456789abcdef.tmp").arg(pid);
    for (const QString& file : {inCache, beside})
        writeFile(file, "the user's own\n");
    Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("seq"),
                          QStringLiteral("--pattern-blocks"), QStringLiteral("32"), QStringLiteral("--io"),
                          QStringLiteral("sync"), QStringLiteral("--cache-dir"), cache});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    r = lookahead(simulatedRun() +
                  QStringList{QStringLiteral("--save"), sessions + QStringLiteral("/s.lookahead")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QFileInfo(sessions + QStringLiteral("/s.lookahead")).isFile());
    // The saved session is the user's: it keeps no mark of a temporary file.
    char mark[256];
    QCOMPARE(::getxattr(local(sessions + QStringLiteral("/s.lookahead")).constData(), "user.lookahead.temp",
                        mark, sizeof mark),
             ssize_t(-1));
    for (const QString& file : {inCache, beside})
        QCOMPARE(readFile(file), QByteArray("the user's own\n"));
}

void TestHostileOutputs::stdoutIsEscaped_data() {
    QTest::addColumn<QStringList>("args");
    const QString hostile = QStringLiteral("\x1b]0;owned\x07\x1b[2J");
    const QString list = path(QStringLiteral("blocks") + hostile + QStringLiteral(".txt"));
    writeFile(list, "1\n2\n3\n");
    QTest::newRow("--blocks path") << QStringList{QStringLiteral("--headless"), QStringLiteral("--blocks"),
                                                  list};
    QTest::newRow("--export-png path in 'wrote'")
        << (simulatedRun() +
            QStringList{QStringLiteral("--export-png"), path(hostile + QStringLiteral(".png"))});
    QTest::newRow("--save path in 'wrote'")
        << (simulatedRun() +
            QStringList{QStringLiteral("--save"), path(hostile + QStringLiteral(".lookahead"))});
    // A session whose run labels carry escapes, as anyone can edit a session file.
    const QString session = path(QStringLiteral("labels.lookahead"));
    const Result saved =
        lookahead(simulatedRun() + QStringList{QStringLiteral("--compare-policy"), QStringLiteral("pg17"),
                                               QStringLiteral("--save"), session});
    QVERIFY2(saved.exitCode == 0, qPrintable(saved.err));
    QProcess sqlite;
    sqlite.start(QStringLiteral("sqlite3"),
                 {session, QStringLiteral("UPDATE runs SET label = 'run' || char(27) || '[2J' || run")});
    QVERIFY(sqlite.waitForFinished());
    QVERIFY2(sqlite.exitCode() == 0, sqlite.readAllStandardError().constData());
    QTest::newRow("session run labels")
        << QStringList{QStringLiteral("--headless"), QStringLiteral("--open"), session};
}

void TestHostileOutputs::stdoutIsEscaped() {
    QFETCH(QStringList, args);
    const Result r = lookahead(args);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(!hasControlBytes(r.out), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("\\x1B")), qPrintable(r.out));
}

QTEST_GUILESS_MAIN(TestHostileOutputs)
#include "tst_hostile_outputs.moc"
