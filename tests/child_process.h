// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Faults only the kernel can produce (a syscall refused with EPERM, ENOSYS or EIO) are made real
// with a seccomp filter. A filter cannot be removed once installed, so it runs in a forked child.

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <functional>
#include <string>

namespace la::test {

#if defined(__x86_64__)
inline constexpr unsigned kAuditArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
inline constexpr unsigned kAuditArch = AUDIT_ARCH_AARCH64;
#else
inline constexpr unsigned kAuditArch = 0; // tests that need seccomp skip themselves
#endif

// ThreadSanitizer's own thread makes every process multi-threaded, and it refuses to start
// threads in a child forked from one; children that need threads are skipped in that build.
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kChildCanStartThreads = false;
#else
inline constexpr bool kChildCanStartThreads = true;
#endif

// Makes syscall `nr` fail with `error` for this process and threads it creates later. With
// `minArg3` > 0 only calls whose fourth argument (pread64's offset) is at least that fail.
inline bool failSyscall(long nr, int error, unsigned minArg3 = 0) {
    const auto nrLow = static_cast<unsigned>(nr);
    const unsigned fail = SECCOMP_RET_ERRNO | (static_cast<unsigned>(error) & SECCOMP_RET_DATA);
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nrLow, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[3])), // low half (little-endian)
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, minArg3, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, fail),
    };
    sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
    return kAuditArch != 0 && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
           ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

// Runs `body` in a forked child and returns what it returned, or a description of how it died.
inline std::string inChild(const std::function<std::string()>& body) {
    int fds[2];
    if (::pipe(fds) != 0)
        return "pipe failed";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        std::string out;
        try {
            out = body();
        } catch (const std::exception& error) {
            out = std::string("exception: ") + error.what();
        }
        for (std::size_t done = 0; done < out.size();) {
            const ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
            if (n <= 0)
                break;
            done += static_cast<std::size_t>(n);
        }
        ::_exit(0); // no atexit handlers, no stdio flush: the parent owns those
    }
    ::close(fds[1]);
    std::string result;
    char buffer[4096];
    ssize_t n = 0;
    while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0)
        result.append(buffer, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return "child died (status " + std::to_string(status) + "): " + result;
    return result;
}

} // namespace la::test
