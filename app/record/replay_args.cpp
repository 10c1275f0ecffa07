// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/replay_args.h"

#include "buffer_strategy.h"
#include "record/recording_log.h"
#include "record/server_facts.h"

namespace la {

namespace {

// Before 17 a large sequential scan's ring is 256 kB, as 17's; the model, a newer read stream,
// sizes its own by its version's rule (docs/read-stream-model.md §14): said where they differ.
void noteOlderRing(const ServerFacts& facts, std::uint64_t relationBlocks, RecordingLog& log) {
    StreamConfig server;
    server.sharedBuffers = facts.sharedBufferBlocks;
    server.effectiveIoConcurrency = facts.effectiveIoConcurrency;
    server.maxConnections = facts.maxConnections;
    server.sequentialFlag = true;
    const BufferStrategy own =
        chooseStrategy(StrategyChoice::Auto, RingRule::Fixed256kB, server, relationBlocks);
    const BufferStrategy model =
        chooseStrategy(StrategyChoice::Auto, RingRule::PlusIoConcurrency, server, relationBlocks);
    if (own.ringBuffers != model.ringBuffers)
        log.note(
            QStringLiteral("PostgreSQL %1 reads the table through a BULKREAD ring of %2 buffers, the model "
                           "through one of %3, as a read stream sizes it: the model leaves %4 %5 of the "
                           "table's blocks in shared buffers after the scan")
                .arg(facts.major())
                .arg(own.ringBuffers)
                .arg(model.ringBuffers)
                .arg(std::abs(own.ringBuffers - model.ringBuffers))
                .arg(model.ringBuffers > own.ringBuffers ? QStringLiteral("more") : QStringLiteral("fewer")));
}

} // namespace

QString defaultPolicy(int serverMajor) {
    if (serverMajor == 17 || serverMajor == 18)
        return QStringLiteral("pg%1").arg(serverMajor);
    return QStringLiteral("pg19");
}

QStringList replayedRunArgs(bool observed, const QString& tracePath, const RecordedRelation& heap,
                            qint64 backendPid, const QString& planFile, const QString& policy) {
    if (!observed)
        return {QStringLiteral("--policy"), policy};
    return {QStringLiteral("--import-trace"),   tracePath,
            QStringLiteral("--trace-relation"), heap.filePath,
            QStringLiteral("--trace-backend"),  QString::number(backendPid),
            QStringLiteral("--explain"),        planFile,
            QStringLiteral("--compare-policy"), policy};
}

QStringList serverArgs(const ServerFacts& facts, const QString& policy, const RecordedScan& scan,
                       RecordingLog& log) {
    QStringList args{QStringLiteral("--shared-buffers"), QString::number(facts.sharedBufferBlocks),
                     QStringLiteral("--eic"), QString::number(facts.effectiveIoConcurrency)};
    if (facts.maxConnections > 0)
        args << QStringLiteral("--max-connections") << QString::number(facts.maxConnections);
    if (facts.ioCombineLimit > 0)
        args << QStringLiteral("--io-combine-limit") << QString::number(facts.ioCombineLimit);
    if (facts.major() < 17)
        log.note(QStringLiteral("PostgreSQL %1 has no read stream: the model shows what %2's would do on the "
                                "same visits")
                     .arg(facts.major())
                     .arg(policy));
    if (facts.major() < 17 && scan.sequential())
        noteOlderRing(facts, scan.heap.blocks, log);
    return args;
}

} // namespace la
