// SPDX-License-Identifier: GPL-3.0-or-later
#include "index_batches.h"

#include "input_error.h"
#include "message_text.h"
#include "text_parse.h"

namespace la::pg {

IndexBatching parseIndexBatching(const std::string& text, std::string_view option) {
    const std::string flag = "--" + std::string(option) + " '" + excerpt(text) + "': ";
    const auto colon = text.find(':');
    const std::optional<IndexBatches> mode = indexBatchesNamed(std::string_view(text).substr(0, colon));
    if (!mode)
        throw InputError(flag + "choose continue, reset or ring[:N]");
    IndexBatching batching{*mode};
    if (colon == std::string::npos)
        return batching;
    if (*mode != IndexBatches::Ring)
        throw InputError(flag + "only ring takes a number (ring:N, N open batches)");
    std::uint64_t n = 0;
    if (!parseUnsigned(text.substr(colon + 1), n) || n < 1 || n > IndexBatching::kMaxRing)
        throw InputError(flag + "ring:N needs N, the leaf pages the ring holds open, from 1 to " +
                         std::to_string(IndexBatching::kMaxRing) + " (default 64)");
    batching.ring = static_cast<int>(n);
    return batching;
}

std::string indexBatchingText(const IndexBatching& batching) {
    std::string text = indexBatchesName(batching.mode);
    if (batching.mode == IndexBatches::Ring && batching.ring != IndexBatching::kDefaultRing)
        text += ':' + std::to_string(batching.ring);
    return text;
}

} // namespace la::pg
