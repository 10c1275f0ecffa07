// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/summary_json.h"

#include "experiment/import_summary.h"

#include "io/output_file.h"
#include "run_options.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

namespace la {

namespace {

// The index facts of a PostgreSQL index scan (docs/pg-relations.md §5); step shares are of visits - 1.
QJsonObject pgIndexObject(const pg::IndexFacts& f) {
    const double steps = f.visits > 1 ? static_cast<double>(f.visits - 1) : 1.0;
    QJsonObject o;
    o[QStringLiteral("index_blocks")] = static_cast<qint64>(f.indexBlocks);
    o[QStringLiteral("leaf_pages")] = static_cast<qint64>(f.leafPages);
    o[QStringLiteral("tids")] = static_cast<qint64>(f.tids);
    o[QStringLiteral("posting_lists")] = static_cast<qint64>(f.postingLists);
    o[QStringLiteral("dead_items")] = static_cast<qint64>(f.deadItems);
    o[QStringLiteral("visits")] = static_cast<qint64>(f.visits);
    o[QStringLiteral("distinct_blocks")] = static_cast<qint64>(f.distinctBlocks);
    o[QStringLiteral("ascending_share")] = static_cast<double>(f.ascendingSteps) / steps;
    o[QStringLiteral("descending_share")] = static_cast<double>(f.descendingSteps) / steps;
    o[QStringLiteral("random_share")] = static_cast<double>(f.randomSteps) / steps;
    o[QStringLiteral("checksums_verified")] = f.checksums;
    return o;
}

// EXPLAIN (ANALYZE, IO)'s figures unrounded; null where a run does not know them (an observed run
// has no stream whose pins or waits it saw) and where explain.c divides by a zero count.
QJsonObject explainIoObject(const ExplainIo& io) {
    const auto known = [](bool has, const QJsonValue& value) { return has ? value : QJsonValue(); };
    const bool samples = io.prefetchKnown && io.prefetchCount > 0;
    QJsonObject o;
    o[QStringLiteral("prefetch_avg")] = known(samples, io.prefetchAvg());
    o[QStringLiteral("prefetch_max")] = known(samples, io.distanceMax);
    o[QStringLiteral("prefetch_capacity")] = known(io.prefetchKnown, io.distanceCapacity);
    o[QStringLiteral("io_count")] = static_cast<qint64>(io.ioCount);
    o[QStringLiteral("io_waits")] = known(io.waitsKnown, static_cast<qint64>(io.waitCount));
    o[QStringLiteral("io_size_avg")] = known(io.ioCount > 0, io.ioSizeAvg());
    o[QStringLiteral("io_inprogress_avg")] = known(io.ioCount > 0, io.ioInProgressAvg());
    return o;
}

} // namespace

QJsonObject provenanceJson(const std::vector<std::pair<std::string, std::string>>& provenance) {
    QJsonObject o;
    for (const auto& [key, value] : provenance)
        o[QString::fromStdString(key)] = QString::fromStdString(value);
    return o;
}

QJsonObject runSummaryObject(const RunSummary& s) {
    QJsonObject hist;
    for (const auto& [size, count] : s.ioSizeHist)
        hist[QString::number(size)] = static_cast<qint64>(count);
    QJsonArray collapses;
    for (const auto& [first, last] : s.collapseIntervals)
        collapses.append(QJsonArray{static_cast<qint64>(first), static_cast<qint64>(last)});
    QJsonObject o;
    o[QStringLiteral("policy")] = QString::fromStdString(s.policy);
    o[QStringLiteral("mechanics")] = QString::fromStdString(s.mechanics);
    o[QStringLiteral("blocks")] = static_cast<qint64>(s.blocks);
    o[QStringLiteral("hits")] = static_cast<qint64>(s.hits);
    o[QStringLiteral("misses")] = static_cast<qint64>(s.misses);
    o[QStringLiteral("ios")] = static_cast<qint64>(s.ios);
    o[QStringLiteral("io_size_hist")] = hist;
    o[QStringLiteral("device_reads")] = static_cast<qint64>(s.deviceReads);
    o[QStringLiteral("bytes_read")] = static_cast<qint64>(s.bytesRead);
    o[QStringLiteral("waits")] = static_cast<qint64>(s.waits);
    o[QStringLiteral("wait_ns")] = static_cast<qint64>(s.waitNs);
    o[QStringLiteral("runtime_ns")] = static_cast<qint64>(s.runtimeNs);
    o[QStringLiteral("resets")] = static_cast<qint64>(s.resets);
    o[QStringLiteral("distance_mean")] = s.distanceMean;
    o[QStringLiteral("distance_time_mean")] = s.distanceTimeMean;
    o[QStringLiteral("distance_max")] = s.distanceMax;
    o[QStringLiteral("frac_distance_le2")] = s.fracDistanceLe2;
    o[QStringLiteral("pinned_mean")] = s.pinnedMean;
    o[QStringLiteral("in_flight_mean")] = s.inFlightMean;
    o[QStringLiteral("max_pinned")] = s.maxPinned;
    o[QStringLiteral("io_combine_limit")] = s.ioCombineLimit;
    o[QStringLiteral("collapse_intervals")] = collapses;
    o[QStringLiteral("explain_io")] = explainIoObject(s.explainIo);
    o[QStringLiteral("io_method_used")] = QString::fromStdString(s.ioMethodUsed);
    o[QStringLiteral("fallback_reason")] = QString::fromStdString(s.fallbackReason);
    o[QStringLiteral("direct_io")] = s.directIo;
    o[QStringLiteral("pages_verified")] = static_cast<qint64>(s.pagesVerified);
    // null for the simulated device: there is no file whose page cache could be measured.
    o[QStringLiteral("os_cache_resident_before")] =
        s.osCacheResidentBefore ? QJsonValue(*s.osCacheResidentBefore) : QJsonValue();
    o[QStringLiteral("os_cache_resident_after")] =
        s.osCacheResidentAfter ? QJsonValue(*s.osCacheResidentAfter) : QJsonValue();
    if (s.pgIndex)
        o[QStringLiteral("pg_index")] = pgIndexObject(*s.pgIndex);
    o[QStringLiteral("cancelled")] = s.cancelled;
    if (!s.error.empty())
        o[QStringLiteral("error")] = QString::fromStdString(s.error);
    return o;
}

QJsonObject configObject(const RunConfig& c) {
    QJsonObject o;
    for (const RunOption& option : runOptions()) {
        const std::string value = option.get(c);
        const QString key = QString::fromUtf8(option.jsonKey.data(), qsizetype(option.jsonKey.size()));
        if (value.empty()) {
            o[key] = QJsonValue(); // unset: the default applies
            continue;
        }
        switch (option.kind) {
        case OptionKind::Flag:
            o[key] = value == "true";
            break;
        case OptionKind::Whole:
            o[key] = static_cast<qint64>(std::stoull(value));
            break;
        case OptionKind::Real:
            o[key] = std::stod(value);
            break;
        case OptionKind::Text:
            o[key] = QString::fromStdString(value);
            break;
        }
    }
    return o;
}

QJsonObject summaryDocument(const Experiment& experiment, const std::vector<RunSummary>& runs) {
    // An import's document is the one `--import-trace --summary-json` writes.
    if (!experiment.runs.empty() && experiment.runs.front().observed) {
        const RunVariant& model = experiment.runs.back();
        ObservedModel described{model.policy, model.config, std::nullopt};
        if (runs.size() > 1)
            described.summary = runs[1];
        QJsonObject doc =
            importSummaryDocument(experiment.runs.front().tracePath,
                                  summarizeObserved(*experiment.runs.front().observed), described);
        if (!experiment.provenance.empty())
            doc[QStringLiteral("provenance")] = provenanceJson(experiment.provenance);
        return doc;
    }
    QJsonArray list;
    bool cancelled = false;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        QJsonObject run = runSummaryObject(runs[i]);
        if (i < experiment.runs.size()) {
            const RunVariant& variant = experiment.runs[i];
            run[QStringLiteral("label")] = QString::fromStdString(variant.label);
            run[QStringLiteral("direction")] = variant.config.dataset.direction == Direction::Forward
                                                   ? QStringLiteral("forward")
                                                   : QStringLiteral("backward");
            run[QStringLiteral("options")] = configObject(variant.config);
        }
        list.append(run);
        cancelled = cancelled || runs[i].cancelled;
    }
    QJsonObject doc;
    doc[QStringLiteral("schema")] = QStringLiteral("lookahead.summary/1");
    if (!experiment.runs.empty())
        doc[QStringLiteral("config")] = configObject(experiment.runs.front().config);
    doc[QStringLiteral("compare")] = QLatin1String(comparisonName(experiment.comparison));
    doc[QStringLiteral("runs")] = list;
    doc[QStringLiteral("cancelled")] = cancelled;
    if (!experiment.provenance.empty())
        doc[QStringLiteral("provenance")] = provenanceJson(experiment.provenance);
    return doc;
}

QByteArray summaryJson(const Experiment& experiment, const std::vector<RunSummary>& runs) {
    return QJsonDocument(summaryDocument(experiment, runs)).toJson();
}

QString writeSummaryJson(const QString& path, const Experiment& experiment,
                         const std::vector<RunSummary>& runs) {
    const QByteArray bytes = summaryJson(experiment, runs);
    return QString::fromStdString(writeOutputFile(path.toStdString(), "summary JSON",
                                                  std::string_view(bytes.constData(), bytes.size())));
}

} // namespace la
