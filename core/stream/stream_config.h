// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mechanics.h"

#include <cstdint>

namespace la {

// PostgreSQL's io_method, as far as the distance rules care: sync reads happen in the consumer
// (always a wait); worker and io_uring reads run in the background (a wait only if unfinished).
enum class IoMethod : std::uint8_t { Sync, Worker, IoUring };

// The pins the buffer manager counts as held whether they are or not: its private refcount array's
// entries (REFCOUNT_ARRAY_ENTRIES), which both LimitAdditionalPins (PG17) and GetAdditionalPinLimit
// (PG18+) assume taken (docs/read-stream-model.md §4.4).
constexpr int kRefCountArrayEntries = 8;

struct StreamConfig {
    int effectiveIoConcurrency = 16;   // PostgreSQL 18's default
    int maintenanceIoConcurrency = 16; // max_ios of a READ_STREAM_MAINTENANCE stream (PG18's default)
    int ioCombineLimit = 16;           // blocks (128 kB)
    int maxPinnedOverride = 0;         // 0 = computed by the mechanics' pin-limit rule
    std::uint64_t sharedBuffers = 16384;
    int maxConnections = 100;
    // Buffers the backend holds pinned besides the stream's and its consumer's (another scan's).
    int otherPins = 0;
    IoMethod ioMethod = IoMethod::Worker;
    bool directIo = false; // no advice with O_DIRECT
    // The flags a caller opens the stream with (docs/read-stream-model.md §15.6).
    bool sequentialFlag = false;  // READ_STREAM_SEQUENTIAL: no advice
    bool fullFlag = false;        // READ_STREAM_FULL: start at full distance
    bool maintenanceFlag = false; // READ_STREAM_MAINTENANCE: max_ios from maintenance_io_concurrency
    bool batchingFlag = false;    // READ_STREAM_USE_BATCHING: a look-ahead's reads submitted together
    bool perBufferData = false;   // disables the fast path (Bitmap Heap Scan style)
    bool restoreAfterReset = false;
    // What if descending runs were combined and each read handed back as soon as it completes
    // (docs/mechanics.md, "backward"); CF 7035 itself is the cf7035 mechanics.
    bool backwardCombining = false;
    // The BULKREAD ring the stream reads through (core/stream/buffer_strategy.h), which lets it pin the
    // whole ring at most (GetAccessStrategyPinLimit); 0: no strategy. Chosen by the run, not an option.
    int ringBuffers = 0;
    // In a run of several streams of one backend (docs/plan-runs.md): this stream's place among
    // `streams`. Its events say it, and its read ids are its own (place + 1, then every `streams`-th)
    // on the device the streams share.
    std::uint8_t streamIndex = 0;
    std::uint8_t streams = 1;
};

struct StreamLimits {
    int maxIos = 1;
    int maxPinned = 1;
    int ioCombineLimit = 16;
    bool synchronous = false; // every read is performed by the consumer (sync, PG17, eic 0)
    bool adviceEnabled = false;
    // PG18+: the pins this backend may hold in all (GetPinLimit), checked before every read (§4.4);
    // 0 where the version checks only once, at the start (PG17), or --max-pinned stands for it.
    int backendPinLimit = 0;
};

// max_ios, max_pinned_buffers and advice as each PostgreSQL version derives them
// (docs/read-stream-model.md §3).
StreamLimits computeLimits(const StreamConfig& config, const Mechanics& mechanics);

// PostgreSQL 18+'s GetPinLimit(): shared_buffers over every backend and auxiliary process slot at
// default settings (docs/read-stream-model.md §3.2); may be 0 on a tiny pool.
std::int64_t proportionalPinLimit(const StreamConfig& config);

} // namespace la
