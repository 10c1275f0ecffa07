// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every fuzz target shares: the libFuzzer entry point's signature, and a scratch file for
// the parsers that read a path rather than bytes (tests/fuzz/README.md).

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace la::fuzz {

inline std::string_view bytesAsText(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// A private directory for the process's scratch files, removed when the process exits normally.
// Each libFuzzer job (-jobs, -fork) is its own process, so they never share a file.
class ScratchDir {
public:
    ScratchDir() {
        const char* tmp = std::getenv("TMPDIR");
        std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/lookahead-fuzz.XXXXXX";
        if (!::mkdtemp(templ.data()))
            throw std::runtime_error("cannot create a scratch directory under " + templ);
        m_dir = templ;
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(m_dir, ignored);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    // Replaces the file `name` in the directory with `bytes` and returns its path.
    std::string write(const std::string& name, std::string_view bytes) const {
        const std::string path = m_dir + "/" + name;
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out)
            throw std::runtime_error("cannot write the scratch file " + path);
        return path;
    }

private:
    std::string m_dir;
};

inline const ScratchDir& scratch() {
    static const ScratchDir dir;
    return dir;
}

} // namespace la::fuzz
