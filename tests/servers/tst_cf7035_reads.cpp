// SPDX-License-Identifier: GPL-3.0-or-later
// CF 7035 v2's backward I/O combining on the server built from its branch (../shared/pg/), against
// the cf7035 mechanics (docs/read-stream-model.md §15): for every case, the reads of the relation's
// file that strace sees the backend make are the model's reads, start block and size, in order.
//
// The server runs with io_method=sync, so the backend makes every read itself, in the order it waits
// for them, and with debug_io_direct=data (O_DIRECT), so no advice and no page cache. Each case sets
// the relation's cache state exactly (evict_rel, then pg_prewarm of the cached blocks), checks it with
// pg_buffercache, and streams its block list with test_aio's read_stream_for_blocks(), which opens
// the stream with READ_STREAM_FULL.
// The engine's headers first: ReadStream has a member emit(), which Qt's QObject headers define away.
#include "stream_harness.h"

#include "pg_server.h"
#include "record/pg_session.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>

using namespace la;

namespace {

constexpr std::uint32_t kRelationBlocks = 600; // at least: the table is made this large
constexpr std::uint32_t kScanned = 512;

struct Read {
    std::uint32_t block = 0;
    std::uint32_t nblocks = 0;
    bool operator==(const Read&) const = default;
};

using Blocks = std::vector<std::uint32_t>;

Blocks descending(std::uint32_t n) {
    Blocks blocks;
    for (std::uint32_t b = n; b-- > 0;)
        blocks.push_back(b);
    return blocks;
}

// Descending runs of 3 to 22 blocks at scattered places: a backward index scan of a table clustered
// in small groups.
Blocks descendingRuns() {
    Blocks blocks;
    for (std::uint32_t k = 0; blocks.size() < kScanned; ++k) {
        const std::uint32_t length = 3 + (k * 7) % 20;
        const std::uint32_t top = length + (k * 97) % (kRelationBlocks - 40);
        for (std::uint32_t i = 0; i < length && blocks.size() < kScanned; ++i)
            blocks.push_back(top - i);
    }
    return blocks;
}

// The blocks of the relation for which `cached(block)` holds.
template <typename Cached> Blocks cachedWhere(Cached cached) {
    Blocks blocks;
    for (std::uint32_t b = 0; b < kRelationBlocks; ++b)
        if (cached(b))
            blocks.push_back(b);
    return blocks;
}

QString listText(const Blocks& blocks) {
    QStringList items;
    for (const std::uint32_t block : blocks)
        items << QString::number(block);
    return items.join(QLatin1Char(','));
}

QString readsText(const std::vector<Read>& reads, std::size_t from, std::size_t to) {
    QStringList items;
    for (std::size_t i = from; i < std::min(to, reads.size()); ++i)
        items << QStringLiteral("%1+%2").arg(reads[i].block).arg(reads[i].nblocks);
    return items.join(QLatin1Char(' '));
}

// The first difference of two read sequences, with the reads around it.
QString firstDifference(const std::vector<Read>& server, const std::vector<Read>& model) {
    std::size_t at = 0;
    while (at < server.size() && at < model.size() && server[at] == model[at])
        ++at;
    const std::size_t from = at > 4 ? at - 4 : 0;
    return QStringLiteral(
               "server %1 reads, model %2; first difference at read %3\n  server: %4\n  model:  %5")
        .arg(server.size())
        .arg(model.size())
        .arg(at)
        .arg(readsText(server, from, at + 8), readsText(model, from, at + 8));
}

// The reads of `relationFile` in an strace file of one backend: pread64 and preadv, in order, as
// (block, blocks) from their offsets and what they returned.
std::vector<Read> tracedReads(const QString& tracePath, const QString& relationFile) {
    QFile file(tracePath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression call(
        QStringLiteral(R"((pread64|preadv2?)\(\d+<([^>]+)>, .*, (\d+)(?:, \d+)?\) = (\d+))"));
    static const QRegularExpression lastArgument(QStringLiteral(R"(, (\d+)\) = \d+)"));
    std::vector<Read> reads;
    for (QByteArray line = file.readLine(); !line.isEmpty(); line = file.readLine()) {
        const QString text = QString::fromUtf8(line);
        const QRegularExpressionMatch match = call.match(text);
        if (!match.hasMatch() || !match.captured(2).endsWith(relationFile))
            continue;
        // pread64(fd, buf, count, offset) and preadv(fd, iov, iovcnt, offset): the offset is the
        // argument before ") =" (preadv2 adds flags after it, which PostgreSQL does not use).
        const qint64 offset = match.captured(1) == QLatin1String("preadv2")
                                  ? match.captured(3).toLongLong()
                                  : lastArgument.match(text).captured(1).toLongLong();
        const qint64 bytes = match.captured(4).toLongLong();
        reads.push_back(
            Read{static_cast<std::uint32_t>(offset / 8192), static_cast<std::uint32_t>(bytes / 8192)});
    }
    return reads;
}

// The model's reads that reach the device, in the order they start (with io_method=sync also the
// order they are waited for and made): a read's missed blocks; a read that only joins blocks an
// earlier read brings in makes none.
std::vector<Read> deviceReads(const test::TraceRecorder& trace) {
    std::map<std::uint32_t, Read> misses; // by read
    std::vector<Read> reads;
    for (const Event& event : trace.events) {
        if (event.kind == EventKind::Miss) {
            Read& read = misses[event.io_id];
            read.block = read.nblocks == 0 ? event.block : std::min(read.block, event.block);
            ++read.nblocks;
        } else if (event.kind == EventKind::ReadStarted) {
            if (const auto read = misses.find(event.io_id); read != misses.end())
                reads.push_back(read->second);
        }
    }
    return reads;
}

// A model of the server's stream: a policy on its mechanics, opened with or without READ_STREAM_FULL.
struct ModelRun {
    const char* policy;
    bool full;
    bool backwardCombining;
};
// The patch as the server runs it (test_aio opens its streams with READ_STREAM_FULL), PostgreSQL 19
// on the same stream, and the --backward-combining what-if without the flag and with it.
constexpr ModelRun kPatch{"cf7035", true, false};
constexpr ModelRun kCommitted{"pg19", true, false};
constexpr ModelRun kWhatIf{"pg19", false, true};
constexpr ModelRun kWhatIfFull{"pg19", true, true};

// What a case says of PostgreSQL 19's reads of the same stream.
enum Committed { kEither, kSameAs19, kNotAs19 };

} // namespace

class TestCf7035Reads : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sameReadsAsServer_data();
    void sameReadsAsServer();
    void pinPressure();

private:
    // What the model is told of the server's settings besides the case's.
    struct Server {
        std::uint64_t sharedBuffers;
        int maxConnections;
    };
    // Makes the table r on `server` and notes its file and size.
    void prepare(const test::PgServer& server);
    // The reads of r the server's backend makes for the case; empty, and the test failed, if it could
    // not be run.
    std::vector<Read> serverReads(const test::PgServer& server, const Blocks& blocks, const Blocks& cached,
                                  int ioCombineLimit, int eic);
    // The same case in a model.
    std::vector<Read> modelReads(const ModelRun& model, const Blocks& blocks, const Blocks& cached,
                                 int ioCombineLimit, int eic, const Server& server);

    std::unique_ptr<test::PgServer> m_server;
    QString m_relationFile; // under the data directory
    std::uint32_t m_relationBlocks = 0;
    QTemporaryDir m_dir;
};

void TestCf7035Reads::initTestCase() {
    const test::PgInstallation installation = test::sharedPgCf7035();
    LA_SKIP_WITHOUT_SERVER(installation);
    if (QStandardPaths::findExecutable(QStringLiteral("strace")).isEmpty())
        QSKIP("strace is not installed (packaging/install-deps.sh installs it)");
    QVERIFY(m_dir.isValid());
    m_server = std::make_unique<test::PgServer>(installation);
    // io_combine_limit may go up to 32 blocks per session only below io_max_combine_limit.
    const QString started = m_server->start(
        false, QStringLiteral("io_method = sync\ndebug_io_direct = data\nio_max_combine_limit = 256kB"));
    QVERIFY2(started.isEmpty(), qPrintable(started));
    prepare(*m_server);
}

void TestCf7035Reads::prepare(const test::PgServer& server) {
    QString error;
    // One row to a page: a table of kRelationBlocks pages and a few more, frozen and checkpointed so
    // that reading it writes nothing.
    server.sql(QStringLiteral("CREATE EXTENSION test_aio; CREATE EXTENSION pg_buffercache; "
                              "CREATE EXTENSION pg_prewarm; "
                              "CREATE TABLE r(a int, pad text) WITH (fillfactor = 10); "
                              "INSERT INTO r SELECT g, repeat('x', 500) FROM generate_series(1, %1) g")
                   .arg(kRelationBlocks + 20),
               error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    server.sql(QStringLiteral("VACUUM (FREEZE) r"), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    server.sql(QStringLiteral("CHECKPOINT"), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_relationBlocks = server.sql(QStringLiteral("SELECT pg_relation_size('r') / 8192"), error).toUInt();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(m_relationBlocks >= kRelationBlocks, qPrintable(QString::number(m_relationBlocks)));
    m_relationFile = server.sql(QStringLiteral("SELECT pg_relation_filepath('r')"), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestCf7035Reads::sameReadsAsServer_data() {
    QTest::addColumn<Blocks>("blocks");
    QTest::addColumn<Blocks>("cached");
    QTest::addColumn<int>("ioCombineLimit");
    QTest::addColumn<int>("eic");
    QTest::addColumn<int>("committed");
    const std::pair<const char*, Blocks> states[] = {
        {"cold", {}},
        {"every 16th uncached", cachedWhere([](std::uint32_t b) { return b % 16 != 0; })},
        {"alternating", cachedWhere([](std::uint32_t b) { return b % 2 == 0; })},
        {"in runs", cachedWhere([](std::uint32_t b) { return b % 24 < 10; })},
    };
    const std::pair<int, int> limits[] = {{16, 16}, {32, 16}, {16, 1}, {32, 1}};
    const auto add = [](const QString& name, const Blocks& blocks, const Blocks& cached, int icl, int eic,
                        Committed committed) {
        QTest::newRow(
            qPrintable(QStringLiteral("%1, io_combine_limit %2, eic %3").arg(name).arg(icl).arg(eic)))
            << blocks << cached << icl << eic << int(committed);
    };
    // PostgreSQL 19 reads a cold descending stream one block at a time: the patch must differ there.
    for (const auto& [state, cached] : states)
        for (const auto& [icl, eic] : limits)
            add(QStringLiteral("descending, %1").arg(QLatin1String(state)), descending(kScanned), cached, icl,
                eic, cached.empty() ? kNotAs19 : kEither);
    for (const auto& [icl, eic] : limits)
        add(QStringLiteral("descending runs, cold"), descendingRuns(), {}, icl, eic, kNotAs19);
    add(QStringLiteral("descending runs, in runs"), descendingRuns(), std::get<1>(states[3]), 16, 16,
        kEither);
    // The patch's own patterns (005_read_stream_backward.pl): where runs of either direction meet,
    // and blocks asked for again.
    const std::uint32_t last = m_relationBlocks - 1;
    const std::pair<const char*, Blocks> patterns[] = {
        {"desc_pair", {1, 0}},
        {"mixed_dir", {0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 5, 6}},
        {"zigzag", {5, 4, 5, 4, 5, 4}},
        {"desc_two_regions", {3, 2, 1, 0, last, last - 1, last - 2}},
    };
    for (const auto& [name, blocks] : patterns)
        for (const int icl : {8, 16})
            add(QStringLiteral("pattern %1").arg(QLatin1String(name)), blocks, {}, icl, 16, kEither);
    // The control: an ascending stream, which the patch leaves as it was.
    Blocks ascending = descending(kScanned);
    std::reverse(ascending.begin(), ascending.end());
    add(QStringLiteral("ascending, cold"), ascending, {}, 16, 16, kSameAs19);
    add(QStringLiteral("ascending, every 16th uncached"), ascending, std::get<1>(states[1]), 16, 16,
        kSameAs19);
    add(QStringLiteral("ascending, cold"), ascending, {}, 32, 1, kSameAs19);
}

void TestCf7035Reads::sameReadsAsServer() {
    QFETCH(Blocks, blocks);
    QFETCH(Blocks, cached);
    QFETCH(int, ioCombineLimit);
    QFETCH(int, eic);
    QFETCH(int, committed);
    const Server server{16384, 100}; // shared_buffers = 128MB (pg_server.h), max_connections' default
    const std::vector<Read> traced = serverReads(*m_server, blocks, cached, ioCombineLimit, eic);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(!traced.empty());
    const std::vector<Read> patch = modelReads(kPatch, blocks, cached, ioCombineLimit, eic, server);
    QVERIFY2(traced == patch, qPrintable(firstDifference(traced, patch)));
    // Beside it, PostgreSQL 19 on the same stream, and the earlier what-if as it ran before there was
    // a way to open a stream with READ_STREAM_FULL, and with it.
    const std::vector<Read> pg19 = modelReads(kCommitted, blocks, cached, ioCombineLimit, eic, server);
    if (committed == kSameAs19)
        QVERIFY2(traced == pg19, qPrintable(firstDifference(traced, pg19)));
    else if (committed == kNotAs19)
        QVERIFY(traced != pg19);
    const std::vector<Read> whatIf = modelReads(kWhatIf, blocks, cached, ioCombineLimit, eic, server);
    const std::vector<Read> whatIfFull = modelReads(kWhatIfFull, blocks, cached, ioCombineLimit, eic, server);
    qInfo("server %zu reads: %s%s; pg19 %s; --backward-combining %s; with --stream-flags full %s",
          traced.size(), qPrintable(readsText(traced, 0, 8)), traced.size() > 8 ? " ..." : "",
          traced == pg19 ? "the same" : "differs", traced == whatIf ? "the same" : "differs",
          traced == whatIfFull ? "the same" : "differs");
    if (traced != whatIf)
        qInfo("  --backward-combining: %s", qPrintable(firstDifference(traced, whatIf)));
}

void TestCf7035Reads::pinPressure() {
    // 4096 shared buffers over max_connections 600 leave each backend a handful of pins, fewer than
    // the 8 the buffer manager counts as held: every read finds no pins to spare, and a reversed
    // range is pinned one block at a time, past the limit (the patch's 005_read_stream_backward.pl).
    test::PgServer pgServer(test::sharedPgCf7035());
    const QString started = pgServer.start(
        false, QStringLiteral("io_method = sync\ndebug_io_direct = data\nmax_connections = 600\n"
                              "shared_buffers = 32MB"));
    QVERIFY2(started.isEmpty(), qPrintable(started));
    prepare(pgServer);
    if (QTest::currentTestFailed())
        return;
    const Server server{4096, 600};
    const Blocks inRuns = cachedWhere([](std::uint32_t b) { return b % 24 < 10; });
    for (const auto& [blocks, cached] :
         {std::pair{descending(kScanned), Blocks{}}, std::pair{descendingRuns(), inRuns}}) {
        const std::vector<Read> traced = serverReads(pgServer, blocks, cached, 16, 16);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(!traced.empty());
        const std::vector<Read> patch = modelReads(kPatch, blocks, cached, 16, 16, server);
        QVERIFY2(traced == patch, qPrintable(firstDifference(traced, patch)));
        qInfo("server %zu reads: %s ...", traced.size(), qPrintable(readsText(traced, 0, 8)));
    }
}

std::vector<Read> TestCf7035Reads::serverReads(const test::PgServer& server, const Blocks& blocks,
                                               const Blocks& cached, int ioCombineLimit, int eic) {
    // The cache state, checked, then the stream under strace.
    PgSession session(QStringLiteral("host=%1 port=%2 dbname=postgres user=postgres")
                          .arg(server.socketDir())
                          .arg(server.port()),
                      {}, nullptr);
    session.query(QStringLiteral("SELECT evict_rel('r'::regclass)"));
    if (!cached.empty())
        session.query(QStringLiteral("SELECT count(pg_prewarm('r'::regclass, 'buffer', 'main', b, b)) "
                                     "FROM unnest('{%1}'::int8[]) b")
                          .arg(listText(cached)));
    const QString resident = session.value(
        QStringLiteral("SELECT coalesce(string_agg(relblocknumber::text, ',' ORDER BY relblocknumber), '') "
                       "FROM pg_buffercache WHERE relfilenode = pg_relation_filenode('r') AND "
                       "relforknumber = 0 AND reldatabase = (SELECT oid FROM pg_database WHERE datname = "
                       "current_database())"));
    if (resident != listText(cached)) {
        QTest::qFail("the relation's blocks in shared buffers are not the case's cache state", __FILE__,
                     __LINE__);
        return {};
    }
    session.query(QStringLiteral("SET effective_io_concurrency = %1").arg(eic));
    session.query(QStringLiteral("SET io_combine_limit = %1").arg(ioCombineLimit));
    const QString tracePath = m_dir.filePath(QStringLiteral("backend.strace"));
    QFile::remove(tracePath);
    QProcess strace;
    strace.start(QStandardPaths::findExecutable(QStringLiteral("strace")),
                 {QStringLiteral("-yy"), QStringLiteral("-e"), QStringLiteral("trace=pread64,preadv,preadv2"),
                  QStringLiteral("-o"), tracePath, QStringLiteral("-p"),
                  QString::number(session.backendPid())});
    strace.setReadChannel(QProcess::StandardError); // where strace says it has attached
    QString said;
    while (!said.contains(QLatin1String("attached")) && strace.waitForReadyRead(30'000))
        said += QString::fromUtf8(strace.readAllStandardError());
    if (!said.contains(QLatin1String("attached"))) {
        QTest::qFail(qPrintable(QStringLiteral("strace did not attach: ") + said), __FILE__, __LINE__);
        return {};
    }
    const QString handedOut = session.value(
        QStringLiteral("SELECT count(*) FROM read_stream_for_blocks('r'::regclass, '{%1}'::int4[])")
            .arg(listText(blocks)));
    strace.terminate(); // strace detaches and finishes its file on SIGTERM
    if (!strace.waitForFinished(30'000) || handedOut.toULongLong() != blocks.size()) {
        QTest::qFail(qPrintable(QStringLiteral("the stream handed out %1 blocks").arg(handedOut)), __FILE__,
                     __LINE__);
        return {};
    }
    return tracedReads(tracePath, m_relationFile);
}

std::vector<Read> TestCf7035Reads::modelReads(const ModelRun& model, const Blocks& blocks,
                                              const Blocks& cached, int ioCombineLimit, int eic,
                                              const Server& server) {
    const QString listFile = m_dir.filePath(QStringLiteral("cached.txt"));
    QFile list(listFile);
    if (!list.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    for (const std::uint32_t block : cached)
        list.write(QByteArray::number(block) + '\n');
    list.close();
    test::StreamRun run;
    run.policy = model.policy;
    run.stream.backwardCombining = model.backwardCombining;
    run.stream.fullFlag = model.full;
    run.stream.effectiveIoConcurrency = eic;
    run.stream.ioCombineLimit = ioCombineLimit;
    run.stream.ioMethod = IoMethod::Sync;
    run.stream.directIo = true;
    run.stream.sharedBuffers = server.sharedBuffers;
    run.stream.maxConnections = server.maxConnections;
    run.relationBlocks = m_relationBlocks;
    run.prewarm = cached.empty() ? "none" : "list:" + listFile.toStdString();
    run.run(blocks);
    return deviceReads(run.trace);
}

QTEST_GUILESS_MAIN(TestCf7035Reads)
#include "tst_cf7035_reads.moc"
