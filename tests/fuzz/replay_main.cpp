// SPDX-License-Identifier: GPL-3.0-or-later
// The normal (non-libFuzzer) build's main() for a fuzz target: runs LLVMFuzzerTestOneInput once on
// every file under the directories given, so ctest replays each target's seed corpus and every
// crash found and fixed (tests/fuzz/README.md). A crash, sanitizer report or uncaught exception
// fails the test; a directory that does not exist (no regressions yet) is skipped.
#include "fuzz_input.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <vector>

namespace {

std::string contents(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof())
        throw std::runtime_error("cannot read " + file.string());
    return bytes;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path dir(argv[i]);
        if (!std::filesystem::is_directory(dir))
            continue;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
            if (entry.is_regular_file())
                files.push_back(entry.path());
    }
    // Sorted, so that a failure names the same input on every run.
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& file : files) {
        std::fprintf(stderr, "replaying %s\n", file.c_str());
        const std::string bytes = contents(file);
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replayed %zu inputs\n", files.size());
    return files.empty() ? 1 : 0;
}
