// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace la {

// `lookahead record --conninfo C --query SQL [--cold] [--visits-query SQL] [--compare-policy P]
// [--work-dir DIR] [output and model options]` (docs/recording.md): records the query on the server,
// then replays it as `--import-trace` does, the observed run beside its model. `args` follow the word
// "record". A QApplication must exist (the plots may be drawn). Every option and output is checked
// before the server is reached. Returns the exit code: 0, 1 for a recording that failed on the server
// (a query that does not only read among it), 2 for bad input, 130/143 when cancelled. `--clean`
// removes what killed recordings left behind.
int runRecordCommand(const std::vector<std::string>& args);

std::string recordUsageText();

} // namespace la
