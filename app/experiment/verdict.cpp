// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/verdict.h"

#include "experiment/import_summary.h"
#include "run_options.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <vector>

namespace la {

namespace {

// A run that waits for I/O at least this share of its time is limited by I/O, not by its consumer.
constexpr double kIoBoundShare = 0.2;
// Run times within this ratio of each other are "the same speed" (simulator rounding, noise).
constexpr double kSameSpeed = 1.02;
// A difference in counts smaller than this factor is not worth a word.
constexpr double kMatters = 1.05;

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

double factorOf(double a, double b) {
    // +1 so that 0 against a few is a large but finite difference.
    return (std::max(a, b) + 1.0) / (std::min(a, b) + 1.0);
}

// The two largest differences, largest first, leaving out those too small to matter.
std::vector<Difference> largestDifferences(const RunSummary& a, const RunSummary& b) {
    const Difference candidates[] = {
        {QStringLiteral("%1 → %2 reads").arg(count(a.ios), count(b.ios)),
         factorOf(static_cast<double>(a.ios), static_cast<double>(b.ios))},
        {QStringLiteral("%1 → %2 waits").arg(count(a.waits), count(b.waits)),
         factorOf(static_cast<double>(a.waits), static_cast<double>(b.waits))},
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

QString speed(const RunSummary& a, const RunSummary& b) {
    if (a.runtimeNs <= 0 || b.runtimeNs <= 0)
        return {};
    const double ratio = static_cast<double>(a.runtimeNs) / static_cast<double>(b.runtimeNs);
    if (ratio < kSameSpeed && ratio > 1.0 / kSameSpeed)
        return QStringLiteral("the same speed");
    return ratio >= 1.0 ? QStringLiteral("%1× faster").arg(ratio, 0, 'f', 2)
                        : QStringLiteral("%1× slower").arg(1.0 / ratio, 0, 'f', 2);
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
    const double waited =
        run.runtimeNs > 0
            ? std::clamp(static_cast<double>(run.waitNs) / static_cast<double>(run.runtimeNs), 0.0, 1.0)
            : 0.0;
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
