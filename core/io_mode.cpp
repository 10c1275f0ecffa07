// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_mode.h"

#include "enum_names.h"

#include <utility>

namespace la {

namespace {
constexpr EnumName<IoMethod> kIoMethodNames[] = {
    {IoMethod::Sync, "sync"},
    {IoMethod::Worker, "worker"},
    {IoMethod::IoUring, "io_uring"},
    {IoMethod::IoUring, "uring"}, // the spelling of earlier versions
};
static_assert(namesEvery(kIoMethodNames, IoMethod::IoUring));

// Each real mode and the io_method it behaves like.
constexpr std::pair<IoMode, IoMethod> kRealModes[] = {
    {IoMode::Sync, IoMethod::Sync},
    {IoMode::Worker, IoMethod::Worker},
    {IoMode::IoUring, IoMethod::IoUring},
};
} // namespace

const char* ioMethodName(IoMethod method) {
    return nameIn(kIoMethodNames, method, "worker");
}

const char* ioModeName(IoMode mode) {
    return mode == IoMode::Sim ? "sim" : ioMethodName(ioMethodOf(mode));
}

std::optional<IoMethod> ioMethodNamed(std::string_view name) {
    return valueNamed(kIoMethodNames, name);
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
