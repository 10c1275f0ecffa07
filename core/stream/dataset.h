// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_source.h"
#include "direction.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace la {

struct DatasetRequest {
    std::string name;       // preset ("uniform", "hash-clustered", ...) or pattern ("sparse-miss:16")
    double scale = 0.0;     // fraction of the published size; 0 = the preset's small default
    std::uint64_t seed = 0; // 0 = the preset's own seed
    Direction direction = Direction::Forward;
    std::uint64_t blocks = 0; // patterns only: relation size in blocks (0 = pattern default)
};

struct DatasetInfo {
    std::string name;  // as typed on the command line (patterns show their parameter, e.g. "sparse-miss:K")
    std::string group; // UI group of docs/datasets.md §0 ("Correlation", ...), "Synthetic" for patterns
    std::string description; // one line
    std::string
        defaultPrewarm;        // cache state the preset stands for: "none", "every:2", "except-every:16", ...
    double defaultScale = 1.0; // chosen so the default heap is <= 256 MB (32768 blocks)
    std::uint64_t defaultBlocks = 0;   // relation size at the default scale
    std::uint64_t publishedBlocks = 0; // relation size at scale 1
    bool pattern = false;              // synthetic pattern (sized by `blocks`, e.g. to a user's file)
};

// Every preset and pattern, in catalog order.
const std::vector<DatasetInfo>& datasetCatalog();

// Catalog entry for a name as typed ("sparse-miss:16" finds "sparse-miss:K"); throws InputError if unknown.
const DatasetInfo& findDataset(const std::string& name);

// The cache state a name as typed stands for, with a pattern's parameter filled in ("sparse-miss:16" gives
// "except-every:16"); throws InputError like findDataset.
std::string defaultPrewarmFor(const std::string& name);

// Throws InputError for an unknown name or out-of-range parameters.
std::unique_ptr<BlockSource> makeDataset(const DatasetRequest& request);

// A user's block list: one block per line with '#' comments, or CSV (RFC 4180: quoted fields,
// doubled quotes, a BOM, CRLF) with a "block" column; "reset" in place of a block resets the stream
// there (a nested loop's rescan, docs/datasets.md Appendix C). Throws InputError naming the file and
// line on anything malformed. Its relation has `relationBlocks` blocks (every block must be below), or
// with 0 its highest block + 1.
std::unique_ptr<BlockSource> loadBlockList(const std::string& path, Direction direction,
                                           std::uint64_t relationBlocks = 0);
// The block numbers of such a file in file order; `what` names it in messages ("prewarm list"). A
// reset marker is refused: a list of blocks is no visit order.
std::vector<std::uint32_t> readBlockNumbers(const std::string& path, const std::string& what);

// docs/datasets.md §2.4 statistics of one full pass (the source is rewound before and after).
struct DatasetStats {
    std::uint64_t visits = 0;
    std::uint64_t distinct = 0;
    std::uint64_t ascRuns = 0;
    std::uint64_t descRuns = 0;
    std::uint64_t ios16 = 0; // first visits merged when consecutive-ascending, up to 16 blocks
    double meanJump = 0.0;
};
DatasetStats computeStats(BlockSource& source);

} // namespace la
