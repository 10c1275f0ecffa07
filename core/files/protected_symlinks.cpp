// SPDX-License-Identifier: GPL-3.0-or-later
#include "protected_symlinks.h"

#include "message_text.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string_view>
#include <vector>

namespace la {

namespace {

// The kernel gives up after 40 links (ELOOP); so does the open that follows, so we stop there too.
constexpr int kMaxLinks = 40;

constexpr std::string_view kWhy =
    "; Lookahead follows a link there only if it is yours or the directory owner's (as the kernel's "
    "protected_symlinks does): remove it or choose another file";

// Pushes the components of `path` so that the first is popped first.
void pushComponents(std::vector<std::string>& pending, const std::filesystem::path& path) {
    std::vector<std::string> parts;
    for (const auto& part : path.relative_path())
        parts.push_back(part.string());
    pending.insert(pending.end(), parts.rbegin(), parts.rend());
}

} // namespace

std::string foreignSymlink(const std::string& path) {
    std::error_code error;
    const std::filesystem::path absolute = std::filesystem::absolute(path, error);
    if (error)
        return {};
    std::vector<std::string> pending;
    pushComponents(pending, absolute);
    std::filesystem::path here = "/"; // resolved so far: no symlinks left in it
    for (int links = 0; !pending.empty();) {
        const std::string part = pending.back();
        pending.pop_back();
        if (part.empty() || part == ".")
            continue;
        if (part == "..") {
            here = here.parent_path();
            continue;
        }
        const std::filesystem::path next = here / part;
        struct stat link {};
        if (::lstat(next.c_str(), &link) != 0)
            return {}; // the rest is created, not followed
        if (!S_ISLNK(link.st_mode)) {
            here = next;
            continue;
        }
        struct stat dir {};
        if (::stat(here.c_str(), &dir) == 0 && (dir.st_mode & S_ISVTX) != 0 && (dir.st_mode & S_IWOTH) != 0 &&
            link.st_uid != ::geteuid() && link.st_uid != dir.st_uid)
            return joined({"'", excerpt(next.string()), "' is a symlink owned by user ",
                           std::to_string(link.st_uid), " in the shared sticky directory '",
                           excerpt(here.string()), "'", kWhy});
        const std::filesystem::path target = std::filesystem::read_symlink(next, error);
        if (error || ++links > kMaxLinks)
            return {};
        if (target.is_absolute())
            here = "/";
        pushComponents(pending, target);
    }
    return {};
}

} // namespace la
