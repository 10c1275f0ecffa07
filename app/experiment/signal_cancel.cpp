// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/signal_cancel.h"

#include "stop_request.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace la {

namespace {

std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};

static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

pthread_t g_mainThread{};

extern "C" void onSignal(int signal) {
    // The kernel hands a process's signal to any thread; the main thread is the one that may sit in
    // a blocking call (a write to a full pipe) that the signal must interrupt, so it gets it.
    if (::gettid() != ::getpid()) {
        ::pthread_kill(g_mainThread, signal);
        return;
    }
    if (stopRequested().exchange(true)) {
        ::signal(signal, SIG_DFL);
        ::raise(signal);
        return;
    }
    g_signal.store(signal);
    if (g_pipe[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
    }
}

} // namespace

void SignalCancel::install() {
    if (g_pipe[0] < 0 && ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        g_pipe[0] = g_pipe[1] = -1;
    g_mainThread = ::pthread_self();
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    // No SA_RESTART: a blocking call (a read of a pipe, a write to a full one) must return EINTR and
    // let the cancel be seen; a loop that retries on EINTR where it may block without bound must
    // check the cancel flag before retrying.
    action.sa_flags = 0;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    ::signal(SIGXFSZ, SIG_IGN);
}

const std::atomic<bool>& SignalCancel::requested() {
    return stopRequested();
}

int SignalCancel::exitCode() {
    const int signal = g_signal.load();
    return signal == 0 ? 0 : 128 + signal;
}

int SignalCancel::notifyFd() {
    return g_pipe[0];
}

} // namespace la
