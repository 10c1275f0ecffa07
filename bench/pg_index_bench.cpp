// SPDX-License-Identifier: GPL-3.0-or-later
// Index parse speed (MB/s of index) and peak RSS: reads a real btree with Lookahead's own reader
// and derives the heap visits, as --pg-index does. bench/pg_index_bench.sh builds a >= 1 GB index
// with a real server and runs this on it. Usage: lookahead-pg-index-bench INDEX_FILE [REPEAT [LO:HI]]
// (a key range: the descent finds its start, so a narrow range costs a few pages, not a walk)
#include "pg/index_scan.h"
#include "pg/key_range.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s INDEX_FILE [REPEAT [LO:HI]]\n", argv[0]);
        return 2;
    }
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 3;
    la::pg::IndexScanSpec spec;
    spec.index = argv[1];
    if (argc > 3)
        spec.range = la::pg::parseKeyRange("int8", argv[3]);
    try {
        if (argc > 3)
            std::printf("key range %s:\n", argv[3]);
        for (int i = 0; i < repeat; ++i) {
            for (const la::Direction direction : {la::Direction::Forward, la::Direction::Backward}) {
                spec.direction = direction;
                const auto start = std::chrono::steady_clock::now();
                const la::pg::IndexVisits visits = la::pg::scanIndex(spec);
                const double seconds =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                const double mb = static_cast<double>(visits.facts.indexBlocks) * 8192.0 / 1e6;
                rusage usage{};
                ::getrusage(RUSAGE_SELF, &usage);
                const char* name = direction == la::Direction::Forward ? "forward " : "backward";
                // A range reads a few pages of the index, so its figure is a time, not a parse rate.
                if (spec.range)
                    std::printf("%s: range found and read in %.3f ms", name, seconds * 1e3);
                else
                    std::printf("%s: %.0f MB of index in %.3f s = %.0f MB/s", name, mb, seconds,
                                mb / seconds);
                std::printf("; %llu leaf pages, %llu TIDs, %llu visits; peak RSS %.1f MB\n",
                            static_cast<unsigned long long>(visits.facts.leafPages),
                            static_cast<unsigned long long>(visits.facts.tids),
                            static_cast<unsigned long long>(visits.facts.visits),
                            static_cast<double>(usage.ru_maxrss) / 1024.0);
            }
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 2;
    }
    return 0;
}
