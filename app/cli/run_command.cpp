// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/run_command.h"

#include "cli/import_command.h"
#include "cli/signal_cancel.h"
#include "cli/summary_text.h"
#include "event_csv.h"
#include "experiment/session_io.h"
#include "experiment/summary_json.h"
#include "input_error.h"
#include "io/output_file.h"
#include "message_text.h"
#include "pg/pg_source.h"

#include <QLocale>
#include <QString>

#include <cstdio>
#include <memory>
#include <optional>

namespace la {

namespace {

QString count(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

// Reports work before a run (writing a dataset file) on stderr, every 10%.
class PreparingPrinter {
public:
    void operator()(const std::string& stage, std::uint64_t done, std::uint64_t total) {
        const int tenths = total > 0 ? static_cast<int>(done * 10 / total) : 10;
        if (stage == m_stage && tenths == m_tenths)
            return;
        m_stage = stage;
        m_tenths = tenths;
        std::fprintf(stderr, "lookahead: %s: %d%%\n", stage.c_str(), tenths * 10);
    }

private:
    std::string m_stage;
    int m_tenths = -1;
};

} // namespace

std::string datasetListing() {
    QString text;
    QString group;
    for (const DatasetInfo& info : datasetCatalog()) {
        const QString g = QString::fromStdString(info.group);
        if (g != group) {
            text += (group.isEmpty() ? QString() : QStringLiteral("\n")) + g + QLatin1Char('\n');
            group = g;
        }
        const double mb = static_cast<double>(info.defaultBlocks) * 8192.0 / 1048576.0;
        text += QStringLiteral("  %1\n      %2\n      default %3 blocks (%4 MB)")
                    .arg(QString::fromStdString(info.name), QString::fromStdString(info.description),
                         count(info.defaultBlocks))
                    .arg(mb, 0, 'f', 0);
        if (!info.pattern)
            text += QStringLiteral(", published size %1 blocks").arg(count(info.publishedBlocks));
        text += QStringLiteral(", cache state %1\n").arg(QString::fromStdString(info.defaultPrewarm));
    }
    return text.toStdString();
}

std::vector<NamedPath> outputsOf(const CliOptions& options) {
    std::vector<NamedPath> outputs;
    if (!options.traceCsv.empty())
        outputs.push_back({"--trace-csv", options.traceCsv});
    if (!options.summaryJson.empty())
        outputs.push_back({"--summary-json", options.summaryJson});
    if (!options.exportPng.empty())
        outputs.push_back({"--export-png", options.exportPng});
    if (!options.exportSvg.empty())
        outputs.push_back({"--export-svg", options.exportSvg});
    if (!options.exportPdf.empty())
        outputs.push_back({"--export-pdf", options.exportPdf});
    if (!options.save.empty())
        outputs.push_back({"--save", options.save});
    return outputs;
}

int writeOutputs(std::unique_ptr<EventCsvWriter>& csv, std::optional<OutputFile>& json,
                 const QByteArray& document) {
    int exitCode = 0;
    try {
        if (csv)
            csv->commit();
    } catch (const IoError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        exitCode = 1;
    }
    try {
        if (json) {
            json->write(std::string_view(document.constData(), static_cast<std::size_t>(document.size())));
            json->commit();
        }
    } catch (const IoError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        exitCode = 1;
    }
    return exitCode;
}

int runHeadless(const CliOptions& options) {
    if (!options.open.empty())
        return runOpenHeadless(options);
    if (!options.importTrace.empty())
        return runImportHeadless(options);
    const RunConfig& config = options.run;
    Experiment experiment = makeExperiment(config, options.comparison);

    std::vector<RunSummary> runs;
    int exitCode = 0;
    std::unique_ptr<EventCsvWriter> csv;
    std::optional<OutputFile> json;
    std::unique_ptr<SessionWriter> session;
    try {
        // Every input is checked, and every output opened, before anything runs or is written.
        checkOutputsApart(runInputs(config), outputsOf(options));
        if (!options.save.empty())
            session = std::make_unique<SessionWriter>(options.save);
        pg::IndexFacts facts;
        const auto source = openSource(config, &facts);
        if (!options.traceCsv.empty())
            csv = std::make_unique<EventCsvWriter>(options.traceCsv, experiment.runs.front().label);
        if (!options.summaryJson.empty())
            json.emplace(options.summaryJson, "summary JSON");
        const std::string name =
            config.pg.active() ? std::string("index ").append(pg::resolvePath(config.pg, config.pg.index))
            : config.blockList.empty() ? config.dataset.name
                                       : config.blockList;
        std::printf("dataset %s: %s blocks in a %s-block relation, %s%s%s\n", printable(name).c_str(),
                    qPrintable(count(source->length())), qPrintable(count(source->relationBlocks())),
                    config.dataset.direction == Direction::Forward ? "forward" : "backward",
                    config.file.empty() ? "" : ", file ", printable(config.file).c_str());
        if (config.pg.active())
            std::printf(
                "  index: %s leaf pages, %s TIDs, %s posting lists, %s dead items skipped; %s visits to %s "
                "distinct heap blocks (steps +1 %s, -1 %s, other %s)%s\n",
                qPrintable(count(facts.leafPages)), qPrintable(count(facts.tids)),
                qPrintable(count(facts.postingLists)), qPrintable(count(facts.deadItems)),
                qPrintable(count(facts.visits)), qPrintable(count(facts.distinctBlocks)),
                qPrintable(count(facts.ascendingSteps)), qPrintable(count(facts.descendingSteps)),
                qPrintable(count(facts.randomSteps)), facts.checksums ? ", checksums verified" : "");
        for (const RunVariant& variant : experiment.runs) {
            RunCallbacks callbacks;
            callbacks.notice = [](const std::string& message) {
                std::fprintf(stderr, "lookahead: note: %s\n", message.c_str());
            };
            callbacks.preparing = PreparingPrinter();
            callbacks.cancel = &SignalCancel::requested();
            if (csv) {
                csv->setRunLabel(variant.label);
                callbacks.sinks.push_back(csv.get());
            }
            if (session) {
                session->beginRun(sessionRunOf(variant));
                callbacks.sinks.push_back(session.get());
            }
            runs.push_back(runScan(variant.config, variant.policy, callbacks));
            if (session)
                endSessionRun(*session, runs.back());
            std::fputs(describeRun(variant.label, runs.back()).c_str(), stdout);
            if (!runs.back().error.empty())
                exitCode = 1;
            if (runs.back().cancelled || !runs.back().error.empty())
                break;
        }
    } catch (const InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    if (runs.size() == 2)
        std::printf("%s\n", printable(variantVerdict(experiment.runs, runs).toStdString()).c_str());
    experiment.provenance = experimentProvenance(experiment, runs, options.commandLine);
    // A cancelled run's partial results are written too, whole and marked "cancelled".
    if (writeOutputs(csv, json, summaryJson(experiment, runs)) != 0)
        exitCode = 1;
    if (session && writeSession(*session, experiment) != 0)
        exitCode = 1;
    return SignalCancel::exitCode() != 0 ? SignalCancel::exitCode() : exitCode;
}

} // namespace la
