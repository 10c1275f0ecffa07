// SPDX-License-Identifier: GPL-3.0-or-later
#include "visits.h"

#include "vector_source.h"

#include <algorithm>
#include <utility>

namespace la {

std::unique_ptr<BlockSource> makeVisitSource(Visits visits, Direction direction) {
    if (direction == Direction::Backward) {
        std::reverse(visits.blocks.begin(), visits.blocks.end());
        // A reset before the i-th of n blocks comes after n - i of the reversed ones.
        for (std::uint64_t& place : visits.resetsBefore)
            place = visits.blocks.size() - place;
        std::reverse(visits.resetsBefore.begin(), visits.resetsBefore.end());
    }
    return std::make_unique<VectorSource>(std::move(visits.blocks), visits.relationBlocks,
                                          std::move(visits.resetsBefore));
}

} // namespace la
