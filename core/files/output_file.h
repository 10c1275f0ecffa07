// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "temp_file.h"

#include <sys/types.h>

#include <string>
#include <string_view>

namespace la {

class HeldDirectory;

// One output the user asked for (a trace CSV, a summary JSON, a picture), written so that a failed
// or cancelled run never touches an existing file: the bytes go to a TempFile in the same directory
// and replace `path` only on commit(). An existing device or FIFO (/dev/stdout, a pipe) is written
// directly. Every write, flush and close is checked; errors name `path`, never a temporary name.
class OutputFile {
public:
    // `what` names the output in messages ("trace CSV"). Throws InputError if `path` cannot be
    // written at all (a directory, a missing or read-only directory). A new file gets `newFileMode`
    // (less the umask); a file replaced keeps its own.
    OutputFile(std::string path, std::string what, mode_t newFileMode = 0666);
    // `name` in `dir`, created and replaced relative to its descriptor (`dir` must outlive it).
    OutputFile(const HeldDirectory& dir, const std::string& name, std::string what);
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Buffered; throws IoError on a failed write.
    void write(std::string_view bytes);
    // Flushes, syncs and puts the file in place; throws IoError. Without it nothing is published.
    void commit();

    const std::string& path() const { return m_path; }

private:
    void flush();
    [[noreturn]] void fail(int error) const;

    std::string m_path;   // as the user gave it
    std::string m_target; // the file that is replaced: `path`, or where its symlink points; in a held
                          // directory, its name there
    std::string m_what;
    TempFile m_temp;
    UniqueFd m_direct; // a device or FIFO written in place
    std::string m_buffer;
    bool m_committed = false;
    int m_error =
        0; // the first failed write's errno: nothing more is written (a stalled FIFO stays unblocked)
};

// Writes `bytes` to `path` through an OutputFile; returns an error message, empty on success.
[[nodiscard]] std::string writeOutputFile(const std::string& path, const std::string& what,
                                          std::string_view bytes);

} // namespace la
