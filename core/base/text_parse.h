// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>

namespace la {

// Strict number parsing for user input: the whole text must be the number.
bool parseUnsigned(std::string_view text, std::uint64_t& value);
bool parseDouble(std::string_view text, double& value);

// The value of a hexadecimal digit (either case), or -1 if `c` is none.
int hexDigitValue(char c);

} // namespace la
