// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>

namespace la {

// Something the user gave us is wrong (unknown name, malformed file, number out of range). The
// message is shown as-is in the CLI and in the GUI, so it names the input and says what to do.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

} // namespace la
