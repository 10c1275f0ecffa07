// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep/sweep_results.h"

#include "repeat_stats.h"

#include "checked_math.h"
#include "experiment/summary_json.h"
#include "memory_budget.h"
#include "repeat_stats.h"

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace la {

namespace {

double figure(const SweepFigures& f, double value) {
    return f.done && f.error.empty() ? value : std::numeric_limits<double>::quiet_NaN();
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string numberField(double value) {
    if (std::isnan(value))
        return {};
    char text[40];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

// A count as the digits it has, however large (%g would write a million as 1e+06).
std::string wholeField(double value) {
    if (std::isnan(value))
        return {};
    char text[40];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

} // namespace

std::string fileSafeName(std::string text) {
    for (char& c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.')
            c = '_';
    return text;
}

SweepFigures figuresOf(const RunSummary& run) {
    SweepFigures f;
    f.done = !run.cancelled;
    for (std::size_t i = 0; i < kSweepFigureCount; ++i)
        f.values[i] = figureNumber(summaryFieldNamed(sweepFigureTable()[i].field), run);
    for (const RunSummary& repeat : run.repeats)
        f.repeatRuntimesNs.push_back(repeat.runtimeNs);
    f.error = run.error;
    return f;
}

double SweepFigures::value(std::string_view field) const {
    for (std::size_t i = 0; i < kSweepFigureCount; ++i)
        if (sweepFigureTable()[i].field == field)
            return values[i];
    throw std::logic_error("a sweep keeps no figure '" + std::string(field) + "'");
}

SweepFigures figuresOf(const QJsonObject& run) {
    return figuresOf(runSummaryOf(run));
}

double SweepResults::slowdown(std::uint64_t cell, std::size_t policy) const {
    const SweepFigures& run = at(cell, policy);
    const SweepFigures& base = at(cell, spec.policies.size());
    const double baseNs = base.value("runtime_ns");
    if (!run.done || !base.done || !run.error.empty() || !base.error.empty() || !(baseNs > 0))
        return std::numeric_limits<double>::quiet_NaN();
    return run.value("runtime_ns") / baseNs;
}

bool SweepResults::withinNoise(std::uint64_t cell, std::size_t policy) const {
    const SweepFigures& run = at(cell, policy);
    const SweepFigures& base = at(cell, spec.policies.size());
    if (run.repeatRuntimesNs.size() < 2 || base.repeatRuntimesNs.size() < 2)
        return false;
    const auto seconds = [](const std::vector<std::int64_t>& times) {
        return std::vector<double>(times.begin(), times.end());
    };
    return rankTestP(seconds(run.repeatRuntimesNs), seconds(base.repeatRuntimesNs)) >= kRepeatTestLevel;
}

bool SweepResults::complete() const {
    for (const SweepFigures& run : runs)
        if (!run.done)
            return false;
    return true;
}

void requireSweepMemory(const SweepSpec& spec, std::uint64_t moreBytesPerRun) {
    const std::uint64_t cells = spec.cells();
    const std::uint64_t runs = cells * (spec.policies.size() + 1); // loadSweepSpec() checked it fits
    std::uint64_t bytes = 0;
    if (!checkedMul<std::uint64_t>(runs, sizeof(SweepFigures) + moreBytesPerRun, bytes) ||
        !checkedAdd<std::uint64_t>(bytes, cells * sizeof(std::string), bytes))
        bytes = std::numeric_limits<std::uint64_t>::max();
    requireMemory(bytes, "the results of " + std::to_string(runs) + " sweep runs",
                  "sweep fewer cells (fewer values on an axis), or split the spec into several");
}

bool prepareResults(SweepResults& results, const std::atomic<bool>* cancel,
                    const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
    requireSweepMemory(results.spec);
    const std::uint64_t cells = results.spec.cells();
    const std::uint64_t runs = cells * results.runsPerCell(); // loadSweepSpec() checked it fits
    results.baselines.clear();
    results.baselines.reserve(cells);
    auto last = std::chrono::steady_clock::now();
    for (std::uint64_t cell = 0; cell < cells; ++cell) {
        if (cell % 1024 == 0) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return false;
            if (progress && std::chrono::steady_clock::now() - last > std::chrono::milliseconds(200)) {
                last = std::chrono::steady_clock::now();
                progress(cell, cells);
            }
        }
        results.baselines.push_back(results.spec.baselinePolicy(results.spec.checkedCellConfig(cell)));
    }
    results.runs.assign(runs, SweepFigures{});
    return true;
}

const std::vector<SweepMetric>& sweepMetrics() {
    using R = const SweepResults&;
    static const std::vector<SweepMetric> metrics = [] {
        std::vector<SweepMetric> list{{"slowdown", "slowdown vs fixed:max_pinned (\u00d7)",
                                       [](R r, std::uint64_t c, std::size_t p) { return r.slowdown(c, p); }}};
        for (std::size_t i = 0; i < kSweepFigureCount; ++i) {
            const SweepFigure& kept = sweepFigureTable()[i];
            if (kept.mapped)
                list.push_back(
                    {kept.column, kept.title, [i, scale = kept.scale](R r, std::uint64_t c, std::size_t p) {
                         return figure(r.at(c, p), r.at(c, p).values[i] * scale);
                     }});
        }
        return list;
    }();
    return metrics;
}

const SweepMetric* findSweepMetric(std::string_view key) {
    for (const SweepMetric& metric : sweepMetrics())
        if (metric.key == key)
            return &metric;
    return nullptr;
}

namespace {

// Whether a policy's run time differs from the baseline's beyond the noise of their repeats: empty
// where that cannot be judged (one run each, or the baseline's own row).
std::string noiseField(const SweepResults& results, std::uint64_t cell, std::size_t policy) {
    const SweepFigures& run = results.at(cell, policy);
    const SweepFigures& base = results.at(cell, results.spec.policies.size());
    if (run.repeatRuntimesNs.size() < 2 || base.repeatRuntimesNs.size() < 2)
        return {};
    return results.withinNoise(cell, policy) ? "within noise" : "beyond noise";
}

} // namespace

std::string sweepCsv(const SweepResults& results) {
    const SweepSpec& spec = results.spec;
    std::string csv = "cell";
    for (const SweepAxis& axis : spec.axes) {
        csv += ',';
        csv += csvField(axis.option);
    }
    csv += ",policy,baseline";
    for (const SweepMetric& metric : sweepMetrics()) {
        csv += ',';
        csv.append(metric.key);
    }
    csv += ",vs_baseline";
    for (const SweepFigure& kept : sweepFigureTable())
        if (!kept.mapped) {
            csv += ',';
            csv.append(kept.column);
        }
    csv += ",error\n";
    for (std::uint64_t cell = 0; cell < spec.cells(); ++cell) {
        const std::vector<std::size_t> at = spec.coordinates(cell);
        for (std::size_t p = 0; p < spec.policies.size(); ++p) {
            const SweepFigures& run = results.at(cell, p);
            csv += std::to_string(cell);
            for (std::size_t a = 0; a < spec.axes.size(); ++a) {
                csv += ',';
                csv += csvField(spec.axes[a].values[at[a]]);
            }
            csv += ',';
            csv += csvField(spec.policies[p].label());
            csv += ',';
            csv += results.baselines[cell];
            for (const SweepMetric& metric : sweepMetrics()) {
                csv += ',';
                csv += numberField(metric.value(results, cell, p));
            }
            csv += ',';
            csv += noiseField(results, cell, p);
            for (std::size_t i = 0; i < kSweepFigureCount; ++i)
                if (!sweepFigureTable()[i].mapped) {
                    csv += ',';
                    csv += wholeField(run.values[i] * sweepFigureTable()[i].scale);
                }
            csv += ',';
            csv += csvField(!run.error.empty() ? run.error : results.at(cell, spec.policies.size()).error);
            csv += '\n';
        }
    }
    return csv;
}

} // namespace la
