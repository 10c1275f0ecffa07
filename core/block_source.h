// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>

namespace la {

enum class SourceStep : std::uint8_t { Block, Reset, End };

struct SourceItem {
    SourceStep step = SourceStep::End;
    std::uint32_t block = 0;
};

// The stream's callback: block numbers in the order the consumer wants them, produced lazily so
// that a 100 M-block scan holds no more than the generator needs. A Reset item asks the consumer to
// drain the stream and call reset before continuing (index-scan style rescans).
class BlockSource {
public:
    virtual ~BlockSource() = default;
    virtual SourceItem next() = 0;
    // Number of Block items a full pass yields (for progress and summaries).
    virtual std::uint64_t length() const = 0;
    // Size of the relation the blocks live in: every block is < relationBlocks().
    virtual std::uint64_t relationBlocks() const = 0;
    // Start again from the first item (A/B comparisons replay the same sequence).
    virtual void rewind() = 0;
};

} // namespace la
