// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/nearest_name.h"

#include <algorithm>

namespace la {

namespace {

// The optimal string alignment distance: Levenshtein's, with a swap of neighbours as one edit.
std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

std::string nearestName(std::string_view typed, const std::vector<std::string>& names) {
    // A typed word is at most an option name's length plus a few: longer text is no misspelling.
    if (typed.empty() || typed.size() > 64)
        return {};
    std::string best;
    std::size_t bestDistance = std::max<std::size_t>(1, typed.size() / 3) + 1;
    for (const std::string& name : names) {
        const std::size_t distance = editDistance(typed, name);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = name;
        }
    }
    return best;
}

} // namespace la
