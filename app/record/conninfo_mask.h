// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The password in a connection string, found as libpq finds it (a URI or keyword=value pairs), so
// that no message ever holds it: libpq's parse errors quote the text they could not read, the
// password with it. The password is masked where it is typed as the password, and nowhere else: a
// password that is also a user or database name must not blank that name out of messages.

#include <string>
#include <string_view>
#include <vector>

namespace la {

// Where a password is typed in a conninfo: [from, from + length) of the text, as typed (quoted,
// %-encoded).
struct TextSpan {
    std::size_t from = 0, length = 0;
};

// Whether libpq reads `conninfo` as a connection string (a URI, or key=value pairs) rather than as
// a database name.
bool isConnectionString(std::string_view conninfo);

// Every password value in `conninfo`: the URI's "user:PASSWORD@", its "?password=..." parameters, or a
// key=value string's "password=..." (quoted or not). Never fails: malformed text gives the spans
// that can be told.
std::vector<TextSpan> passwordSpans(std::string_view conninfo);

// `conninfo` with each password replaced by "********".
std::string maskedConninfo(std::string_view conninfo);

// Why a URI's password cannot be decoded, without its text: a '%' not followed by two hexadecimal
// digits, or %00. Empty when it can (libpq's own message would quote the password).
std::string passwordEscapeProblem(std::string_view conninfo);

} // namespace la
