// SPDX-License-Identifier: GPL-3.0-or-later
#include "patterns.h"

#include "keyed_permutation.h"
#include "splitmix64.h"

#include <algorithm>
#include <array>
#include <span>
#include <utility>
#include <vector>

namespace la {

namespace {

class SequentialSource final : public BlockSource {
public:
    SequentialSource(std::uint64_t blocks, Direction direction) : m_blocks(blocks), m_direction(direction) {}

    SourceItem next() override {
        if (m_position == m_blocks)
            return {};
        const std::uint64_t block =
            m_direction == Direction::Forward ? m_position : m_blocks - 1 - m_position;
        ++m_position;
        return {SourceStep::Block, static_cast<std::uint32_t>(block)};
    }
    std::uint64_t length() const override { return m_blocks; }
    std::uint64_t relationBlocks() const override { return m_blocks; }
    void rewind() override { m_position = 0; }

private:
    std::uint64_t m_blocks;
    Direction m_direction;
    std::uint64_t m_position = 0;
};

class RandomSource final : public BlockSource {
public:
    RandomSource(std::uint64_t blocks, std::uint64_t seed, Direction direction)
        : m_permutation(blocks, seed), m_direction(direction) {}

    SourceItem next() override {
        if (m_next == m_ready) {
            refill();
            if (m_ready == 0)
                return {};
        }
        return {SourceStep::Block, static_cast<std::uint32_t>(m_batch[m_next++])};
    }
    std::uint64_t length() const override { return m_permutation.size(); }
    std::uint64_t relationBlocks() const override { return m_permutation.size(); }
    void rewind() override {
        m_position = 0;
        m_next = m_ready = 0;
    }

private:
    // The permutation is evaluated a batch ahead: a batch's encryptions are independent, and the
    // CPU overlaps them far better than one per call between the stream's work.
    void refill() {
        const std::uint64_t blocks = m_permutation.size();
        m_ready = static_cast<std::size_t>(std::min<std::uint64_t>(m_batch.size(), blocks - m_position));
        m_next = 0;
        for (std::size_t i = 0; i < m_ready; ++i, ++m_position)
            m_batch[i] = m_direction == Direction::Forward ? m_position : blocks - 1 - m_position;
        m_permutation.map(std::span(m_batch.data(), m_ready));
    }

    KeyedPermutation m_permutation;
    Direction m_direction;
    std::uint64_t m_position = 0; // indices handed to the batch so far
    std::array<std::uint64_t, 64> m_batch{};
    std::size_t m_next = 0, m_ready = 0;
};

constexpr std::uint64_t kHashRowsPerPage = 20;
constexpr std::uint64_t kSmallestGroup = 8;
constexpr std::uint64_t kGroupSizes = 9; // 8..16 rows

// One key's rows: consecutive heap rows [start, start + rows).
struct Group {
    std::uint64_t start;
    std::uint64_t rows;
};

// The heap is tiled back to back with groups (every row belongs to some key, as in a real table
// clustered on hash(key)), sizes 8..16 from a keyed hash of the group number so that any group's
// size is known without storing the tiling. The scan takes groups in a seeded random order (the hash
// order of the key range) until it has `blocks` TIDs. A tiled group starts anywhere in a page, so it
// covers 2 blocks with probability (size-1)/20, and picked groups that are heap neighbours share a
// block. At 65,536 blocks that gives 8,117 distinct blocks on average over seeds (sd ~35), 0.7% under
// the 8,173 of docs/read-stream-model.md §13; the catalog's default seed lands at 8,180.
std::vector<Group> chooseHashGroups(std::uint64_t blocks, std::uint64_t seed) {
    SplitMix64 rng(seed);
    const std::uint64_t sizeKey = rng.next();
    const auto sizeOf = [sizeKey](std::uint64_t group) {
        return kSmallestGroup + mix64(group ^ sizeKey) % kGroupSizes;
    };
    const std::uint64_t heapRows = blocks * kHashRowsPerPage;
    std::uint64_t groupCount = 0;
    std::uint64_t lastStart = 0;
    for (std::uint64_t row = 0; row < heapRows; row += sizeOf(groupCount++))
        lastStart = row;
    // The table's last group is cut short at the heap's end.
    const auto rowsOf = [&](std::uint64_t group) {
        return group + 1 == groupCount ? heapRows - lastStart : sizeOf(group);
    };
    const KeyedPermutation order(groupCount, rng.next());

    // Pick groups in scan order until the scan holds `blocks` TIDs.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> picked; // (group, scan position)
    for (std::uint64_t tids = 0; tids < blocks;) {
        const std::uint64_t group = order(picked.size());
        picked.emplace_back(group, picked.size());
        tids += rowsOf(group);
    }
    std::sort(picked.begin(), picked.end());

    // One sweep of the tiling gives each picked group its start.
    std::vector<Group> groups(picked.size());
    std::uint64_t start = 0;
    std::uint64_t group = 0;
    for (const auto& [wanted, position] : picked) {
        for (; group < wanted; ++group)
            start += sizeOf(group);
        groups[position] = {start, rowsOf(group)};
    }
    return groups;
}

class HashGroupsSource final : public BlockSource {
public:
    HashGroupsSource(std::uint64_t blocks, std::uint64_t seed, Direction direction)
        : m_groups(chooseHashGroups(blocks, seed)), m_blocks(blocks), m_direction(direction) {
        for (const Group& group : m_groups)
            m_length += group.rows;
    }

    SourceItem next() override {
        if (m_group == m_groups.size())
            return {};
        const bool forward = m_direction == Direction::Forward;
        const Group& group = m_groups[forward ? m_group : m_groups.size() - 1 - m_group];
        const std::uint64_t row = group.start + (forward ? m_row : group.rows - 1 - m_row);
        if (++m_row == group.rows) {
            m_row = 0;
            ++m_group;
        }
        return {SourceStep::Block, static_cast<std::uint32_t>(row / kHashRowsPerPage)};
    }
    std::uint64_t length() const override { return m_length; }
    std::uint64_t relationBlocks() const override { return m_blocks; }
    void rewind() override { m_group = m_row = 0; }

private:
    std::vector<Group> m_groups; // in forward scan order
    std::uint64_t m_blocks;
    Direction m_direction;
    std::uint64_t m_length = 0;
    std::size_t m_group = 0;
    std::uint64_t m_row = 0;
};

} // namespace

std::unique_ptr<BlockSource> makeSequentialPattern(std::uint64_t blocks, Direction direction) {
    return std::make_unique<SequentialSource>(blocks, direction);
}

std::unique_ptr<BlockSource> makeRandomPattern(std::uint64_t blocks, std::uint64_t seed,
                                               Direction direction) {
    return std::make_unique<RandomSource>(blocks, seed, direction);
}

std::unique_ptr<BlockSource> makeHashGroupsPattern(std::uint64_t blocks, std::uint64_t seed,
                                                   Direction direction) {
    return std::make_unique<HashGroupsSource>(blocks, seed, direction);
}

} // namespace la
