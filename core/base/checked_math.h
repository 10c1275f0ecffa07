// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "block_size.h"

#include <concepts>
#include <cstdint>
#include <utility>

namespace la {

// Arithmetic on sizes, offsets, counts and times that come from a user's file. Each step either
// gives the exact result or says it has none; nothing wraps, so no impossible value (a read past
// 2^64 bytes, a block past 2^32) can turn into a plausible one. Every parser uses these.

template <std::integral T> [[nodiscard]] constexpr bool checkedAdd(T a, T b, T& out) {
    return !__builtin_add_overflow(a, b, &out);
}

template <std::integral T> [[nodiscard]] constexpr bool checkedSub(T a, T b, T& out) {
    return !__builtin_sub_overflow(a, b, &out);
}

template <std::integral T> [[nodiscard]] constexpr bool checkedMul(T a, T b, T& out) {
    return !__builtin_mul_overflow(a, b, &out);
}

// `value` as a To, if it fits exactly.
template <std::integral To, std::integral From>
[[nodiscard]] constexpr bool checkedCast(From value, To& out) {
    if (!std::in_range<To>(value))
        return false;
    out = static_cast<To>(value);
    return true;
}

// The blocks [first, end) that `bytes` bytes at byte `offset` touch, partial blocks included;
// false if the range passes 2^64 bytes or block 2^32 (beyond any relation) or is empty.
[[nodiscard]] constexpr bool blockSpan(std::uint64_t offset, std::uint64_t bytes, std::uint32_t& first,
                                       std::uint32_t& end) {
    std::uint64_t last = 0;
    if (bytes == 0 || !checkedAdd(offset, bytes - 1, last))
        return false;
    return checkedCast(offset / kBlockSize, first) && checkedCast(last / kBlockSize + 1, end);
}

// Byte offset of `block`, and of `count` blocks; false past 2^64 bytes.
[[nodiscard]] constexpr bool blockBytes(std::uint64_t blocks, std::uint64_t& bytes) {
    return checkedMul<std::uint64_t>(blocks, kBlockSize, bytes);
}

} // namespace la
