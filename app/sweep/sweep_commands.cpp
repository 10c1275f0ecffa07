// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep/sweep_commands.h"

#include "experiment/document_file.h"
#include "experiment/summary_json.h"
#include "input_error.h"
#include "message_text.h"
#include "sweep/sweep_runner.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <set>

namespace la {

namespace {

std::string shellQuoted(const std::string& word) {
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                               "-_./:=@%+,") == std::string::npos)
        return word;
    std::string quoted = "'";
    for (const char c : word) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    quoted += '\'';
    return quoted;
}

std::string joinPath(const std::string& dir, const std::string& file) {
    return dir.empty() || dir.back() == '/' ? dir + file : dir + "/" + file;
}

// The first option whose value differs, as "miss_fraction is 7, the cell's 6".
std::string firstDifference(const QJsonObject& found, const QJsonObject& expected) {
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        const QJsonValue value = found.value(it.key());
        if (value != it.value())
            return joined(
                {it.key().toStdString(), " is ",
                 QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact).toStdString(),
                 ", the cell's ",
                 QJsonDocument(QJsonArray{it.value()}).toJson(QJsonDocument::Compact).toStdString()});
    }
    return "its options differ";
}

} // namespace

std::string sweepCellFile(const SweepSpec& spec, std::uint64_t cell, std::size_t policy) {
    char name[32];
    std::snprintf(name, sizeof name, "c%06llu-", static_cast<unsigned long long>(cell));
    const std::string label = policy < spec.policies.size() ? spec.policies[policy].label() : "baseline";
    return joined({"cells/", name, fileSafeName(label), ".json"});
}

bool emitSweepCommands(const SweepSpec& spec, const std::string& lookahead, const std::string& outDir,
                       const std::atomic<bool>* cancel,
                       const std::function<bool(const std::string&)>& print) {
    const std::size_t runsPerCell = spec.policies.size() + 1;
    for (std::uint64_t cell = 0; cell < spec.cells(); ++cell) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return false;
        const RunConfig cellConfig = spec.checkedCellConfig(cell);
        const std::string baseline = spec.baselinePolicy(cellConfig);
        std::string options;
        for (const auto& [name, value] : spec.cellOptions(cell)) {
            options += " --";
            options += name;
            options += ' ';
            options += shellQuoted(value);
        }
        for (std::size_t policy = 0; policy < runsPerCell; ++policy) {
            const RunConfig config = sweepRunConfig(spec, cellConfig, baseline, policy);
            std::string command = shellQuoted(lookahead);
            command += " --headless";
            command += options;
            command += " --policy ";
            command += shellQuoted(config.policy);
            if (!config.mechanics.empty()) {
                command += " --mechanics ";
                command += shellQuoted(config.mechanics);
            }
            command += " --summary-json ";
            command += shellQuoted(joinPath(outDir, sweepCellFile(spec, cell, policy)));
            command += " >/dev/null";
            if (!print(command))
                return false;
        }
    }
    return true;
}

SweepResults mergeSweep(const SweepSpec& spec, const std::string& outDir, const std::atomic<bool>* cancel,
                        const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
    SweepResults results;
    results.spec = spec;
    if (!prepareResults(results, cancel, progress)) {
        results.cancelled = true;
        return results;
    }
    std::set<std::string> expected;
    std::uint64_t missing = 0;
    std::string firstMissing;
    for (std::uint64_t cell = 0; cell < spec.cells(); ++cell)
        for (std::size_t policy = 0; policy < results.runsPerCell(); ++policy) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                results.cancelled = true;
                return results;
            }
            const std::string relative = sweepCellFile(spec, cell, policy);
            expected.insert(relative.substr(6));
            const std::string path = joinPath(outDir, relative);
            struct stat st {};
            if (::lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
                if (missing++ == 0)
                    firstMissing = path;
                continue;
            }
            const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(
                readDocumentFile(path, "sweep run file", kSweepCellFileBytes,
                                 "a run's file is the summary JSON its command writes; run it again")));
            const QJsonArray runs = document.object().value(QStringLiteral("runs")).toArray();
            if (document.object().value(QStringLiteral("schema")).toString() !=
                    QStringLiteral("lookahead.summary/1") ||
                runs.size() != 1)
                throw InputError(joined({path, ": not the summary JSON of one run (lookahead --headless "
                                               "--summary-json writes it); run its command again"}));
            const RunConfig config = sweepRunConfig(results, cell, policy);
            const QJsonObject want = configObject(config);
            const QJsonObject found = document.object().value(QStringLiteral("config")).toObject();
            if (found != want)
                throw InputError(
                    joined({path, ": not this sweep's cell ", std::to_string(cell), " (",
                            firstDifference(found, want),
                            "); was it made by another spec? Remove it and run its command again"}));
            results.at(cell, policy) = figuresOf(runs.first().toObject());
            if (!results.at(cell, policy).done)
                throw InputError(path + ": the run was cancelled; run its command again");
        }
    if (missing > 0)
        throw InputError(joined({firstMissing, " is missing (", std::to_string(missing), " of ",
                                 std::to_string(results.runs.size()),
                                 " runs have no JSON file); run their commands (lookahead sweep SPEC "
                                 "--emit-commands --out DIR) and merge again"}));
    const QDir cells(QString::fromStdString(joinPath(outDir, "cells")));
    for (const QString& name : cells.entryList({QStringLiteral("*.json")}, QDir::Files))
        if (!expected.contains(name.toStdString()))
            throw InputError(
                joined({joinPath(outDir, "cells/" + name.toStdString()), " is not a run of this sweep (",
                        spec.source, "); move it away and merge again"}));
    return results;
}

} // namespace la
