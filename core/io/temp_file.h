// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "unique_fd.h"

#include <fcntl.h>
#include <sys/types.h>

#include <string>

namespace la {

// A file being written in a directory that nobody can open, replace or plant a link for before it
// is complete, and that vanishes if the process dies: an unnamed O_TMPFILE file, named only by
// publish(). Where the file system has no O_TMPFILE it is a 0600 file with an unpredictable name,
// created O_EXCL | O_NOFOLLOW and removed again unless published; its name carries our PID so that
// removeStaleTempFiles() can tell an orphan from a file still being written.
class TempFile {
public:
    // Returns 0, or the errno of the failed create. `access`: O_WRONLY or O_RDWR.
    int create(const std::string& dir, const std::string& finalName, mode_t mode, int access = O_WRONLY);
    // Gives the file `finalPath` (in the same directory), atomically replacing whatever is there.
    // Returns 0 or an errno. The descriptor stays open.
    int publish(const std::string& finalPath);

    TempFile() = default;
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile();

    int fd() const { return m_fd.get(); }
    void close() { m_fd.reset(); }

private:
    std::string freshName() const;

    UniqueFd m_fd;
    std::string m_dir;
    std::string m_finalName;
    std::string m_namedPath; // the fallback's name until published; empty for O_TMPFILE
};

// Removes the temporary files of processes that no longer exist from one of our own directories,
// including the ".NAME.part-PID" files of earlier versions.
void removeStaleTempFiles(const std::string& dir);

} // namespace la
