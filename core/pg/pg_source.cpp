// SPDX-License-Identifier: GPL-3.0-or-later
#include "pg_source.h"

#include "index_source.h"
#include "input_error.h"
#include "message_text.h"
#include "relation_files.h"

namespace la::pg {

std::string resolvePath(const PgScanConfig& config, const std::string& path) {
    if (config.dataDir.empty() || path.empty() || path.front() == '/')
        return path;
    std::string full = config.dataDir;
    if (full.back() != '/')
        full += '/';
    return full.append(path);
}

std::unique_ptr<BlockSource> openPgSource(const PgScanConfig& config, Direction direction, IndexFacts* facts,
                                          StreamPacer** pacer) {
    if (config.index.empty() || config.heap.empty())
        throw InputError("a PostgreSQL scan needs both --pg-index FILE and --pg-heap FILE (find them with "
                         "SELECT pg_relation_filepath('t'), pg_relation_filepath('idx'))");
    IndexScanSpec spec;
    spec.index = resolvePath(config, config.index);
    spec.direction = direction;
    spec.range = parseKeyRange(config.keyType, config.keyRange, config.collation);
    spec.checksums = checksumModeNamed(config.checksums);
    // The table is sized first: every TID is checked against it before anything is sized from one.
    const SegmentedRelation heap(resolvePath(config, config.heap), "--pg-heap");
    spec.heapBlocks = heap.blocks();
    spec.heap = heap.path();
    auto visits = std::make_shared<IndexVisits>(scanIndex(spec));
    if (visits->blocks.empty())
        throw InputError(
            "--pg-index '" + spec.index + "': the scan returns no rows, so there is nothing to scan (" +
            (spec.range
                 ? "no entry has a key in --pg-key-range " + excerpt(config.keyRange) + "; widen the range"
                 : "the index has no live entries: an empty table, or every entry is marked dead") +
            ")");
    if (facts)
        *facts = visits->facts;
    auto source = std::make_unique<IndexSource>(std::move(visits), config.batching, heap.blocks());
    if (pacer)
        *pacer = config.batching.mode == IndexBatches::Ring ? source.get() : nullptr;
    return source;
}

} // namespace la::pg
