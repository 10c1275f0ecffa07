// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace la {

struct ReadRequest {
    std::uint32_t ioId = 0;
    std::uint32_t firstBlock = 0;
    std::uint32_t nblocks = 0;
    bool advice = false;      // posix_fadvise(WILLNEED) now (synchronous reads only)
    bool synchronous = false; // performed inside wait(), by the consumer, as io_method=sync and PG17 do
};

struct ReadOutcome {
    bool blocked = false;       // the consumer really had to wait
    std::int64_t waitNs = 0;    // how long it waited
    std::int64_t latencyNs = 0; // from submission (or from the wait, if synchronous) to completion
};

// A read failed or returned wrong data. The message names the file, block and offset.
class IoError : public std::runtime_error {
public:
    explicit IoError(const std::string& what) : std::runtime_error(what) {}
};

// Where reads go and where time comes from: the simulated device (virtual clock) or a real file
// (real clock). The stream calls it from the consumer's thread only.
class IoBackend {
public:
    virtual ~IoBackend() = default;
    virtual std::int64_t now() = 0;
    // Asynchronous requests are submitted now; synchronous ones only issue their advice.
    virtual void start(const ReadRequest& request) = 0;
    // Returns once read `ioId` is complete. One stream waits for its reads in submission order; the
    // streams of a plan run share the backend, and one may wait for its read before another's older one.
    virtual ReadOutcome wait(std::uint32_t ioId) = 0;
    // The consumer spends `ns` of CPU on one block.
    virtual void consume(std::int64_t ns) = 0;
    // Reads issued so far that reached the device, and their bytes.
    virtual std::uint64_t deviceReads() const = 0;
    virtual std::uint64_t deviceBytes() const = 0;
};

} // namespace la
