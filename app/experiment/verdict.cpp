// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/verdict.h"

#include "experiment/import_summary.h"
#include "figure_text.h"
#include "repeat_stats.h"
#include "run_options.h"
#include "summary_fields.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace la {

namespace {

// A run that waits for I/O at least this share of its time is limited by I/O, not by its consumer.
constexpr double kIoBoundShare = 0.2;
// Run times within this ratio of each other are "the same speed" (simulator rounding, noise).
constexpr double kSameSpeed = 1.02;
// A difference in counts smaller than this factor is not worth a word.
constexpr double kMatters = 1.05;
// Repeated real-I/O runs differ when the rank test over their repeats says so at this two-sided
// level; the interval of the ratio is at the same confidence (docs/repeats.md).
constexpr double kLevel = kRepeatTestLevel;
// How much one real-I/O run differs from the next on a shared machine (this project's benchmarks:
// 0.72-1.25 s for one fio job): a single run each cannot show a difference smaller than that.
constexpr double kSingleRunNoise = 0.20;
// The repeats the verdict suggests: the fewest whose rank test can show a difference, and one more.
constexpr int kSuggestedRepeats = 5;

double factorOf(double a, double b) {
    // +1 so that 0 against a few is a large but finite difference.
    return (std::max(a, b) + 1.0) / (std::min(a, b) + 1.0);
}

// Whether both runs are on the simulated device, whose runs are deterministic (docs/repeats.md).
bool simulated(const RunSummary& a, const RunSummary& b) {
    return a.ioMethodUsed == "sim" && b.ioMethodUsed == "sim";
}

// Whether a figure that varies with real I/O differs between A and B beyond its noise: by the rank
// test over their repeats, or by more than a single run's noise when they ran once.
bool beyondNoise(const SummaryField& field, const RunSummary& a, const RunSummary& b) {
    if (simulated(a, b) || !field.has(kVaries))
        return true;
    const std::vector<double> x = repeatFigures(field, a), y = repeatFigures(field, b);
    if (x.size() > 1 && y.size() > 1)
        return rankTestP(x, y) < kLevel;
    const double factor = factorOf(x.front(), y.front());
    return factor >= 1.0 + kSingleRunNoise;
}

QString count(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

QString percent(double share) {
    return QStringLiteral("%1 %").arg(share * 100.0, 0, 'f', share < 0.1 && share > 0.0 ? 1 : 0);
}

// One way two runs differ: how to say it, and by what factor (>= 1).
struct Difference {
    QString text;
    double factor = 1.0;
};

// The two largest differences, largest first, leaving out those too small to matter.
std::vector<Difference> largestDifferences(const RunSummary& a, const RunSummary& b) {
    // Waits vary with real I/O's timing: named only beyond their noise, and for repeated runs as
    // their medians, the figure the summary table shows too.
    const bool waitsDiffer = beyondNoise(summaryFieldNamed("waits"), a, b);
    const bool repeated = a.repeats.size() > 1 || b.repeats.size() > 1;
    const auto waits = [](const RunSummary& run) { return medianFigure(run, "waits"); };
    const auto waitsText = [](const RunSummary& run) {
        return run.repeats.size() > 1 ? medianText(run, "waits") : count(run.waits);
    };
    const Difference candidates[] = {
        {QStringLiteral("%1 → %2 reads").arg(count(a.ios), count(b.ios)),
         factorOf(static_cast<double>(a.ios), static_cast<double>(b.ios))},
        {repeated ? QStringLiteral("median waits %1 → %2").arg(waitsText(a), waitsText(b))
                  : QStringLiteral("%1 → %2 waits").arg(waitsText(a), waitsText(b)),
         waitsDiffer ? factorOf(waits(a), waits(b)) : 1.0},
        {QStringLiteral("collapses %1 → %2").arg(a.collapseIntervals.size()).arg(b.collapseIntervals.size()),
         factorOf(static_cast<double>(a.collapseIntervals.size()),
                  static_cast<double>(b.collapseIntervals.size()))},
    };
    std::vector<Difference> found;
    for (const Difference& candidate : candidates)
        if (candidate.factor >= kMatters)
            found.push_back(candidate);
    std::stable_sort(found.begin(), found.end(),
                     [](const Difference& x, const Difference& y) { return x.factor > y.factor; });
    if (found.size() > 2)
        found.resize(2);
    return found;
}

// "1.52× faster" or "1.20× slower" for A's run time over B's; `low` and `high` the interval, if any.
QString ratioText(double ratio, std::optional<std::pair<double, double>> interval = std::nullopt) {
    const bool faster = ratio >= 1.0;
    QString text = faster ? QStringLiteral("%1× faster").arg(ratio, 0, 'f', 2)
                          : QStringLiteral("%1× slower").arg(1.0 / ratio, 0, 'f', 2);
    if (interval) {
        const auto [low, high] = *interval;
        text += faster ? QStringLiteral(" (%1–%2)").arg(low, 0, 'f', 2).arg(high, 0, 'f', 2)
                       : QStringLiteral(" (%1–%2)").arg(1.0 / high, 0, 'f', 2).arg(1.0 / low, 0, 'f', 2);
    }
    return text;
}

// Run times on the simulated device: deterministic, so any difference is one.
QString simulatedSpeed(double ratio) {
    const QString text =
        ratio < kSameSpeed && ratio > 1.0 / kSameSpeed ? QStringLiteral("the same speed") : ratioText(ratio);
    return text + QStringLiteral(" (simulated: deterministic)");
}

// Real I/O's run times against their noise (docs/repeats.md): a single run each is flagged as such,
// too few repeats say so, and otherwise the rank test decides between a ratio with its interval
// and "no difference beyond noise" with how large a difference the repeats could have shown.
QString realSpeed(const RunSummary& a, const RunSummary& b) {
    const SummaryField& runtime = summaryFieldNamed("runtime_ns");
    const std::vector<double> x = repeatFigures(runtime, a), y = repeatFigures(runtime, b);
    if (x.size() == 1 && y.size() == 1)
        return ratioText(x.front() / y.front()) +
               QStringLiteral(" (one run each: differences under %1 % may be noise; use --repeat %2)")
                   .arg(kSingleRunNoise * 100.0, 0, 'f', 0)
                   .arg(kSuggestedRepeats);
    const RatioEstimate estimate = ratioEstimate(x, y, kLevel);
    if (smallestRankTestP(x.size(), y.size()) >= kLevel)
        return QStringLiteral(
                   "median %1, but %2 and %3 runs are too few to tell it from noise (use --repeat %4)")
            .arg(ratioText(estimate.ratio))
            .arg(x.size())
            .arg(y.size())
            .arg(kSuggestedRepeats);
    if (rankTestP(x, y) < kLevel)
        return ratioText(estimate.ratio, std::pair{estimate.low, estimate.high});
    const double noise = std::max(estimate.high - 1.0, 1.0 - estimate.low);
    return QStringLiteral("no difference beyond noise (±%1 %)").arg(std::ceil(noise * 100.0), 0, 'f', 0);
}

QString speed(const RunSummary& a, const RunSummary& b) {
    if (a.runtimeNs <= 0 || b.runtimeNs <= 0)
        return {};
    if (simulated(a, b))
        return simulatedSpeed(static_cast<double>(a.runtimeNs) / static_cast<double>(b.runtimeNs));
    return realSpeed(a, b);
}

// Time means the same on both sides only when the model read the server's own files, or ran on a
// simulated device calibrated to a real one; else why not.
QString whyTimeIsNotCompared(const RunVariant& model) {
    const RunConfig& c = model.config;
    if (c.io != IoMode::Sim)
        return c.fileIsRelation || c.pg.active()
                   ? QString()
                   : QStringLiteral("the model's real I/O read a file of its own, not the server's");
    if (!c.deviceProfile.empty())
        return {};
    return QStringLiteral(
        "the model ran on the simulated device, not calibrated to a real disk (use real I/O on "
        "the server's files, or a device profile from lookahead calibrate)");
}

} // namespace

QString limitingFactor(const RunSummary& run) {
    // A repeated run's share is of its medians, as the summary table shows them.
    const double runtime = medianFigure(run, "runtime_ns");
    const double waited = runtime > 0 ? std::clamp(medianFigure(run, "wait_ns") / runtime, 0.0, 1.0) : 0.0;
    if (waited < kIoBoundShare)
        return QStringLiteral("consumer-bound (waited %1)").arg(percent(waited));
    QString text = QStringLiteral("I/O-bound (waited %1 of the time").arg(percent(waited));
    // The collapse is why a PostgreSQL user looks: the stream did not look ahead.
    if (!run.collapseIntervals.empty() && run.fracDistanceLe2 >= 0.1)
        text += QStringLiteral(", distance ≤ 2 for %1 of blocks").arg(percent(run.fracDistanceLe2));
    return text + QLatin1Char(')');
}

QString verdict(const RunSummary& a, const RunSummary& b) {
    QStringList parts;
    for (const Difference& difference : largestDifferences(a, b))
        parts << difference.text;
    if (const QString faster = speed(a, b); !faster.isEmpty())
        parts << faster;
    QString text = QStringLiteral("B (%1): ").arg(QString::fromStdString(b.policy));
    text += parts.isEmpty() ? QStringLiteral("no difference") : parts.join(QStringLiteral(", "));
    return text + QStringLiteral("; A %1, B %2").arg(limitingFactor(a), limitingFactor(b));
}

QString variantVerdict(const std::vector<RunVariant>& runs, const std::vector<RunSummary>& summaries) {
    if (runs.size() != 2 || summaries.size() != 2)
        return {};
    if (runs[0].observed) {
        RunSummary model = summaries[1];
        model.policy = runs[1].policy;
        // The waits as the front end knows them (EXPLAIN's, where it gave them).
        ObservedSummary observed = summarizeObserved(*runs[0].observed);
        observed.run.waits = summaries[0].waits;
        observed.run.waitsUnknown = summaries[0].waitsUnknown;
        return observedVerdict(observed, model, whyTimeIsNotCompared(runs[1]));
    }
    RunSummary b = summaries[1];
    b.policy = runs[1].label;
    const QString text = verdict(summaries[0], b);
    // An A/B that changes nothing compares a run with itself: say so, not only how they came out.
    if (runs[0].policy == runs[1].policy && runOptionsText(runs[0].config) == runOptionsText(runs[1].config))
        return text +
               QStringLiteral(
                   "; A and B differ in nothing (the same policy and settings): choose what B changes");
    return text;
}

} // namespace la
