// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/run_storage.h"

#include "input_error.h"
#include "io/dataset_file.h"
#include "io/scan_target.h"

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
