// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "stream_config.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace la {

// Where a run's reads go: the simulated device, or a real file through a backend named after the
// PostgreSQL io_method it behaves like.
enum class IoMode : std::uint8_t { Sim, Sync, Worker, IoUring };

// PostgreSQL's spelling: "sync", "worker", "io_uring".
const char* ioMethodName(IoMethod method);
// "sim", or the io_method's name.
const char* ioModeName(IoMode mode);
// Also takes "uring", the spelling of earlier versions.
std::optional<IoMode> ioModeNamed(std::string_view name);
std::optional<IoMethod> ioMethodNamed(std::string_view name);

// The io_method a real backend behaves like (a real mode only).
IoMethod ioMethodOf(IoMode mode);

} // namespace la
