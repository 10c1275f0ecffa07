// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "file_backend.h"
#include "stream_config.h"

#include <memory>
#include <string>

namespace la {

struct BackendRequest {
    IoMethod io = IoMethod::Worker;
    int workers = 3;
    FileBackendOptions file;
};

struct BackendChoice {
    std::unique_ptr<FileBackend> backend;
    IoMethod ioMethod = IoMethod::Worker; // what runs: io_uring may have become worker
};

// LOOKAHEAD_DISABLE_IO_URING is set (and not 0): io_uring is not to be used, as if it were refused.
bool uringDisabledByEnvironment();

// Builds the backend for `--io`. io_uring falls back to the worker pool, with a notice and a
// recorded reason, when the kernel or a sandbox refuses it or LOOKAHEAD_DISABLE_IO_URING=1.
// Throws IoError if the file cannot be opened.
BackendChoice makeFileBackend(BackendRequest request);

} // namespace la
