// SPDX-License-Identifier: GPL-3.0-or-later
#include "read_collector.h"

#include "block_size.h"
#include "checked_math.h"
#include "input_error.h"
#include "io/segment_path.h"

#include <algorithm>

namespace la {

namespace {

// Reads of a trace without times are laid out this far apart, in their order.
constexpr std::int64_t kUntimedSpacingNs = 1000;
// Page-cache fills remembered for telling who a device read was for: a request follows its fills
// closely, so a bound that is cleared when reached loses at most the reader of a few requests.
constexpr std::size_t kMaxFillers = std::size_t{1} << 16;

} // namespace

ReadCollector::ReadCollector(const Selection& selection, ObservedTrace& trace,
                             const std::vector<std::uint64_t>& listed, bool deviceReadsAreReads)
    : m_selection(selection), m_trace(trace), m_deviceReadsAreReads(deviceReadsAreReads) {
    for (std::size_t i = 0; i < listed.size(); ++i)
        m_listed.emplace(listed[i], i);
}

void ReadCollector::read(const TraceLine& line) {
    if (matches(line, true))
        collect(line, false);
}

void ReadCollector::collect(const TraceLine& line, bool deviceRequest) {
    if (line.failed) {
        ++m_trace.failedReads;
        return;
    }
    if (line.interrupted)
        ++m_interrupted;
    if (line.readAhead)
        ++m_readAhead;
    const std::uint64_t covered = coveredBytes(line);
    if (covered < line.bytes)
        ++m_shortReads;
    if (covered == 0)
        return; // nothing read (end of file)
    std::uint32_t firstBlock = 0, nblocks = 0;
    blocksOf(line, covered, firstBlock, nblocks);
    if (line.offset % kBlockSize != 0 || covered % kBlockSize != 0)
        ++m_trace.unalignedReads;
    ObservedRead read;
    read.block = firstBlock;
    read.nblocks = nblocks;
    read.durationNs = std::max<std::int64_t>(line.durationNs, 0);
    if (line.hasTime) {
        read.startNs = line.timeNs;
    } else {
        m_trace.hasTimes = false;
        read.startNs = static_cast<std::int64_t>(m_trace.reads.size()) * kUntimedSpacingNs;
    }
    if (line.durationNs >= 0)
        m_trace.hasDurations = true;
    read.process = processIndex(deviceRequest ? readerOf(firstBlock, line.pid) : line.pid);
    read.readAhead = line.readAhead;
    if (m_trace.format == TraceFormat::LookaheadCsv)
        m_byIoId[line.ioId] = static_cast<std::uint32_t>(m_trace.reads.size());
    m_trace.reads.push_back(read);
}

void ReadCollector::completed(const TraceLine& line) {
    if (!matches(line, false))
        return;
    const auto found = m_byIoId.find(line.ioId);
    if (found == m_byIoId.end())
        return;
    ObservedRead& read = m_trace.reads[found->second];
    // Both times are within kMaxTraceTimeNs: no overflow; an absurd gap is a day at most.
    read.durationNs = std::clamp<std::int64_t>(line.timeNs - read.startNs, 0, kMaxReadDurationNs);
    m_trace.hasDurations = true;
    m_byIoId.erase(found);
}

void ReadCollector::waited(const TraceLine& line) {
    if (!matches(line, false))
        return;
    const auto found = m_byIoId.find(line.ioId);
    if (found != m_byIoId.end())
        m_trace.waits.push_back({line.timeNs, found->second});
}

void ReadCollector::pageCacheFill(const TraceLine& line) {
    if (!matches(line, false))
        return;
    ++m_fills;
    m_fillBytes += line.bytes; // each at most 4 GiB (kernel_capture_format.h): 2^32 fills before a wrap
    if (!m_deviceReadsAreReads) {
        m_deviceWork.push_back(deviceWork(line, line.bytes));
        return;
    }
    std::uint32_t first = 0, nblocks = 0;
    blocksOf(line, line.bytes, first, nblocks);
    if (m_fillers.size() >= kMaxFillers)
        m_fillers.clear();
    m_fillers[first] = Filler{first + nblocks, line.pid};
}

std::uint32_t ReadCollector::readerOf(std::uint32_t block, std::uint32_t issuer) const {
    auto found = m_fillers.upper_bound(block);
    if (found == m_fillers.begin())
        return issuer;
    --found;
    return found->second.end > block ? found->second.pid : issuer;
}

void ReadCollector::deviceRead(const TraceLine& line) {
    if (m_deviceReadsAreReads) {
        if (!matches(line, true))
            return;
        const std::size_t before = m_trace.reads.size();
        collect(line, true);
        if (m_trace.reads.size() > before)
            addDeviceRead(line, m_trace.reads.back().block, m_trace.reads.back().nblocks);
        return;
    }
    if (!matches(line, false))
        return;
    if (line.readAhead)
        ++m_readAhead;
    std::uint32_t first = 0, nblocks = 0;
    blocksOf(line, line.bytes, first, nblocks);
    addDeviceRead(line, first, nblocks);
    m_deviceWork.push_back(deviceWork(line, line.bytes));
}

void ReadCollector::blocksOf(const TraceLine& line, std::uint64_t covered, std::uint32_t& first,
                             std::uint32_t& count) {
    const std::uint32_t segment = line.path.empty() ? 0 : splitSegment(line.path).segment;
    std::uint32_t inFirst = 0, inEnd = 0;
    std::uint64_t base = 0, firstBlock = 0, endBlock = 0;
    if (!blockSpan(line.offset, covered, inFirst, inEnd) ||
        !checkedMul<std::uint64_t>(segment, kBlocksPerSegment, base) ||
        !checkedAdd<std::uint64_t>(base, inFirst, firstBlock) ||
        !checkedAdd<std::uint64_t>(base, inEnd, endBlock) || endBlock > UINT32_MAX)
        throw InputError("a read at byte " + std::to_string(line.offset) + " of segment " +
                         std::to_string(segment) + " of " + quotedName(m_name) +
                         " is past block 2^32, beyond any relation");
    first = static_cast<std::uint32_t>(firstBlock);
    count = static_cast<std::uint32_t>(endBlock - firstBlock);
}

void ReadCollector::addDeviceRead(const TraceLine& line, std::uint32_t first, std::uint32_t nblocks) {
    m_trace.deviceReads.push_back(
        {line.timeNs, std::max<std::int64_t>(line.durationNs, 0), first, nblocks, line.readAhead});
}

ReadCollector::DeviceWork ReadCollector::deviceWork(const TraceLine& line, std::uint64_t bytes) {
    std::uint32_t first = 0, nblocks = 0;
    blocksOf(line, bytes, first, nblocks);
    // Both within kMaxTraceTimeNs and kMaxReadDurationNs: no overflow; a fill has no duration.
    return {line.timeNs, std::max<std::int64_t>(line.durationNs, 0), first, first + nblocks};
}

bool ReadCollector::matches(const TraceLine& line, bool isRead) {
    const std::string_view key = m_key.of(line);
    const std::uint64_t hash = hashOf(key);
    if (isRead)
        nameListed(line, key, hash);
    if (m_selection.byFd) {
        if (line.fd != m_selection.fd)
            return false;
        if (!line.path.empty())
            requireOneFile(key);
        return true;
    }
    if (hash != m_selection.hash)
        return false;
    if (m_chosenKey.empty()) { // the first read: from here on the key itself must match
        m_chosenKey.assign(key);
        m_name = displayName(line, key);
    }
    return key == m_chosenKey;
}

void ReadCollector::nameListed(const TraceLine& line, std::string_view key, std::uint64_t hash) {
    const auto found = m_listed.find(hash);
    if (found != m_listed.end() && m_trace.files[found->second].name.empty())
        m_trace.files[found->second].name = displayName(line, key);
}

void ReadCollector::requireOneFile(std::string_view relation) {
    if (m_fdRelation.empty())
        m_fdRelation.assign(relation);
    else if (relation != m_fdRelation)
        throw InputError("--trace-relation fd:" + std::to_string(m_selection.fd) +
                         ": that descriptor reads different files in this trace (" +
                         quotedName(m_fdRelation) + " and " + quotedName(std::string(relation)) +
                         "); choose one with --trace-relation PATH");
}

std::uint32_t ReadCollector::processIndex(std::uint32_t pid) {
    const auto [it, inserted] =
        m_processIndex.try_emplace(pid, static_cast<std::uint32_t>(m_trace.processes.size()));
    if (inserted)
        m_trace.processes.push_back(pid);
    return it->second;
}

} // namespace la
