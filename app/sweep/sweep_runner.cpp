// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep/sweep_runner.h"

#include "experiment/runner.h"

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

RunConfig sweepRunConfig(const SweepSpec& spec, RunConfig cellConfig, const std::string& baseline,
                         std::size_t policy) {
    if (policy < spec.policies.size()) {
        cellConfig.policy = spec.policies[policy].policy;
        cellConfig.mechanics = spec.policies[policy].mechanics;
    } else {
        cellConfig.policy = baseline;
    }
    return cellConfig;
}

RunConfig sweepRunConfig(const SweepResults& results, std::uint64_t cell, std::size_t policy) {
    return sweepRunConfig(results.spec, results.spec.cellConfig(cell), results.baselines[cell], policy);
}

SweepResults runSweep(const SweepSpec& spec, int jobs, const std::atomic<bool>* cancel,
                      const std::function<void(const SweepProgress&)>& progress) {
    SweepResults results;
    results.spec = spec;
    auto start = std::chrono::steady_clock::now();
    const auto seconds = [&start] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    if (!prepareResults(results, cancel, [&](std::uint64_t checked, std::uint64_t cells) {
            if (progress)
                progress({checked, cells, seconds(), true});
        })) {
        results.cancelled = true;
        return results;
    }
    start = std::chrono::steady_clock::now(); // the ETA is the runs' pace, not the set-up's
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
            Experiment experiment = makeExperiment(sweepRunConfig(results, cell, policy), Comparison::None);
            ExperimentCallbacks callbacks;
            callbacks.cancel = cancel;
            ExperimentOutputs outputs;
            outputs.provenance = false; // a cell's figures need none
            SweepFigures figures;
            try {
                const ExperimentResult result = runExperiment(experiment, outputs, callbacks);
                if (!result.summaries.empty()) // none if cancelled before it started
                    figures = figuresOf(result.summaries.front());
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

    std::vector<std::thread> threads;
    for (int i = 0; i < jobs; ++i)
        threads.emplace_back(work);
    {
        std::unique_lock lock(mutex);
        while (!finished.wait_for(lock, std::chrono::milliseconds(200), [&] { return running == 0; })) {
            lock.unlock();
            if (progress)
                progress({done.load(), total, seconds()});
            lock.lock();
        }
    }
    for (std::thread& thread : threads)
        thread.join();
    if (progress)
        progress({done.load(), total, seconds()});
    results.cancelled = stopped() && !results.complete();
    return results;
}

} // namespace la
