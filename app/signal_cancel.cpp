// SPDX-License-Identifier: GPL-3.0-or-later
#include "signal_cancel.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

namespace la {

namespace {

std::atomic<bool> g_requested{false};
std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};

static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "a signal handler may only touch lock-free atomics");

extern "C" void onSignal(int signal) {
    if (g_requested.exchange(true)) {
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
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    ::signal(SIGXFSZ, SIG_IGN);
}

const std::atomic<bool>& SignalCancel::requested() {
    return g_requested;
}

int SignalCancel::exitCode() {
    const int signal = g_signal.load();
    return signal == 0 ? 0 : 128 + signal;
}

int SignalCancel::notifyFd() {
    return g_pipe[0];
}

} // namespace la
