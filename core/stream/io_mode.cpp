// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_mode.h"

#include <utility>

namespace la {

namespace {
// Each real mode and the io_method it behaves like.
constexpr std::pair<IoMode, IoMethod> kRealModes[] = {
    {IoMode::Sync, IoMethod::Sync},
    {IoMode::Worker, IoMethod::Worker},
    {IoMode::IoUring, IoMethod::IoUring},
};
} // namespace

const char* ioModeName(IoMode mode) {
    return mode == IoMode::Sim ? "sim" : ioMethodName(ioMethodOf(mode));
}

std::optional<IoMode> ioModeNamed(std::string_view name) {
    if (name == "sim")
        return IoMode::Sim;
    if (const std::optional<IoMethod> method = ioMethodNamed(name))
        for (const auto& [mode, itsMethod] : kRealModes)
            if (itsMethod == *method)
                return mode;
    return std::nullopt;
}

IoMethod ioMethodOf(IoMode mode) {
    for (const auto& [realMode, method] : kRealModes)
        if (realMode == mode)
            return method;
    return IoMethod::Worker;
}

} // namespace la
