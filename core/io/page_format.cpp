// SPDX-License-Identifier: GPL-3.0-or-later
#include "page_format.h"

#include "block_size.h"

#include <cstring>

namespace la {

namespace {

constexpr std::size_t kLanes = 32;
constexpr std::uint32_t kFnvPrime = 16777619;

[[gnu::always_inline]] inline std::uint32_t mix(std::uint32_t sum, std::uint32_t value) {
    const std::uint32_t x = sum ^ value;
    return x * kFnvPrime ^ (x >> 17);
}

constexpr std::size_t kRowBytes = kLanes * sizeof(std::uint32_t);

[[gnu::always_inline]] inline void mixRow(std::uint32_t (&sums)[kLanes], const std::byte* row) {
    for (std::size_t j = 0; j < kLanes; ++j) {
        std::uint32_t value;
        std::memcpy(&value, row + j * sizeof value, sizeof value); // aliasing-safe; becomes a vector load
        sums[j] = mix(sums[j], value);
    }
}

// PostgreSQL's page checksum shape (FNV-1a with a shift, 32 independent lanes) because the lanes
// vectorise: verifying every page must cost far less than reading it.
[[gnu::always_inline]] inline std::uint32_t checksumLanes(const std::byte* page) {
    std::uint32_t sums[kLanes];
    for (std::size_t j = 0; j < kLanes; ++j)
        sums[j] = 0x5B1F36E9u + static_cast<std::uint32_t>(j) * 0x9E3779B9u;
    // The first row holds the checksum field itself, which counts as zero.
    std::byte first[kRowBytes];
    std::memcpy(first, page, kRowBytes);
    std::memset(first + offsetof(PageHeader, checksum), 0, sizeof(PageHeader::checksum));
    mixRow(sums, first);
    for (std::size_t offset = kRowBytes; offset < kBlockSize; offset += kRowBytes)
        mixRow(sums, page + offset);
    std::uint32_t result = 0;
    for (const std::uint32_t sum : sums)
        result ^= sum;
    return result;
}

// AVX2 doubles the speed where the CPU has it. Chosen at run time rather than with an ifunc
// (target_clones), whose resolver runs before the sanitizers' runtimes are ready.
[[gnu::target("avx2")]] std::uint32_t pageChecksumAvx2(const std::byte* page) {
    return checksumLanes(page);
}

std::uint32_t pageChecksumBaseline(const std::byte* page) {
    return checksumLanes(page);
}

std::uint32_t pageChecksum(const std::byte* page) {
    static const bool avx2 = __builtin_cpu_supports("avx2");
    return avx2 ? pageChecksumAvx2(page) : pageChecksumBaseline(page);
}

PageHeader headerOf(const std::byte* page) {
    PageHeader header;
    std::memcpy(&header, page, sizeof header);
    return header;
}

} // namespace

std::uint64_t datasetIdFor(const std::string& key) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : key) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

void fillPage(std::byte* page, std::uint64_t datasetId, std::uint32_t block) {
    // xorshift64 filler seeded by dataset and block: every page differs, so a page read from the
    // wrong place cannot pass the checksum by accident.
    std::uint64_t state = (datasetId ^ (std::uint64_t{block} * 0x9E3779B97F4A7C15ULL)) | 1;
    for (std::size_t offset = sizeof(PageHeader); offset < kBlockSize; offset += sizeof state) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        std::memcpy(page + offset, &state, sizeof state);
    }
    PageHeader header{kPageMagic, block, datasetId, 0, kPageVersion};
    std::memcpy(page, &header, sizeof header);
    header.checksum = pageChecksum(page);
    std::memcpy(page, &header, sizeof header);
}

std::string checkPage(const std::byte* page, std::uint64_t datasetId, std::uint32_t block) {
    const PageHeader header = headerOf(page);
    if (header.magic != kPageMagic || header.version != kPageVersion)
        return "not a Lookahead page (bad magic or version)";
    if (header.datasetId != datasetId)
        return "page of another dataset";
    if (header.block != block)
        return "holds block " + std::to_string(header.block);
    if (header.checksum != pageChecksum(page))
        return "checksum mismatch";
    return {};
}

} // namespace la
