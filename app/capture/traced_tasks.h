// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

#include <vector>

namespace la {

// The tasks (thread ids) whose system calls a capture of `pids` records when it begins: every
// thread of those processes and, for those in `followChildren`, of their children living now. The
// tasks they create later join by themselves (tracefs's event-fork option).
std::vector<qint64> tracedTasks(const std::vector<qint64>& pids, const std::vector<qint64>& followChildren);

} // namespace la
