// SPDX-License-Identifier: GPL-3.0-or-later
#include "output_guard.h"

#include "input_error.h"
#include "pg/pg_source.h"
#include "scan_target.h"

#include <sys/stat.h>

#include <filesystem>
#include <optional>

namespace la {

namespace {

// Where a path leads: its inode if it exists, else the absolute path it would be created at.
struct Identity {
    std::optional<std::pair<dev_t, ino_t>> inode;
    std::string resolved;
    bool isDirectory = false;
    bool isStream = false; // a device or FIFO: /dev/null may well take two outputs

    bool operator==(const Identity& other) const {
        if (inode && other.inode)
            return *inode == *other.inode;
        return resolved == other.resolved;
    }
};

Identity identify(const std::string& path) {
    Identity id;
    std::error_code error;
    id.resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error).string();
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        id.inode = std::pair{st.st_dev, st.st_ino};
        id.isDirectory = S_ISDIR(st.st_mode);
        id.isStream = !S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode);
    }
    return id;
}

bool inside(const Identity& file, const Identity& dir) {
    const std::string prefix = dir.resolved + "/";
    return file.resolved.starts_with(prefix);
}

} // namespace

std::vector<NamedPath> runInputs(const RunConfig& config) {
    std::vector<NamedPath> inputs;
    if (!config.file.empty())
        inputs.push_back({"--file", config.file});
    if (!config.blockList.empty())
        inputs.push_back({"--blocks", config.blockList});
    if (config.prewarm.starts_with("list:"))
        inputs.push_back({"the prewarm list", config.prewarm.substr(5)});
    if (!config.pg.index.empty())
        inputs.push_back({"--pg-index", pg::resolvePath(config.pg, config.pg.index)});
    if (!config.pg.heap.empty())
        inputs.push_back({"--pg-heap", pg::resolvePath(config.pg, config.pg.heap)});
    if (!config.pg.dataDir.empty())
        inputs.push_back({"--pg-datadir", config.pg.dataDir});
    if (config.io != IoMode::Sim && config.file.empty() && config.pg.heap.empty())
        inputs.push_back({"the dataset cache directory", datasetCacheDir(config)});
    return inputs;
}

void checkOutputsApart(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
    std::vector<Identity> inputIds;
    inputIds.reserve(inputs.size());
    for (const NamedPath& input : inputs)
        inputIds.push_back(identify(input.path));
    std::vector<Identity> outputIds;
    outputIds.reserve(outputs.size());
    for (const NamedPath& output : outputs) {
        const Identity id = identify(output.path);
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            const bool same = inputIds[i] == id;
            if (same || (inputIds[i].isDirectory && inside(id, inputIds[i])))
                throw InputError(
                    output.role + " '" + output.path + "' " + (same ? "is the same file as " : "lies in ") +
                    inputs[i].role + " '" + inputs[i].path +
                    "': Lookahead never overwrites what it reads; choose another " + "output file");
        }
        for (std::size_t i = 0; i < outputIds.size(); ++i)
            if (outputIds[i] == id && !id.isStream)
                throw InputError(output.role + " '" + output.path + "' is the same file as " +
                                 outputs[i].role + " '" + outputs[i].path +
                                 "'; give each output its own file");
        outputIds.push_back(id);
    }
}

} // namespace la
