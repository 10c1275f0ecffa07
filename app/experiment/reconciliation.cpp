// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/reconciliation.h"

#include "block_size.h"
#include "buffer_strategy.h"
#include "experiment/explain_output.h"
#include "input_error.h"
#include "message_text.h"
#include "observed/traced_cache.h"
#include "pg/pg_source.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace la {

namespace {

// The first blocks named where model and trace differ, and the most causes kept.
constexpr std::size_t kBlocksShown = 5;
constexpr qsizetype kMaxCauseText = 400;

QString count(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

std::uint64_t gap(std::uint64_t a, std::uint64_t b) {
    return a > b ? a - b : b - a;
}

struct Cause {
    QString key;
    std::uint64_t blocks = 0;
    bool explained = false;
    QString text;
};

// A whole number of a JSON object, if it holds one in range.
std::optional<std::uint64_t> wholeIn(const QJsonObject& o, const char* key) {
    const QJsonValue value = o.value(QLatin1String(key));
    if (!value.isDouble() || value.toDouble() < 0 || value.toDouble() > 9.0e15)
        return std::nullopt;
    return static_cast<std::uint64_t>(value.toDouble());
}

// The blocks the trace read of the index (its file, where the model or the recording names it; else
// every file but the relation's): none when the trace read no such file.
std::optional<std::uint64_t> tracedIndexBlocks(const ObservedTrace& trace, const RunConfig& model,
                                               const std::string& recordedIndex) {
    const std::string index =
        model.pg.index.empty() ? recordedIndex : pg::resolvePath(model.pg, model.pg.index);
    std::uint64_t blocks = 0;
    bool found = false;
    for (const TracedFile& file : trace.files) {
        if (file.name == trace.relation)
            continue;
        if (!index.empty() && !sameRelationFile(file.name, index))
            continue;
        blocks += file.bytes / kBlockSize;
        found = true;
    }
    return found ? std::optional(blocks) : std::nullopt;
}

// The blocks of `missed` and `traced` (each a multiset) that the other lacks: the first few of each.
void firstDifferences(std::vector<std::uint32_t> missed, std::vector<std::uint32_t> traced,
                      std::vector<std::uint32_t>& modelOnly, std::vector<std::uint32_t>& traceOnly) {
    std::sort(missed.begin(), missed.end());
    std::sort(traced.begin(), traced.end());
    std::size_t i = 0, j = 0;
    while ((i < missed.size() || j < traced.size()) &&
           (modelOnly.size() < kBlocksShown || traceOnly.size() < kBlocksShown)) {
        if (j == traced.size() || (i < missed.size() && missed[i] < traced[j])) {
            if (modelOnly.size() < kBlocksShown)
                modelOnly.push_back(missed[i]);
            ++i;
        } else if (i == missed.size() || traced[j] < missed[i]) {
            if (traceOnly.size() < kBlocksShown)
                traceOnly.push_back(traced[j]);
            ++j;
        } else {
            ++i;
            ++j;
        }
    }
}

QJsonArray blockArray(const std::vector<std::uint32_t>& blocks) {
    QJsonArray array;
    for (const std::uint32_t block : blocks)
        array.append(static_cast<qint64>(block));
    return array;
}

// What the server's shared read holds beside the relation's own blocks: an index's pages.
struct IndexPages {
    std::uint64_t blocks = 0;
    QString text; // empty: none
};

IndexPages indexPagesOf(const QJsonObject& server, std::uint64_t sharedRead, std::uint64_t sharedHit,
                        const RunSummary& model, const RunConfig& modelConfig, const ObservedTrace* trace,
                        const std::string& recordedIndex) {
    const QString index = server.value(QStringLiteral("index")).toString();
    if (const std::optional<std::uint64_t> bitmap = wholeIn(server, "index_shared_read")) {
        const std::uint64_t pages = std::min(*bitmap, sharedRead);
        if (pages == 0)
            return {};
        return {pages, QStringLiteral("%1 pages of the index %2, which the Bitmap Index Scan read (its own "
                                      "shared read, counted in the heap scan's)")
                           .arg(count(pages), server.value(QStringLiteral("bitmap_index")).toString())};
    }
    if (index.isEmpty())
        return {};
    if (trace) {
        if (const std::optional<std::uint64_t> traced =
                tracedIndexBlocks(*trace, modelConfig, recordedIndex)) {
            const std::uint64_t pages = std::min(*traced, sharedRead);
            return {pages, QStringLiteral("%1 pages of the index %2, which the trace read too (EXPLAIN's "
                                          "shared read of an index scan counts them)")
                               .arg(count(pages), index)};
        }
    }
    // The trace holds the table alone (a capture limited to its file): an index scan's buffers are
    // its heap visits and its index pages, so its index pages are at most its buffers less the
    // model's visits, where the model walked the scan's own visits.
    if (modelConfig.blockSequence || sharedRead <= model.misses)
        return {};
    const std::uint64_t buffers = sharedHit + sharedRead;
    const std::uint64_t accessed = buffers > model.blocks ? buffers - model.blocks : 0;
    const std::uint64_t pages = std::min(accessed, sharedRead - model.misses);
    if (pages == 0)
        return {};
    return {pages, QStringLiteral("%1 pages of the index %2: EXPLAIN's shared read of an index scan counts "
                                  "them, and its %3 buffers less the model's %4 heap visits leave %5 for "
                                  "the index")
                       .arg(count(pages), index, count(buffers), count(model.blocks), count(accessed))};
}

// The strategy PostgreSQL reads the recorded scan through, where the recording says: heapam's
// initscan() rule (docs/read-stream-model.md §14.1).
std::optional<bool> serverBulkRead(const QJsonObject& recorded) {
    const QJsonObject relation = recorded.value(QStringLiteral("relation")).toObject();
    const QJsonObject server = recorded.value(QStringLiteral("server")).toObject();
    const std::optional<std::uint64_t> blocks = wholeIn(relation, "blocks");
    const std::optional<std::uint64_t> buffers = wholeIn(server, "shared_buffers_blocks");
    if (!blocks || !buffers || relation.value(QStringLiteral("scan")).toString().isEmpty())
        return std::nullopt;
    return relation.value(QStringLiteral("scan")).toString() == QLatin1String("Seq Scan") &&
           *blocks > *buffers / 4;
}

// Why the model's misses may not be the server's reads: each likely cause that applies.
std::vector<Cause> likelyCauses(const Experiment& experiment, const RunSummary& model,
                                const RunConfig& modelConfig, std::uint64_t difference) {
    std::vector<Cause> causes;
    const QJsonObject& recorded = experiment.recorded;
    if (const std::optional<bool> bulkRead = serverBulkRead(recorded);
        bulkRead && *bulkRead != (model.strategy == "BULKREAD"))
        causes.push_back(
            {QStringLiteral("strategy"), difference, false,
             *bulkRead
                 ? QStringLiteral("a buffer strategy the model did not apply: PostgreSQL reads a Seq Scan "
                                  "of a table above a quarter of shared_buffers through a BULKREAD ring, "
                                  "the model read through %1 (--strategy, --sequential-flag)")
                       .arg(QString::fromStdString(model.strategy))
                 : QStringLiteral("a buffer strategy the server did not apply: the model read through a "
                                  "BULKREAD ring, PostgreSQL through its whole pool (--strategy)")});
    const TracedCache* traced = modelConfig.tracedCache.get();
    if (traced && !traced->fromSnapshot)
        causes.push_back({QStringLiteral("cache-derived"), difference, false,
                          QStringLiteral("the cache state at the start was derived from the trace, not "
                                         "snapshotted (no pg_buffercache): a block the trace did not read is "
                                         "taken to have been in shared buffers")});
    if (traced)
        for (const std::string& line : traced->disagreements())
            causes.push_back(
                {QStringLiteral("visits-or-snapshot"), difference, false, QString::fromStdString(line)});
    const QString cachedSource = recorded.value(QStringLiteral("cached_at_start"))
                                     .toObject()
                                     .value(QStringLiteral("source"))
                                     .toString();
    if (!traced && !modelConfig.blockSequence && !recorded.isEmpty() &&
        cachedSource != QLatin1String("pg_buffercache"))
        causes.push_back({QStringLiteral("cache-unknown"), difference, false,
                          QStringLiteral("the server's cache state at the start is not known (no "
                                         "pg_buffercache snapshot): the model started from %1")
                              .arg(QString::fromStdString(effectivePrewarm(modelConfig)))});
    if (causes.empty())
        causes.push_back(
            {QStringLiteral("unknown"), difference, false,
             QStringLiteral("no cause is known: the model's visits, cache state or shared "
                            "buffers are not the server's (compare the first blocks that differ)")});
    return causes;
}

QJsonObject causeJson(const Cause& cause) {
    return {{QStringLiteral("cause"), cause.key},
            {QStringLiteral("blocks"), static_cast<qint64>(cause.blocks)},
            {QStringLiteral("explained"), cause.explained},
            {QStringLiteral("text"), cause.text.left(kMaxCauseText)}};
}

// PostgreSQL's figures for the recorded scan, from the plan the recording kept (explain_output.h): for a
// model that ran without a trace to compare with.
std::string recordedServerExplain(const QJsonObject& recorded) {
    const QByteArray plan = recordedExplain(recorded);
    if (plan.isEmpty())
        return {};
    try {
        const ExplainOutput output = parseExplainOutput(plan, QStringLiteral("the recorded plan"));
        return QJsonDocument(
                   serverExplainJson(output, observedScanOf(output, QStringLiteral("the recorded plan"))))
            .toJson(QJsonDocument::Compact)
            .toStdString();
    } catch (const InputError&) {
        return {};
    }
}

} // namespace

void MissedBlocks::onEvents(std::span<const Event> batch) {
    if (m_overflowed)
        return;
    for (const Event& event : batch) {
        if (event.kind != EventKind::Consumed || (event.flags & event_flag::miss) == 0)
            continue;
        if (m_blocks.size() >= m_limit) {
            m_overflowed = true;
            m_blocks = {};
            return;
        }
        m_blocks.push_back(event.block);
    }
}

bool reconciles(const Experiment& experiment, std::size_t run) {
    const std::vector<RunVariant>& runs = experiment.runs;
    if (run >= runs.size() || runs[run].observed)
        return false;
    if (experiment.comparison == Comparison::Observed)
        return runs.size() == 2 && run == 1 && runs[0].observed;
    return runs.size() == 1 && experiment.recorded.value(QStringLiteral("plan")).isObject();
}

std::string reconcileRun(const Experiment& experiment, std::size_t run, const RunSummary* observed,
                         RunSummary& model, const std::vector<std::uint32_t>* missed) {
    if (!reconciles(experiment, run) || model.cancelled || !model.error.empty())
        return {};
    const RunVariant& variant = experiment.runs[run];
    const ObservedTrace* trace = experiment.runs.front().observed.get();
    if (!trace && model.serverExplain.empty())
        model.serverExplain = recordedServerExplain(experiment.recorded);
    const QJsonObject server =
        QJsonDocument::fromJson(
            QByteArray::fromStdString(trace && observed ? observed->serverExplain : model.serverExplain))
            .object();
    std::vector<Cause> causes;
    QJsonObject o;
    o[QStringLiteral("relation")] = server.contains(QStringLiteral("relation"))
                                        ? server.value(QStringLiteral("relation")).toString()
                                        : QString::fromStdString(trace ? trace->relation : std::string());
    o[QStringLiteral("model_misses")] = static_cast<qint64>(model.misses);

    std::optional<std::uint64_t> serverReads;
    const std::optional<std::uint64_t> hit = wholeIn(server, "shared_hit");
    std::optional<std::uint64_t> read = wholeIn(server, "shared_read");
    if (hit && !read) // text output leaves read= out when nothing was read
        read = 0;
    std::uint64_t explained = 0, unexplained = 0;
    if (read) {
        // A recorded scan's index file: the trace holds the plan's other relations too.
        const std::string recordedIndex = experiment.recorded.value(QStringLiteral("relation"))
                                              .toObject()
                                              .value(QStringLiteral("index_file"))
                                              .toString()
                                              .toStdString();
        const IndexPages index =
            indexPagesOf(server, *read, hit.value_or(0), model, variant.config, trace, recordedIndex);
        serverReads = *read - index.blocks;
        o[QStringLiteral("shared_read")] = static_cast<qint64>(*read);
        o[QStringLiteral("index_pages")] = static_cast<qint64>(index.blocks);
        if (!index.text.isEmpty()) {
            causes.push_back({QStringLiteral("index-pages"), index.blocks, true, index.text});
            explained += index.blocks;
        }
    }
    o[QStringLiteral("server_reads")] =
        serverReads ? QJsonValue(static_cast<qint64>(*serverReads)) : QJsonValue();
    const std::optional<std::uint64_t> tracedReads =
        trace && observed ? std::optional(observed->blocks) : std::nullopt;
    o[QStringLiteral("traced_reads")] =
        tracedReads ? QJsonValue(static_cast<qint64>(*tracedReads)) : QJsonValue();

    // The trace against the server: the same reads, unless the trace holds the device's.
    if (serverReads && tracedReads && *serverReads != *tracedReads) {
        const std::uint64_t difference = gap(*serverReads, *tracedReads);
        if (trace->format == TraceFormat::Kernel && !trace->sourcesExact) {
            std::uint64_t readAhead = 0;
            for (const ObservedDeviceRead& device : trace->deviceReads)
                readAhead += device.readAhead ? device.nblocks : 0;
            causes.push_back(
                {QStringLiteral("device-reads"), difference, true,
                 QStringLiteral(
                     "the trace holds the device's reads of the relation, not PostgreSQL's (no read "
                     "calls of it: io_uring's are not system calls): the page cache served some of the "
                     "server's reads, and %1 blocks were the kernel's read-ahead")
                     .arg(count(readAhead))});
            explained += difference;
        } else {
            causes.push_back(
                {QStringLiteral("trace-vs-server"), difference, false,
                 *tracedReads > *serverReads
                     ? QStringLiteral(
                           "the trace shows %1 more blocks read of the relation than PostgreSQL's "
                           "EXPLAIN counts for the scan: reads outside it (planning, another query or "
                           "session) are in the trace")
                           .arg(count(difference))
                     : QStringLiteral(
                           "the trace shows %1 fewer blocks read of the relation than PostgreSQL's "
                           "EXPLAIN counts: a process that read for the scan was not traced, or its "
                           "reads were not system calls (io_uring)")
                           .arg(count(difference))});
            unexplained += difference;
        }
    }

    // The model against the server (or, without EXPLAIN, the trace).
    const std::optional<std::uint64_t> reference = serverReads ? serverReads : tracedReads;
    // A model that missed what the trace read differs from the server as the trace does: named above.
    const bool asTheTrace = serverReads && tracedReads && *tracedReads == model.misses;
    if (reference && *reference != model.misses && !asTheTrace) {
        const std::uint64_t difference = gap(*reference, model.misses);
        unexplained += difference;
        for (Cause& cause : likelyCauses(experiment, model, variant.config, difference))
            causes.push_back(std::move(cause));
    }
    // A model that replays the trace's reads misses what the trace read, by construction: the
    // figures cannot check each other, and the server's hits are not modelled.
    const bool comparable = !variant.config.blockSequence;
    if (!comparable)
        causes.push_back(
            {QStringLiteral("visits-from-trace"), hit.value_or(0), false,
             QStringLiteral(
                 "the model's visits are the trace's reads, each a miss: its misses are the trace's by "
                 "construction%1 (give the scan's visits: --visits-query, --pg-index, --blocks)")
                 .arg(hit ? QStringLiteral(", and the server's %1 hits are not modelled").arg(count(*hit))
                          : QString())});
    if (reference && !comparable && !experiment.recorded.isEmpty() &&
        experiment.recorded.value(QStringLiteral("cached_at_start"))
                .toObject()
                .value(QStringLiteral("source"))
                .toString() != QLatin1String("pg_buffercache"))
        causes.push_back(
            {QStringLiteral("no-snapshot"), 0, false,
             QStringLiteral("no snapshot of shared buffers was taken (pg_buffercache was refused "
                            "or is missing): the cache state at the start is not known")});
    o[QStringLiteral("explained")] = static_cast<qint64>(explained);
    o[QStringLiteral("unexplained")] = static_cast<qint64>(unexplained);
    o[QStringLiteral("comparable")] = comparable;
    // Where model and trace differ block by block (a model of the scan's own visits only).
    if (trace && missed && comparable && tracedReads && *tracedReads != model.misses) {
        std::vector<std::uint32_t> modelOnly, traceOnly;
        firstDifferences(*missed, trace->impliedBlocks(), modelOnly, traceOnly);
        o[QStringLiteral("model_only_blocks")] = blockArray(modelOnly);
        o[QStringLiteral("trace_only_blocks")] = blockArray(traceOnly);
    }
    // Unexplained causes first: they are what a reader must see.
    std::stable_sort(causes.begin(), causes.end(),
                     [](const Cause& a, const Cause& b) { return !a.explained && b.explained; });
    QJsonArray list;
    for (const Cause& cause : causes)
        list.append(causeJson(cause));
    o[QStringLiteral("causes")] = list;
    return QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString();
}

QJsonObject reconciliationObject(const std::string& reconciliation) {
    if (reconciliation.empty())
        return {};
    return QJsonDocument::fromJson(QByteArray::fromStdString(reconciliation)).object();
}

namespace {

// Whether its figures agree, all differences explained.
bool reconciliationAgrees(const QJsonObject& o) {
    return o.isEmpty() ||
           (o.value(QStringLiteral("comparable")).toBool(true) && wholeIn(o, "unexplained").value_or(0) == 0);
}

QString reconciliationText(const QJsonObject& o) {
    if (o.isEmpty())
        return {};
    const auto figure = [&o](const char* key) {
        const std::optional<std::uint64_t> n = wholeIn(o, key);
        return n ? count(*n) : QString();
    };
    const QString relation =
        QString::fromStdString(excerpt(o.value(QStringLiteral("relation")).toString().toStdString(), 60));
    QStringList figures{
        QStringLiteral("the model missed %1 blocks%2")
            .arg(figure("model_misses"), relation.isEmpty() ? QString() : QStringLiteral(" of ") + relation)};
    if (!figure("server_reads").isEmpty()) {
        const std::uint64_t index = wholeIn(o, "index_pages").value_or(0);
        figures << (index > 0
                        ? QStringLiteral("PostgreSQL read %1 (EXPLAIN's shared read %2 less %3 index pages)")
                              .arg(figure("server_reads"), figure("shared_read"), count(index))
                        : QStringLiteral("PostgreSQL read %1 (EXPLAIN's shared read)")
                              .arg(figure("server_reads")));
    }
    if (!figure("traced_reads").isEmpty())
        figures << QStringLiteral("the trace shows %1").arg(figure("traced_reads"));
    if (figures.size() == 1)
        figures << QStringLiteral("nothing to compare it with (no EXPLAIN, no trace)");
    const bool comparable = o.value(QStringLiteral("comparable")).toBool(true);
    const std::uint64_t unexplained = wholeIn(o, "unexplained").value_or(0);
    QStringList explainedParts, likely, blocking;
    for (const QJsonValue& value : o.value(QStringLiteral("causes")).toArray()) {
        const QJsonObject cause = value.toObject();
        const QString text = QString::fromStdString(
            excerpt(cause.value(QStringLiteral("text")).toString().toStdString(), kMaxCauseText));
        if (cause.value(QStringLiteral("explained")).toBool())
            explainedParts << text;
        else if (cause.value(QStringLiteral("cause")).toString() == QLatin1String("visits-from-trace") ||
                 cause.value(QStringLiteral("cause")).toString() == QLatin1String("no-snapshot"))
            blocking << text;
        else
            likely << text;
    }
    const auto blocks = [&o](const char* key) {
        QStringList list;
        for (const QJsonValue& block : o.value(QLatin1String(key)).toArray())
            list << QString::number(static_cast<qint64>(block.toDouble()));
        return list.join(QStringLiteral(", "));
    };
    if (comparable && unexplained == 0) {
        QString text = QStringLiteral("figures reconcile: ") + figures.join(QStringLiteral("; "));
        if (!explainedParts.isEmpty())
            text += QStringLiteral("; explained: ") + explainedParts.join(QStringLiteral("; "));
        return text;
    }
    QString text =
        (comparable ? QStringLiteral("FIGURES DISAGREE: ") : QStringLiteral("FIGURES CANNOT AGREE: "));
    if (!comparable)
        text += blocking.join(QStringLiteral("; ")) + QStringLiteral(". ");
    text += figures.join(QStringLiteral(", "));
    if (unexplained > 0)
        text += QStringLiteral(": %1 unexplained").arg(count(unexplained));
    if (const QString only = blocks("model_only_blocks"); !only.isEmpty())
        text += QStringLiteral("; first blocks the model missed that the trace did not read: ") + only;
    if (const QString only = blocks("trace_only_blocks"); !only.isEmpty())
        text += QStringLiteral("; first blocks the trace read that the model did not miss: ") + only;
    if (!likely.isEmpty())
        text += QStringLiteral("; likely cause: ") + likely.join(QStringLiteral("; or "));
    if (!explainedParts.isEmpty())
        text += QStringLiteral("; explained: ") + explainedParts.join(QStringLiteral("; "));
    return text;
}

} // namespace

ReconciliationLine reconciliationLine(const std::string& reconciliation) {
    const QJsonObject o = reconciliationObject(reconciliation);
    const bool agrees = reconciliationAgrees(o);
    return {reconciliationText(o), !agrees};
}

} // namespace la
