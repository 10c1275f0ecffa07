// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/output_conflict.h"

#include "files/output_guard.h"
#include "gui/jobs/run_controller.h"
#include "input_error.h"
#include "io/event_spool.h"
#include "run_inputs.h"

#include <QCoreApplication>

namespace la {

QString outputConflict(const RunController& controller, const QString& path) {
    try {
        std::vector<NamedPath> inputs = runInputs(controller.config());
        for (const RunVariant& run : controller.experiment().runs)
            if (run.observed)
                inputs.push_back({"The imported trace", run.tracePath});
        checkOutputsApart(inputs, {{"The export file", path.toStdString()}});
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

RunsToWrite runsToWrite(const RunController& controller, const QString& verb, const QString& done) {
    const auto tr = [](const char* text) { return QCoreApplication::translate("RunsToWrite", text); };
    RunsToWrite runs{controller.traces(), controller.spools(), {}};
    if (runs.traces.empty())
        runs.error = tr("Nothing to %1 yet: run an experiment first.").arg(verb);
    for (std::size_t i = 0; i < runs.traces.size() && runs.error.isEmpty(); ++i) {
        const QString label = QString::fromStdString(runs.traces[i]->label());
        if (!runs.spools[i])
            runs.error = tr("Run %1 is still going: wait until it has finished, or stop it, then %2.")
                             .arg(label, verb);
        else if (!runs.spools[i]->broken().empty())
            runs.error =
                tr("The events of run %1 were not kept (%2), so it cannot be %3. Run it again to %4 it.")
                    .arg(label, QString::fromStdString(runs.spools[i]->broken()), done, verb);
    }
    return runs;
}

} // namespace la
