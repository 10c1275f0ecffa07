// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile PostgreSQL relation files (issue 22, defects 11 and 16): copies of a real btree and table
// that a PostgreSQL 15 server wrote, damaged consistently (every page still passes its own header
// checks; the cluster has no data checksums, so none needs recomputing), must be refused by the
// built binary with one line on stderr naming the file and block, exit status 2, never a silently
// shorter scan, and without memory sized from a number in the files (docs/pg-relations.md §2.4, §8).
#include "cli_process.h"
#include "pg_server.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

using namespace la;

namespace {

constexpr int kRows = 20'000;
constexpr qint64 kPage = 8192;
// A btree page's special space: left-link, right-link, level, flags (docs/pg-relations.md §2.1).
constexpr qint64 kPrev = kPage - 16, kNext = kPage - 12, kLevel = kPage - 8, kFlags = kPage - 4;

// Leaves at 10% fill make a three-level btree (btm_level 2) of a small table; the table is stored
// in hash order so that the scan jumps around its heap.
const char* const kSetup =
    "CREATE TABLE t(a int8, pad text);"
    "INSERT INTO t SELECT g, repeat('x', 100) FROM generate_series(1, %1) g ORDER BY hashint8(g);"
    "CREATE INDEX t_a ON t(a) WITH (fillfactor = 10);"
    "CREATE TABLE empty(a int8);"
    "CREATE INDEX empty_a ON empty(a);"
    "CHECKPOINT;";

std::uint32_t u32At(const QByteArray& page, qint64 at) {
    std::uint32_t v = 0;
    std::memcpy(&v, page.constData() + at, sizeof v);
    return v;
}

std::uint16_t u16At(const QByteArray& page, qint64 at) {
    std::uint16_t v = 0;
    std::memcpy(&v, page.constData() + at, sizeof v);
    return v;
}

template <typename T> QByteArray bytesOf(T v) {
    return QByteArray(reinterpret_cast<const char*>(&v), sizeof v);
}

QByteArray readBlock(const QString& path, std::uint32_t block) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(qint64(block) * kPage))
        return {};
    return file.read(kPage);
}

// Writes `bytes` at `offset` within `block` of a copy.
bool patch(const QString& path, std::uint32_t block, qint64 offset, const QByteArray& bytes) {
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite) || !file.seek(qint64(block) * kPage + offset))
        return false;
    return file.write(bytes) == bytes.size();
}

// Byte offset within its page of item `n` (line pointer n, counting from 1).
qint64 itemOffset(const QByteArray& page, std::uint32_t n) {
    return u32At(page, 24 + 4 * (n - 1)) & 0x7FFF;
}

} // namespace

class TestHostileRelations : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void damagedLinksAreRefused_data();
    void damagedLinksAreRefused();
    void keysOutOfOrderAreRefused_data();
    void keysOutOfOrderAreRefused();
    void tidPastTheTableIsRefusedCheaply_data();
    void tidPastTheTableIsRefusedCheaply();
    void linkPastTheEndNamesNoMissingSegment();
    void emptyScanBlamesTheRightThing_data();
    void emptyScanBlamesTheRightThing();
    void badHeapPageGoesToStderr_data();
    void badHeapPageGoesToStderr();
    void tableChangingUnderTheScanGoesToStderr();

private:
    QString relationFile(const QString& relation) const;
    // Runs the binary on m_index and m_heap (plus `extra`); checks exit status 2 and one line on
    // stderr naming `file` and containing each of `needles`.
    void expectRefusal(const QStringList& extra, const QString& file, const QStringList& needles);

    std::unique_ptr<test::PgServer> m_server;
    QTemporaryDir m_tmp;
    QString m_cleanIndex, m_cleanHeap, m_emptyIndex;
    QString m_index, m_heap; // this test's copies
    // Leaves in key order (the leaf level from left to right), and the metapage's btm_level.
    std::vector<std::uint32_t> m_leaves;
    std::uint32_t m_rootLevel = 0;
};

QString TestHostileRelations::relationFile(const QString& relation) const {
    QString error;
    const QString path =
        m_server->sql(QStringLiteral("SELECT pg_relation_filepath('%1')").arg(relation), error);
    return error.isEmpty() ? m_server->dataDir() + QLatin1Char('/') + path : QString();
}

void TestHostileRelations::initTestCase() {
    if (const QString why = test::PgServer::unavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY(m_tmp.isValid());
    m_server = std::make_unique<test::PgServer>();
    QString error = m_server->start(false);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_server->sql(QString::fromLatin1(kSetup).arg(kRows), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Copies out of the cluster: the server is stopped before anything reads them.
    m_cleanIndex = m_tmp.filePath(QStringLiteral("clean-index"));
    m_cleanHeap = m_tmp.filePath(QStringLiteral("clean-heap"));
    m_emptyIndex = m_tmp.filePath(QStringLiteral("empty-index"));
    QVERIFY(QFile::copy(relationFile(QStringLiteral("t_a")), m_cleanIndex));
    QVERIFY(QFile::copy(relationFile(QStringLiteral("t")), m_cleanHeap));
    QVERIFY(QFile::copy(relationFile(QStringLiteral("empty_a")), m_emptyIndex));
    m_server.reset();

    // The leaf level in key order: down the first downlinks from the root, then right.
    const QByteArray meta = readBlock(m_cleanIndex, 0);
    m_rootLevel = u32At(meta, 36);
    QCOMPARE(m_rootLevel, 2u);
    std::uint32_t block = u32At(meta, 32);
    for (QByteArray page = readBlock(m_cleanIndex, block); u32At(page, kLevel) > 0;
         page = readBlock(m_cleanIndex, block)) {
        const std::uint32_t first = u32At(page, kNext) == 0 ? 1 : 2;
        const qint64 at = itemOffset(page, first);
        block = (std::uint32_t{u16At(page, at)} << 16) | u16At(page, at + 2);
    }
    for (; block != 0; block = u32At(readBlock(m_cleanIndex, block), kNext))
        m_leaves.push_back(block);
    QVERIFY(m_leaves.size() > 100);

    // The clean copies scan, forward and backward, returning every row.
    for (const QString& direction : {QStringLiteral("forward"), QStringLiteral("backward")}) {
        const test::CliResult r = test::runLookahead(
            {QStringLiteral("--headless"), QStringLiteral("--pg-index"), m_cleanIndex,
             QStringLiteral("--pg-heap"), m_cleanHeap, QStringLiteral("--direction"), direction,
             QStringLiteral("--pg-key-range"), QStringLiteral("1:%1").arg(kRows)},
            60'000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("20,000 TIDs")), qPrintable(r.out));
    }
    // --pg-key without --pg-key-range scans the whole index, as --help says of the range's default.
    const test::CliResult whole = test::runLookahead(
        {QStringLiteral("--headless"), QStringLiteral("--pg-index"), m_cleanIndex,
         QStringLiteral("--pg-heap"), m_cleanHeap, QStringLiteral("--pg-key"), QStringLiteral("int8")},
        60'000);
    QVERIFY2(whole.exitCode == 0, qPrintable(whole.out + whole.err));
    QVERIFY2(whole.out.contains(QStringLiteral("20,000 TIDs")), qPrintable(whole.out));
}

void TestHostileRelations::init() {
    // Fresh copies for every test and data row.
    m_index = m_tmp.filePath(QStringLiteral("index"));
    m_heap = m_tmp.filePath(QStringLiteral("heap"));
    for (const auto& [from, to] : {std::pair{m_cleanIndex, m_index}, std::pair{m_cleanHeap, m_heap}}) {
        QFile::remove(to);
        QVERIFY(QFile::copy(from, to));
        QVERIFY(QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner));
    }
}

void TestHostileRelations::expectRefusal(const QStringList& extra, const QString& file,
                                         const QStringList& needles) {
    const test::CliResult r =
        test::runLookahead(QStringList{QStringLiteral("--headless"), QStringLiteral("--pg-index"), m_index,
                                       QStringLiteral("--pg-heap"), m_heap} +
                               extra,
                           60'000);
    QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: ").arg(r.exitCode) + r.out + r.err));
    const QStringList lines = r.err.trimmed().split(QLatin1Char('\n'));
    QVERIFY2(lines.size() == 1, qPrintable(r.err));
    QVERIFY2(lines[0].contains(QLatin1Char('\'') + file + QLatin1Char('\'')), qPrintable(lines[0]));
    for (const QString& needle : needles)
        QVERIFY2(lines[0].contains(needle), qPrintable(lines[0]));
}

// A btree whose links are damaged, each found where the walk meets it: one line naming the block.
void TestHostileRelations::damagedLinksAreRefused_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<quint32>("block");
    QTest::addColumn<qint64>("offset"); // where in the block the bytes are written
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QStringList>("needles");
    const std::size_t leaves = m_leaves.size();
    for (const char* direction : {"forward", "backward"}) {
        const QStringList options{QStringLiteral("--direction"), QString::fromLatin1(direction)};
        // A leaf in the first tenth of the level loses its right-link: the forward walk used to end
        // there, returning a tenth of the rows with exit status 0.
        const std::uint32_t cut = m_leaves[leaves / 10];
        QTest::addRow("%s, right-link 0", direction)
            << options << cut << kNext << bytesOf(std::uint32_t{0})
            << QStringList{QStringLiteral("block %1 ").arg(cut), QStringLiteral("right-link is 0")};
        // The metapage's root names a leaf in the middle while btm_level stays 2: forward used to
        // return the right half silently; backward called it a sibling cycle.
        const std::uint32_t root = m_leaves[leaves / 2];
        QTest::addRow("%s, a leaf as the root", direction)
            << options << quint32(0) << qint64(32) << bytesOf(root)
            << QStringList{QStringLiteral("block %1 ").arg(root), QStringLiteral("btm_level 2")};
        // A leaf's left-link names its right sibling: the forward walk never read left-links before.
        QTest::addRow("%s, sibling links that disagree", direction)
            << options << m_leaves[leaves / 3] << kPrev << bytesOf(m_leaves[leaves / 3 + 1])
            << QStringList{QStringLiteral("sibling links disagree")};
    }
    // A leaf flagged as a leaf but at level 1, met on the sibling walk.
    const std::uint32_t raised = m_leaves[leaves / 4];
    QTest::newRow("a leaf at level 1")
        << QStringList() << raised << kLevel << bytesOf(std::uint32_t{1})
        << QStringList{QStringLiteral("block %1 ").arg(raised), QStringLiteral("leaf page at level 1")};
}

void TestHostileRelations::damagedLinksAreRefused() {
    QFETCH(QStringList, options);
    QFETCH(quint32, block);
    QFETCH(qint64, offset);
    QFETCH(QByteArray, bytes);
    QFETCH(QStringList, needles);
    QVERIFY(patch(m_index, block, offset, bytes));
    expectRefusal(options, m_index, needles);
}

void TestHostileRelations::keysOutOfOrderAreRefused_data() {
    QTest::addColumn<QString>("direction");
    QTest::addColumn<qint64>("highKey"); // the new high key of a leaf in the middle
    QTest::addColumn<QString>("message");
    for (const char* direction : {"forward", "backward"}) {
        QTest::addRow("%s, above the right sibling", direction)
            << QString::fromLatin1(direction) << qint64(1'000'000'000)
            << QStringLiteral("above the first key");
        QTest::addRow("%s, below its own keys", direction)
            << QString::fromLatin1(direction) << qint64(1) << QStringLiteral("above the page's high key");
    }
}

void TestHostileRelations::keysOutOfOrderAreRefused() {
    QFETCH(QString, direction);
    QFETCH(qint64, highKey);
    QFETCH(QString, message);
    const std::uint32_t leaf = m_leaves[m_leaves.size() / 2];
    const QByteArray page = readBlock(m_index, leaf);
    // Item 1 is the high key: an 8-byte tuple header, then the int8 key.
    QVERIFY(patch(m_index, leaf, itemOffset(page, 1) + 8, bytesOf(std::int64_t{highKey})));
    const QString forwardMessage =
        message == QLatin1String("above the first key") ? QStringLiteral("below the high key") : message;
    expectRefusal(
        {QStringLiteral("--direction"), direction, QStringLiteral("--pg-key-range"),
         QStringLiteral("1:%1").arg(kRows)},
        m_index,
        {direction == QLatin1String("forward") ? forwardMessage : message, QStringLiteral("out of order")});
}

void TestHostileRelations::tidPastTheTableIsRefusedCheaply_data() {
    QTest::addColumn<quint32>("block");
    QTest::addColumn<quint16>("offset");
    QTest::addColumn<QString>("message");
    QTest::newRow("block 2^32-2") << quint32(0xFFFFFFFE) << quint16(1)
                                  << QStringLiteral(
                                         "points at heap block 4294967294, past the end of --pg-heap");
    QTest::newRow("line pointer 0") << quint32(3) << quint16(0)
                                    << QStringLiteral("line pointer 0 of heap block 3");
}

void TestHostileRelations::tidPastTheTableIsRefusedCheaply() {
    // One TID's block used to size a bitmap of 2^32 bits (542 MB) before the error.
    QFETCH(quint32, block);
    QFETCH(quint16, offset);
    QFETCH(QString, message);
    const std::uint32_t leaf = m_leaves[m_leaves.size() / 2];
    const QByteArray page = readBlock(m_index, leaf);
    const qint64 at = itemOffset(page, 2);        // the first entry after the high key
    QVERIFY((u16At(page, at + 6) & 0x2000) == 0); // a plain tuple, not a posting list
    QVERIFY(patch(m_index, leaf, at,
                  bytesOf(quint16(block >> 16)) + bytesOf(quint16(block & 0xFFFF)) + bytesOf(offset)));
    const test::MeasuredRun m = test::runMeasured({QStringLiteral("--headless"), QStringLiteral("--pg-index"),
                                                   m_index, QStringLiteral("--pg-heap"), m_heap},
                                                  m_tmp.path());
    QVERIFY2(m.result.exitCode == 2, qPrintable(m.result.out + m.result.err));
    // Memory is sized by the files, not by a number in them: far below the 512 MB a 2^32-bit
    // bitmap takes (the binary itself needs some tens of MB).
    QVERIFY2(m.maxRssKb > 0 && m.maxRssKb < 200 * 1024, qPrintable(QString::number(m.maxRssKb) + " kB"));
    QVERIFY2(m.result.err.trimmed().count(QLatin1Char('\n')) == 0, qPrintable(m.result.err));
    QVERIFY2(m.result.err.contains(message) && m.result.err.contains(QStringLiteral("block %1 ").arg(leaf)) &&
                 m.result.err.contains(m_index),
             qPrintable(m.result.err));
}

void TestHostileRelations::linkPastTheEndNamesNoMissingSegment() {
    // A right-link past the index's end: the message named segment file 'index.1', which does not
    // exist; it names the page that holds the link.
    const std::uint32_t leaf = m_leaves[m_leaves.size() / 2];
    QVERIFY(patch(m_index, leaf, kNext, bytesOf(std::uint32_t{200'000})));
    expectRefusal({}, m_index,
                  {QStringLiteral("block %1 ").arg(leaf), QStringLiteral("leads to block 200000")});
    const test::CliResult r = test::runLookahead({QStringLiteral("--headless"), QStringLiteral("--pg-index"),
                                                  m_index, QStringLiteral("--pg-heap"), m_heap},
                                                 60'000);
    QVERIFY2(!r.err.contains(m_index + QStringLiteral(".1")), qPrintable(r.err));
}

void TestHostileRelations::emptyScanBlamesTheRightThing_data() {
    QTest::addColumn<bool>("emptyIndex");
    QTest::addColumn<QString>("range");   // empty: none given
    QTest::addColumn<QString>("message"); // what the line must say
    QTest::newRow("empty index, no range")
        << true << QString() << QStringLiteral("the index has no live entries");
    QTest::newRow("range outside the keys")
        << false << QStringLiteral("30000:40000")
        << QStringLiteral("no entry has a key in --pg-key-range 30000:40000");
}

void TestHostileRelations::emptyScanBlamesTheRightThing() {
    // "check --pg-key-range" was printed when no range was given.
    QFETCH(bool, emptyIndex);
    QFETCH(QString, range);
    QFETCH(QString, message);
    if (emptyIndex) {
        QFile::remove(m_index);
        QVERIFY(QFile::copy(m_emptyIndex, m_index));
    }
    const QStringList extra =
        range.isEmpty() ? QStringList{} : QStringList{QStringLiteral("--pg-key-range"), range};
    expectRefusal(extra, m_index, {message});
    const test::CliResult r =
        test::runLookahead(QStringList{QStringLiteral("--headless"), QStringLiteral("--pg-index"), m_index,
                                       QStringLiteral("--pg-heap"), m_heap} +
                               extra,
                           60'000);
    if (range.isEmpty())
        QVERIFY2(!r.err.contains(QStringLiteral("--pg-key-range")), qPrintable(r.err));
}

void TestHostileRelations::badHeapPageGoesToStderr_data() {
    QTest::addColumn<qint64>("offset"); // within heap block 3
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    QTest::newRow("flags") << qint64(10) << bytesOf(quint16(0x0080))
                           << QStringLiteral("pd_flags 128 has bits PostgreSQL never sets");
    // Line pointer 1 pointing past pd_special: offset 8000, 500 bytes, normal.
    QTest::newRow("line pointer") << qint64(24) << bytesOf(quint32(8000u | (1u << 15) | (500u << 17)))
                                  << QStringLiteral("line pointer 1 (offset 8000, 500 bytes) lies outside");
}

void TestHostileRelations::badHeapPageGoesToStderr() {
    // A damaged table page met by the real-I/O scan: the error went to stdout only, exit status 1.
    QFETCH(qint64, offset);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    QVERIFY(patch(m_heap, 3, offset, bytes));
    expectRefusal({QStringLiteral("--io"), QStringLiteral("sync"), QStringLiteral("--buffered")}, m_heap,
                  {QStringLiteral("--pg-heap"), QStringLiteral("block 3 at offset 24576"), message});
}

void TestHostileRelations::tableChangingUnderTheScanGoesToStderr() {
    // A slow consumer (0.2 ms a block) and a table file whose modification time moves on each time
    // the scan has read it, until the run ends, as a running server's would: the change went to
    // stdout only, exit status 1. Woken by the reads (inotify) and by the run's end (its pidfd).
    const int reads = ::inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    QVERIFY(reads >= 0);
    QVERIFY(::inotify_add_watch(reads, QFile::encodeName(m_heap).constData(), IN_ACCESS) >= 0);
    QProcess cli;
    cli.start(QStringLiteral(LOOKAHEAD_BINARY),
              {QStringLiteral("--headless"), QStringLiteral("--pg-index"), m_index,
               QStringLiteral("--pg-heap"), m_heap, QStringLiteral("--pg-key-range"),
               QStringLiteral("1:5000"), QStringLiteral("--io"), QStringLiteral("sync"),
               QStringLiteral("--buffered"), QStringLiteral("--consumer-ns"), QStringLiteral("200000")});
    QVERIFY(cli.waitForStarted());
    const int ended = test::pidfdOf(static_cast<pid_t>(cli.processId()));
    QVERIFY(ended >= 0);
    QDateTime mtime = QDateTime::currentDateTime();
    int touches = 0;
    const QDeadlineTimer deadline(60'000); // a hung run fails below
    for (;;) {
        pollfd events[2] = {{reads, POLLIN, 0}, {ended, POLLIN, 0}};
        if (::poll(events, 2, static_cast<int>(deadline.remainingTime())) <= 0 ||
            (events[1].revents & POLLIN))
            break;
        char buffer[4096];
        while (::read(reads, buffer, sizeof buffer) > 0) {
        }
        mtime = mtime.addSecs(1);
        QFile touched(m_heap);
        QVERIFY(touched.open(QIODevice::ReadWrite));
        QVERIFY(touched.setFileTime(mtime, QFileDevice::FileModificationTime));
        ++touches;
    }
    ::close(ended);
    ::close(reads);
    QVERIFY2(cli.waitForFinished(static_cast<int>(deadline.remainingTime())), "the run outlasted a minute");
    QVERIFY(touches > 0);
    const test::CliResult r{cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1,
                            QString::fromUtf8(cli.readAllStandardOutput()),
                            QString::fromUtf8(cli.readAllStandardError())};
    QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: ").arg(r.exitCode) + r.out + r.err));
    const QStringList lines = r.err.trimmed().split(QLatin1Char('\n'));
    QVERIFY2(lines.size() == 1 && lines[0].contains(QLatin1String("changed during the scan")) &&
                 lines[0].contains(m_heap),
             qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestHostileRelations)
#include "tst_hostile_relations.moc"
