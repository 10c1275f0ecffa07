// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs one read stream over an in-memory block list on the simulated device and keeps its trace,
// so tests can check PostgreSQL's behaviour event by event.

#include "buffer_pool.h"
#include "prewarm.h"
#include "read_stream.h"
#include "registry.h"
#include "reset_every_source.h"
#include "scan_loop.h"
#include "sim_device.h"
#include "summary.h"
#include "tracer.h"
#include "vector_source.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace la::test {

// Blocks 0 .. n-1, in order.
inline std::vector<std::uint32_t> firstBlocks(std::uint32_t n) {
    std::vector<std::uint32_t> blocks(n);
    for (std::uint32_t i = 0; i < n; ++i)
        blocks[i] = i;
    return blocks;
}

// Blocks n-1 .. 0: a backward scan.
inline std::vector<std::uint32_t> lastBlocksFirst(std::uint32_t n) {
    std::vector<std::uint32_t> blocks = firstBlocks(n);
    std::reverse(blocks.begin(), blocks.end());
    return blocks;
}

class TraceRecorder final : public EventSink {
public:
    void onEvents(std::span<const Event> batch) override {
        events.insert(events.end(), batch.begin(), batch.end());
    }
    std::vector<Event> events;

    // The blocks handed to the consumer, in its order.
    std::vector<std::uint32_t> consumedBlocks() const {
        return fieldOf<std::uint32_t>(EventKind::Consumed, &Event::block);
    }

    // The size in blocks of each read started, in order.
    std::vector<int> readSizes() const { return fieldOf<int>(EventKind::ReadStarted, &Event::nblocks); }
    // Read-ahead distance right after each completed read.
    std::vector<int> distanceAfterReads() const {
        std::vector<int> out;
        for (std::size_t i = 0; i < events.size(); ++i) {
            if (events[i].kind != EventKind::ReadCompleted)
                continue;
            int d = events[i].distance;
            if (i + 1 < events.size() && events[i + 1].kind == EventKind::DistanceChanged)
                d = events[i + 1].distance;
            out.push_back(d);
        }
        return out;
    }

private:
    // `field` of each event of `kind`, in order.
    template <typename T, typename Field> std::vector<T> fieldOf(EventKind kind, Field Event::*field) const {
        std::vector<T> values;
        for (const Event& e : events)
            if (e.kind == kind)
                values.push_back(static_cast<T>(e.*field));
        return values;
    }
};

struct StreamRun {
    std::string policy = "pg18";
    std::string mechanics; // empty = the policy's own
    StreamConfig stream;
    std::string prewarm = "none";
    SimDeviceConfig device;
    std::int64_t consumerNs = 10'000;
    std::uint64_t resetEvery = 0;
    std::uint64_t relationBlocks = 0;
    std::uint64_t poolBlocks = 0; // 0 = the whole relation
    // Called after every buffer handed out, with the stream as it is then.
    std::function<void(const ReadStream&)> afterEach;

    RunSummary summary;
    TraceRecorder trace;

    void run(std::vector<std::uint32_t> blocks) {
        auto vector = std::make_unique<VectorSource>(std::move(blocks), relationBlocks);
        const std::uint64_t relation = vector->relationBlocks();
        std::unique_ptr<BlockSource> source = std::move(vector);
        if (resetEvery > 0)
            source = std::make_unique<ResetEverySource>(std::move(source), resetEvery);
        std::unique_ptr<DistancePolicy> p = makePolicy(policy);
        BufferPool pool(poolBlocks ? poolBlocks : relation + 1, relation);
        PrewarmSpec::parse(prewarm).apply(pool, relation);
        SimDevice io(device);
        Tracer tracer;
        SummaryBuilder builder;
        tracer.addSink(&trace);
        ReadStream stream(this->stream, *p, mechanicsFor(policy, mechanics), pool, io, *source, tracer,
                          &builder);
        stream.countExplainIo(summary.explainIo);
        consumeStream(stream, consumerNs, nullptr, [&](const ReadStream& handedOut, std::uint64_t) {
            if (afterEach)
                afterEach(handedOut);
        });
        tracer.flush();
        builder.finish(summary);
        summary.deviceReads = io.deviceReads();
        summary.bytesRead = io.deviceBytes();
    }
};

} // namespace la::test
