// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/recorded_scan.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <utility>
#include <vector>

namespace la {

class BufferCache;
class HeldDirectory;
class RecordingLog;
struct ServerFacts;

// The segment files of `relations` that exist here ("base/5/16390", ".1", …), as the relation
// readers find them; none of a relation, with a note, whose files cannot be read here (the trace
// names them all the same).
QStringList segmentFilesOf(const QString& dataDirectory,
                           const std::vector<const RecordedRelation*>& relations, RecordingLog& log);

// Drops `files` from the OS page cache (flushed first, core/io/os_cache.h). Failures are said, not
// fatal: the recording shows what was cached.
void emptyOsCache(const QStringList& files, RecordingLog& log);

// --cold: empties the relations' shared buffers where the server can, and their files' OS cache
// where they are here; what stays cached is said.
void emptyCaches(BufferCache& buffers, const std::vector<const RecordedRelation*>& relations,
                 const QStringList& files, const ServerFacts& facts, RecordingLog& log);

// The cache at the start of the query: each relation's blocks in shared buffers (ascending), in the
// order of `relations`; empty where pg_buffercache cannot be read.
struct CacheSnapshot {
    std::vector<const RecordedRelation*> relations;
    std::vector<std::vector<std::uint32_t>> blocks;

    // The blocks of `relation` in the snapshot; none where it is not one of `relations`.
    const std::vector<std::uint32_t>& blocksOf(const RecordedRelation& relation) const;
};
CacheSnapshot takeSnapshot(BufferCache& buffers, const std::vector<const RecordedRelation*>& relations);

// Brings the relations' buffers back to `snapshot` where the server can evict. Whether they are
// back; `why` says what the server refused.
bool restoreSnapshot(BufferCache& buffers, const CacheSnapshot& snapshot, QString& why);

// "recorded"'s "cached_at_start": the snapshot of the modelled scan's `table`, as ranges, or where
// the cache state comes from when there is none.
QJsonObject cachedAtStartJson(const CacheSnapshot& snapshot, const RecordedRelation& table, bool buffersRead,
                              bool observed);

// --prewarm's spec of `table`'s snapshot: "none", or a list written to the work directory.
QString prewarmSpec(const CacheSnapshot& snapshot, const RecordedRelation& table, const HeldDirectory& work);
// --prewarm for a plan's visits (docs/plan-runs.md): each relation's blocks in the snapshot from its
// first block of the plan's block space, written to the work directory; "none" where it holds none.
QString planPrewarmSpec(const CacheSnapshot& snapshot,
                        const std::vector<std::pair<const RecordedRelation*, std::uint64_t>>& relations,
                        const HeldDirectory& work);

} // namespace la
