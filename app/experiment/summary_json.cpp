// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/summary_json.h"

#include "event.h"

#include "experiment/plan_nodes.h"
#include "experiment/reconciliation.h"
#include "files/output_file.h"
#include "observed/observed_fields.h"
#include "repeat_stats.h"
#include "run_options.h"
#include "summary_fields.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <limits>

namespace la {

namespace {

// The index facts of a PostgreSQL index scan (docs/pg-relations.md §5): the table's kInPgIndex figures
// under their names after "pg.", and whether its pages' checksums were verified.
QJsonObject pgIndexObject(const RunSummary& s);

// A JSON number, or null for NaN (a figure the run does not know).
QJsonValue numberOrNull(double value) {
    return std::isnan(value) ? QJsonValue() : QJsonValue(value);
}

// The table's figures flagged `flag`, each under its name after `prefix` ("explain_", "pg."): one
// object of the JSON drawn from the table.
template <typename ValueOf>
QJsonObject flaggedFigures(FieldFlag flag, std::string_view prefix, const ValueOf& valueOf) {
    QJsonObject o;
    for (const SummaryField& field : summaryFieldTable())
        if (field.has(flag)) {
            const std::string_view key = field.name.substr(prefix.size());
            o[QLatin1String(key.data(), qsizetype(key.size()))] = valueOf(field);
        }
    return o;
}

// EXPLAIN (ANALYZE, IO)'s figures unrounded, the table's kInExplainIo ones under their names after
// "explain_" (null where the run does not know them), and what they cover.
QJsonObject explainIoObject(const RunSummary& s) {
    QJsonObject o = flaggedFigures(kInExplainIo, "explain_", [&s](const SummaryField& field) {
        return numberOrNull(figureNumber(field, s));
    });
    if (s.explainIo.prefetchKnown)
        o[QStringLiteral("note")] = QString::fromStdString(explainIoScopeNote(s.pgIndex.has_value()));
    return o;
}

// A figure as the JSON holds it. Whole numbers are JSON numbers (a double's 53 bits are plenty).
struct JsonValueOf {
    const RunSummary* run = nullptr; // whose EXPLAIN figures an ExplainIo is
    QJsonValue operator()(const std::string* value) const { return QString::fromStdString(*value); }
    QJsonValue operator()(const std::uint64_t* value) const { return static_cast<qint64>(*value); }
    QJsonValue operator()(const std::int64_t* value) const { return static_cast<qint64>(*value); }
    QJsonValue operator()(const int* value) const { return *value; }
    QJsonValue operator()(const double* value) const { return *value; }
    QJsonValue operator()(const bool* value) const { return *value; }
    // null where nothing was measured (the simulated device has no file whose page cache could be).
    QJsonValue operator()(const std::optional<double>* value) const {
        return *value ? QJsonValue(**value) : QJsonValue();
    }
    QJsonValue operator()(const std::map<int, std::uint64_t>* value) const {
        QJsonObject hist;
        for (const auto& [size, count] : *value)
            hist[QString::number(size)] = static_cast<qint64>(count);
        return hist;
    }
    QJsonValue operator()(const std::vector<CollapseInterval>* value) const {
        QJsonArray collapses;
        for (const auto& [first, last] : *value)
            collapses.append(QJsonArray{static_cast<qint64>(first), static_cast<qint64>(last)});
        return collapses;
    }
    QJsonValue operator()(const ExplainIo*) const { return explainIoObject(*run); }
    QJsonValue operator()(const std::optional<pg::IndexFacts>* value) const {
        return *value ? QJsonValue(pgIndexObject(*run)) : QJsonValue();
    }
    // A trace's own figures (observed_fields.h).
    QJsonValue operator()(const CombinableRuns* value) const {
        return QJsonObject{{QStringLiteral("runs"), static_cast<qint64>(value->runs)},
                           {QStringLiteral("reads_saved"), static_cast<qint64>(value->readsSaved)}};
    }
    QJsonValue operator()(const std::vector<std::pair<std::uint32_t, std::uint64_t>>* value) const {
        QJsonArray processes;
        for (const auto& [pid, reads] : *value)
            processes.append(QJsonObject{{QStringLiteral("pid"), static_cast<qint64>(pid)},
                                         {QStringLiteral("reads"), static_cast<qint64>(reads)}});
        return processes;
    }
};

QJsonObject pgIndexObject(const RunSummary& s) {
    QJsonObject o = flaggedFigures(kInPgIndex, "pg.", [&s](const SummaryField& field) {
        return field.derive ? QJsonValue(field.derive(s)) : std::visit(JsonValueOf{&s}, field.view(s));
    });
    // A flag under the JSON's own name for it (a session's is pg.checksums).
    o[QStringLiteral("checksums_verified")] = s.pgIndex->checksums;
    return o;
}

// A JSON number as a whole number of type T: NaN as 0, a value out of T's range at its limit.
template <class T> T wholeOf(const QJsonValue& value) {
    const double number = value.toDouble();
    if (std::isnan(number))
        return T{};
    if (number <= static_cast<double>(std::numeric_limits<T>::min()))
        return std::numeric_limits<T>::min();
    if (number >= static_cast<double>(std::numeric_limits<T>::max()))
        return std::numeric_limits<T>::max();
    return static_cast<T>(number);
}

// A figure's key, of either table.
QLatin1String keyOf(const auto& field) {
    return QLatin1String(field.name.data(), qsizetype(field.name.size()));
}

// An empty text or an absent value, which a kJsonWhenSet figure leaves out.
bool unset(const QJsonValue& value) {
    return value.isNull() || (value.isString() && value.toString().isEmpty());
}

// Reads a figure back from the JSON, as leniently as scripts may have edited it: a missing or
// mistyped value is the figure's zero.
struct ReadJson {
    QJsonValue value;
    void operator()(std::string* figure) const { *figure = value.toString().toStdString(); }
    template <std::integral T> void operator()(T* figure) const { *figure = wholeOf<T>(value); }
    void operator()(bool* figure) const { *figure = value.toBool(); }
    void operator()(double* figure) const { *figure = value.toDouble(); }
    void operator()(std::optional<double>* figure) const {
        *figure = value.isDouble() ? std::optional<double>(value.toDouble()) : std::nullopt;
    }
    void operator()(std::map<int, std::uint64_t>* figure) const {
        const QJsonObject hist = value.toObject();
        for (auto it = hist.begin(); it != hist.end(); ++it)
            (*figure)[it.key().toInt()] = wholeOf<std::uint64_t>(it.value());
    }
    void operator()(std::vector<CollapseInterval>* figure) const {
        for (const QJsonValue& interval : value.toArray())
            figure->emplace_back(wholeOf<std::uint64_t>(interval.toArray().at(0)),
                                 wholeOf<std::uint64_t>(interval.toArray().at(1)));
    }
    // The JSON keeps EXPLAIN's averages and the index scan's shares, not the counts they come from.
    void operator()(ExplainIo*) const {}
    void operator()(std::optional<pg::IndexFacts>*) const {}
};

// How many times the run went and, for each figure that varies from one to the next, every repeat's
// value in the order they ran (`<figure>_runs`) and their spread (`<figure>_spread`); a figure no
// repeat has (EXPLAIN's, for a run without them) is left out (docs/repeats.md).
void addRepeatFigures(QJsonObject& o, const RunSummary& s) {
    o[QStringLiteral("repeats")] = static_cast<qint64>(repeatCount(s));
    o[QStringLiteral("median_repeat")] = static_cast<qint64>(medianRepeat(s.repeats));
    for (const auto& [field, values, spread] : repeatedFigures(s).figures) {
        const QString name = keyOf(*field);
        // A figure the run does not know (its waits, from a trace without them) is left out.
        if (o.contains(name) && o.value(name).isNull())
            continue;
        if (std::all_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }))
            continue;
        QJsonArray runs;
        for (double value : values)
            runs.append(numberOrNull(value));
        o[name + QStringLiteral("_runs")] = runs;
        o[name + QStringLiteral("_spread")] = QJsonObject{{QStringLiteral("min"), spread.min},
                                                          {QStringLiteral("q1"), spread.q1},
                                                          {QStringLiteral("median"), spread.median},
                                                          {QStringLiteral("q3"), spread.q3},
                                                          {QStringLiteral("max"), spread.max}};
    }
}

// The repeats read back from their `<figure>_runs`: each carries those figures only.
void readRepeatFigures(const QJsonObject& o, RunSummary& s) {
    const QJsonArray runtimes = o.value(QStringLiteral("runtime_ns_runs")).toArray();
    if (runtimes.size() < 2)
        return;
    s.repeats.resize(static_cast<std::size_t>(runtimes.size()));
    for (const SummaryField& field : summaryFieldTable()) {
        if (!field.has(kVaries) || !field.slot)
            continue;
        const QJsonArray values = o.value(keyOf(field) + QStringLiteral("_runs")).toArray();
        for (qsizetype i = 0; i < values.size() && i < runtimes.size(); ++i)
            std::visit(ReadJson{values.at(i)}, field.slot(s.repeats[static_cast<std::size_t>(i)]));
    }
}

QJsonObject observedObject(const std::string& tracePath, const ObservedSummary& observed) {
    QJsonObject o = runSummaryObject(observed.run);
    o[QStringLiteral("label")] = QStringLiteral("observed");
    o[QStringLiteral("trace")] = QString::fromStdString(tracePath);
    for (const ObservedField& field : observedFieldTable())
        o[keyOf(field)] = std::visit(JsonValueOf{}, field.view(observed));
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
    QJsonObject o;
    for (const SummaryField& field : summaryFieldTable()) {
        if (!field.inJson())
            continue;
        const QJsonValue value = std::visit(JsonValueOf{&s}, field.view(s));
        if (field.has(kJsonWhenSet) && unset(value))
            continue;
        o[keyOf(field)] = value;
    }
    // Waits a trace does not show are unknown, not 0.
    if (s.waitsUnknown)
        o[QStringLiteral("waits")] = QJsonValue();
    if (s.waitsUnknown || s.waitTimeUnknown)
        o[QStringLiteral("wait_ns")] = QJsonValue();
    // Reads not told apart by the page cache that served them are neither counted as its nor, in a
    // trace, as the device's.
    if (!s.pageCacheKnown) {
        o[QStringLiteral("page_cache_reads")] = QJsonValue();
        if (isObservedRun(s))
            o[QStringLiteral("device_reads")] = QJsonValue();
    }
    // A trace replayed is not a run that could go again.
    if (!isObservedRun(s))
        addRepeatFigures(o, s);
    if (!s.streams.empty()) {
        QJsonArray streams;
        for (std::size_t i = 0; i < s.streams.size(); ++i) {
            QJsonObject stream = runSummaryObject(s.streams[i]);
            stream[QStringLiteral("stream")] = qint64(i);
            streams.append(stream);
        }
        o[QStringLiteral("streams")] = streams;
    }
    return o;
}

RunSummary runSummaryOf(const QJsonObject& run) {
    RunSummary s;
    for (const SummaryField& field : summaryFieldTable())
        if (field.inJson())
            std::visit(ReadJson{run.value(keyOf(field))}, field.slot(s));
    readRepeatFigures(run, s);
    // A plan run's streams, one level down only: a file's nesting is not followed further.
    const QJsonArray streams = run.value(QStringLiteral("streams")).toArray();
    for (qsizetype i = 0; i < streams.size() && s.streams.size() < kMaxPlanStreams; ++i) {
        QJsonObject stream = streams[i].toObject();
        stream.remove(QStringLiteral("streams"));
        s.streams.push_back(runSummaryOf(stream));
    }
    return s;
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

QJsonObject importSummaryDocument(const std::string& tracePath, const ObservedSummary& observed,
                                  const ObservedModel& model, const QJsonObject& serverExplain) {
    QJsonObject observedRun = observedObject(tracePath, observed);
    if (!serverExplain.isEmpty())
        observedRun[QStringLiteral("postgresql_explain")] = serverExplain;
    QJsonArray runs{observedRun};
    if (model.summary) {
        QJsonObject run = runSummaryObject(*model.summary);
        run[QStringLiteral("label")] = QString::fromStdString(model.policy);
        run[QStringLiteral("direction")] = QStringLiteral("forward");
        run[QStringLiteral("options")] = configObject(model.config);
        runs.append(run);
    }
    QJsonObject config = configObject(model.config);
    config.remove(QStringLiteral("dataset"));
    config[QStringLiteral("import_trace")] = QString::fromStdString(tracePath);
    QJsonObject doc;
    doc[QStringLiteral("schema")] = QStringLiteral("lookahead.summary/1");
    doc[QStringLiteral("config")] = config;
    doc[QStringLiteral("compare")] = QStringLiteral("observed");
    doc[QStringLiteral("runs")] = runs;
    doc[QStringLiteral("cancelled")] = model.summary && model.summary->cancelled;
    if (model.summary && !model.summary->reconciliation.empty())
        doc[QStringLiteral("reconciliation")] = reconciliationObject(model.summary->reconciliation);
    return doc;
}

namespace {

// What every summary carries besides its runs: how it was made, and a recorded query's plan with
// its nodes.
void addProvenanceAndRecording(QJsonObject& doc, const Experiment& experiment) {
    if (!experiment.provenance.empty())
        doc[QStringLiteral("provenance")] = provenanceJson(experiment.provenance);
    if (!experiment.recorded.isEmpty())
        doc[QStringLiteral("recorded")] = experiment.recorded;
    addPlanNodes(doc, experiment.recorded);
}

} // namespace

QJsonObject summaryDocument(const Experiment& experiment, const std::vector<RunSummary>& runs) {
    // An import's document is the one `--import-trace --summary-json` writes.
    if (!experiment.runs.empty() && experiment.runs.front().observed) {
        const RunVariant& model = experiment.runs.back();
        ObservedModel described{model.policy, model.config, std::nullopt};
        if (runs.size() > 1)
            described.summary = runs[1];
        // The observed run's figures are its summary's: PostgreSQL's EXPLAIN, where one was given,
        // replaced the trace's waits there and is kept there (a session's too). The trace adds only
        // what it alone says.
        const ObservedTrace& trace = *experiment.runs.front().observed;
        const ObservedSummary observed =
            runs.empty() ? summarizeObserved(trace) : observedSummaryOf(trace, runs.front());
        const QJsonObject serverExplain =
            QJsonDocument::fromJson(QByteArray::fromStdString(observed.run.serverExplain)).object();
        QJsonObject doc =
            importSummaryDocument(experiment.runs.front().tracePath, observed, described, serverExplain);
        addProvenanceAndRecording(doc, experiment);
        return doc;
    }
    QJsonArray list;
    bool cancelled = false;
    QJsonObject reconciliation;
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
        // A recorded query's model alone is compared with PostgreSQL's own figures for the scan.
        if (!runs[i].serverExplain.empty())
            run[QStringLiteral("postgresql_explain")] =
                QJsonDocument::fromJson(QByteArray::fromStdString(runs[i].serverExplain)).object();
        if (!runs[i].reconciliation.empty())
            reconciliation = reconciliationObject(runs[i].reconciliation);
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
    if (!reconciliation.isEmpty())
        doc[QStringLiteral("reconciliation")] = reconciliation;
    addProvenanceAndRecording(doc, experiment);
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
