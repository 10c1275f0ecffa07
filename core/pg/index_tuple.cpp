// SPDX-License-Identifier: GPL-3.0-or-later
#include "index_tuple.h"

#include "checked_math.h"
#include "page_header.h"

namespace la::pg {

namespace {

constexpr std::uint16_t kSizeMask = 0x1FFF;
constexpr std::uint16_t kAltTidMask = 0x2000; // nbtree's INDEX_AM_RESERVED_BIT: pivot or posting
constexpr std::uint16_t kVarMask = 0x4000;
constexpr std::uint16_t kNullMask = 0x8000;
constexpr std::uint16_t kIsPosting = 0x2000;    // in the offset field of an alt-TID tuple
constexpr std::uint16_t kPivotHeapTid = 0x1000; // in the offset field of a pivot: a heap TID ends it
constexpr std::uint16_t kCountMask = 0x0FFF;
constexpr std::uint32_t kTidBytes = 6;

Tid tidAt(const std::byte* at) {
    return {(std::uint32_t{readU16(at)} << 16) | readU16(at + 2), readU16(at + 4)};
}

} // namespace

Tid IndexTuple::postingTid(std::uint32_t i) const {
    return tidAt(data + postingOffset + i * kTidBytes);
}

std::uint32_t IndexTuple::keyBytes() const {
    const std::uint32_t end = posting ? postingOffset : pivotHeapTid ? length - kTidBytes : length;
    return end > keyOffset() ? end - keyOffset() : 0;
}

bool IndexTuple::leadingNull() const {
    // The bitmap has a bit per attribute, set when it is NOT null.
    return hasNulls && (static_cast<std::uint8_t>(data[8]) & 1u) == 0;
}

std::string parseIndexTuple(const std::byte* data, std::uint32_t length, IndexTuple& t) {
    if (length < 8)
        return "an index tuple of " + std::to_string(length) + " bytes, shorter than its header";
    t = IndexTuple{};
    t.data = data;
    t.length = length;
    const std::uint16_t info = readU16(data + 6);
    if ((info & kSizeMask) != length)
        return "an index tuple whose t_info size " + std::to_string(info & kSizeMask) +
               " differs from its line pointer's " + std::to_string(length);
    t.hasNulls = (info & kNullMask) != 0;
    t.hasVarWidth = (info & kVarMask) != 0;
    t.tid = tidAt(data);
    if (t.keyOffset() > length)
        return "an index tuple too short for its null bitmap";
    if ((info & kAltTidMask) == 0)
        return {};
    if ((t.tid.offset & kIsPosting) == 0) {
        t.pivot = true;
        t.pivotHeapTid = (t.tid.offset & kPivotHeapTid) != 0;
        if (t.pivotHeapTid && length < t.keyOffset() + kTidBytes)
            return "a separator of " + std::to_string(length) +
                   " bytes, too short for the heap TID it ends with";
        return {};
    }
    t.posting = true;
    t.postingCount = t.tid.offset & kCountMask;
    t.postingOffset = t.tid.block; // an alt-TID tuple keeps the posting list's offset there
    // The offset is a 32-bit block field: its sum with the list's size must not wrap.
    std::uint32_t end = 0;
    if (t.postingCount < 2 || t.postingOffset < t.keyOffset() ||
        !checkedAdd(t.postingOffset, t.postingCount * kTidBytes, end) || end > length)
        return "a posting list of " + std::to_string(t.postingCount) + " TIDs at offset " +
               std::to_string(t.postingOffset) + " that does not fit its " + std::to_string(length) +
               "-byte tuple";
    return {};
}

} // namespace la::pg
