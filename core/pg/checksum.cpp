// SPDX-License-Identifier: GPL-3.0-or-later
#include "checksum.h"

#include "block_size.h"

#include <cstring>

namespace la::pg {

namespace {

constexpr std::size_t kSums = 32;
constexpr std::uint32_t kFnvPrime = 16777619;
constexpr std::size_t kChecksumOffset = 8; // pd_checksum within the page header

// The starting state of each sum; part of the on-disk format, so these values are PostgreSQL's.
constexpr std::uint32_t kBaseOffsets[kSums] = {
    0x5B1F36E9, 0xB8525960, 0x02AB50AA, 0x1DE66D2A, 0x79FF467A, 0x9BB9F8A3, 0x217E7CD2, 0x83E13D2C,
    0xF8D4474F, 0xE39EB970, 0x42C6AE16, 0x993216FA, 0x7B093B5D, 0x98DAFF3C, 0xF718902A, 0x0B1C9CDB,
    0xE58F764B, 0x187636BC, 0x5D7B3BB1, 0xE73DE7DE, 0x92BEC979, 0xCCA6C0B2, 0x304A0979, 0x85AA43D4,
    0x783125BB, 0x6CA8EAA2, 0xE407EAC6, 0x4B5CFC3E, 0x9FBF8C76, 0x15CA20BE, 0xF2CA9FD3, 0x959BD756};

inline std::uint32_t step(std::uint32_t sum, std::uint32_t value) {
    const std::uint32_t x = sum ^ value;
    return x * kFnvPrime ^ (x >> 17);
}

} // namespace

std::uint16_t pageChecksum(const std::byte* page, std::uint32_t block) {
    std::uint32_t sums[kSums];
    std::memcpy(sums, kBaseOffsets, sizeof sums);
    constexpr std::size_t rowBytes = kSums * sizeof(std::uint32_t);
    for (std::size_t row = 0; row < kBlockSize; row += rowBytes) {
        std::uint32_t words[kSums];
        std::memcpy(words, page + row, rowBytes); // aliasing-safe; the loop below vectorises
        if (row == 0)
            std::memset(reinterpret_cast<std::byte*>(words) + kChecksumOffset, 0, sizeof(std::uint16_t));
        for (std::size_t j = 0; j < kSums; ++j)
            sums[j] = step(sums[j], words[j]);
    }
    std::uint32_t result = 0;
    for (const std::uint32_t sum : sums)
        result ^= step(step(sum, 0), 0);
    result ^= block;
    return static_cast<std::uint16_t>(result % 65535 + 1);
}

} // namespace la::pg
