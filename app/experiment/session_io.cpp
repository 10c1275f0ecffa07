// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/session_io.h"

#include "experiment/summary_json.h"
#include "input_error.h"
#include "io/output_guard.h"
#include "message_text.h"
#include "registry.h"
#include "run_options.h"
#include "session/provenance.h"
#include "session/session_summary.h"
#include "stream_config.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace la {

namespace {
constexpr qsizetype kMaxRecordedBytes = 60 * 1024;
} // namespace

SessionRun sessionRunOf(const RunVariant& variant) {
    SessionRun run;
    run.label = variant.label;
    run.policy = variant.policy;
    run.observed = variant.observed != nullptr;
    run.tracePath = variant.tracePath;
    run.collapseWindow = variant.config.collapseWindow;
    if (!run.observed) {
        const StreamLimits limits = computeLimits(streamConfigFor(variant.config),
                                                  mechanicsFor(variant.policy, variant.config.mechanics));
        run.maxPinned = limits.maxPinned;
        run.ioCombineLimit = limits.ioCombineLimit;
    }
    for (const RunOption& option : runOptions())
        run.options.emplace_back(std::string(option.name), option.get(variant.config));
    return run;
}

namespace {

constexpr QLatin1StringView kRepeatSummaries("repeat_summaries");

// A repeated run's entry of the summary JSON keeps every repeat's summary too, exactly, as the
// session's fields of each (docs/session-format.md): the events kept are the median repeat's only.
QJsonObject withRepeatSummaries(QJsonObject entry, const RunSummary& summary) {
    if (summary.repeats.empty())
        return entry;
    QJsonArray repeats;
    for (const RunSummary& repeat : summary.repeats) {
        QJsonObject fields;
        for (const auto& [name, value] : summaryFields(repeat))
            fields[QString::fromStdString(name)] = QString::fromStdString(value);
        repeats.append(fields);
    }
    entry[kRepeatSummaries] = repeats;
    return entry;
}

// The repeats kept in a run's summary JSON, each checked as a session's own summary is.
std::vector<RunSummary> repeatSummaries(const std::string& summaryJson, const std::string& path) {
    std::vector<RunSummary> repeats;
    const QJsonObject entry = QJsonDocument::fromJson(QByteArray::fromStdString(summaryJson)).object();
    const QJsonArray kept = entry.value(kRepeatSummaries).toArray();
    if (kept.size() > kMaxRepeat)
        throw sessionDamaged(path, "a run keeps " + std::to_string(kept.size()) +
                                       " repeats' summaries, more than " + std::to_string(kMaxRepeat) +
                                       " (--repeat's most)");
    for (const QJsonValue& repeat : kept) {
        NameValues fields;
        const QJsonObject object = repeat.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            fields.emplace_back(it.key().toStdString(), it.value().toString().toStdString());
        repeats.push_back(summaryFromFields(fields, path));
    }
    return repeats;
}

} // namespace

void endSessionRun(SessionWriter& writer, const RunSummary& summary) {
    const QJsonObject entry = withRepeatSummaries(runSummaryObject(summary), summary);
    writer.endRun(summaryFields(summary), QJsonDocument(entry).toJson(QJsonDocument::Compact).toStdString());
}

void finishSession(SessionWriter& writer, const Experiment& experiment) {
    writer.setMeta("compare", comparisonName(experiment.comparison));
    if (!experiment.recorded.isEmpty()) {
        // A meta entry holds at most 64 KiB (docs/session-format.md): a plan too long for it is left out.
        QJsonObject recorded = experiment.recorded;
        if (QJsonDocument(recorded).toJson(QJsonDocument::Compact).size() > kMaxRecordedBytes) {
            recorded.remove(QStringLiteral("plan"));
            recorded[QStringLiteral("plan_left_out")] = true;
        }
        writer.setMeta("recorded", QJsonDocument(recorded).toJson(QJsonDocument::Compact).toStdString());
    }
    writer.setProvenance(experiment.provenance);
    writer.commit();
}

NameValues experimentProvenance(const Experiment& experiment, const std::vector<RunSummary>& summaries,
                                const std::string& commandLine) {
    std::string scanned;
    for (const RunVariant& variant : experiment.runs) {
        if (variant.observed || variant.config.io == IoMode::Sim || !scanned.empty())
            continue;
        // The file read, or the dataset cache directory its file lives in (same filesystem and device).
        for (const NamedPath& input : runInputs(variant.config))
            if (input.role == "--file" || input.role == "--pg-heap" ||
                input.role == "the dataset cache directory")
                scanned = input.path;
    }
    bool direct = false;
    for (const RunSummary& summary : summaries)
        direct = direct || summary.directIo;
    return collectProvenance(commandLine, scanned, direct);
}

OpenedSession openSession(const std::string& path) {
    OpenedSession session;
    session.reader = std::make_unique<SessionReader>(path);
    const SessionReader& reader = *session.reader;
    if (reader.runs().empty())
        throw InputError(joined({"session '", path, "' holds no runs; save a run that has finished"}));
    for (const SessionRun& run : reader.runs()) {
        RunVariant variant;
        variant.label = run.label;
        variant.policy = run.policy;
        variant.tracePath = run.tracePath;
        for (const auto& [name, value] : run.options) {
            // An option this version does not know (a newer file of the same format) is left at its default.
            if (const RunOption* option = findRunOption(name); option && !value.empty()) {
                try {
                    setRunOption(variant.config, *option, value);
                } catch (const InputError& error) {
                    throw sessionDamaged(path, error.what());
                }
            }
        }
        if (run.observed) {
            std::optional<ObservedTrace> trace = reader.observed(session.experiment.runs.size());
            if (!trace)
                throw sessionDamaged(path,
                                     joined({"observed run ", excerpt(run.label), " has no imported trace"}));
            variant.observed = std::make_shared<const ObservedTrace>(std::move(*trace));
        }
        session.experiment.runs.push_back(std::move(variant));
        session.summaries.push_back(summaryFromFields(run.summary, path));
        session.summaries.back().repeats = repeatSummaries(run.summaryJson, path);
    }
    if (const std::optional<Comparison> compare = comparisonNamed(reader.meta("compare")))
        session.experiment.comparison = *compare;
    // What a trace's model visited is no option: it is given back as makeImportExperiment gave it
    // (the scan's visits with the trace's cache state, which its summary describes, or the reads).
    std::vector<RunVariant>& runs = session.experiment.runs;
    if (session.experiment.comparison == Comparison::Observed && runs.size() == 2 && runs[0].observed) {
        auto reads = std::make_shared<const std::vector<std::uint32_t>>(runs[0].observed->impliedBlocks());
        if (session.summaries[1].cacheFromTrace.empty())
            runs[1].config.blockSequence = std::move(reads);
        else
            runs[1].config.tracedReads = std::move(reads);
    }
    session.experiment.provenance = reader.provenance();
    // Untrusted like the rest of the file: anything but a JSON object is left out.
    if (const std::string recorded = reader.meta("recorded"); !recorded.empty())
        session.experiment.recorded = QJsonDocument::fromJson(QByteArray::fromStdString(recorded)).object();
    return session;
}

QByteArray recordedExplain(const QJsonObject& recorded) {
    const QJsonObject plans = recorded.value(QStringLiteral("plan")).toObject();
    const QJsonValue plan = plans.contains(QStringLiteral("untraced"))
                                ? plans.value(QStringLiteral("untraced"))
                                : plans.value(QStringLiteral("traced"));
    if (plan.isArray())
        return QJsonDocument(plan.toArray()).toJson(QJsonDocument::Compact);
    return plan.toString().toUtf8();
}

} // namespace la
