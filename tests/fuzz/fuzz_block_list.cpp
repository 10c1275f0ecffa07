// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a block list file (--blocks, --prewarm-list): plain or CSV, then the visit source
// built from it, walked to its end (core/datasets/block_list.cpp, loadBlockList).
#include "block_source.h"
#include "dataset.h"
#include "fuzz_input.h"
#include "input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = la::fuzz::scratch().write("blocks.csv", la::fuzz::bytesAsText(data, size));
    try {
        const std::unique_ptr<la::BlockSource> source = la::loadBlockList(path, la::Direction::Backward);
        // Every item, its resets too, as a run takes them.
        while (source->next().step != la::SourceStep::End) {
        }
    } catch (const la::InputError&) {
        // A clear refusal is what an untrusted file may get.
    }
    return 0;
}
