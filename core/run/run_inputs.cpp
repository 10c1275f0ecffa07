// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_inputs.h"

#include "pg/pg_source.h"
#include "scan_target.h"

namespace la {

std::vector<NamedPath> runInputs(const RunConfig& config) {
    std::vector<NamedPath> inputs;
    if (!config.file.empty())
        inputs.push_back({"--file", config.file, config.fileIsRelation});
    if (!config.blockList.empty())
        inputs.push_back({"--blocks", config.blockList});
    if (config.prewarm.starts_with("list:"))
        inputs.push_back({"the prewarm list", config.prewarm.substr(5)});
    if (!config.pg.index.empty())
        inputs.push_back({"--pg-index", pg::resolvePath(config.pg, config.pg.index), true});
    if (!config.pg.heap.empty())
        inputs.push_back({"--pg-heap", pg::resolvePath(config.pg, config.pg.heap), true});
    if (!config.pg.dataDir.empty())
        inputs.push_back({"--pg-datadir", config.pg.dataDir});
    if (!config.deviceProfile.empty())
        inputs.push_back({"--device-profile", config.deviceProfile});
    if (config.io != IoMode::Sim && config.file.empty() && config.pg.heap.empty())
        inputs.push_back({"the dataset cache directory", datasetCacheDir(config)});
    return inputs;
}

} // namespace la
