// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed_trace.h"
#include "trace_file_key.h"
#include "trace_scanner.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace la {

// The trace importer's second pass (docs/trace-import.md): the chosen relation's reads, waits and
// device work into `trace`, and the names of the listed files.
class ReadCollector final : public TraceVisitor {
public:
    // `listed`: the hashes of the files of `trace.files`, in order. `deviceReadsAreReads`: a kernel
    // capture without calls, whose device reads are the reads.
    ReadCollector(const Selection& selection, ObservedTrace& trace, const std::vector<std::uint64_t>& listed,
                  bool deviceReadsAreReads);

    void read(const TraceLine& line) override;
    void completed(const TraceLine& line) override;
    void waited(const TraceLine& line) override;
    void pageCacheFill(const TraceLine& line) override;
    void deviceRead(const TraceLine& line) override;

    // Where and when the device worked for the relation: its reads (from issue to completion) and
    // the page-cache fills (an instant).
    struct DeviceWork {
        std::int64_t timeNs = 0;
        std::int64_t durationNs = 0;
        std::uint32_t block = 0, end = 0;
    };
    std::vector<DeviceWork>& deviceWork() { return m_deviceWork; }

    // The chosen file's name ("" for fd:N, named by the option).
    const std::string& name() const { return m_name; }
    std::uint64_t shortReads() const { return m_shortReads; }
    std::uint64_t interruptedReads() const { return m_interrupted; }
    std::uint64_t readAheadReads() const { return m_readAhead; }
    std::uint64_t fills() const { return m_fills; }
    std::uint64_t fillBytes() const { return m_fillBytes; }

private:
    // One read of the chosen relation (matched already); a device request's reader is readerOf's.
    void collect(const TraceLine& line, bool deviceRequest);
    // The block layer may issue a buffered read's request from a kernel worker (kblockd, kworker):
    // its reader is the task that put the request's first block into the page cache just before.
    // A request no fill explains (O_DIRECT) is its issuer's.
    std::uint32_t readerOf(std::uint32_t block, std::uint32_t issuer) const;
    // The relation's blocks [first, first + count) that `covered` bytes from the line's offset touch.
    void blocksOf(const TraceLine& line, std::uint64_t covered, std::uint32_t& first, std::uint32_t& count);
    void addDeviceRead(const TraceLine& line, std::uint32_t first, std::uint32_t nblocks);
    DeviceWork deviceWork(const TraceLine& line, std::uint64_t bytes);
    bool matches(const TraceLine& line, bool isRead);
    void nameListed(const TraceLine& line, std::string_view key, std::uint64_t hash);
    // fd:N must not merge different files that the trace tells apart by their paths.
    void requireOneFile(std::string_view relation);
    std::uint32_t processIndex(std::uint32_t pid);

    const Selection& m_selection;
    ObservedTrace& m_trace;
    FileKey m_key;
    std::unordered_map<std::uint64_t, std::size_t> m_listed; // key hash -> index in trace.files
    std::string m_chosenKey, m_name, m_fdRelation;
    std::unordered_map<std::uint32_t, std::uint32_t> m_byIoId;       // CSV reads not yet completed
    std::unordered_map<std::uint32_t, std::uint32_t> m_processIndex; // pid -> index in processes
    std::uint64_t m_shortReads = 0, m_interrupted = 0;
    std::uint64_t m_readAhead = 0, m_fills = 0, m_fillBytes = 0;
    bool m_deviceReadsAreReads = false;
    std::vector<DeviceWork> m_deviceWork;
    struct Filler {
        std::uint32_t end = 0; // past the filled blocks
        std::uint32_t pid = 0;
    };
    std::map<std::uint32_t, Filler>
        m_fillers; // first filled block -> who filled, when device reads are reads
};

} // namespace la
