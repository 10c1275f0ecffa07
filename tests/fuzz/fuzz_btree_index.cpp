// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a btree index file of up to four pages, scanned as --pg-index scans it
// (core/pg/index_scan.h scanIndex: the metapage, the descent, the leaf walk, every item and
// posting list), forward, backward and over key ranges (integers, two columns, text and uuid).
#include "fuzz_pages.h"
#include "input_error.h"
#include "pg/index_scan.h"
#include "pg/key_range.h"

namespace {

void scan(const std::string& index, la::Direction direction, std::optional<la::pg::KeyRange> range) {
    try {
        // As a scan of a user's files does: every TID checked against the table's size (a small
        // table here, so a TID far past it is refused before anything is sized from it).
        constexpr std::uint64_t kHeapBlocks = 1024;
        const la::pg::IndexVisits visits =
            la::pg::scanIndex({index, direction, range, la::pg::ChecksumMode::Auto, kHeapBlocks, "heap"});
        (void)visits.blocks.size();
    } catch (const la::InputError&) {
        // A clear refusal is what an untrusted file may get.
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string index = la::fuzz::scratch().write("16389", la::fuzz::wholePages(data, size, 4));
    scan(index, la::Direction::Forward, std::nullopt);
    scan(index, la::Direction::Backward, std::nullopt);
    scan(index, la::Direction::Forward, la::pg::parseKeyRange("int8", "3:150"));
    scan(index, la::Direction::Backward, la::pg::parseKeyRange("int4", "-5:5"));
    scan(index, la::Direction::Forward, la::pg::parseKeyRange("int4,int8", "5,10:20"));
    scan(index, la::Direction::Backward, la::pg::parseKeyRange("text,uuid", "b:m", "C"));
    return 0;
}
