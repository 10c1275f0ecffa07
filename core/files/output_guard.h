// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace la {

// A file named on the command line or in a dialog, and what names it ("--trace-csv").
struct NamedPath {
    std::string role;
    std::string path;
    // A PostgreSQL relation read through `path`, its first segment: its later segments and its forks
    // ("N.1", "N_fsm", "N_vm.2", ...) are inputs too, and so is any such name not yet created,
    // because PostgreSQL would take a new file of that name for part of the relation.
    bool relation = false;
};

// Throws InputError, before anything is written, if an output is the same file as an input or as
// another output, or (for a relation) any file of the relation's family. Files are compared by
// device and inode after resolving symlinks (so hard links and "./x" vs "x" are caught); an output
// that does not exist yet, by its resolved path.
void checkOutputsApart(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

} // namespace la
