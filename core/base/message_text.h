// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace la {

// Bytes rounded up to whole MiB: "512 MiB".
std::string mebibytes(std::uint64_t bytes);
// Bytes in binary units with one decimal: "8.0 KiB", "1.5 GiB".
std::string byteSize(std::uint64_t bytes);

// A count with thousands separators: "148,972".
std::string counted(std::uint64_t n);
// `value` with `decimals` digits after the point, as printf's %.Nf writes it: "3.14".
std::string fixedText(double value, int decimals);
// A time in nanoseconds to four significant digits at most, in the unit that fits: "997 ms",
// "1.234 s", "12.5 µs", "2 min 5 s".
std::string timeText(double ns);

// The parts one after the other, in one allocation (messages built in loops).
std::string joined(std::initializer_list<std::string_view> parts);

// A piece of a user's file fit to quote in a one-line message: bytes that would garble a terminal
// or cut the message (NUL, control characters, anything outside printable ASCII) are escaped as
// \xNN, and the text is cut after about `limit` characters with "… (N bytes)".
std::string excerpt(std::string_view text, std::size_t limit = 120);

// User text (a run label, a path, a policy name) whole, fit to print on a terminal: valid UTF-8
// stays readable, while control characters (C0, DEL, C1), bidirectional overrides and bytes that
// are not valid UTF-8 are escaped as \xNN, so no file can move the cursor or recolour the screen.
std::string printable(std::string_view text);
// printable() of each line of `text`, its line breaks and tabs kept: a server's message of several
// lines, indented.
std::string printableLines(std::string_view text);

} // namespace la
