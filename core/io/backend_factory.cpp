// SPDX-License-Identifier: GPL-3.0-or-later
#include "backend_factory.h"

#include "uring_queue.h"
#include "worker_pool.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace la {

namespace {

// The ring, or nullptr with the reason it is not available.
std::unique_ptr<UringRing> openRing(unsigned entries, std::string& reason) {
    if (uringDisabledByEnvironment()) {
        reason = "io_uring disabled by LOOKAHEAD_DISABLE_IO_URING; using the worker pool";
        return nullptr;
    }
    int error = 0;
    std::unique_ptr<UringRing> ring = UringRing::create(entries, error);
    if (!ring)
        reason = "io_uring is not available (io_uring_queue_init: " + std::string(std::strerror(error)) +
                 (error == EPERM ? "; blocked by a sandbox or kernel.io_uring_disabled" : "") +
                 "); using the worker pool";
    return ring;
}

} // namespace

bool uringDisabledByEnvironment() {
    const char* value = std::getenv("LOOKAHEAD_DISABLE_IO_URING");
    return value != nullptr && value[0] != '\0' && std::string(value) != "0";
}

BackendChoice makeFileBackend(BackendRequest request) {
    BackendChoice choice;
    choice.ioMethod = request.io;
    std::unique_ptr<UringRing> ring;
    if (request.io == IoMethod::IoUring) {
        std::string reason;
        ring = openRing(static_cast<unsigned>(request.file.maxIos), reason);
        if (!ring) {
            choice.ioMethod = IoMethod::Worker;
            request.file.fallbacks.push_back(reason);
        }
    }
    const std::string path = request.file.path;
    choice.backend = std::make_unique<FileBackend>(std::move(request.file));
    if (choice.ioMethod == IoMethod::IoUring)
        choice.backend->setAsync(
            std::make_unique<UringQueue>(std::move(ring), choice.backend->clock(), path));
    else if (choice.ioMethod == IoMethod::Worker) {
        auto pool = std::make_unique<WorkerPool>(request.workers, choice.backend->clock());
        choice.workers = pool.get();
        choice.backend->setAsync(std::move(pool));
    }
    return choice;
}

} // namespace la
