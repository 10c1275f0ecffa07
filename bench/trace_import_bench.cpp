// SPDX-License-Identifier: GPL-3.0-or-later
// Trace import speed and memory: generates a strace trace of N lines (default 10 M) like a
// PostgreSQL backward index scan's under io_method=worker (three processes, interleaved calls,
// heap, index and catalog files), imports it, and prints lines per second and the peak RSS.
// Usage: lookahead-trace-bench [LINES] [DIR]
#include "observed/trace_importer.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void generate(const std::string& path, std::uint64_t lines) {
    std::FILE* out = std::fopen(path.c_str(), "w");
    if (!out) {
        std::perror(path.c_str());
        std::exit(1);
    }
    const char* heap = "/var/lib/postgresql/18/main/base/5/16390";
    std::uint64_t block = 400'000; // spans segment files 0..3, read backwards
    double time = 1796114808.0;
    for (std::uint64_t i = 0; i < lines; ++i) {
        const int pid = 21796 + static_cast<int>(i % 3);
        time += 0.000004;
        const std::uint64_t kind = i % 100;
        if (kind < 80) {
            if (block == 0)
                block = 400'000;
            --block;
            const std::uint64_t segment = block / 131072;
            std::string suffix; // appended: `"." + std::string` trips GCC 12's -Wrestrict at -O3 (bug 105329)
            if (segment)
                suffix.append(1, '.').append(std::to_string(segment));
            std::fprintf(
                out,
                "%d %.6f pread64(%d<%s%s>, \"\\0\\0\\0\\0\\230\\3\\6\\352\\0\\0\\4\\0\\f\\1\\200\\1\\0 "
                "\\4 \\0\\0\\0\\0\\300\\237t\\0\\200\\237t\\0\"..., 8192, %llu) = 8192 <0.000073>\n",
                pid, time, 30 + static_cast<int>(segment), heap, suffix.c_str(),
                static_cast<unsigned long long>(block % 131072 * 8192));
        } else if (kind < 90) {
            std::fprintf(out,
                         "%d %.6f pread64(41</var/lib/postgresql/18/main/base/5/16393>,  <unfinished ...>\n",
                         pid, time);
            ++i;
            std::fprintf(out,
                         "%d %.6f <... pread64 resumed>\"\\0\\0\\0\\0\\0\\0\\0\\0\"..., 8192, %llu) = 8192 "
                         "<0.000051>\n",
                         pid, time + 0.000002, static_cast<unsigned long long>((i % 5000) * 8192));
        } else if (kind < 99) {
            std::fprintf(
                out,
                "%d %.6f pread64(12</var/lib/postgresql/18/main/base/5/1259>, \"\\1\\0\\0\\0\"..., 8192, "
                "%llu) = 8192 <0.000012>\n",
                pid, time, static_cast<unsigned long long>((i % 40) * 8192));
        } else {
            std::fprintf(
                out, "%d %.6f --- SIGURG {si_signo=SIGURG, si_code=SI_USER, si_pid=21700, si_uid=105} ---\n",
                pid, time);
        }
    }
    std::fclose(out);
}

double peakRssMiB() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

} // namespace

int main(int argc, char** argv) {
    const std::uint64_t lines = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
    const std::string dir = argc > 2 ? argv[2] : "/tmp";
    const std::string path = dir + "/lookahead-trace-bench-" + std::to_string(::getpid()) + ".strace";
    generate(path, lines);
    const double rssBefore = peakRssMiB();
    const auto start = std::chrono::steady_clock::now();
    std::optional<la::ObservedTrace> trace;
    try {
        trace = la::importTrace({path, la::TraceFormat::Auto, {}, {}});
    } catch (const std::exception& error) {
        std::fprintf(stderr, "import failed: %s\n", error.what());
        ::unlink(path.c_str());
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ::unlink(path.c_str());
    std::printf("trace import: %llu lines (two passes) in %.2f s = %.2f M lines/s; relation %s, %zu reads, "
                "%zu processes\n",
                static_cast<unsigned long long>(trace->lines), seconds,
                static_cast<double>(trace->lines) / seconds / 1e6, trace->relation.c_str(),
                trace->reads.size(), trace->processes.size());
    std::printf(
        "peak RSS %.1f MiB (%.1f MiB before the import; the relation's reads are kept, %zu bytes each)\n",
        peakRssMiB(), rssBefore, sizeof(la::ObservedRead));
    return 0;
}
