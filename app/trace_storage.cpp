// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_storage.h"

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

} // namespace la
