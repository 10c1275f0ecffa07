// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/session_io.h"

#include "experiment/summary_json.h"
#include "files/input_file.h"
#include "files/output_guard.h"
#include "input_error.h"
#include "io/scan_file.h"
#include "message_text.h"
#include "registry.h"
#include "repeat_stats.h"
#include "run_inputs.h"
#include "run_options.h"
#include "session/provenance.h"
#include "session/session_summary.h"
#include "stream_config.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstring>
#include <map>

namespace la {

namespace {
constexpr qsizetype kMaxRecordedBytes = 60 * 1024;
constexpr qsizetype kMaxNotesBytes = 60 * 1024;

// The experiment's notes as a meta entry: a JSON array of strings, as many as fit in its 64 KiB, the
// last saying how many more were left out.
std::string notesJson(const std::vector<std::string>& notes) {
    QJsonArray array;
    qsizetype bytes = 2;
    for (std::size_t i = 0; i < notes.size(); ++i) {
        const QString note = QString::fromStdString(notes[i]);
        bytes += QJsonDocument(QJsonArray{note}).toJson(QJsonDocument::Compact).size();
        if (bytes > kMaxNotesBytes) {
            array.append(
                QStringLiteral("… %1 more notes were left out of the session").arg(notes.size() - i));
            break;
        }
        array.append(note);
    }
    return QJsonDocument(array).toJson(QJsonDocument::Compact).toStdString();
}

// A session's notes (untrusted: anything but an array of strings is left out).
std::vector<std::string> notesOf(const std::string& meta) {
    std::vector<std::string> notes;
    for (const QJsonValue& note : QJsonDocument::fromJson(QByteArray::fromStdString(meta)).array())
        if (note.isString())
            notes.push_back(note.toString().toStdString());
    return notes;
}
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

// Run `which`'s repeat `n` (counted from 1, as the command line prints them), for messages.
std::string repeatName(const std::string& which, std::size_t n) {
    return joined({which, "'s repeat ", std::to_string(n + 1)});
}

// A repeat is a run that finished, of the same scan as its run, and the run's figures are its median
// repeat's (docs/repeats.md); anything else would be put beside the other runs' as if measured.
void checkRepeats(const std::vector<RunSummary>& repeats, const RunSummary& run, const std::string& which) {
    for (std::size_t n = 0; n < repeats.size(); ++n) {
        const RunSummary& repeat = repeats[n];
        if (repeat.runtimeNs < 1)
            throw InputError(
                joined({repeatName(which, n), "'s runtime_ns is ", std::to_string(repeat.runtimeNs),
                        ", out of a finished run's range 1..2^60 ns"}));
        if (repeat.cancelled || !repeat.error.empty())
            throw InputError(
                joined({repeatName(which, n), " did not finish, and only finished repeats are kept"}));
        if (repeat.policy != run.policy || repeat.blocks != run.blocks)
            throw InputError(
                joined({repeatName(which, n), " is not of its run (policy ", excerpt(repeat.policy, 40), ", ",
                        std::to_string(repeat.blocks), " blocks where the run has ", excerpt(run.policy, 40),
                        ", ", std::to_string(run.blocks), ")"}));
    }
    const std::size_t median = medianRepeat(repeats);
    const RunSummary& m = repeats[median];
    if (m.runtimeNs != run.runtimeNs || m.waits != run.waits || m.waitNs != run.waitNs)
        throw InputError(joined(
            {which, "'s figures are not its median repeat's (", repeatName(which, median), ": runtime_ns ",
             std::to_string(m.runtimeNs), ", waits ", std::to_string(m.waits), ", wait_ns ",
             std::to_string(m.waitNs), "; the run: ", std::to_string(run.runtimeNs), ", ",
             std::to_string(run.waits), ", ", std::to_string(run.waitNs), "), as a repeated run's are"}));
}

// The repeats kept in run `which`'s summary JSON, each checked as a session's own summary is, and
// against the run. The JSON's size was bounded before it was read (kMaxSummaryJsonBytes). Throws
// InputError saying what is wrong; openSession() names the file.
std::vector<RunSummary> repeatSummaries(const std::string& summaryJson, const RunSummary& run,
                                        const std::string& which) {
    std::vector<RunSummary> repeats;
    const QJsonObject entry = QJsonDocument::fromJson(QByteArray::fromStdString(summaryJson)).object();
    const QJsonArray kept = entry.value(kRepeatSummaries).toArray();
    if (kept.size() > kMaxRepeat)
        throw InputError(
            joined({which, " keeps ", std::to_string(kept.size()), " repeats' summaries, more than ",
                    std::to_string(kMaxRepeat), " (--repeat's most)"}));
    for (const QJsonValue& repeat : kept) {
        NameValues fields;
        const QJsonObject object = repeat.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            std::string value = it.value().toString().toStdString();
            if (value.size() > std::size_t(kSessionTextBytes))
                throw InputError(joined({repeatName(which, repeats.size()), "'s field ",
                                         excerpt(it.key().toStdString(), 40), " is longer than ",
                                         std::to_string(kSessionTextBytes), " bytes"}));
            fields.emplace_back(it.key().toStdString(), std::move(value));
        }
        repeats.push_back(summaryFromFields(fields, repeatName(which, repeats.size())));
    }
    if (!repeats.empty())
        checkRepeats(repeats, run, which);
    return repeats;
}

// A saved run's label, policy and options; an option this version does not know (a newer file of
// the same format) is left at its default.
RunVariant savedVariant(const SessionRun& run) {
    RunVariant variant;
    variant.label = run.label;
    variant.policy = run.policy;
    variant.tracePath = run.tracePath;
    for (const auto& [name, value] : run.options)
        if (const RunOption* option = findRunOption(name); option && !value.empty())
            setRunOption(variant.config, *option, value);
    return variant;
}

} // namespace

namespace {

constexpr std::string_view kPrewarmList = "list:";

// The file a saved run named, where it still holds the bytes the run read: compared chunk by chunk
// as the kept ones come (`same` says whether all so far were), then checked to end there too.
class SavedFile {
public:
    SavedFile(const std::string& path, const char* role) {
        try {
            m_file = openInputFile(path, role);
            m_same = true;
        } catch (const InputError&) {
            m_same = false; // gone, or no regular file: the kept bytes stand in for it
        }
    }
    void compare(std::span<const unsigned char> kept) {
        if (!m_same)
            return;
        m_theirs.resize(kept.size());
        m_same = readFully(m_file.fd.get(), m_theirs.data(), kept.size(), m_compared) ==
                     static_cast<std::int64_t>(kept.size()) &&
                 (kept.empty() || std::memcmp(kept.data(), m_theirs.data(), kept.size()) == 0);
        m_compared += kept.size();
    }
    bool same() const {
        std::byte more{};
        return m_same && readFully(m_file.fd.get(), &more, 1, m_compared) == 0;
    }

private:
    InputFile m_file;
    bool m_same = false;
    std::uint64_t m_compared = 0;
    std::vector<std::byte> m_theirs;
};

// The files of a modelled run that a session keeps, by role: the run's option that names each.
struct RunFileRole {
    const char* role;
    std::string RunConfig::*option;
    std::string_view prefix; // the option names the file after it
};
constexpr RunFileRole kRunFileRoles[] = {{"blocks", &RunConfig::blockList, {}},
                                         {"prewarm", &RunConfig::prewarm, kPrewarmList}};

// The file `config`'s option of `role` names, or empty.
std::string runFileOf(const RunConfig& config, const RunFileRole& role) {
    const std::string& value = config.*role.option;
    return value.starts_with(role.prefix) ? value.substr(role.prefix.size()) : std::string();
}

} // namespace

void beginSessionRun(SessionWriter& writer, const RunVariant& variant) {
    writer.beginRun(sessionRunOf(variant));
    if (variant.observed)
        writer.addObserved(*variant.observed);
    // An observed run keeps them too: its options are the command's, which the panel runs again.
    for (const RunFileRole& role : kRunFileRoles)
        if (const std::string file = runFileOf(variant.config, role); !file.empty())
            writer.addRunFile(role.role, file);
}

std::string keepRunFiles(OpenedSession& session, const QString& directory, const std::atomic<bool>* cancel,
                         const std::function<void(std::uint64_t done, std::uint64_t total)>& progress) {
    std::vector<RunVariant> runs = session.experiment.runs; // the session's own only once all is written
    std::map<std::string, std::string> keptAs; // a role and saved path, and where its bytes are now
    const std::uint64_t total = session.reader->runFileBytes();
    std::uint64_t done = 0;
    bool cancelled = false;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        for (const RunFileRole& role : kRunFileRoles) {
            const std::string saved = runFileOf(runs[i].config, role);
            if (saved.empty())
                continue;
            const std::string key = std::string(role.role) + '\n' + saved;
            if (const auto known = keptAs.find(key); known != keptAs.end()) {
                runs[i].config.*role.option = std::string(role.prefix) + known->second;
                continue;
            }
            // Under the name it had, so that the panel shows the list the user knows.
            const QString folder =
                QStringLiteral("%1/run%2-%3").arg(directory).arg(i).arg(QLatin1String(role.role));
            QFile file(folder + QLatin1Char('/') + QFileInfo(QString::fromStdString(saved)).fileName());
            if (!QDir().mkdir(folder))
                return folder.toStdString() + ": the folder cannot be made";
            if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly))
                return file.fileName().toStdString() + ": " + file.errorString().toStdString();
            bool written = true;
            SavedFile original(saved, role.role);
            const bool kept =
                session.reader->readRunFile(i, role.role, [&](std::span<const unsigned char> bytes) {
                    const auto size = static_cast<qint64>(bytes.size());
                    written =
                        written && file.write(reinterpret_cast<const char*>(bytes.data()), size) == size;
                    original.compare(bytes);
                    done += bytes.size();
                    if (progress)
                        progress(std::min(done, total), total);
                    cancelled = cancel != nullptr && cancel->load(std::memory_order_relaxed);
                    return written && !cancelled;
                });
            if (cancelled)
                return "cancelled";
            if (!written || !file.flush())
                return file.fileName().toStdString() + ": " + file.errorString().toStdString();
            file.close();
            // Where the user's own file still holds what the run read, the runs keep naming it.
            if (!kept || original.same()) {
                file.remove();
                QDir().rmdir(folder);
                continue;
            }
            keptAs[key] = file.fileName().toStdString();
            runs[i].config.*role.option = std::string(role.prefix) + keptAs[key];
        }
    }
    session.experiment.runs = std::move(runs);
    return {};
}

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
    if (!experiment.notes.empty())
        writer.setMeta("notes", notesJson(experiment.notes));
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
    for (const SessionRun& run : reader.runs()) {
        const std::size_t index = session.summaries.size();
        const std::string which = "run " + std::to_string(index);
        // What is wrong with a run as saved is said here, naming the file once (the reader names it
        // in its own errors).
        try {
            session.experiment.runs.push_back(savedVariant(run));
            RunSummary summary = summaryFromFields(run.summary, which);
            summary.repeats = repeatSummaries(run.summaryJson, summary, which);
            session.summaries.push_back(std::move(summary));
        } catch (const InputError& error) {
            throw sessionDamaged(path, error.what());
        }
        if (run.observed) {
            std::optional<ObservedTrace> trace = reader.observed(index);
            if (!trace)
                throw sessionDamaged(path,
                                     joined({"observed run ", excerpt(run.label), " has no imported trace"}));
            session.experiment.runs.back().observed =
                std::make_shared<const ObservedTrace>(std::move(*trace));
        }
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
    session.experiment.notes = notesOf(reader.meta("notes"));
    return session;
}

} // namespace la
