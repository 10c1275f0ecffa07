// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "message_text.h"

#include <QString>

#include <cstdint>

namespace la {

// The engine's count and duration texts (core/base/message_text.h), as the views show them: one
// spelling for the window, the exports and the command line.
inline QString formatCount(std::uint64_t n) {
    return QString::fromStdString(counted(n));
}
inline QString formatDuration(double ns) {
    return QString::fromStdString(timeText(ns));
}

} // namespace la
