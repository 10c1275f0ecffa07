// SPDX-License-Identifier: GPL-3.0-or-later
#include "scan_target.h"

#include "input_error.h"
#include "io/dataset_file.h"
#include "io/scan_file.h"
#include "io/segment_path.h"
#include "message_text.h"
#include "pg/heap_page.h"
#include "pg/page_header.h"
#include "pg/pg_source.h"
#include "pg/relation_files.h"

namespace la {

namespace {

// Dataset files are named by what decides their pages. A pattern's heap is just N blocks, whatever
// order the pattern visits them in, so every pattern of one size shares one file; so does a
// block list's (or an imported trace's) relation.
std::string fileKey(const RunConfig& config, std::uint64_t blocks) {
    if (!config.blockList.empty() || config.blockSequence)
        return datasetFileKey("blocklist", 1.0, 0, blocks);
    const DatasetInfo& info = findDataset(config.dataset.name);
    if (info.pattern)
        return datasetFileKey("synthetic", 1.0, 0, blocks);
    const double scale = config.dataset.scale > 0.0 ? config.dataset.scale : info.defaultScale;
    return datasetFileKey(info.name, scale, config.dataset.seed, blocks);
}

std::string stampsOf(const std::vector<std::string>& files) {
    std::string text;
    for (const std::string& file : files) {
        const pg::FileStamp stamp = pg::stampOf(file);
        text.append(file)
            .append(" ")
            .append(std::to_string(stamp.bytes))
            .append(" bytes, mtime ")
            .append(std::to_string(stamp.mtimeNs))
            .append("\n");
    }
    return text;
}

// A relation's segment files, read-only, their stamps taken now.
ScanTarget relationTarget(const std::string& path, const std::string& role) {
    const pg::SegmentedRelation relation(path, role);
    ScanTarget target{relation.path(), 0, false, {}, {}, {}};
    for (const pg::Segment& segment : relation.segments())
        target.segments.push_back(segment.path);
    target.stamps = stampsOf(target.segments);
    return target;
}

ScanTarget pgHeapTarget(const RunConfig& config, bool checksums) {
    ScanTarget target = relationTarget(pg::resolvePath(config.pg, config.pg.heap), "--pg-heap");
    // A bad page is bad input, reported as every other (stderr, exit status 2), not a failed read.
    target.pageCheck = [checksums, segments = target.segments](const std::byte* page, std::uint32_t block) {
        if (std::string problem = pg::heapPageProblem(page, block, checksums); !problem.empty())
            throw InputError(
                "--pg-heap " +
                pg::pageWhere(segments[block / kBlocksPerSegment], block % kBlocksPerSegment, block) + ": " +
                problem);
        return std::string();
    };
    return target;
}

} // namespace

std::string scanTargetChanges(const ScanTarget& target) {
    if (target.segments.empty() || stampsOf(target.segments) == target.stamps)
        return {};
    return "the table's files changed during the scan (size or modification time of " + target.path +
           (target.segments.size() > 1 ? " or its segments" : "") +
           "): a running server may be writing them, so the scan's results would not match the files; stop "
           "the server or copy the files after a CHECKPOINT";
}

std::string datasetCacheDir(const RunConfig& config) {
    return config.cacheDir.empty() ? defaultDatasetDir() : config.cacheDir;
}

std::optional<ScanTarget> prepareScanTarget(const RunConfig& config, const BlockSource& source,
                                            const RunCallbacks& callbacks, bool pgChecksums) {
    if (!config.pg.heap.empty())
        return pgHeapTarget(config, pgChecksums);
    if (!config.file.empty() && config.fileIsRelation)
        return relationTarget(config.file, "the traced relation");
    if (!config.file.empty()) {
        const ScanFile file = inspectScanFile(config.file);
        if (file.partialBytes > 0 && callbacks.notice)
            callbacks.notice("ignoring the last " + std::to_string(file.partialBytes) + " bytes of '" +
                             file.path + "' (a partial 8 kB block)");
        // A hole is read as zeros without any device I/O: the plots would show a faster disk.
        if (file.holeBytes > 0 && callbacks.notice)
            callbacks.notice("warning: '" + file.path + "' is sparse: " + byteSize(file.holeBytes) +
                             " of its " + byteSize(file.bytes) +
                             " are holes, which the kernel returns without device I/O, so this scan looks "
                             "faster than a real relation's (write the file out in full, e.g. with cp "
                             "--sparse=never, for a true picture)");
        return ScanTarget{file.path, 0, false, {}, {}, {}};
    }
    const std::string dir = datasetCacheDir(config);
    const std::optional<DatasetFile> file =
        materializeDataset(dir, fileKey(config, source.relationBlocks()), source.relationBlocks(), callbacks);
    if (!file)
        return std::nullopt;
    return ScanTarget{file->path, file->datasetId, true, {}, {}, {}};
}

} // namespace la
