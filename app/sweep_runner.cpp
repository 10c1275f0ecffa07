// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep_runner.h"

#include "summary_json.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace la {

double SweepProgress::etaSeconds() const {
    if (done == 0)
        return -1.0;
    return elapsedSeconds / static_cast<double>(done) * static_cast<double>(total - done);
}

RunConfig sweepRunConfig(const SweepResults& results, std::uint64_t cell, std::size_t policy) {
    RunConfig config = results.spec.cellConfig(cell);
    if (policy < results.spec.policies.size()) {
        config.policy = results.spec.policies[policy].policy;
        config.mechanics = results.spec.policies[policy].mechanics;
    } else {
        config.policy = results.baselines[cell];
    }
    return config;
}

SweepResults runSweep(const SweepSpec& spec, int jobs, const std::atomic<bool>* cancel,
                      const std::function<void(const SweepProgress&)>& progress) {
    SweepResults results;
    results.spec = spec;
    prepareResults(results);
    const std::uint64_t total = results.runs.size();
    if (jobs <= 0)
        jobs = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));

    std::atomic<std::uint64_t> next{0};
    std::atomic<std::uint64_t> done{0};
    std::mutex mutex;
    std::condition_variable finished;
    int running = jobs;
    const auto stopped = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    const auto work = [&] {
        for (std::uint64_t index = next++; index < total && !stopped(); index = next++) {
            const std::uint64_t cell = index / results.runsPerCell();
            const std::size_t policy = index % results.runsPerCell();
            const RunConfig config = sweepRunConfig(results, cell, policy);
            RunCallbacks callbacks;
            callbacks.cancel = cancel;
            SweepFigures figures;
            try {
                figures = figuresOf(runSummaryObject(runScan(config, config.policy, callbacks)));
            } catch (const std::exception& error) {
                figures.done = true;
                figures.error = error.what();
            }
            if (figures.done)
                results.runs[index] = std::move(figures); // each index is written by one thread only
            ++done;
        }
        const std::lock_guard lock(mutex);
        --running;
        finished.notify_all();
    };

    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int i = 0; i < jobs; ++i)
        threads.emplace_back(work);
    {
        std::unique_lock lock(mutex);
        while (!finished.wait_for(lock, std::chrono::milliseconds(200), [&] { return running == 0; })) {
            lock.unlock();
            if (progress)
                progress({done.load(), total,
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
            lock.lock();
        }
    }
    for (std::thread& thread : threads)
        thread.join();
    if (progress)
        progress({done.load(), total,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
    results.cancelled = stopped() && !results.complete();
    return results;
}

} // namespace la
