// SPDX-License-Identifier: GPL-3.0-or-later
#include "keyed_permutation.h"

#include "splitmix64.h"

#include <algorithm>
#include <bit>

namespace la {

namespace {
constexpr unsigned kLargestTabledHalf = 12;
} // namespace

KeyedPermutation::KeyedPermutation(std::uint64_t size, std::uint64_t seed) : m_size(size) {
    const unsigned bits = size > 1 ? static_cast<unsigned>(std::bit_width(size - 1)) : 1;
    m_halfBits = std::max(1U, (bits + 1) / 2);
    m_halfMask = (1ULL << m_halfBits) - 1; // m_halfBits <= 32
    SplitMix64 rng(seed);
    for (auto& key : m_roundKeys)
        key = rng.next();
    if (m_halfBits > kLargestTabledHalf)
        return;
    m_roundTables.resize(m_roundKeys.size() << m_halfBits);
    for (std::size_t i = 0; i < m_roundKeys.size(); ++i)
        for (std::uint64_t right = 0; right <= m_halfMask; ++right)
            m_roundTables[i << m_halfBits | right] =
                static_cast<std::uint16_t>(mix64(right ^ m_roundKeys[i]) & m_halfMask);
}

template <bool Tabled> std::uint64_t KeyedPermutation::encrypt(std::uint64_t value) const {
    std::uint64_t left = value >> m_halfBits;
    std::uint64_t right = value & m_halfMask;
    for (std::size_t i = 0; i < m_roundKeys.size(); ++i) {
        const std::uint64_t f =
            Tabled ? m_roundTables[i << m_halfBits | right] : mix64(right ^ m_roundKeys[i]) & m_halfMask;
        const std::uint64_t mixed = left ^ f;
        left = right;
        right = mixed;
    }
    return (left << m_halfBits) | right;
}

template <bool Tabled> std::uint64_t KeyedPermutation::walk(std::uint64_t index) const {
    std::uint64_t value = encrypt<Tabled>(index);
    while (value >= m_size)
        value = encrypt<Tabled>(value);
    return value;
}

template <bool Tabled> void KeyedPermutation::mapAll(std::span<std::uint64_t> indices) const {
    // One branch-free pass first; only the values outside [0, size) walk the cycle further.
    for (std::uint64_t& value : indices)
        value = encrypt<Tabled>(value);
    for (std::uint64_t& value : indices)
        while (value >= m_size)
            value = encrypt<Tabled>(value);
}

std::uint64_t KeyedPermutation::operator()(std::uint64_t index) const {
    return m_roundTables.empty() ? walk<false>(index) : walk<true>(index);
}

void KeyedPermutation::map(std::span<std::uint64_t> indices) const {
    if (m_roundTables.empty())
        mapAll<false>(indices);
    else
        mapAll<true>(indices);
}

} // namespace la
