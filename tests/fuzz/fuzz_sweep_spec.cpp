// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a sweep spec file (app/sweep/sweep_spec.cpp, loadSweepSpec): the JSON, its axes and
// policies, and the check of every cell it does before a sweep starts.
#include "fuzz_input.h"
#include "input_error.h"
#include "sweep/sweep_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = la::fuzz::scratch().write("spec.json", la::fuzz::bytesAsText(data, size));
    try {
        const la::SweepSpec spec = la::loadSweepSpec(path, false);
        for (const la::SweepPolicy& policy : spec.policies)
            (void)policy.label();
    } catch (const la::InputError&) {
        // A clear refusal is what an untrusted file may get.
    }
    return 0;
}
