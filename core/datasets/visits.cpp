// SPDX-License-Identifier: GPL-3.0-or-later
#include "visits.h"

#include "vector_source.h"

#include <algorithm>
#include <utility>

namespace la {

std::unique_ptr<BlockSource> makeVisitSource(Visits visits, Direction direction) {
    if (direction == Direction::Backward)
        std::reverse(visits.blocks.begin(), visits.blocks.end());
    return std::make_unique<VectorSource>(std::move(visits.blocks), visits.relationBlocks);
}

} // namespace la
