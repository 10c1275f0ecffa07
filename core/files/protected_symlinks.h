// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace la {

// The kernel's protected_symlinks rule, applied to a path we are about to create or replace
// whatever the sysctl says (docs/real-io.md): a symlink in a sticky directory that everyone may
// write, such as /tmp, is followed only if it belongs to us (the effective user) or to the
// directory's owner. Anyone can plant a link there, and following it would let them choose which
// of our files an output replaces. Checks every symlink the path leads through, the last
// component included. Returns why the path is refused, or an empty string.
std::string foreignSymlink(const std::string& path);

} // namespace la
