// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a session file as --open reads it (app/experiment/session_io.h openSession over SessionReader,
// core/session/session_file.h). The bytes are an SQLite database, mutated; every run's events and
// kept files are read back and every imported trace is used as the CLI uses it.
#include "experiment/session_io.h"
#include "fuzz_input.h"
#include "fuzz_observed.h"
#include "input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = la::fuzz::scratch().write("s.lookahead", la::fuzz::bytesAsText(data, size));
    try {
        const la::OpenedSession session = la::openSession(path);
        for (std::size_t run = 0; run < session.experiment.runs.size(); ++run) {
            la::fuzz::CountingSink counter;
            session.reader->readEvents(run,
                                       [&](std::span<const la::Event> batch) { counter.onEvents(batch); });
            if (const auto& observed = session.experiment.runs[run].observed)
                la::fuzz::useObserved(*observed);
            for (const char* role : {"blocks", "prewarm"}) {
                std::size_t bytes = 0;
                session.reader->readRunFile(run, role, [&](std::span<const unsigned char> chunk) {
                    bytes += chunk.size();
                    return true;
                });
            }
        }
    } catch (const la::InputError&) {
        // A clear refusal is what an untrusted file may get.
    }
    return 0;
}
