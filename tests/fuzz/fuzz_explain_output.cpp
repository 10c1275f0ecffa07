// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: EXPLAIN (ANALYZE, BUFFERS[, IO]) output, text or JSON (app/experiment/explain_output.cpp,
// parseExplainOutput), the search for the scan node that the CLI and the window do after it, and
// its waits taken into an observed run.
#include "experiment/explain_output.h"
#include "fuzz_input.h"
#include "input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const la::ExplainOutput plan = la::parseExplainOutput(
            QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size)),
            QStringLiteral("fuzz.txt"));
        if (const la::ExplainNode* scan = plan.scanOf(QString())) {
            // As an observed run takes the server's waits and their time (UBSan watches the conversion).
            la::RunSummary observed;
            la::takeServerWaits(*scan, observed);
        }
        (void)plan.scanOf(QStringLiteral("t"));
    } catch (const la::InputError&) {
        // A clear refusal is what an untrusted file may get.
    }
    return 0;
}
