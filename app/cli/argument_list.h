// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace la {

// A subcommand's arguments (`lookahead NAME ARGS...`), read in turn; a missing value is refused
// (InputError) with the subcommand's name and where its help is.
class ArgumentList {
public:
    ArgumentList(std::string command, const std::vector<std::string>& args);

    // The next argument; nullptr after the last.
    const std::string* next();
    // The current option's value: the argument after it, taken.
    const std::string& value();
    // The argument after the current one if it is no option, taken; nullptr otherwise.
    const std::string* moreValue();
    // Every argument after the current one.
    std::vector<std::string> rest() const;

private:
    std::string m_command;
    const std::vector<std::string>& m_args;
    std::size_t m_next = 0;
};

} // namespace la
