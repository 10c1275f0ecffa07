// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: an index key range as --pg-key, --pg-collation and --pg-key-range give it, or as a
// saved session's options carry them (core/pg/key_range.cpp, parseKeyRange), and one index tuple's
// key read as those columns (core/pg/tuple_key.cpp, readTupleKey: null bitmap, alignment, varlena
// headers) and placed against the range. The input's first line is the key types, the second the
// collation, the third the range (each bound written as PostgreSQL prints its type), the rest the
// tuple's bytes.
#include "fuzz_input.h"
#include "input_error.h"
#include "pg/index_tuple.h"
#include "pg/key_range.h"

#include <cstring>
#include <vector>

namespace {

// The next line of `text`, which is advanced past it.
std::string nextLine(std::string_view& text) {
    const std::size_t newline = text.find('\n');
    std::string line(text.substr(0, newline));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    return line;
}

void readTuple(const la::pg::KeyRange& range, std::string_view bytes) {
    if (bytes.empty())
        return;
    // Aligned as a tuple on a page is; its length is what its t_info must say.
    std::vector<std::byte> tuple(bytes.size());
    std::memcpy(tuple.data(), bytes.data(), bytes.size());
    la::pg::IndexTuple parsed;
    if (!la::pg::parseIndexTuple(tuple.data(), static_cast<std::uint32_t>(tuple.size()), parsed).empty())
        return;
    la::pg::TupleKey key;
    if (!la::pg::readTupleKey(parsed, range.columns, range.compared(), key).empty())
        return;
    if (key.values.size() > range.compared())
        __builtin_trap(); // a key has no more values than the columns asked for
    const int below = la::pg::compareKeys(range.columns, key, range.lo);
    const int above = la::pg::compareKeys(range.columns, key, range.hi);
    if (range.contains(key) && (below < 0 || above > 0))
        __builtin_trap(); // a key inside every column's bounds lies between LO and HI
    (void)la::pg::keyText(range.columns, key);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text = la::fuzz::bytesAsText(data, size);
    const std::string keyTypes = nextLine(text);
    const std::string collation = nextLine(text);
    const std::string range = nextLine(text);
    try {
        const std::optional<la::pg::KeyRange> parsed = la::pg::parseKeyRange(keyTypes, range, collation);
        if (!parsed)
            return 0;
        if (la::pg::compareKeys(parsed->columns, parsed->lo, parsed->hi) > 0)
            __builtin_trap(); // a reversed range must be refused, never kept
        readTuple(*parsed, text);
    } catch (const la::InputError&) {
        // A clear refusal is what an untrusted range may get.
    }
    return 0;
}
