// SPDX-License-Identifier: GPL-3.0-or-later
#include "stable_order.h"

#include <algorithm>

namespace la {

std::vector<std::uint32_t> stableOrder(const std::vector<double>& keys) {
    const std::size_t n = keys.size();
    std::vector<std::uint32_t> order(n);
    if (n == 0)
        return order;
    const auto [low, high] = std::minmax_element(keys.begin(), keys.end());
    const double lowest = *low;
    const double perBucket = *high > lowest ? static_cast<double>(n) / (*high - lowest) : 0.0;
    const auto bucketOf = [&](double key) {
        return std::min(n - 1, static_cast<std::size_t>((key - lowest) * perBucket));
    };

    // Counting sort into n buckets; filling in index order keeps equal keys in index order.
    std::vector<std::uint32_t> bucketEnd(n, 0);
    for (const double key : keys)
        ++bucketEnd[bucketOf(key)];
    std::uint32_t total = 0;
    for (auto& end : bucketEnd) {
        const std::uint32_t count = end;
        end = total;
        total += count;
    }
    for (std::size_t i = 0; i < n; ++i)
        order[bucketEnd[bucketOf(keys[i])]++] = static_cast<std::uint32_t>(i);

    const auto byKeyThenIndex = [&](std::uint32_t a, std::uint32_t b) {
        return keys[a] < keys[b] || (keys[a] == keys[b] && a < b);
    };
    std::uint32_t begin = 0;
    for (const std::uint32_t end : bucketEnd) {
        if (end - begin > 1)
            std::sort(order.begin() + begin, order.begin() + end, byKeyThenIndex);
        begin = end;
    }
    return order;
}

} // namespace la
