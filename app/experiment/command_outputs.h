// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "io/output_file.h"
#include "io/output_guard.h"

#include <QByteArray>

#include <optional>
#include <string>
#include <vector>

namespace la {

// The files the command line asks to write, named by their options.
std::vector<NamedPath> outputsOf(const CliOptions& options);

// Prints each output that could not be written on stderr. Returns 0, or 1 if there was any.
int reportWriteErrors(const std::vector<std::string>& errors);

// Writes the summary JSON `document` (if asked for) and reports a write error on stderr.
// Returns 0, or 1 if it could not be written.
int writeJson(std::optional<OutputFile>& json, const QByteArray& document);

} // namespace la
