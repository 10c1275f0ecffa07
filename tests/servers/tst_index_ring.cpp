// SPDX-License-Identifier: GPL-3.0-or-later
// The index-prefetching patch as it stands (docs/read-stream-model.md §9.3) on a real PostgreSQL 15
// btree and heap: a ring of open batches pauses the stream instead of resetting it, the stream
// starts at the fourth heap block change, and no heap block is handed out twice in a row. And for
// any input, --stream-start-after keeps the reads before the stream out of EXPLAIN's figures while
// the run's reads and waits include them.
#include "experiment/experiment.h"
#include "input_error.h"
#include "pg/index_batches.h"
#include "pg/index_scan.h"
#include "pg_server.h"
#include "run.h"
#include "run_options.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

using namespace la;

namespace {

// Stored in hash order: an index scan by a jumps around the heap.
const char* const kSetup =
    "CREATE TABLE hashed(a int8, pad text);"
    "INSERT INTO hashed SELECT g, repeat('x', 200) FROM generate_series(1, 40000) g ORDER BY hashint8(g);"
    "CREATE INDEX hashed_a ON hashed(a);"
    // Stored in key order: a leaf page's TIDs lie on a dozen heap blocks, so few batches fill a ring.
    "CREATE TABLE correlated(a int8, pad text);"
    "INSERT INTO correlated SELECT g, repeat('x', 200) FROM generate_series(1, 40000) g;"
    "CREATE INDEX correlated_a ON correlated(a);"
    "CHECKPOINT;";

class EventLog final : public EventSink {
public:
    void onEvents(std::span<const Event> batch) override {
        events.insert(events.end(), batch.begin(), batch.end());
    }
    std::vector<Event> events;
};

struct Ran {
    RunSummary summary;
    std::vector<Event> events;
};

Ran run(const RunConfig& config) {
    EventLog log;
    RunCallbacks callbacks;
    callbacks.sinks.push_back(&log);
    Ran ran;
    ran.summary = runScan(config, config.policy, callbacks);
    ran.events = std::move(log.events);
    return ran;
}

// The batch (leaf page, from 0) of visit `visit`.
std::size_t batchOf(const pg::IndexVisits& visits, std::uint64_t visit) {
    return static_cast<std::size_t>(
        std::upper_bound(visits.batchStarts.begin(), visits.batchStarts.end(), visit) -
        visits.batchStarts.begin());
}

// Walks a ring run's events: every request lies in a batch the ring holds open (the consumer's and
// the ring - 1 after it), and the stream stops early only where the next visit would open one more.
// Returns those stops, the pauses.
std::uint64_t checkRing(const pg::IndexVisits& visits, const Ran& ran, std::size_t ring) {
    std::uint64_t requested = 0, consumed = 0, pauses = 0, resets = 0;
    for (const Event& event : ran.events) {
        if (event.kind == EventKind::Requested) {
            if (batchOf(visits, requested) >= batchOf(visits, consumed) + ring ||
                event.block != visits.blocks[requested])
                return 0;
            ++requested;
        } else if (event.kind == EventKind::Consumed) {
            ++consumed;
        } else if (event.kind == EventKind::Reset) {
            ++resets;
        } else if (event.kind == EventKind::EndOfStream && requested < visits.blocks.size() && resets == 4) {
            if (batchOf(visits, requested) != batchOf(visits, consumed) + ring)
                return 0;
            ++pauses;
        }
    }
    // The early reads' resets are the only ones, and every visit was requested.
    return resets == 4 && requested == visits.blocks.size() ? pauses : 0;
}

} // namespace

class TestIndexRing : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void ringTextIsParsedWithClearErrors();
    void ringPausesWhenFullAndNeverResets();
    void ringStartsAtTheFourthBlockChange();
    void explainCountsTheStreamAlone();
    void compareChangesOnlyTheBatches();

private:
    RunConfig indexScan(const std::string& batches) const;
    QString relationFile(const QString& relation) const;

    std::unique_ptr<test::PgServer> m_server;
    QString m_index, m_heap;
};

void TestIndexRing::initTestCase() {
    if (!test::PgServer::unavailable().isEmpty())
        return; // the tests that need the server skip
    m_server = std::make_unique<test::PgServer>();
    QString error = m_server->start();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_server->sql(QString::fromLatin1(kSetup), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    for (auto [relation, path] : {std::pair{"hashed", &m_heap}, std::pair{"hashed_a", &m_index}}) {
        *path = m_server->dataDir() + QLatin1Char('/') +
                m_server->sql(
                    QStringLiteral("SELECT pg_relation_filepath('%1')").arg(QLatin1String(relation)), error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
}

QString TestIndexRing::relationFile(const QString& relation) const {
    QString error;
    return m_server->dataDir() + QLatin1Char('/') +
           m_server->sql(QStringLiteral("SELECT pg_relation_filepath('%1')").arg(relation), error);
}

RunConfig TestIndexRing::indexScan(const std::string& batches) const {
    RunConfig config = defaultRunConfig();
    setRunOption(config, *findRunOption("pg-index"), m_index.toStdString());
    setRunOption(config, *findRunOption("pg-heap"), m_heap.toStdString());
    setRunOption(config, *findRunOption("direction"), "backward");
    setRunOption(config, *findRunOption("policy"), "pg19");
    setRunOption(config, *findRunOption("index-batches"), batches);
    return config;
}

void TestIndexRing::ringTextIsParsedWithClearErrors() {
    QCOMPARE(pg::parseIndexBatching("ring", "index-batches"),
             (pg::IndexBatching{pg::IndexBatches::Ring, 64}));
    QCOMPARE(pg::parseIndexBatching("ring:16", "index-batches"),
             (pg::IndexBatching{pg::IndexBatches::Ring, 16}));
    QCOMPARE(pg::parseIndexBatching("reset", "index-batches").mode, pg::IndexBatches::Reset);
    QCOMPARE(pg::indexBatchingText({pg::IndexBatches::Ring, 64}), std::string("ring"));
    QCOMPARE(pg::indexBatchingText({pg::IndexBatches::Ring, 1024}), std::string("ring:1024"));
    const std::pair<const char*, const char*> bad[] = {{"ring:0", "from 1 to 1024"},
                                                       {"ring:1025", "from 1 to 1024"},
                                                       {"ring:", "from 1 to 1024"},
                                                       {"ring:x", "from 1 to 1024"},
                                                       {"reset:4", "only ring takes a number"},
                                                       {"rings", "choose continue, reset or ring[:N]"}};
    for (const auto& [text, says] : bad) {
        RunConfig config;
        try {
            setRunOption(config, *findRunOption("index-batches"), text);
            QFAIL(text);
        } catch (const InputError& error) {
            const std::string message = error.what();
            QVERIFY2(message.find(std::string("--index-batches '") + text + "'") != std::string::npos &&
                         message.find(says) != std::string::npos,
                     error.what());
        }
    }
}

void TestIndexRing::ringPausesWhenFullAndNeverResets() {
    if (!m_server)
        QSKIP(qPrintable(test::PgServer::unavailable()));
    // Hash order, backward (a leaf page brings hundreds of visits): a ring of one pauses at every
    // leaf page. Key order, forward (a dozen each, read 16 blocks at a time): a ring of three pauses
    // wherever the look-ahead would reach past two more leaf pages.
    struct Case {
        const char* table;
        Direction direction;
        std::size_t ring;
    };
    for (const auto& [table, direction, ring] :
         {Case{"hashed", Direction::Backward, 1}, Case{"correlated", Direction::Forward, 3}}) {
        const QString relation = QString::fromLatin1(table);
        pg::IndexScanSpec spec;
        spec.index = relationFile(relation + QStringLiteral("_a")).toStdString();
        spec.direction = direction;
        const pg::IndexVisits visits = pg::scanIndex(spec);
        QVERIFY2(visits.batchStarts.size() > 20 * ring, "the index has too few leaf pages for the ring");

        RunConfig config = indexScan("ring:" + std::to_string(ring));
        config.pg.index = spec.index;
        config.pg.heap = relationFile(relation).toStdString();
        config.dataset.direction = direction;
        const Ran ran = run(config);
        QVERIFY2(ran.summary.error.empty(), ran.summary.error.c_str());
        QCOMPARE(ran.summary.blocks, std::uint64_t(visits.blocks.size()));
        QCOMPARE(ran.summary.resets, std::uint64_t(0)); // none across leaf pages
        const std::uint64_t pauses = checkRing(visits, ran, ring);
        QVERIFY2(pauses >= visits.batchStarts.size() / 4,
                 qPrintable(relation + QStringLiteral(": %1 pauses").arg(pauses)));
        // The same scan as one stream without a ring: no pause (the start's and the end's only).
        std::uint64_t ends = 0;
        config.pg.batching = {pg::IndexBatches::Continue};
        config.pg.streamStartAfter = 4;
        for (const Event& event : run(config).events)
            ends += event.kind == EventKind::EndOfStream ? 1 : 0;
        QCOMPARE(ends, std::uint64_t(4 + 1));
    }
}

void TestIndexRing::ringStartsAtTheFourthBlockChange() {
    if (!m_server)
        QSKIP(qPrintable(test::PgServer::unavailable()));
    const Ran ring = run(indexScan("ring"));
    QVERIFY2(ring.summary.error.empty(), ring.summary.error.c_str());
    // Visits 0..3 each alone (a reset after each), visit 4 (the fourth switch) starts the stream.
    std::vector<std::uint32_t> order;
    std::vector<std::uint64_t> requestsBeforeReset;
    std::uint32_t last = ~0u;
    for (const Event& event : ring.events) {
        if (event.kind == EventKind::Requested) {
            QVERIFY2(event.block != last, "a heap block handed to the stream twice in a row");
            last = event.block;
            order.push_back(event.block);
        } else if (event.kind == EventKind::Reset) {
            requestsBeforeReset.push_back(order.size());
        }
    }
    QCOMPARE(requestsBeforeReset, (std::vector<std::uint64_t>{1, 2, 3, 4}));
    std::vector<std::uint32_t> early(order.begin(), order.begin() + 4);
    std::sort(early.begin(), early.end());
    const auto distinct = std::uint64_t(std::unique(early.begin(), early.end()) - early.begin());
    // A cold cache: each distinct early block is one read, waited for, outside EXPLAIN.
    QCOMPARE(ring.summary.readsBeforeStream, distinct);
    QCOMPARE(ring.summary.waitsBeforeStream, distinct);
    QCOMPARE(ring.summary.explainIo.ioCount, ring.summary.ios - distinct);
    QCOMPARE(ring.summary.resets, std::uint64_t(0));

    // --stream-start-after overrides the start rule; continue has none of its own.
    RunConfig later = indexScan("ring");
    later.pg.streamStartAfter = 9;
    QCOMPARE(run(later).summary.readsBeforeStream, std::uint64_t(9));
    QCOMPARE(run(indexScan("continue")).summary.readsBeforeStream, std::uint64_t(0));
}

void TestIndexRing::explainCountsTheStreamAlone() {
    // A block list of 201 blocks, 3 apart (no two combine), none cached: every block is one read.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString list =
        test::writeFile(dir.filePath(QStringLiteral("blocks.txt")), test::blockLines(0, 601, 3));
    RunConfig config = defaultRunConfig();
    config.blockList = list.toStdString();
    config.policy = "pg19";
    const RunSummary whole = run(config).summary;
    QCOMPARE(whole.blocks, std::uint64_t(201));
    QCOMPARE(whole.ios, std::uint64_t(201));
    QCOMPARE(whole.explainIo.ioCount, std::uint64_t(201));
    QCOMPARE(whole.readsBeforeStream, std::uint64_t(0));

    setRunOption(config, *findRunOption("stream-start-after"), "10");
    const Ran late = run(config);
    const RunSummary& s = late.summary;
    QCOMPARE(s.blocks, std::uint64_t(201));
    QCOMPARE(s.ios, std::uint64_t(201)); // the run's reads include the early ones
    QCOMPARE(s.readsBeforeStream, std::uint64_t(10));
    QCOMPARE(s.waitsBeforeStream, std::uint64_t(10));
    QCOMPARE(s.resets, std::uint64_t(0));
    // EXPLAIN: the stream's 191 reads and samples alone; its waits are the run's less the early ones.
    QCOMPARE(s.explainIo.ioCount, std::uint64_t(191));
    QCOMPARE(s.explainIo.ioBlocks, std::uint64_t(191));
    QCOMPARE(s.explainIo.prefetchCount, std::uint64_t(191));
    QCOMPARE(s.explainIo.waitCount, s.waits - 10);
    // The early blocks are read one at a time: no read is in flight beside them.
    std::uint64_t consumed = 0;
    for (const Event& event : late.events) {
        if (event.kind == EventKind::Consumed)
            ++consumed;
        if (consumed < 10 && event.kind == EventKind::ReadStarted)
            QCOMPARE(event.in_flight, std::uint16_t(1));
    }
}

void TestIndexRing::compareChangesOnlyTheBatches() {
    RunConfig config = defaultRunConfig();
    config.pg.index = "idx";
    config.pg.heap = "heap";
    setRunOption(config, *findRunOption("compare-index-batches"), "reset");
    const Experiment e = makeExperiment(config, Comparison::IndexBatches);
    QCOMPARE(e.runs.size(), std::size_t(2));
    QCOMPARE(e.runs[0].config.pg.batching.mode, pg::IndexBatches::Continue);
    QCOMPARE(e.runs[1].config.pg.batching.mode, pg::IndexBatches::Reset);
    RunConfig b = e.runs[1].config;
    b.pg.batching = e.runs[0].config.pg.batching;
    QCOMPARE(runOptionsText(b), runOptionsText(e.runs[0].config));
    // Without a choice, B is the patch's ring against continue or reset, continue against the ring.
    config.pg.compareBatching.reset();
    QCOMPARE(makeExperiment(config, Comparison::IndexBatches).runs[1].config.pg.batching.mode,
             pg::IndexBatches::Ring);
    setRunOption(config, *findRunOption("index-batches"), "ring:8");
    QCOMPARE(makeExperiment(config, Comparison::IndexBatches).runs[1].config.pg.batching.mode,
             pg::IndexBatches::Continue);
    QCOMPARE(comparisonNamed(comparisonName(Comparison::IndexBatches)), Comparison::IndexBatches);
}

QTEST_GUILESS_MAIN(TestIndexRing)
#include "tst_index_ring.moc"
