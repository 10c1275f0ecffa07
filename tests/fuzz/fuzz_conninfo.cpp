// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: connection strings as `lookahead record --conninfo` takes them (a URI or key=value
// pairs): where the password is typed and the text masked (app/record/conninfo_mask.h). The spans
// lie inside the text without overlapping, and the masked text is the text with each replaced.
#include "fuzz_input.h"
#include "record/conninfo_mask.h"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace la;
    const std::string_view text = fuzz::bytesAsText(data, size);
    std::vector<TextSpan> spans = passwordSpans(text);
    std::sort(spans.begin(), spans.end(),
              [](const TextSpan& a, const TextSpan& b) { return a.from < b.from; });
    std::size_t end = 0, masked = text.size();
    for (const TextSpan& span : spans) {
        if (span.length == 0 || span.from < end || span.from > text.size() ||
            span.length > text.size() - span.from)
            std::abort();
        end = span.from + span.length;
        masked = masked - span.length + 8;
    }
    if (maskedConninfo(text).size() != masked)
        std::abort();
    (void)passwordEscapeProblem(text);
    (void)isConnectionString(text);
    return 0;
}
