// SPDX-License-Identifier: GPL-3.0-or-later
// Safe with the user's files, end to end on the built binary: nothing can be planted in the dataset
// cache, no output overwrites an input, every write error is reported, sizes are checked before
// allocating, signals cancel cleanly and leave nothing behind, block-list CSV follows RFC 4180,
// messages stay short and printable, and bad paths are found before any work is done. Full file
// systems are real: /dev/full, and a small tmpfs of the test's own, filled until not a byte fits.
#include "cli_process.h"
#include "small_file_system.h"
#include "test_files.h"

#include "io/event_spool.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <functional>

namespace {

using la::test::readFile;
using la::test::readJson;
using la::test::SmallFileSystem;
using la::test::writeFile;

constexpr int kTimeoutMs = 120'000;

using Result = la::test::CliResult;

struct Launch {
    QStringList args;
    QStringList unset;                   // environment variables to remove
    QList<QPair<QString, QString>> set;  // and to set
    std::function<void()> childModifier; // runs in the child before exec (rlimits)
};

void prepare(QProcess& process, const Launch& launch) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& name : launch.unset)
        env.remove(name);
    for (const auto& [name, value] : launch.set)
        env.insert(name, value);
    process.setProcessEnvironment(env);
    if (launch.childModifier)
        process.setChildProcessModifier(launch.childModifier);
    process.start(QStringLiteral(LOOKAHEAD_BINARY), launch.args);
}

Result finish(QProcess& process) {
    return la::test::finishProcess(process, kTimeoutMs);
}

Result lookahead(const Launch& launch) {
    QProcess process;
    prepare(process, launch);
    return finish(process);
}

Result lookahead(const QStringList& args) {
    return lookahead(Launch{args, {}, {}, {}});
}

// A real (sync) run of `blocks` sequential blocks whose dataset file goes to `cache`.
QStringList syncRunIn(const QString& cache, int blocks) {
    return {QStringLiteral("--headless"),
            QStringLiteral("--dataset"),
            QStringLiteral("seq"),
            QStringLiteral("--pattern-blocks"),
            QString::number(blocks),
            QStringLiteral("--io"),
            QStringLiteral("sync"),
            QStringLiteral("--cache-dir"),
            cache};
}

// Every entry of a directory, hidden ones included.
QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

// The block column of every "requested" row of a trace CSV.
QList<uint> requestedBlocks(const QString& csv) {
    QList<uint> blocks;
    for (const QByteArray& line : readFile(csv).split('\n')) {
        const QList<QByteArray> fields = line.split(',');
        if (fields.size() == 13 && fields[3] == "requested")
            blocks.append(fields[4].toUInt());
    }
    return blocks;
}

// The bytes process `pid` has written so far to the files it holds open in `dir`. A trace CSV has
// no name there until its run ends (O_TMPFILE), but its descriptor shows where it is.
qint64 bytesOpenIn(qint64 pid, const QString& dir) {
    const QString fds = QStringLiteral("/proc/%1/fd").arg(pid);
    const QByteArray prefix = QFile::encodeName(QFileInfo(dir).canonicalFilePath()) + '/';
    qint64 bytes = 0;
    for (const QString& fd : QDir(fds).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)) {
        const QByteArray link = QFile::encodeName(fds + QLatin1Char('/') + fd);
        char target[4096];
        const ssize_t length = ::readlink(link.constData(), target, sizeof target);
        struct stat st {};
        if (length > 0 && QByteArray(target, length).startsWith(prefix) && ::stat(link.constData(), &st) == 0)
            bytes += st.st_size;
    }
    return bytes;
}

} // namespace

class TestFileSafety : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    // 1. Nothing can be planted in or under the dataset cache.
    void plantedSymlinksAreNeverFollowed();
    void cacheDirectoriesArePrivate();
    void sharedCacheDirectoryIsRefused();
    void noSharedFallbackWithoutHome();
    // 2. No output overwrites an input.
    void outputOntoInputIsRefused_data();
    void outputOntoInputIsRefused();
    void badInputLeavesExistingOutputAlone();
    // 3. Every write error is reported.
    void writeToFullDevice_data();
    void writeToFullDevice();
    void fullFileSystemKeepsOldOutput();
    void eventSpoolNeverFillsTheDisk();
    // 4. Sizes are checked before allocating.
    void hugeCacheStateIsRefused_data();
    void hugeCacheStateIsRefused();
    // 5. No orphaned temporary files.
    void killDuringDatasetWriteLeavesNothing_data();
    void killDuringDatasetWriteLeavesNothing();
    void fileSizeLimitIsAnError();
    void staleTemporaryFilesAreRemoved();
    // 6. Headless signals cancel the run.
    void signalCancelsHeadlessRun_data();
    void signalCancelsHeadlessRun();
    void signalEndsACallBlockedOnAPipe_data();
    void signalEndsACallBlockedOnAPipe();
    // 7. Block-list CSV follows RFC 4180.
    void csvQuotingIsHonoured_data();
    void csvQuotingIsHonoured();
    // 8. Messages.
    void junkIsQuotedShortAndEscaped_data();
    void junkIsQuotedShortAndEscaped();
    void scaleMessageIsConsistent();
    // 9. Checks come before the work.
    void directoryAtDatasetPathIsFoundFirst();
    void sparseFileIsWarnedAbout();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

void TestFileSafety::initTestCase() {
    QVERIFY(m_dir.isValid());
}

void TestFileSafety::plantedSymlinksAreNeverFollowed() {
    // Earlier versions wrote ".NAME.part-PID" with O_TRUNC, following a symlink planted there.
    const QString cache = path(QStringLiteral("planted"));
    QVERIFY(QDir().mkpath(cache));
    QVERIFY(QFile::setPermissions(cache,
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    const QString victim = path(QStringLiteral("victim.txt"));
    writeFile(victim, "precious\n");
    bool ok = false;
    const int last =
        QString::fromLatin1(readFile(QStringLiteral("/proc/sys/kernel/ns_last_pid"))).trimmed().toInt(&ok);
    QVERIFY(ok);
    for (int pid = last + 1; pid < last + 400; ++pid)
        QVERIFY(QFile::link(victim, cache + QStringLiteral("/.synthetic-1-0-64.heap.part-%1").arg(pid)));
    const Result r = lookahead(syncRunIn(cache, 64));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(readFile(victim), QByteArray("precious\n"));
    QVERIFY(QFileInfo(cache + QStringLiteral("/synthetic-1-0-64.heap")).isFile());
}

void TestFileSafety::cacheDirectoriesArePrivate() {
    const QString xdg = path(QStringLiteral("xdg-private"));
    Launch launch{{QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("seq"),
                   QStringLiteral("--pattern-blocks"), QString::number(32), QStringLiteral("--io"),
                   QStringLiteral("sync")},
                  {},
                  {{QStringLiteral("XDG_CACHE_HOME"), xdg}},
                  {}};
    const Result r = lookahead(launch);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    for (const QString& dir :
         {xdg, xdg + QStringLiteral("/lookahead"), xdg + QStringLiteral("/lookahead/datasets")}) {
        struct stat st {};
        QCOMPARE(::stat(dir.toLocal8Bit().constData(), &st), 0);
        QVERIFY2((st.st_mode & 07777) == 0700,
                 qPrintable(dir + QStringLiteral(" %1").arg(st.st_mode & 07777, 0, 8)));
    }
}

void TestFileSafety::sharedCacheDirectoryIsRefused() {
    const QString shared = path(QStringLiteral("shared"));
    QVERIFY(QDir().mkpath(shared));
    QCOMPARE(::chmod(shared.toLocal8Bit().constData(), 01777), 0);
    const QStringList args = syncRunIn(shared, 32);
    Result r = lookahead(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("writable by group or others")), qPrintable(r.err));
    QCOMPARE(entries(shared), QStringList());
    if (::geteuid() != 0)
        QSKIP("giving a directory to another user needs root");
    const QString foreign = path(QStringLiteral("foreign"));
    QVERIFY(QDir().mkpath(foreign));
    QCOMPARE(::chmod(foreign.toLocal8Bit().constData(), 0700), 0);
    QCOMPARE(::chown(foreign.toLocal8Bit().constData(), 65534, 65534), 0);
    QStringList foreignArgs = args;
    foreignArgs.last() = foreign;
    r = lookahead(foreignArgs);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("belongs to user 65534")), qPrintable(r.err));
    QCOMPARE(entries(foreign), QStringList());
}

void TestFileSafety::noSharedFallbackWithoutHome() {
    const QStringList args{QStringLiteral("--headless"), QStringLiteral("--dataset"),
                           QStringLiteral("seq"),        QStringLiteral("--pattern-blocks"),
                           QString::number(32),          QStringLiteral("--io"),
                           QStringLiteral("sync")};
    const QString runtime = path(QStringLiteral("runtime"));
    QVERIFY(QDir().mkpath(runtime));
    QCOMPARE(::chmod(runtime.toLocal8Bit().constData(), 0700), 0);
    Result r = lookahead(Launch{args,
                                {QStringLiteral("HOME"), QStringLiteral("XDG_CACHE_HOME")},
                                {{QStringLiteral("XDG_RUNTIME_DIR"), runtime}},
                                {}});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(QFileInfo(runtime + QStringLiteral("/lookahead/datasets/synthetic-1-0-32.heap")).isFile());
    r = lookahead(
        Launch{args,
               {QStringLiteral("HOME"), QStringLiteral("XDG_CACHE_HOME"), QStringLiteral("XDG_RUNTIME_DIR")},
               {},
               {}});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--cache-dir")), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
}

void TestFileSafety::outputOntoInputIsRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("victim");
    QTest::addColumn<QString>("message");
    const QString file = path(QStringLiteral("relation.bin"));
    writeFile(file, QByteArray(16 * 8192, 'r'));
    const QString list = path(QStringLiteral("blocks.txt"));
    writeFile(list, "1\n2\n3\n");
    const QString hardLink = path(QStringLiteral("relation-hardlink.bin"));
    QFile::remove(hardLink);
    QCOMPARE(::link(file.toLocal8Bit().constData(), hardLink.toLocal8Bit().constData()), 0);
    const QString symLink = path(QStringLiteral("relation-symlink.bin"));
    QFile::remove(symLink);
    QVERIFY(QFile::link(file, symLink));
    const QString prewarm = path(QStringLiteral("prewarm.txt"));
    writeFile(prewarm, "1\n");
    const QString out = path(QStringLiteral("out.json"));
    const QStringList onFile{
        QStringLiteral("--headless"), QStringLiteral("--file"), file,
        QStringLiteral("--io"),       QStringLiteral("sync"),   QStringLiteral("--dataset"),
        QStringLiteral("seq")};
    QTest::newRow("--file F --trace-csv F") << (onFile + QStringList{QStringLiteral("--trace-csv"), file})
                                            << file << QStringLiteral("same file as --file");
    QTest::newRow("--file F --summary-json F")
        << (onFile + QStringList{QStringLiteral("--summary-json"), file}) << file
        << QStringLiteral("same file as --file");
    QTest::newRow("hard link") << (onFile + QStringList{QStringLiteral("--trace-csv"), hardLink}) << file
                               << QStringLiteral("same file as --file");
    QTest::newRow("symlink") << (onFile + QStringList{QStringLiteral("--summary-json"), symLink}) << file
                             << QStringLiteral("same file as --file");
    QTest::newRow("--blocks L --trace-csv L")
        << QStringList{QStringLiteral("--headless"), QStringLiteral("--blocks"), list,
                       QStringLiteral("--trace-csv"), QStringLiteral("./") + QFileInfo(list).fileName()}
        << list << QStringLiteral("same file as --blocks");
    QTest::newRow("prewarm list") << QStringList{QStringLiteral("--headless"), QStringLiteral("--prewarm"),
                                                 QStringLiteral("list:") + prewarm,
                                                 QStringLiteral("--trace-csv"), prewarm}
                                  << prewarm << QStringLiteral("same file as the prewarm list");
    QTest::newRow("two outputs") << QStringList{QStringLiteral("--headless"),
                                                QStringLiteral("--summary-json"), out,
                                                QStringLiteral("--trace-csv"), out}
                                 << out << QStringLiteral("give each output its own file");
}

void TestFileSafety::outputOntoInputIsRefused() {
    QFETCH(QStringList, args);
    QFETCH(QString, victim);
    QFETCH(QString, message);
    QDir::setCurrent(m_dir.path());
    const QByteArray before = readFile(victim);
    const Result r = lookahead(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    QCOMPARE(readFile(victim), before);
}

void TestFileSafety::badInputLeavesExistingOutputAlone() {
    const QString old = path(QStringLiteral("old.csv"));
    writeFile(old, "yesterday's trace\n");
    const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--blocks"),
                                QStringLiteral("/missing"), QStringLiteral("--trace-csv"), old});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(readFile(old), QByteArray("yesterday's trace\n"));
}

void TestFileSafety::writeToFullDevice_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<bool>("stdoutToFull");
    QTest::addColumn<QString>("message");
    const QStringList run{QStringLiteral("--headless"), QStringLiteral("--dataset"),
                          QStringLiteral("alternating")};
    QTest::newRow("--trace-csv /dev/full")
        << (run + QStringList{QStringLiteral("--trace-csv"), QStringLiteral("/dev/full")}) << false
        << QStringLiteral("cannot write trace CSV '/dev/full'");
    QTest::newRow("--summary-json /dev/full")
        << (run + QStringList{QStringLiteral("--summary-json"), QStringLiteral("/dev/full")}) << false
        << QStringLiteral("cannot write summary JSON '/dev/full'");
    QTest::newRow("--export-png /dev/full")
        << (run + QStringList{QStringLiteral("--export-png"), QStringLiteral("/dev/full")}) << false
        << QStringLiteral("cannot write PNG '/dev/full'");
    QTest::newRow("stdout of a run") << run << true << QStringLiteral("cannot write standard output");
    QTest::newRow("stdout of --list-datasets") << QStringList{QStringLiteral("--list-datasets")} << true
                                               << QStringLiteral("cannot write standard output");
}

void TestFileSafety::writeToFullDevice() {
    QFETCH(QStringList, args);
    QFETCH(bool, stdoutToFull);
    QFETCH(QString, message);
    struct stat st {};
    QCOMPARE(::stat("/dev/full", &st), 0);
    QVERIFY2(S_ISCHR(st.st_mode), "/dev/full must be the device");
    QProcess process;
    if (stdoutToFull)
        process.setStandardOutputFile(QStringLiteral("/dev/full"), QIODevice::Append);
    prepare(process, Launch{args, {}, {}, {}});
    const Result r = finish(process);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY2(r.err.contains(QString::fromUtf8(std::strerror(ENOSPC))), qPrintable(r.err));
    // An output must never replace the device itself.
    QCOMPARE(::stat("/dev/full", &st), 0);
    QVERIFY(S_ISCHR(st.st_mode));
}

// The events kept for exports of what is on screen stop while a gigabyte is still free: on a small
// file system the spool keeps none and says why. The command line's export streams its trace CSV
// to its own path and keeps no spool at all, so it writes the CSV and the PNG all the same.
void TestFileSafety::eventSpoolNeverFillsTheDisk() {
    const SmallFileSystem fs(path(QStringLiteral("spool-fs")), 8 << 20);
    if (!fs.skipReason().isEmpty())
        QSKIP(qPrintable(fs.skipReason()));
    QVERIFY2(fs.error().isEmpty(), qPrintable(fs.error()));
    {
        la::EventSpool spool(fs.path().toStdString());
        const std::vector<la::Event> batch(4096);
        for (int i = 0; i < 64 && spool.broken().empty(); ++i)
            spool.onEvents(batch);
        spool.finish();
        QVERIFY2(QString::fromStdString(spool.broken()).contains(QStringLiteral("would be left free")),
                 spool.broken().c_str());
    }
    QCOMPARE(entries(fs.path()), QStringList());
    const QString csv = path(QStringLiteral("spooled.csv"));
    const QString png = path(QStringLiteral("spooled.png"));
    const Result r =
        lookahead({QStringLiteral("--dataset"), QStringLiteral("alternating"),
                   QStringLiteral("--pattern-blocks"), QStringLiteral("4096"), QStringLiteral("--cache-dir"),
                   fs.path(), QStringLiteral("--export-png"), png, QStringLiteral("--trace-csv"), csv});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(QFile::exists(csv));
    QVERIFY(QFile::exists(png));
    QCOMPARE(entries(fs.path()), QStringList());
}

void TestFileSafety::fullFileSystemKeepsOldOutput() {
    const SmallFileSystem fs(path(QStringLiteral("full-fs")), 1 << 20);
    if (!fs.skipReason().isEmpty())
        QSKIP(qPrintable(fs.skipReason()));
    QVERIFY2(fs.error().isEmpty(), qPrintable(fs.error()));
    const QString& mount = fs.path();
    const QString csv = mount + QStringLiteral("/trace.csv");
    const QString json = mount + QStringLiteral("/summary.json");
    const QString png = mount + QStringLiteral("/plots.png");
    writeFile(csv, "old trace\n");
    writeFile(json, "{\"old\": true}\n");
    writeFile(png, "old picture");
    // The trace of 200,000 blocks is far larger than the 1 MiB file system.
    Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"),
                          QStringLiteral("alternating"), QStringLiteral("--pattern-blocks"),
                          QStringLiteral("200000"), QStringLiteral("--trace-csv"), csv});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("cannot write trace CSV '%1'").arg(csv)), qPrintable(r.err));
    QCOMPARE(readFile(csv), QByteArray("old trace\n"));
    // Full for real before the next two: not a block left, not one byte more.
    const QString full = fs.fill();
    QVERIFY2(full.isEmpty(), qPrintable(full));
    r = lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("alternating"),
                   QStringLiteral("--summary-json"), json});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("cannot write summary JSON '%1'").arg(json)), qPrintable(r.err));
    QCOMPARE(readFile(json), QByteArray("{\"old\": true}\n"));
    r = lookahead(
        {QStringLiteral("--dataset"), QStringLiteral("alternating"), QStringLiteral("--export-png"), png});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("cannot write PNG '%1'").arg(png)), qPrintable(r.err));
    QVERIFY2(r.err.contains(QString::fromUtf8(std::strerror(ENOSPC))), qPrintable(r.err));
    QCOMPARE(readFile(png), QByteArray("old picture"));
    fs.empty();
    QCOMPARE(entries(mount), (QStringList{QStringLiteral("plots.png"), QStringLiteral("summary.json"),
                                          QStringLiteral("trace.csv")}));
}

void TestFileSafety::hugeCacheStateIsRefused_data() {
    QTest::addColumn<QStringList>("args");
    const QString max = path(QStringLiteral("max.txt"));
    writeFile(max, "0\n4294967294\n");
    // A pool smaller than the relation keeps frames and a hash table (~28 bytes a buffer): 2^31 - 1
    // of them cannot fit. (A pool that holds the whole relation needs two bits a block, and fits.)
    const QStringList onMax{
        QStringLiteral("--headless"), QStringLiteral("--blocks"), max,
        QStringLiteral("--io"),       QStringLiteral("sim"),      QStringLiteral("--shared-buffers"),
        QStringLiteral("2147483647"), QStringLiteral("--prewarm")};
    QTest::newRow("prewarm all") << (onMax + QStringList{QStringLiteral("all")});
    QTest::newRow("prewarm every:2") << (onMax + QStringList{QStringLiteral("every:2")});
    QTest::newRow("prewarm fraction:0.5:1") << (onMax + QStringList{QStringLiteral("fraction:0.5:1")});
    QTest::newRow("sparse-miss:16 of 2^31 blocks, a smaller pool") << QStringList{
        QStringLiteral("--headless"),       QStringLiteral("--dataset"),  QStringLiteral("sparse-miss:16"),
        QStringLiteral("--pattern-blocks"), QStringLiteral("2147483648"), QStringLiteral("--shared-buffers"),
        QStringLiteral("2147483647")};
}

void TestFileSafety::hugeCacheStateIsRefused() {
    QFETCH(QStringList, args);
    const qint64 ram = qint64(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
    if (ram > (qint64(112) << 30))
        QSKIP("this machine could hold a pool of 2^31 frames");
    const Result r = lookahead(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("would need")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("--shared-buffers")), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
}

void TestFileSafety::killDuringDatasetWriteLeavesNothing_data() {
    QTest::addColumn<int>("signal");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("SIGKILL") << int(SIGKILL) << -1;
    QTest::newRow("SIGTERM") << int(SIGTERM) << 128 + SIGTERM;
    QTest::newRow("SIGINT") << int(SIGINT) << 128 + SIGINT;
}

void TestFileSafety::killDuringDatasetWriteLeavesNothing() {
    QFETCH(int, signal);
    QFETCH(int, exitCode);
    const QString cache = path(QStringLiteral("killed-%1").arg(signal));
    const QString json = path(QStringLiteral("killed-%1.json").arg(signal));
    QProcess process;
    // 1 GiB: far more than is written before the signal arrives.
    prepare(process, Launch{{QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("seq"),
                             QStringLiteral("--pattern-blocks"), QStringLiteral("131072"),
                             QStringLiteral("--io"), QStringLiteral("uring"), QStringLiteral("--cache-dir"),
                             cache, QStringLiteral("--summary-json"), json},
                            {},
                            {},
                            {}});
    QVERIFY(process.waitForStarted());
    QByteArray err;
    QVERIFY(la::test::waitForStderr(process, "writing dataset file", err, kTimeoutMs));
    // While the file is written, nothing in the directory has a name anyone could open.
    QCOMPARE(entries(cache), QStringList());
    ::kill(static_cast<pid_t>(process.processId()), signal);
    const Result r = finish(process);
    QCOMPARE(r.exitCode, exitCode);
    QCOMPARE(entries(cache), QStringList());
    if (signal != SIGKILL) {
        const QJsonObject summary = readJson(json);
        QCOMPARE(summary[QStringLiteral("cancelled")].toBool(), true);
        const QJsonObject run = summary[QStringLiteral("runs")].toArray().at(0).toObject();
        QVERIFY2(run[QStringLiteral("io_method_used")].toString() != QStringLiteral("sim"),
                 qPrintable(run[QStringLiteral("io_method_used")].toString()));
    }
}

void TestFileSafety::fileSizeLimitIsAnError() {
    const QString cache = path(QStringLiteral("fsize"));
    const Result r = lookahead(Launch{syncRunIn(cache, 4096), {}, {}, [] {
                                          const rlimit limit{1 << 20, 1 << 20};
                                          ::setrlimit(RLIMIT_FSIZE, &limit);
                                      }});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("file size limit")), qPrintable(r.err));
    // The message names the file the user would look for, never a temporary one.
    QVERIFY2(r.err.contains(cache + QStringLiteral("/synthetic-1-0-4096.heap")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral(".part")) && !r.err.contains(QStringLiteral(".tmp")),
             qPrintable(r.err));
    QCOMPARE(entries(cache), QStringList());
}

void TestFileSafety::staleTemporaryFilesAreRemoved() {
    // Only temporaries marked as ours (what TempFile's named fallback leaves when killed) go, and
    // only once their process has: a look-alike without the mark may be the user's and stays.
    const QString cache = path(QStringLiteral("stale"));
    QVERIFY(QDir().mkpath(cache));
    QCOMPARE(::chmod(cache.toLocal8Bit().constData(), 0700), 0);
    QProcess gone;
    gone.start(QStringLiteral("true"));
    QVERIFY(gone.waitForFinished());
    const qint64 deadPid = gone.processId() > 0 ? gone.processId() : 4194000;
    const QString name = QStringLiteral(".synthetic-1-0-64.heap.%1.0123456789abcdef.tmp");
    const QString orphan = cache + QLatin1Char('/') + name.arg(deadPid);
    const QString alive = cache + QLatin1Char('/') + name.arg(::getpid());
    const QString unmarked =
        cache + QStringLiteral("/.synthetic-1-0-64.heap.%1.fedcba9876543210.tmp").arg(deadPid);
    const QString older = cache + QStringLiteral("/.synthetic-1-0-64.heap.part-%1").arg(deadPid);
    for (const QString& file : {orphan, alive, unmarked, older})
        writeFile(file, QByteArray(8192, 'p'));
    for (const QString& file : {orphan, alive}) {
        const QByteArray mark = QFileInfo(file).fileName().toLocal8Bit();
        if (::setxattr(file.toLocal8Bit().constData(), "user.lookahead.temp", mark.constData(),
                       static_cast<std::size_t>(mark.size()), 0) != 0)
            QSKIP("this file system has no user extended attributes");
    }
    const Result r = lookahead(syncRunIn(cache, 64));
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(orphan));
    QVERIFY(QFileInfo::exists(alive)); // its process (this test) still runs
    QVERIFY(QFileInfo::exists(unmarked));
    QVERIFY(QFileInfo::exists(older)); // earlier versions left no mark: it cannot be told from a user's
}

void TestFileSafety::signalCancelsHeadlessRun_data() {
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGINT") << int(SIGINT);
    QTest::newRow("SIGTERM") << int(SIGTERM);
}

void TestFileSafety::signalCancelsHeadlessRun() {
    QFETCH(int, signal);
    const QString csv = path(QStringLiteral("signal-%1.csv").arg(signal));
    const QString json = path(QStringLiteral("signal-%1.json").arg(signal));
    constexpr qint64 kBlocks = 50'000'000; // minutes of tracing: the signal comes long before the end
    QProcess process;
    prepare(process,
            Launch{{QStringLiteral("--headless"), QStringLiteral("--dataset"), QStringLiteral("random"),
                    QStringLiteral("--pattern-blocks"), QString::number(kBlocks), QStringLiteral("--policy"),
                    QStringLiteral("pg18"), QStringLiteral("--compare-policy"), QStringLiteral("pg19"),
                    QStringLiteral("--trace-csv"), csv, QStringLiteral("--summary-json"), json},
                   {},
                   {},
                   {}});
    QVERIFY(process.waitForStarted());
    // Well into the run: its trace CSV has rows on disk (the first megabyte flushed).
    QVERIFY2(
        la::test::untilWrittenIn(
            m_dir.path(), [&] { return bytesOpenIn(process.processId(), m_dir.path()) > 0; }, kTimeoutMs),
        "the run never wrote its trace CSV");
    ::kill(static_cast<pid_t>(process.processId()), signal);
    const Result r = finish(process);
    QCOMPARE(r.exitCode, 128 + signal);
    QVERIFY2(r.out.contains(QStringLiteral("cancelled")), qPrintable(r.out));
    const QJsonObject summary = readJson(json);
    QCOMPARE(summary[QStringLiteral("cancelled")].toBool(), true);
    const QJsonArray runs = summary[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 1); // B never started
    const QJsonObject a = runs.at(0).toObject();
    QCOMPARE(a[QStringLiteral("cancelled")].toBool(), true);
    QVERIFY(a[QStringLiteral("blocks")].toInteger() > 0);
    QVERIFY(a[QStringLiteral("blocks")].toInteger() < kBlocks);
    const QByteArray trace = readFile(csv);
    QVERIFY(trace.size() > 1000);
    QVERIFY(trace.endsWith('\n'));
    const QList<QByteArray> rows = trace.trimmed().split('\n');
    QCOMPARE(rows.last().count(','), 12); // a whole row
    QVERIFY(rows.first().startsWith("run,time_ns,"));
    QCOMPARE(entries(m_dir.path()).filter(QStringLiteral(".tmp")), QStringList());
}

void TestFileSafety::signalEndsACallBlockedOnAPipe_data() {
    QTest::addColumn<QString>("option");
    // A trace CSV written to a FIFO whose reader never reads: the write blocks in the kernel, not in
    // our loop. (A FIFO as an input is refused before it is read: tst_input_files.)
    QTest::newRow("--trace-csv FIFO, reader stalled") << QStringLiteral("--trace-csv");
}

void TestFileSafety::signalEndsACallBlockedOnAPipe() {
    QFETCH(QString, option);
    const QString fifo = path(QStringLiteral("stalled%1.fifo").arg(option));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    // Held open both ways and never used: the other end neither sees an end of file nor drains.
    const int held = ::open(QFile::encodeName(fifo).constData(), O_RDWR | O_CLOEXEC);
    QVERIFY(held >= 0);
    QVERIFY(la::test::shrinkPipe(held));
    QStringList args{QStringLiteral("--headless"), option, fifo};
    if (option == QStringLiteral("--trace-csv"))
        args << QStringLiteral("--dataset") << QStringLiteral("random") << QStringLiteral("--pattern-blocks")
             << QString::number(1'000'000);
    QProcess process;
    prepare(process, Launch{args, {}, {}, {}});
    QVERIFY(process.waitForStarted());
    // The run writes its trace a megabyte at a time: its first bytes mean it sits in the write the
    // signal must end.
    QVERIFY2(la::test::untilWriterStalls(held, kTimeoutMs), "the run never blocked on the FIFO");
    ::kill(static_cast<pid_t>(process.processId()), SIGINT);
    const Result r = finish(process);
    ::close(held);
    QCOMPARE(r.exitCode, 128 + SIGINT);
}

void TestFileSafety::csvQuotingIsHonoured_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QList<uint>>("blocks");
    QTest::newRow("commas in quotes")
        << QByteArray("note,block\n\"a,5,b\",10\n\"c,7,d\",20\n") << QList<uint>{10, 20};
    QTest::newRow("doubled quotes, BOM, CRLF")
        << QByteArray("\xEF\xBB\xBFnote,block\r\n\"say \"\"5\"\"\",30\r\n\"x\",40\r\n")
        << QList<uint>{30, 40};
    QTest::newRow("line break in a quoted field")
        << QByteArray("block,note\n50,\"two\nlines, 9\"\n60,\"#not a comment\"\n") << QList<uint>{50, 60};
}

void TestFileSafety::csvQuotingIsHonoured() {
    QFETCH(QByteArray, text);
    QFETCH(QList<uint>, blocks);
    const QString list = path(QStringLiteral("quoted.csv"));
    const QString csv = path(QStringLiteral("quoted-trace.csv"));
    writeFile(list, text);
    const Result r = lookahead(
        {QStringLiteral("--headless"), QStringLiteral("--blocks"), list, QStringLiteral("--trace-csv"), csv});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(requestedBlocks(csv), blocks);
}

void TestFileSafety::junkIsQuotedShortAndEscaped_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("50 MB line") << QByteArray(50 << 20, 'x') << QStringLiteral("longer than");
    QTest::newRow("NUL byte") << QByteArray("1\n2\0junk\n", 9)
                              << QStringLiteral("'2\\x00junk' is not a block number");
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\x01\x02", 10) << QStringLiteral("\\x89PNG");
}

void TestFileSafety::junkIsQuotedShortAndEscaped() {
    QFETCH(QByteArray, text);
    QFETCH(QString, mentions);
    const QString list = path(QStringLiteral("junk.txt"));
    writeFile(list, text);
    const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--blocks"), list});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.size() < 400, qPrintable(QString::number(r.err.size())));
    QVERIFY2(r.err.contains(mentions), qPrintable(r.err));
    QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    QVERIFY(r.err.endsWith(QLatin1Char('\n')));
    for (const QChar c : r.err.chopped(1))
        QVERIFY2(c.isPrint(), qPrintable(r.err));
}

void TestFileSafety::scaleMessageIsConsistent() {
    const Result r = lookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"),
                                QStringLiteral("uniform"), QStringLiteral("--scale"), QStringLiteral("0")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("more than 0 and at most 1")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("between 0")), qPrintable(r.err));
}

void TestFileSafety::directoryAtDatasetPathIsFoundFirst() {
    const QString cache = path(QStringLiteral("in-the-way"));
    QVERIFY(QDir().mkpath(cache + QStringLiteral("/synthetic-1-0-4096.heap")));
    QCOMPARE(::chmod(cache.toLocal8Bit().constData(), 0700), 0);
    const Result r = lookahead(syncRunIn(cache, 4096));
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("a directory is in its place")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("writing dataset file")),
             qPrintable(r.err)); // nothing was written
    QCOMPARE(entries(cache), QStringList{QStringLiteral("synthetic-1-0-4096.heap")});
    // A file that is not ours stays too.
    const QString foreign = path(QStringLiteral("foreign-file"));
    QVERIFY(QDir().mkpath(foreign));
    QCOMPARE(::chmod(foreign.toLocal8Bit().constData(), 0700), 0);
    writeFile(foreign + QStringLiteral("/synthetic-1-0-4096.heap"), "someone's notes");
    const Result again = lookahead(syncRunIn(foreign, 4096));
    QCOMPARE(again.exitCode, 2);
    QVERIFY2(again.err.contains(QStringLiteral("not a Lookahead dataset file")), qPrintable(again.err));
    QCOMPARE(readFile(foreign + QStringLiteral("/synthetic-1-0-4096.heap")), QByteArray("someone's notes"));
}

void TestFileSafety::sparseFileIsWarnedAbout() {
    const QString sparse = path(QStringLiteral("sparse.bin"));
    QFile file(sparse);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.resize(8 << 20)); // all holes
    file.close();
    const QByteArray before = QCryptographicHash::hash(readFile(sparse), QCryptographicHash::Sha256);
    const Result r =
        lookahead({QStringLiteral("--headless"), QStringLiteral("--file"), sparse, QStringLiteral("--io"),
                   QStringLiteral("sync"), QStringLiteral("--dataset"), QStringLiteral("seq")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("is sparse")), qPrintable(r.err));
    QCOMPARE(QCryptographicHash::hash(readFile(sparse), QCryptographicHash::Sha256), before);
}

QTEST_GUILESS_MAIN(TestFileSafety)
#include "tst_file_safety.moc"
