// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a whole trace file through the importer (importTrace: format detection, both passes,
// the choice of relation), then what the CLI does with the result.
#include "fuzz_input.h"
#include "fuzz_observed.h"
#include "input_error.h"
#include "observed/trace_importer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = la::fuzz::scratch().write("trace", la::fuzz::bytesAsText(data, size));
    try {
        if (const std::optional<la::ObservedTrace> trace =
                la::importTrace({path, la::TraceFormat::Auto, "", {}}))
            la::fuzz::useObserved(*trace);
    } catch (const la::InputError&) {
        // A clear refusal is what an untrusted file may get.
    }
    return 0;
}
