// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/run_storage.h"

#include "input_error.h"
#include "io/dataset_file.h"
#include "registry.h"
#include "scan_target.h"

#include <algorithm>
#include <iterator>

namespace la {

void spillBesideDatasets(RunTrace& trace, const RunConfig& config) {
    const std::string dir = datasetCacheDir(config);
    try {
        preparePrivateDir(dir);
    } catch (const InputError&) {
        return; // not a directory of ours to write in: the views keep their columns in memory
    }
    trace.spillTo(dir);
}

std::unique_ptr<RunTrace> viewTraceFor(const RunVariant& run) {
    std::unique_ptr<RunTrace> trace;
    if (run.observed) {
        trace = std::make_unique<RunTrace>(run.label);
        trace->markObserved();
    } else {
        const StreamLimits limits =
            computeLimits(streamConfigFor(run.config), mechanicsFor(run.policy, run.config.mechanics));
        trace = std::make_unique<RunTrace>(run.label,
                                           RunLimits{limits.maxPinned, limits.ioCombineLimit,
                                                     run.config.collapseWindow, 0, run.config.shownStream});
    }
    spillBesideDatasets(*trace, run.config);
    return trace;
}

void keepViewed(std::span<const Event> batch, std::vector<Event>& viewed) {
    viewed.clear();
    std::copy_if(batch.begin(), batch.end(), std::back_inserter(viewed),
                 [](const Event& event) { return isViewedEvent(event.kind); });
}

std::shared_ptr<EventSpool> spoolBesideDatasets(const RunConfig& config) {
    try {
        const std::string dir = datasetCacheDir(config);
        preparePrivateDir(dir);
        return std::make_shared<EventSpool>(dir);
    } catch (const InputError& error) {
        return std::make_shared<EventSpool>(EventSpool::Unavailable{error.what()});
    }
}

} // namespace la
