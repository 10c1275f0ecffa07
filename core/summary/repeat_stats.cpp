// SPDX-License-Identifier: GPL-3.0-or-later
#include "repeat_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace la {

namespace {

// Up to this many values a side the rank test counts its exact distribution (a table of 20·20·400).
constexpr std::size_t kExactMost = 20;

// The value at fraction `at` (0..1) of sorted `values`, interpolated between its neighbours.
double quantile(const std::vector<double>& sorted, double at) {
    const double position = at * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (sorted[above] - sorted[below]) * (position - static_cast<double>(below));
}

// How many orderings of m + n distinct values give each U (0..m·n), U counting the pairs in which
// an a is above a b: the last value is an a (above all n b's) or a b.
std::vector<double> exactCounts(std::size_t m, std::size_t n) {
    // ways[i][j]: the counts for i a's and j b's, of length i·j + 1.
    std::vector<std::vector<std::vector<double>>> ways(m + 1, std::vector<std::vector<double>>(n + 1));
    for (std::size_t i = 0; i <= m; ++i)
        for (std::size_t j = 0; j <= n; ++j) {
            std::vector<double>& here = ways[i][j];
            here.assign(i * j + 1, 0.0);
            if (i == 0 || j == 0) {
                here[0] = 1.0;
                continue;
            }
            for (std::size_t u = 0; u < here.size(); ++u) {
                if (u >= j && u - j < ways[i - 1][j].size())
                    here[u] += ways[i - 1][j][u - j];
                if (u < ways[i][j - 1].size())
                    here[u] += ways[i][j - 1][u];
            }
        }
    return ways[m][n];
}

// The share of orderings with U at most `u`.
double exactAtMost(const std::vector<double>& counts, double u) {
    const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
    double below = 0.0;
    for (std::size_t k = 0; k < counts.size() && static_cast<double>(k) <= u + 1e-9; ++k)
        below += counts[k];
    return below / total;
}

// U with ties counted half, and the sum of t³ - t over the groups of tied values (for the variance).
struct RankCounts {
    double u = 0.0;
    double tieTerm = 0.0;
    bool ties = false;
};

RankCounts rankCounts(const std::vector<double>& a, const std::vector<double>& b) {
    RankCounts counts;
    for (double x : a)
        for (double y : b)
            counts.u += x > y ? 1.0 : x == y ? 0.5 : 0.0;
    std::vector<double> all(a);
    all.insert(all.end(), b.begin(), b.end());
    std::sort(all.begin(), all.end());
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j] == all[i])
            ++j;
        const double t = static_cast<double>(j - i);
        counts.tieTerm += t * t * t - t;
        counts.ties = counts.ties || t > 1;
        i = j;
    }
    return counts;
}

double normalSigma(std::size_t m, std::size_t n, double tieTerm) {
    const double mn = static_cast<double>(m * n);
    const double total = static_cast<double>(m + n);
    return std::sqrt(mn / 12.0 * ((total + 1.0) - tieTerm / (total * (total - 1.0))));
}

// The z with two-sided tail `alpha`: erfc(z / √2) = alpha, by bisection (alpha is a setting, not data).
double zFor(double alpha) {
    double low = 0.0, high = 10.0;
    for (int i = 0; i < 100; ++i) {
        const double mid = (low + high) / 2.0;
        (std::erfc(mid / std::sqrt(2.0)) > alpha ? low : high) = mid;
    }
    return low;
}

// The largest c with P(U <= c) <= alpha / 2 (-1 when even U = 0 is likelier than that).
long criticalU(std::size_t m, std::size_t n, double alpha) {
    if (m <= kExactMost && n <= kExactMost) {
        const std::vector<double> counts = exactCounts(m, n);
        long c = -1;
        while (static_cast<std::size_t>(c + 1) < counts.size() &&
               exactAtMost(counts, static_cast<double>(c + 1)) <= alpha / 2.0)
            ++c;
        return c;
    }
    const double mu = static_cast<double>(m * n) / 2.0;
    return static_cast<long>(std::floor(mu - 0.5 - zFor(alpha) * normalSigma(m, n, 0.0)));
}

std::vector<double> numbers(const std::vector<double>& values) {
    std::vector<double> kept;
    std::copy_if(values.begin(), values.end(), std::back_inserter(kept),
                 [](double v) { return !std::isnan(v); });
    return kept;
}

} // namespace

Spread spreadOf(std::vector<double> values) {
    values = numbers(values);
    if (values.empty())
        return {};
    std::sort(values.begin(), values.end());
    return {values.front(), quantile(values, 0.25), quantile(values, 0.5), quantile(values, 0.75),
            values.back()};
}

std::size_t repeatCount(const RunSummary& run) {
    return run.repeats.empty() ? 1 : run.repeats.size();
}

std::vector<double> repeatFigures(const SummaryField& field, const RunSummary& run) {
    if (run.repeats.empty())
        return {figureNumber(field, run)};
    std::vector<double> values;
    for (const RunSummary& repeat : run.repeats)
        values.push_back(figureNumber(field, repeat));
    return values;
}

double medianFigure(const RunSummary& run, std::string_view name) {
    return spreadOf(repeatFigures(summaryFieldNamed(name), run)).median;
}

RepeatedFigures repeatedFigures(const RunSummary& run) {
    RepeatedFigures made;
    for (const SummaryField& field : summaryFieldTable()) {
        if (!field.has(kVaries))
            continue;
        std::vector<double> values = repeatFigures(field, run);
        const Spread spread = spreadOf(values);
        made.figures.push_back({&field, std::move(values), spread});
    }
    return made;
}

const RepeatedFigure& RepeatedFigures::named(std::string_view name) const {
    for (const RepeatedFigure& figure : figures)
        if (figure.field->name == name)
            return figure;
    throw std::logic_error("summary figure '" + std::string(name) + "' does not vary with its repeats");
}

std::size_t medianRepeat(const std::vector<RunSummary>& repeats) {
    if (repeats.empty())
        return 0;
    std::vector<std::size_t> order(repeats.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&repeats](std::size_t x, std::size_t y) {
        return repeats[x].runtimeNs < repeats[y].runtimeNs;
    });
    return order[(order.size() - 1) / 2];
}

double rankTestP(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.empty() || b.empty())
        return 1.0;
    const RankCounts counts = rankCounts(a, b);
    if (!counts.ties && a.size() <= kExactMost && b.size() <= kExactMost) {
        const std::vector<double> exact = exactCounts(a.size(), b.size());
        const double mn = static_cast<double>(a.size() * b.size());
        const double tail = std::min(exactAtMost(exact, counts.u), exactAtMost(exact, mn - counts.u));
        return std::min(1.0, 2.0 * tail);
    }
    const double sigma = normalSigma(a.size(), b.size(), counts.tieTerm);
    if (!(sigma > 0.0))
        return 1.0; // every value the same
    const double mu = static_cast<double>(a.size() * b.size()) / 2.0;
    const double z = std::max(0.0, std::abs(counts.u - mu) - 0.5) / sigma;
    return std::min(1.0, std::erfc(z / std::sqrt(2.0)));
}

double smallestRankTestP(std::size_t m, std::size_t n) {
    // C(m + n, m) as a product: exact enough for any count of repeats.
    double ways = 1.0;
    for (std::size_t k = 1; k <= m; ++k)
        ways = ways * static_cast<double>(n + k) / static_cast<double>(k);
    return std::min(1.0, 2.0 / ways);
}

RatioEstimate ratioEstimate(const std::vector<double>& a, const std::vector<double>& b, double alpha) {
    std::vector<double> logs;
    std::size_t m = 0, n = 0;
    for (double x : a)
        m += x > 0.0 ? 1 : 0;
    for (double y : b)
        n += y > 0.0 ? 1 : 0;
    for (double x : a)
        for (double y : b)
            if (x > 0.0 && y > 0.0)
                logs.push_back(std::log(x) - std::log(y));
    if (logs.empty())
        return {};
    std::sort(logs.begin(), logs.end());
    const std::size_t size = logs.size();
    const double middle = size % 2 ? logs[size / 2] : (logs[size / 2 - 1] + logs[size / 2]) / 2.0;
    // The (c+1)-th smallest and largest: with c = -1 (too few repeats for any confidence) all of them.
    const long c = std::clamp<long>(criticalU(m, n, alpha), 0, static_cast<long>((size - 1) / 2));
    const auto lowIndex = static_cast<std::size_t>(c);
    return {std::exp(middle), std::exp(logs[lowIndex]), std::exp(logs[size - 1 - lowIndex])};
}

} // namespace la
