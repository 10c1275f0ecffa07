// SPDX-License-Identifier: GPL-3.0-or-later
#include "tuple_key.h"

#include "text_key.h"

#include <algorithm>
#include <cstring>

namespace la::pg {

namespace {

constexpr std::size_t kNullBitmapAt = 8;

std::uint32_t alignedUp(std::uint32_t offset, std::uint32_t align) {
    return (offset + align - 1) / align * align;
}

std::int64_t signedAt(const std::byte* at, std::uint32_t width) {
    switch (width) {
    case 2: {
        std::int16_t v;
        std::memcpy(&v, at, sizeof v);
        return v;
    }
    case 4: {
        std::int32_t v;
        std::memcpy(&v, at, sizeof v);
        return v;
    }
    default: {
        std::int64_t v;
        std::memcpy(&v, at, sizeof v);
        return v;
    }
    }
}

std::string typeList(const std::vector<KeyColumn>& columns) {
    std::string list;
    for (const KeyColumn& c : columns)
        list += (list.empty() ? "" : ",") + c.type;
    return list;
}

} // namespace

std::string readTupleKey(const IndexTuple& tuple, const std::vector<KeyColumn>& columns, std::size_t count,
                         TupleKey& key) {
    // A separator keeps only the attributes that tell its neighbours apart.
    const std::size_t present = tuple.pivot ? std::min<std::size_t>(count, tuple.pivotKeys()) : count;
    key.values.resize(present);
    if (tuple.hasVarWidth && std::none_of(columns.begin(), columns.end(),
                                          [](const KeyColumn& c) { return c.kind == KeyKind::Text; }))
        return "its key is flagged variable-width, but --pg-key " + typeList(columns) +
               " names fixed-width columns only: the leading column is not " + columns.front().type +
               ", or a later key or INCLUDE column is variable-width (name the columns up to it in "
               "--pg-key, e.g. int4,text)";
    const std::byte* data = tuple.data + tuple.keyOffset();
    const std::uint32_t end = tuple.keyBytes();
    std::uint32_t offset = 0;
    for (std::size_t i = 0; i < present; ++i) {
        const KeyColumn& column = columns[i];
        KeyValue& value = key.values[i];
        // The null bitmap has a bit per attribute, set when it is NOT null.
        value.null = tuple.hasNulls &&
                     (static_cast<std::uint8_t>(tuple.data[kNullBitmapAt + i / 8]) & (1u << (i % 8))) == 0;
        if (value.null)
            continue;
        const std::string where = "its column " + std::to_string(i + 1) + " (" + column.type + ")";
        if (column.width == 0) {
            if (offset >= end || !varlenaStartsUnaligned(data + offset))
                offset = alignedUp(offset, column.align);
            if (offset >= end)
                return where + " starts past the key's " + std::to_string(end) + " bytes";
            const Varlena v = readVarlena(data + offset, end - offset);
            if (!v.problem.empty())
                return where + " is " + v.problem;
            value.bytes.assign(v.value);
            offset += v.size;
            continue;
        }
        offset = alignedUp(offset, column.align);
        if (offset > end || end - offset < column.width)
            return where + " needs " + std::to_string(column.width) + " bytes at key offset " +
                   std::to_string(offset) + ", past the key's " + std::to_string(end) + ": is --pg-key " +
                   typeList(columns) + " the index's columns?";
        if (column.kind == KeyKind::Integer)
            value.integer = signedAt(data + offset, column.width);
        else
            value.bytes.assign(reinterpret_cast<const char*>(data + offset), column.width);
        offset += column.width;
    }
    return {};
}

int compareKeys(const std::vector<KeyColumn>& columns, const TupleKey& a, const TupleKey& b) {
    const std::size_t n = std::min(a.values.size(), b.values.size());
    for (std::size_t i = 0; i < n; ++i)
        if (const int order = compareValues(columns[i], a.values[i], b.values[i]); order != 0)
            return order;
    return a.values.size() < b.values.size() ? -1 : a.values.size() > b.values.size() ? 1 : 0;
}

std::string keyText(const std::vector<KeyColumn>& columns, const TupleKey& key) {
    if (key.values.empty())
        return "minus infinity"; // a separator truncated to no key
    if (key.values.size() == 1)
        return valueText(columns.front(), key.values.front());
    std::string text = "(";
    for (std::size_t i = 0; i < key.values.size(); ++i)
        text += (i ? ", " : "") + valueText(columns[i], key.values[i]);
    return text + ")";
}

} // namespace la::pg
