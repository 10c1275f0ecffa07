// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/command_outputs.h"

#include <cstdio>
#include <utility>

namespace la {

std::vector<NamedPath> outputsOf(const CliOptions& options) {
    std::vector<NamedPath> outputs;
    for (const auto& [flag, path] :
         {std::pair{"--trace-csv", &options.traceCsv}, std::pair{"--summary-json", &options.summaryJson},
          std::pair{"--export-png", &options.exportPng}, std::pair{"--export-svg", &options.exportSvg},
          std::pair{"--export-pdf", &options.exportPdf}, std::pair{"--save", &options.save},
          std::pair{"--cache-after", &options.cacheAfter}})
        if (!path->empty())
            outputs.push_back({flag, *path});
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
