// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace la {

class BufferPool;

// Which blocks are in shared buffers before the run: "none", "all", "every:K" (b % K == 0),
// "except-every:K" (all but b % K == 0), "fraction:P:SEED" (a seeded P of the blocks),
// "list:FILE" (one block per line), "misses:PCT:SPACING" (PCT % of the blocks not cached, laid out
// even, in runs:L of L misses, or random[:SEED]; docs/sweeps.md "The cache state of a cell").
class PrewarmSpec {
public:
    // Throws InputError naming the spec (or the file and line) on anything malformed.
    static PrewarmSpec parse(const std::string& spec);

    bool contains(std::uint32_t block) const;
    // How many blocks of a relation of `relationBlocks` the spec makes resident.
    std::uint64_t count(std::uint64_t relationBlocks) const;
    // Loads the spec's blocks, lowest first, until the pool is full; returns how many were loaded.
    // `leftOut` (if given) tells whether a block the spec wants found no room.
    std::uint64_t apply(BufferPool& pool, std::uint64_t relationBlocks, bool* leftOut = nullptr) const;
    const std::string& text() const { return m_text; }

private:
    enum class Kind { None, All, Every, ExceptEvery, Fraction, List, Misses };
    static void parseMisses(const std::string& rest, PrewarmSpec& result);
    bool missing(std::uint32_t block) const;
    Kind m_kind = Kind::None;
    std::uint64_t m_k = 1;
    double m_fraction = 0.0;
    std::uint64_t m_seed = 0;
    std::uint64_t m_run = 1;           // Misses: blocks per run of misses (1 = evenly spread)
    bool m_randomMisses = false;       // Misses: each block missing with probability m_fraction
    std::vector<std::uint32_t> m_list; // sorted, unique
    std::string m_text = "none";
};

} // namespace la
