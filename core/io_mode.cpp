// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_mode.h"

namespace la {

const char* ioMethodName(IoMethod method) {
    switch (method) {
    case IoMethod::Sync:
        return "sync";
    case IoMethod::Worker:
        return "worker";
    case IoMethod::IoUring:
        return "io_uring";
    }
    return "worker";
}

const char* ioModeName(IoMode mode) {
    return mode == IoMode::Sim ? "sim" : ioMethodName(ioMethodOf(mode));
}

std::optional<IoMethod> ioMethodNamed(std::string_view name) {
    if (name == "sync")
        return IoMethod::Sync;
    if (name == "worker")
        return IoMethod::Worker;
    if (name == "io_uring" || name == "uring")
        return IoMethod::IoUring;
    return std::nullopt;
}

std::optional<IoMode> ioModeNamed(std::string_view name) {
    if (name == "sim")
        return IoMode::Sim;
    const std::optional<IoMethod> method = ioMethodNamed(name);
    if (!method)
        return std::nullopt;
    switch (*method) {
    case IoMethod::Sync:
        return IoMode::Sync;
    case IoMethod::Worker:
        return IoMode::Worker;
    case IoMethod::IoUring:
        return IoMode::IoUring;
    }
    return std::nullopt;
}

IoMethod ioMethodOf(IoMode mode) {
    switch (mode) {
    case IoMode::Sync:
        return IoMethod::Sync;
    case IoMode::IoUring:
        return IoMethod::IoUring;
    case IoMode::Sim:
    case IoMode::Worker:
        break;
    }
    return IoMethod::Worker;
}

} // namespace la
