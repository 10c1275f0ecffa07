// SPDX-License-Identifier: GPL-3.0-or-later
// The flags PostgreSQL's callers open a stream with (--stream-flags, docs/read-stream-model.md
// §15.6): READ_STREAM_FULL starts at the full distance, SEQUENTIAL gives no advice, MAINTENANCE takes
// max_ios from maintenance_io_concurrency, USE_BATCHING submits a look-ahead's reads together; the
// option that names them, and where a run keeps them.
#include "input_error.h"
#include "registry.h"
#include "run.h"
#include "run_options.h"
#include "session/session_summary.h"
#include "stream_harness.h"

#include <QTest>

// After the engine's headers: Qt's `emit` macro would rename ReadStream::emit.
#include "data_rows.h"

using namespace la;
using la::test::StreamRun;

namespace {

RunConfig withFlags(const std::string& flags) {
    RunConfig config;
    setRunOption(config, *findRunOption("stream-flags"), flags);
    return config;
}

} // namespace

class TestStreamFlags : public QObject {
    Q_OBJECT
private slots:
    void fullStartsAtFullDistance_data();
    void fullStartsAtFullDistance();
    void sequentialGivesNoAdvice();
    void maintenanceTakesMaintenanceIoConcurrency();
    void batchingSubmitsOncePerLookAhead();
    void optionNamesTheFlags();
    void badFlagsAreRefused();
    void keptInTheSummary();
};

void TestStreamFlags::fullStartsAtFullDistance_data() {
    test::addNameRows("policy", {"pg17", "pg18", "pg19", "cf7035"});
}

void TestStreamFlags::fullStartsAtFullDistance() {
    // A cold forward scan: without the flag the first reads ramp up from one block, with it the
    // first read is already io_combine_limit blocks.
    QFETCH(QString, policy);
    std::vector<int> first[2];
    for (const bool full : {false, true}) {
        StreamRun run;
        run.policy = policy.toStdString();
        run.stream.fullFlag = full;
        run.run(test::firstBlocks(256));
        first[full] = run.trace.readSizes();
    }
    QCOMPARE(first[0].front(), 1);
    QCOMPARE(first[1].front(), 16);
    QCOMPARE(first[1], std::vector<int>(16, 16));
}

void TestStreamFlags::sequentialGivesNoAdvice() {
    // PG17 on buffered reads advises a random jump; a caller that promised sequential access gets
    // none (advice is what sets behaviour C's doubling towards max_pinned, docs §5.1).
    StreamConfig config;
    config.effectiveIoConcurrency = 16;
    QVERIFY(computeLimits(config, kPg17Mechanics).adviceEnabled);
    config.sequentialFlag = true;
    QVERIFY(!computeLimits(config, kPg17Mechanics).adviceEnabled);
    QVERIFY(withFlags("sequential").stream.sequentialFlag);
}

void TestStreamFlags::maintenanceTakesMaintenanceIoConcurrency() {
    RunConfig config = withFlags("maintenance");
    setRunOption(config, *findRunOption("eic"), "1");
    setRunOption(config, *findRunOption("maintenance-io-concurrency"), "4");
    const StreamLimits limits = computeLimits(streamConfigFor(config), kPg19Mechanics);
    QCOMPARE(limits.maxIos, 4);
    QCOMPARE(limits.maxPinned, 5 * 16);
    config.stream.maintenanceFlag = false;
    QCOMPARE(computeLimits(streamConfigFor(config), kPg19Mechanics).maxIos, 1);
}

void TestStreamFlags::batchingSubmitsOncePerLookAhead() {
    // Scattered one-block reads on io_uring, the stream reset every 64 blocks so that PG18's distance
    // ramps up again and again: after each doubling one look-ahead starts several reads. In batches
    // they go in together, for one start's cost; at 20 µs a start that saves time and changes no
    // read, at no cost batching changes nothing.
    std::vector<std::uint32_t> scattered;
    for (std::uint32_t i = 0; i < 4096; ++i)
        scattered.push_back(i * 7919 % 65536);
    const auto scan = [&scattered](bool batching, std::int64_t submitNs) {
        StreamRun run;
        run.policy = "pg18";
        run.stream.ioMethod = IoMethod::IoUring;
        run.stream.batchingFlag = batching;
        run.device.submitNs = submitNs;
        run.resetEvery = 64;
        run.relationBlocks = 65536;
        run.run(scattered);
        return std::pair{run.summary, run.trace.events};
    };
    const auto [costly, costlyEvents] = scan(false, 20'000);
    const auto [batched, batchedEvents] = scan(true, 20'000);
    QCOMPARE(batched.ioSizeHist, costly.ioSizeHist);
    QCOMPARE(batched.ios, 4096ull);
    const std::int64_t saved = costly.runtimeNs - batched.runtimeNs;
    QVERIFY2(saved > 20'000 * 512, qPrintable(QString::number(saved)));
    const auto free = scan(false, 0).second, freeBatched = scan(true, 0).second;
    QCOMPARE(freeBatched.size(), free.size());
    for (std::size_t i = 0; i < free.size(); ++i)
        QVERIFY(free[i].time_ns == freeBatched[i].time_ns && free[i].kind == freeBatched[i].kind &&
                free[i].block == freeBatched[i].block);
}

void TestStreamFlags::optionNamesTheFlags() {
    const RunOption& option = *findRunOption("stream-flags");
    RunConfig config = withFlags("sequential,full");
    QVERIFY(config.stream.fullFlag && config.stream.sequentialFlag);
    QVERIFY(!config.stream.maintenanceFlag && !config.stream.batchingFlag);
    QCOMPARE(QString::fromStdString(option.get(config)), QStringLiteral("full,sequential"));
    QCOMPARE(QString::fromStdString(option.get(withFlags("none"))), QString());
    QCOMPARE(QString::fromStdString(option.get(withFlags("batching,maintenance,full,sequential"))),
             QStringLiteral("full,sequential,maintenance,batching"));
    // The help line names the flag by PostgreSQL's name.
    const QString help = QString::fromStdString(runOptionHelp("Read stream"));
    const qsizetype at = help.indexOf(QLatin1String("--stream-flags"));
    QVERIFY(at >= 0);
    QVERIFY(help.mid(at, help.indexOf(QLatin1String("\n  --"), at) - at)
                .contains(QLatin1String("READ_STREAM_FULL")));
}

void TestStreamFlags::badFlagsAreRefused() {
    for (const auto& [value, says] :
         {std::pair{"full,fast", "unknown flag 'fast'"}, std::pair{"full,full", "flag 'full' given twice"},
          std::pair{"full,", "unknown flag ''"}, std::pair{"FULL", "unknown flag 'FULL'"}}) {
        try {
            withFlags(value);
            QFAIL(value);
        } catch (const InputError& error) {
            const QString text = QString::fromUtf8(error.what());
            QVERIFY2(text.startsWith(QLatin1String("--stream-flags")) && text.contains(QLatin1String(says)) &&
                         text.contains(QLatin1String("full, sequential, maintenance and batching")),
                     error.what());
        }
    }
}

void TestStreamFlags::keptInTheSummary() {
    RunConfig config = withFlags("full,batching");
    config.dataset.name = "seq";
    config.dataset.blocks = 256;
    const RunSummary summary = runScan(config, "cf7035", {});
    QCOMPARE(QString::fromStdString(summary.streamFlags), QStringLiteral("full,batching"));
    // As a session keeps a summary, and reads it back.
    const RunSummary back = summaryFromFields(summaryFields(summary));
    QCOMPARE(QString::fromStdString(back.streamFlags), QStringLiteral("full,batching"));
    QCOMPARE(back.reversedRanges, summary.reversedRanges);
}

QTEST_GUILESS_MAIN(TestStreamFlags)
#include "tst_stream_flags.moc"
