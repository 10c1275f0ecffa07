// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace la {

// SplitMix64's finaliser: a strong 64-bit mixer, for keyed hashes of an index.
inline std::uint64_t mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// A seeded pseudo-random permutation of [0, size) evaluated point by point in O(1) memory, so a
// 100M-block random scan never materialises its list. A balanced Feistel network on the smallest
// even-bit domain covering `size` is a bijection there; cycle-walking (re-encrypting until the value
// falls below `size`) restricts it to a bijection on [0, size), with fewer than 4 steps on average.
class KeyedPermutation {
public:
    KeyedPermutation(std::uint64_t size, std::uint64_t seed);

    // The element at `index` (< size).
    std::uint64_t operator()(std::uint64_t index) const;
    // Replaces each index (< size) by its element, as operator() would: many at once, so that the
    // independent encryptions overlap in the CPU instead of waiting on each other.
    void map(std::span<std::uint64_t> indices) const;
    std::uint64_t size() const { return m_size; }

private:
    // Tabled: the rounds are looked up in m_roundTables rather than computed.
    template <bool Tabled> std::uint64_t encrypt(std::uint64_t value) const;
    template <bool Tabled> std::uint64_t walk(std::uint64_t index) const;
    template <bool Tabled> void mapAll(std::span<std::uint64_t> indices) const;

    std::uint64_t m_size;
    unsigned m_halfBits;
    std::uint64_t m_halfMask;
    std::array<std::uint64_t, 4> m_roundKeys{};
    // A round's function depends only on the half-width `right`, so for a small half (a relation
    // of up to 2^24 blocks) each round is a table of 2^halfBits entries, at most 32 kB for all four:
    // one load instead of a 64-bit mix with two multiplications. Empty for larger relations.
    std::vector<std::uint16_t> m_roundTables; // round i's entry for `right` at [i << halfBits | right]
};

} // namespace la
