// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: an index key range as --pg-key and --pg-key-range give it, or as a saved session's
// options carry it (core/pg/key_range.cpp, parseKeyRange): the input's first line is the key type,
// the rest the range, each bound written as PostgreSQL prints its type (dates and timestamps too).
#include "fuzz_input.h"
#include "input_error.h"
#include "pg/key_range.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = la::fuzz::bytesAsText(data, size);
    const std::size_t newline = text.find('\n');
    const std::string keyType(text.substr(0, newline));
    const std::string range(newline == std::string_view::npos ? std::string_view()
                                                              : text.substr(newline + 1));
    try {
        if (const std::optional<la::pg::KeyRange> parsed = la::pg::parseKeyRange(keyType, range);
            parsed && parsed->lo > parsed->hi)
            __builtin_trap(); // a reversed range must be refused, never kept
    } catch (const la::InputError&) {
        // A clear refusal is what an untrusted range may get.
    }
    return 0;
}
