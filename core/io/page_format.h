// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace la {

// Every page of a dataset file we write starts with this header, so a read can prove it landed
// on the right block of the right file: combining and backward reads compute offsets, and a wrong
// offset would otherwise go unnoticed and silently fake the plots.
struct PageHeader {
    std::uint32_t magic;
    std::uint32_t block;
    std::uint64_t datasetId;
    std::uint32_t checksum; // over the whole page with this field zero
    std::uint32_t version;
};
static_assert(sizeof(PageHeader) == 24, "the header is PostgreSQL's page header size");

inline constexpr std::uint32_t kPageMagic = 0x4C4B4148; // "HAKL"
inline constexpr std::uint32_t kPageVersion = 1;

// Identifies a dataset file's contents (FNV-1a of its name), stored in every page.
std::uint64_t datasetIdFor(const std::string& key);

// Writes page `block` of dataset `datasetId` (header plus deterministic filler) into `page`.
void fillPage(std::byte* page, std::uint64_t datasetId, std::uint32_t block);

// Checks a page read back; returns an empty string if it is page `block` of `datasetId`,
// otherwise what is wrong with it ("holds block 7", "checksum mismatch", ...).
std::string checkPage(const std::byte* page, std::uint64_t datasetId, std::uint32_t block);

} // namespace la
