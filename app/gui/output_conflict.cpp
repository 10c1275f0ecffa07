// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/output_conflict.h"

#include "gui/run_controller.h"
#include "input_error.h"
#include "io/output_guard.h"
#include "run_inputs.h"

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

} // namespace la
