// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "index_batches.h"

#include <cstdint>
#include <optional>
#include <string>

namespace la::pg {

// A scan of a real PostgreSQL index and table (docs/pg-relations.md), as the options give it.
struct PgScanConfig {
    std::string index;      // --pg-index: the btree's first segment file
    std::string heap;       // --pg-heap: the table's first segment file
    std::string dataDir;    // --pg-datadir: relative --pg-index/--pg-heap paths are under it
    std::string keyType;    // --pg-key: the leading columns' types, comma-separated (empty = int8)
    std::string keyRange;   // --pg-key-range: a condition per column, LO:HI or V (empty = the whole index)
    std::string collation;  // --pg-collation: the text columns' collation (C or POSIX)
    IndexBatching batching; // --index-batches continue|reset|ring[:N]
    std::optional<IndexBatching> compareBatching; // --compare-index-batches: run B's (none: the other)
    std::uint64_t streamStartAfter = 0; // --stream-start-after N (any input, not only an index scan)
    std::string checksums;              // --pg-checksums on|off|auto (empty = auto)

    bool active() const { return !index.empty() || !heap.empty(); }
    // Heap visits read by the backend before the stream starts: --stream-start-after, or the ring's
    // own start rule when it is not given.
    std::uint64_t streamStartsAfter() const {
        if (streamStartAfter > 0 || batching.mode != IndexBatches::Ring || !active())
            return streamStartAfter;
        return kRingStreamStartsAfter;
    }
};

} // namespace la::pg
