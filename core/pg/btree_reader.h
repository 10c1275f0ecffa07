// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "btree_page.h"
#include "checksum_mode.h"
#include "dataset.h"
#include "index_tuple.h"
#include "relation_files.h"

#include <cstdint>
#include <functional>
#include <memory>

namespace la::pg {

// A leaf page as the scan meets it.
struct LeafPage {
    const std::byte* page = nullptr;
    PageHeader header;
    BtreeOpaque opaque;
    std::uint64_t block = 0;
};

// Reads a btree index read-only: checks the metapage, descends from the root to the first leaf
// of the scan's direction and walks the leaf level by its sibling links (docs/pg-relations.md §2).
// Every page read is checked (btreePageProblem), and so are the links between pages: the root's
// level against the metapage, each child's against its parent's, each sibling's links against its
// neighbour's (docs/pg-relations.md §2.4); anything wrong throws InputError naming the file and block.
class BtreeReader {
public:
    BtreeReader(const SegmentedRelation& index, ChecksumMode checksums);

    // Whether pages are checksum-verified (resolved from the metapage for ChecksumMode::Auto).
    bool checksums() const { return m_checksums; }

    // Whether the scan's first entry lies right of a separator (a pivot tuple, on `block`): true
    // for every separator a scan from the far right passes, false for none of a scan from the left.
    // Separators ascend, so the answer is true up to some point and false after it.
    using StartTest = std::function<bool(const IndexTuple& separator, std::uint64_t block)>;

    // Descends from the root to the leaf where the scan starts (by `startIsRightOf`), then calls
    // `visit` for each live leaf page in scan order (deleted and half-dead pages skipped) until it
    // returns false or the level ends. An empty index calls it never.
    void walkLeaves(Direction direction, const StartTest& startIsRightOf,
                    const std::function<bool(const LeafPage&)>& visit);

    // Throws InputError about the page at `block`.
    [[noreturn]] void fail(std::uint64_t block, const std::string& what) const;

private:
    // Reads and checks `block`, which a link on page `from` leads to; the page stays valid until
    // the next load().
    LeafPage load(std::uint64_t block, std::uint64_t from);
    // Item `n` of the page, checked and parsed.
    IndexTuple item(const LeafPage& page, std::uint32_t n);
    // The child the start lies under; `first` is set if it is the page's first downlink.
    std::uint32_t downlink(const LeafPage& page, const StartTest& startIsRightOf, bool& first);
    // Loads the sibling `block` of `from` (to its right if `rightward`) and checks that the two
    // pages' links and levels agree.
    LeafPage loadSibling(const LeafPage& from, std::uint32_t block, bool rightward);

    const SegmentedRelation& m_index;
    std::unique_ptr<std::byte[]> m_buffer;
    bool m_checksums = false;
    std::uint32_t m_root = 0;
    std::uint32_t m_rootLevel = 0;
};

} // namespace la::pg
