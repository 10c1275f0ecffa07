// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_options.h"
#include "headless.h"
#include "input_error.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    la::CliOptions options;
    try {
        options = la::parseCommandLine(args);
    } catch (const la::InputError& error) {
        std::fprintf(stderr, "lookahead: %s\n", error.what());
        return 2;
    }
    if (options.help) {
        std::fputs(la::usageText().c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("lookahead %s\n", LOOKAHEAD_VERSION);
        return 0;
    }
    if (options.listDatasets) {
        std::fputs(la::datasetListing().c_str(), stdout);
        return 0;
    }
    return la::runHeadless(options);
}
