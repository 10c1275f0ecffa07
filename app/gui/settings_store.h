// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run.h"

class QSettings;

namespace la {

// The run setup as the user left it, kept in QSettings between sessions.
void saveRunConfig(QSettings& settings, const RunConfig& config);
// Fields missing from `settings` keep their value in `defaults`.
RunConfig loadRunConfig(const QSettings& settings, const RunConfig& defaults);

// The configuration the window opens with the first time: PostgreSQL 18's defaults and real I/O on a
// dataset that shows the distance collapse, with PG19 as B, so one click on Run shows it.
RunConfig firstLaunchConfig();

} // namespace la
