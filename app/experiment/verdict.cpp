// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/verdict.h"

#include "experiment/import_summary.h"
#include "experiment/reconciliation.h"
#include "figure_text.h"
#include "registry.h"
#include "repeat_stats.h"
#include "run_options.h"
#include "summary_fields.h"

#include <QJsonObject>
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

// A run as the verdict judges it: its summary, and its figures that vary over its repeats worked out
// once.
struct Judged {
    explicit Judged(const RunSummary& summary) : run(summary), varying(repeatedFigures(summary)) {}
    const RunSummary& run;
    RepeatedFigures varying;

    const std::vector<double>& repeats(std::string_view name) const { return varying.named(name).values; }
    double median(std::string_view name) const { return varying.named(name).spread.median; }
};

// Whether both runs are on the simulated device, whose runs are deterministic (docs/repeats.md).
bool simulated(const RunSummary& a, const RunSummary& b) {
    return a.ioMethodUsed == "sim" && b.ioMethodUsed == "sim";
}

// Whether the figure `name`, which varies with real I/O, differs between A and B beyond its noise: by
// the rank test over their repeats, or by more than a single run's noise when they ran once.
bool beyondNoise(std::string_view name, const Judged& a, const Judged& b) {
    if (simulated(a.run, b.run))
        return true;
    const std::vector<double>&x = a.repeats(name), &y = b.repeats(name);
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
std::vector<Difference> largestDifferences(const Judged& judgedA, const Judged& judgedB) {
    const RunSummary &a = judgedA.run, &b = judgedB.run;
    // Waits vary with real I/O's timing: named only beyond their noise, and for repeated runs as
    // their medians, the figure the summary table shows too.
    const bool waitsDiffer = beyondNoise("waits", judgedA, judgedB);
    const bool repeated = a.repeats.size() > 1 || b.repeats.size() > 1;
    const auto waitsText = [](const RunSummary& run) {
        return run.repeats.size() > 1 ? medianText(run, "waits") : count(run.waits);
    };
    const Difference candidates[] = {
        {QStringLiteral("%1 → %2 reads").arg(count(a.ios), count(b.ios)),
         factorOf(static_cast<double>(a.ios), static_cast<double>(b.ios))},
        {repeated ? QStringLiteral("median waits %1 → %2").arg(waitsText(a), waitsText(b))
                  : QStringLiteral("%1 → %2 waits").arg(waitsText(a), waitsText(b)),
         waitsDiffer ? factorOf(judgedA.median("waits"), judgedB.median("waits")) : 1.0},
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
QString realSpeed(const Judged& a, const Judged& b) {
    const std::vector<double>&x = a.repeats("runtime_ns"), &y = b.repeats("runtime_ns");
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

QString speed(const Judged& judgedA, const Judged& judgedB) {
    const RunSummary &a = judgedA.run, &b = judgedB.run;
    if (a.runtimeNs <= 0 || b.runtimeNs <= 0)
        return {};
    if (simulated(a, b))
        return simulatedSpeed(static_cast<double>(a.runtimeNs) / static_cast<double>(b.runtimeNs));
    return realSpeed(judgedA, judgedB);
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

// The share of its time a run waited for I/O.
// A repeated run's share is of its medians, as the summary table shows them.
double waitedShare(const Judged& run) {
    const double runtime = run.median("runtime_ns");
    return runtime > 0 ? std::clamp(run.median("wait_ns") / runtime, 0.0, 1.0) : 0.0;
}

// What held a run back: "I/O-bound (waited 41 % of the time)" or "consumer-bound (waited 2 %)".
QString limitingFactor(const Judged& judged) {
    const double waited = waitedShare(judged);
    if (waited < kIoBoundShare)
        return QStringLiteral("consumer-bound (waited %1)").arg(percent(waited));
    QString text = QStringLiteral("I/O-bound (waited %1 of the time").arg(percent(waited));
    // The collapse is why a PostgreSQL user looks: the stream did not look ahead.
    const RunSummary& run = judged.run;
    if (!run.collapseIntervals.empty() && run.fracDistanceLe2 >= 0.1)
        text += QStringLiteral(", distance ≤ 2 for %1 of blocks").arg(percent(run.fracDistanceLe2));
    return text + QLatin1Char(')');
}

// What limited the observed run, from its trace's waits: unknown where the trace has none.
QString observedLimit(const Judged& observed) {
    if (observed.run.waitsUnknown)
        return QStringLiteral("its limit not known (the trace shows none of its waits)");
    if (observed.run.waitTimeUnknown)
        return QStringLiteral("its limit not known (its waits' time is not in the trace or EXPLAIN)");
    return limitingFactor(observed);
}

// A model's reads above its misses: reads that joined one of its reads already in flight for the same
// block (a block visited again within the look-ahead), which moved no data and which PostgreSQL counts
// as hits; said, since a read per miss is what one expects.
QString readsAboveMisses(const RunSummary& model) {
    if (model.ios <= model.misses)
        return {};
    const std::uint64_t above = model.ios - model.misses;
    const std::uint64_t joined = model.ios > model.deviceReads ? model.ios - model.deviceReads : 0;
    if (joined >= above)
        return QStringLiteral(
                   "%1 reads above its misses joined a read of the same block already in flight "
                   "(visited again within the look-ahead): no I/O, and PostgreSQL counts them as hits")
            .arg(count(above));
    return QStringLiteral("%1 reads above its misses (%2 of them joined a read already in flight)")
        .arg(count(above), count(joined));
}

// The settings that bound the runs, on both sides: the server's, which a recording passed to the model
// (so the model's are the server's), or the model's own. A PostgreSQL before 17 has no read stream.
QString settingsThatBound(const Experiment& experiment, const Judged& judgedModel,
                          const RunSummary& observed) {
    const RunSummary& model = judgedModel.run;
    const RunVariant& variant = experiment.runs.back();
    const RunConfig& c = variant.config;
    const QJsonObject server = experiment.recorded.value(QStringLiteral("server")).toObject();
    const bool recorded = !server.isEmpty();
    const int major = server.value(QStringLiteral("server_version_num")).toInt() / 10000;
    QStringList parts;
    if (recorded && major > 0 && major < 17)
        parts << QStringLiteral("PostgreSQL %1 has no read stream: one 8 kB read per miss, each waited for%2")
                     .arg(major)
                     .arg(observed.ios > 0 ? QStringLiteral(" (%1 reads of %2 blocks)")
                                                 .arg(count(observed.ios), count(observed.blocks))
                                           : QString());
    else if (recorded && major >= 18)
        parts << QStringLiteral("the server's io_method = %1")
                     .arg(server.value(QStringLiteral("io_method")).toString());
    const QString whose = recorded ? QStringLiteral("the server's") : QStringLiteral("the model's");
    StreamLimits limits;
    try {
        limits = computeLimits(streamConfigFor(c), mechanicsFor(variant.policy, c.mechanics));
    } catch (const std::exception&) {
        return parts.join(QStringLiteral("; "));
    }
    const bool ioBound = waitedShare(judgedModel) >= kIoBoundShare;
    const double inFlight = model.explainIo.ioCount > 0 ? model.explainIo.ioInProgressAvg() : 0.0;
    const QString eic =
        QStringLiteral("%1%2 effective_io_concurrency = %3")
            .arg(recorded && major < 17 ? QStringLiteral("the model took ") : QString(), whose)
            .arg(c.stream.effectiveIoConcurrency);
    if (ioBound && limits.maxIos > 0 && inFlight >= 0.8 * limits.maxIos)
        parts << eic + QStringLiteral(", which bounds the model: at most %1 read%2 in flight (%3 on average)")
                           .arg(limits.maxIos)
                           .arg(limits.maxIos == 1 ? QString() : QStringLiteral("s"))
                           .arg(inFlight, 0, 'f', 2);
    else
        parts << eic + QStringLiteral(" (not reached: %1 reads in flight on average, at most %2)")
                           .arg(inFlight, 0, 'f', 2)
                           .arg(limits.maxIos);
    const double meanRead = figureNumber(summaryFieldNamed("mean_read_blocks"), model);
    if (limits.ioCombineLimit > 1 && meanRead >= 0.8 * limits.ioCombineLimit)
        parts << QStringLiteral("%1 io_combine_limit = %2 bounds its reads (%3 blocks on average)")
                     .arg(whose)
                     .arg(limits.ioCombineLimit)
                     .arg(meanRead, 0, 'f', 2);
    return parts.join(QStringLiteral("; "));
}

// The verdict of an observed run beside its model: the figures, what limited each, what bound them.
QString observedRunVerdict(const Experiment& experiment, const std::vector<RunSummary>& summaries) {
    const std::vector<RunVariant>& runs = experiment.runs;
    RunSummary model = summaries[1];
    model.policy = runs[1].policy;
    const Judged judgedModel(model);
    QStringList modelNotes{limitingFactor(judgedModel)};
    if (const QString above = readsAboveMisses(model); !above.isEmpty())
        modelNotes << above;
    QString text =
        observedVerdict(summaries[0], model, whyTimeIsNotCompared(runs[1]),
                        observedLimit(Judged(summaries[0])), modelNotes.join(QStringLiteral(", ")));
    if (const QString bound = settingsThatBound(experiment, judgedModel, summaries[0]); !bound.isEmpty())
        text += QStringLiteral("; limits: ") + bound;
    return text;
}

} // namespace

QString verdict(const RunSummary& a, const RunSummary& b) {
    const Judged judgedA(a), judgedB(b);
    QStringList parts;
    for (const Difference& difference : largestDifferences(judgedA, judgedB))
        parts << difference.text;
    if (const QString faster = speed(judgedA, judgedB); !faster.isEmpty())
        parts << faster;
    QString text = QStringLiteral("B (%1): ").arg(QString::fromStdString(b.policy));
    text += parts.isEmpty() ? QStringLiteral("no difference") : parts.join(QStringLiteral(", "));
    return text + QStringLiteral("; A %1, B %2").arg(limitingFactor(judgedA), limitingFactor(judgedB));
}

QString variantVerdict(const Experiment& experiment, const std::vector<RunSummary>& summaries) {
    const std::vector<RunVariant>& runs = experiment.runs;
    if (runs.size() != 2 || summaries.size() != 2)
        return {};
    if (runs[0].observed)
        return observedRunVerdict(experiment, summaries);
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

ReconciliationLine reconciliationLine(const std::vector<RunSummary>& summaries) {
    for (const RunSummary& summary : summaries)
        if (!summary.reconciliation.empty())
            return reconciliationLine(summary.reconciliation);
    return {};
}

RunsVerdict runsVerdict(const Experiment& experiment, const std::vector<RunSummary>& summaries) {
    return {reconciliationLine(summaries), variantVerdict(experiment, summaries)};
}

} // namespace la
