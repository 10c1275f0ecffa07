// SPDX-License-Identifier: GPL-3.0-or-later
#include "plan_run.h"

#include "read_stream.h"
#include "registry.h"
#include "scan_loop.h"

#include <deque>
#include <memory>

namespace la {

namespace {

constexpr std::uint64_t kProgressEvery = 1 << 14;

// One stream of the plan with what it owns: its visits and its policy's state.
struct PlanStream {
    PlanStream(const PlanSource& plan, std::size_t index, const PlanBackend& backend, SummaryBuilder& summary)
        : source(plan.streamSource(index)), policy(makePolicy(backend.policy)),
          stream(configOf(backend.stream, index, plan.streams()), *policy, backend.mechanics, backend.pool,
                 backend.device, *source, backend.tracer, &summary) {}

    static StreamConfig configOf(StreamConfig config, std::size_t index, std::size_t streams) {
        config.streamIndex = static_cast<std::uint8_t>(index);
        config.streams = static_cast<std::uint8_t>(streams);
        return config;
    }

    std::unique_ptr<BlockSource> source;
    std::unique_ptr<DistancePolicy> policy;
    ReadStream stream;
};

} // namespace

bool readPlanStreams(const PlanSource& plan, const PlanBackend& backend, const RunCallbacks& callbacks,
                     std::deque<SummaryBuilder>& summaries) {
    // Deques: a read stream stays where it was built (its policy and summary are referred to).
    std::deque<PlanStream> planStreams;
    summaries.clear();
    for (std::size_t i = 0; i < plan.streams(); ++i)
        planStreams.emplace_back(plan, i, backend, summaries.emplace_back(backend.collapseWindow));
    const auto cancelled = [&] {
        return callbacks.cancel != nullptr && callbacks.cancel->load(std::memory_order_relaxed);
    };
    std::uint64_t done = 0;
    bool finished = true;
    for (const StreamTurn& turn : plan.turns()) {
        ReadStream& stream = planStreams[turn.stream].stream;
        // The backend's pin limit counts every stream's pins, and the buffer each consumer holds.
        int others = backend.stream.otherPins;
        for (std::size_t i = 0; i < planStreams.size(); ++i)
            if (i != turn.stream)
                others += planStreams[i].stream.heldPins();
        stream.setOtherPins(others);
        for (std::uint64_t taken = 0; taken < turn.buffers;) {
            if (cancelled()) {
                finished = false;
                break;
            }
            std::uint32_t block = 0;
            if (!stream.nextBuffer(block)) {
                if (!stream.resetRequested())
                    break; // cannot be: a turn takes the stream's own blocks
                stream.reset();
                continue;
            }
            ++taken;
            stream.consume(backend.consumerNs);
            if (++done % kProgressEvery == 0 && callbacks.progress)
                callbacks.progress(done, plan.length());
        }
        if (!finished)
            break;
    }
    // Each stream to its end: resets after its last block, and its end of stream.
    for (PlanStream& planStream : planStreams)
        if (finished && !consumeStream(planStream.stream, backend.consumerNs, callbacks.cancel,
                                       [](const ReadStream&, std::uint64_t) {}))
            finished = false;
    return finished;
}

} // namespace la
