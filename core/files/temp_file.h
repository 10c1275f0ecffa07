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
// removeStaleTempFiles() can tell an orphan from a file still being written, and markTempFile()
// marks it as ours.
class TempFile {
public:
    // Returns 0, or the errno of the failed create. `access`: O_WRONLY or O_RDWR.
    int create(const std::string& dir, const std::string& finalName, mode_t mode, int access = O_WRONLY);
    // The same in the directory open as `dirFd` (named `dir` in messages), which must stay open until
    // the file is closed: names are resolved relative to it, so nothing done to `dir`'s path after it
    // was opened moves the file elsewhere.
    int createAt(int dirFd, const std::string& dir, const std::string& finalName, mode_t mode,
                 int access = O_WRONLY);
    // Gives the file `finalPath` (in the same directory; a name in it after createAt()), atomically
    // replacing whatever is there. Returns 0 or an errno. The descriptor stays open.
    int publish(const std::string& finalPath);

    TempFile() = default;
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile();

    int fd() const { return m_fd.get(); }
    // Closes it; one never published goes to closeInBackground() (its blocks are freed then).
    void close();

private:
    // A new temporary name in the directory, as openat() takes it with m_at.
    std::string freshName() const;

    UniqueFd m_fd;
    int m_at = AT_FDCWD; // the directory's descriptor after createAt(); names are then relative to it
    std::string m_dir;
    std::string m_finalName;
    std::string m_namedPath; // the fallback's name until published; empty for O_TMPFILE
    bool m_published = false;
};

// Marks the open file `fd`, named `path` (".NAME.PID.<16 hex>.tmp"), as a temporary file we made,
// with an extended attribute holding its name: users can give a file our kind of name, but not by
// accident this mark. Best effort: where the file system has no extended attributes, an orphan is
// left behind rather than a user's file put at risk.
void markTempFile(int fd, const std::string& path);
// Takes the mark off again just before the file gets its final name: a published file is the
// user's, and carries nothing of ours.
void unmarkTempFile(int fd);

// Removes from `dir` the temporary files (of the final name `finalName`, or of any name if it is
// empty) whose process no longer exists: only regular files of ours, owned by us and still
// carrying the mark of markTempFile() under their own name. Anything else is a user's file, however
// it is named, and stays.
void removeStaleTempFiles(const std::string& dir, const std::string& finalName = {});

} // namespace la
