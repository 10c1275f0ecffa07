// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"
#include "summary_fields.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace la {

// The statistics of repeated runs (docs/repeats.md): a figure's spread over the repeats, which repeat
// is the median one, and whether two runs' repeats differ beyond their noise.

// The spread of a figure over the repeats: quartiles interpolated linearly between the sorted values
// (the rule of R's default and NumPy's), so that five values give min, 2nd, 3rd, 4th and max.
struct Spread {
    double min = 0.0, q1 = 0.0, median = 0.0, q3 = 0.0, max = 0.0;
};
// Of the values that are numbers (NaN left out); all zero when none is.
Spread spreadOf(std::vector<double> values);

// The figure's value in each repeat of `run`, in the order they ran (its one value for a run that ran
// once); NaN where a repeat does not have it (figureNumber()).
std::vector<double> repeatFigures(const SummaryField& field, const RunSummary& run);
// The median of the figure `name` over the repeats of `run` (its value for a run that went once).
double medianFigure(const RunSummary& run, std::string_view name);

// A figure that varies from one repeat to the next (kVaries) of one run: its value in each repeat, as
// repeatFigures() gives them, and their spread.
struct RepeatedFigure {
    const SummaryField* field = nullptr;
    std::vector<double> values;
    Spread spread;
};
// Every varying figure of a run, in the table's order, worked out once for the run: what the verdict
// compares and the summary JSON keeps of its repeats.
struct RepeatedFigures {
    std::vector<RepeatedFigure> figures;
    // The figure called `name`; throws std::logic_error for one the table does not mark as varying.
    const RepeatedFigure& named(std::string_view name) const;
};
RepeatedFigures repeatedFigures(const RunSummary& run);
// How many times `run` went: its repeats, or 1.
std::size_t repeatCount(const RunSummary& run);

// The repeat whose run time is the median (the lower one of an even count; the first of equals).
std::size_t medianRepeat(const std::vector<RunSummary>& repeats);

// The level at which repeated runs differ beyond their noise: the rank test's two-sided p under it.
inline constexpr double kRepeatTestLevel = 0.05;

// The two-sided p value of the Mann–Whitney rank test that `a` and `b` come from one distribution:
// exact for up to 20 values a side without ties, else the normal approximation with the correction
// for ties and continuity. 1 when either side is empty.
double rankTestP(const std::vector<double>& a, const std::vector<double>& b);
// The smallest p the exact test can give with m and n values: 2 / C(m + n, m). Fewer repeats than
// make it fall under the test's level cannot show any difference.
double smallestRankTestP(std::size_t m, std::size_t n);

// The ratio of `a` to `b` (positive values, run times) as the median of every pairwise ratio a_i / b_j
// (the Hodges–Lehmann estimate on the log scale), and its interval at confidence 1 - alpha: the
// pairwise ratios the rank test's critical value picks. It excludes 1 exactly when the test at
// level alpha finds a difference.
struct RatioEstimate {
    double ratio = 1.0, low = 1.0, high = 1.0;
};
RatioEstimate ratioEstimate(const std::vector<double>& a, const std::vector<double>& b, double alpha);

} // namespace la
