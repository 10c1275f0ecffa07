// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/command_outputs.h"

#include <cstdio>

namespace la {

std::vector<NamedPath> outputsOf(const CliOptions& options) {
    std::vector<NamedPath> outputs;
    if (!options.traceCsv.empty())
        outputs.push_back({"--trace-csv", options.traceCsv});
    if (!options.summaryJson.empty())
        outputs.push_back({"--summary-json", options.summaryJson});
    if (!options.exportPng.empty())
        outputs.push_back({"--export-png", options.exportPng});
    if (!options.exportSvg.empty())
        outputs.push_back({"--export-svg", options.exportSvg});
    if (!options.exportPdf.empty())
        outputs.push_back({"--export-pdf", options.exportPdf});
    if (!options.save.empty())
        outputs.push_back({"--save", options.save});
    return outputs;
}

int reportWriteErrors(const std::vector<std::string>& errors) {
    for (const std::string& error : errors)
        std::fprintf(stderr, "lookahead: %s\n", error.c_str());
    return errors.empty() ? 0 : 1;
}

int writeJson(std::optional<OutputFile>& json, const QByteArray& document) {
    try {
        if (json) {
            json->write(std::string_view(document.constData(), static_cast<std::size_t>(document.size())));
            json->commit();
        }
    } catch (const IoError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 1;
    }
    return 0;
}

} // namespace la
