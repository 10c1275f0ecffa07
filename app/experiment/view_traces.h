// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "experiment/runner.h"
#include "run_trace.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace la {

// The views' traces of an experiment's runs, filled on the thread that runs it: the command line's
// exports draw what they ran without a window's worker.
class ViewTraces {
public:
    // Throws InputError for an unknown policy.
    explicit ViewTraces(const Experiment& experiment);
    ~ViewTraces();
    ViewTraces(const ViewTraces&) = delete;
    ViewTraces& operator=(const ViewTraces&) = delete;

    // Hooks the traces into `callbacks`: each run's viewed events go to its trace and its summary is
    // set when it ends; `problem` hears of a trace whose columns could not go to disk.
    void follow(ExperimentCallbacks& callbacks, std::function<void(const std::string&)> problem);
    std::vector<const RunTrace*> traces() const;

private:
    class Sink;
    std::vector<std::unique_ptr<RunTrace>> m_traces;
    std::vector<std::unique_ptr<Sink>> m_sinks;
};

} // namespace la
