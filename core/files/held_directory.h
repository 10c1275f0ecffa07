// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "unique_fd.h"

#include <string>
#include <vector>

namespace la {

// A directory of ours that files are written into, opened once and held: each file is created
// relative to its descriptor (openat, O_NOFOLLOW, O_EXCL), so a link planted on its path after the
// check is never followed. Only a directory nobody else can change is taken: its own, not a
// symlink, writable by us alone, and reached through directories that only root or we own and
// others cannot write (or that are sticky, as /tmp is, where others cannot move what is ours).
class HeldDirectory {
public:
    // Opens `path`. Throws InputError naming `role` ("--work-dir") with why it is refused.
    static HeldDirectory open(const std::string& path, const std::string& role);
    // A new private directory (mode 0700) in the temporary directory ($TMPDIR, else /tmp), removed
    // with the files created in it when destroyed. Throws IoError.
    static HeldDirectory makePrivate(const std::string& prefix);

    HeldDirectory(HeldDirectory&& other) noexcept = default;
    HeldDirectory& operator=(HeldDirectory&& other) noexcept;
    HeldDirectory(const HeldDirectory&) = delete;
    HeldDirectory& operator=(const HeldDirectory&) = delete;
    ~HeldDirectory();

    int fd() const { return m_fd.get(); }
    const std::string& path() const { return m_path; }
    // `name` in it, for messages and for what reads it later by path.
    std::string filePath(const std::string& name) const;
    // Whether it holds nothing yet.
    bool empty() const;
    // Creates `name` (a plain name, no slash) new, 0600: O_CREAT | O_EXCL | O_NOFOLLOW relative to the
    // held descriptor. Throws IoError.
    UniqueFd createFile(const std::string& name, int access) const;

private:
    HeldDirectory() = default;
    void removePrivate();

    UniqueFd m_fd;
    std::string m_path;
    // A private directory's parent and name, and the files created in it: removed when destroyed.
    bool m_private = false;
    UniqueFd m_parent;
    std::string m_name;
    mutable std::vector<std::string> m_created;
};

} // namespace la
