// SPDX-License-Identifier: GPL-3.0-or-later
#include "combinable_runs.h"

namespace la {

CombinableRuns combinableDescendingRuns(std::span<const ObservedRead> reads, int combineLimit) {
    CombinableRuns result;
    const auto limit = static_cast<std::uint64_t>(combineLimit > 0 ? combineLimit : 1);
    std::uint64_t length = 0; // of the run that ends at the previous read
    const auto close = [&] {
        if (length >= 2) {
            ++result.runs;
            result.readsSaved += length - (length + limit - 1) / limit;
        }
        length = 0;
    };
    for (std::size_t i = 0; i < reads.size(); ++i) {
        if (reads[i].nblocks != 1) {
            close();
            continue;
        }
        const bool continues = length > 0 && reads[i - 1].block == reads[i].block + 1;
        if (!continues)
            close();
        ++length;
    }
    close();
    return result;
}

} // namespace la
