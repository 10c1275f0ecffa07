// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace la {

class RunController;

// Why `path` must not be written by an export or a save (it is one of the inputs of the runs on
// screen: a dataset file, a block list, an imported trace), empty if it may.
[[nodiscard]] QString outputConflict(const RunController& controller, const QString& path);

} // namespace la
