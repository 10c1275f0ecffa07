// SPDX-License-Identifier: GPL-3.0-or-later
#include "keyed_permutation.h"

#include "splitmix64.h"

#include <algorithm>
#include <bit>

namespace la {

KeyedPermutation::KeyedPermutation(std::uint64_t size, std::uint64_t seed) : m_size(size) {
    const unsigned bits = size > 1 ? static_cast<unsigned>(std::bit_width(size - 1)) : 1;
    m_halfBits = std::max(1U, (bits + 1) / 2);
    m_halfMask = (1ULL << m_halfBits) - 1; // m_halfBits <= 32
    SplitMix64 rng(seed);
    for (auto& key : m_roundKeys)
        key = rng.next();
}

std::uint64_t KeyedPermutation::encrypt(std::uint64_t value) const {
    std::uint64_t left = value >> m_halfBits;
    std::uint64_t right = value & m_halfMask;
    for (const std::uint64_t key : m_roundKeys) {
        const std::uint64_t mixed = left ^ (mix64(right ^ key) & m_halfMask);
        left = right;
        right = mixed;
    }
    return (left << m_halfBits) | right;
}

std::uint64_t KeyedPermutation::operator()(std::uint64_t index) const {
    std::uint64_t value = encrypt(index);
    while (value >= m_size)
        value = encrypt(value);
    return value;
}

void KeyedPermutation::map(std::span<std::uint64_t> indices) const {
    // One branch-free pass first; only the values outside [0, size) walk the cycle further.
    for (std::uint64_t& value : indices)
        value = encrypt(value);
    for (std::uint64_t& value : indices)
        while (value >= m_size)
            value = encrypt(value);
}

} // namespace la
