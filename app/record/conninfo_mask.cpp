// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/conninfo_mask.h"

#include <algorithm>

namespace la {

namespace {

constexpr std::string_view kMask = "********";

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// The length of libpq's URI prefix at the start of `text`, or 0 (then it is key=value pairs).
std::size_t uriPrefix(std::string_view text) {
    for (const std::string_view prefix : {std::string_view("postgresql://"), std::string_view("postgres://")})
        if (text.starts_with(prefix))
            return prefix.size();
    return 0;
}

// A URI component %-decoded as libpq decodes it; false where libpq refuses it (a '%' without two
// hexadecimal digits, or %00).
bool uriDecoded(std::string_view text, std::string& out) {
    out.clear();
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        if (i + 2 >= text.size() || !isHex(text[i + 1]) || !isHex(text[i + 2]))
            return false;
        const auto digit = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
        const char byte = static_cast<char>(digit(text[i + 1]) * 16 + digit(text[i + 2]));
        if (byte == '\0')
            return false;
        out += byte;
        i += 2;
    }
    return true;
}

// libpq's URI: "scheme://[user[:password]@]netloc...[?k=v&...]". The userinfo ends at the first '@'
// before any '/'; the password runs from the first ':' in it to that '@'.
void uriPasswords(std::string_view text, std::size_t prefix, std::vector<TextSpan>& spans) {
    std::size_t p = prefix;
    while (p < text.size() && text[p] != '@' && text[p] != '/')
        ++p;
    std::size_t after = prefix;
    if (p < text.size() && text[p] == '@') {
        const std::size_t colon = text.find(':', prefix);
        if (colon < p && colon + 1 < p)
            spans.push_back({colon + 1, p - colon - 1});
        after = p + 1;
    }
    const std::size_t query = text.find('?', after);
    if (query == std::string_view::npos)
        return;
    std::string keyword;
    for (std::size_t from = query + 1; from <= text.size();) {
        std::size_t end = text.find('&', from);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view pair = text.substr(from, end - from);
        const std::size_t equals = pair.find('=');
        if (equals != std::string_view::npos && uriDecoded(pair.substr(0, equals), keyword) &&
            keyword == "password" && equals + 1 < pair.size())
            spans.push_back({from + equals + 1, pair.size() - equals - 1});
        from = end + 1;
    }
}

// libpq's key=value pairs: a keyword up to '=' (spaces may follow it), then a value, quoted in '...'
// with backslash escapes, or unquoted up to a space (backslash escapes too).
void keywordPasswords(std::string_view text, std::vector<TextSpan>& spans) {
    std::size_t p = 0;
    while (p < text.size()) {
        while (p < text.size() && isSpace(text[p]))
            ++p;
        if (p >= text.size())
            return;
        const std::size_t name = p;
        while (p < text.size() && text[p] != '=' && !isSpace(text[p]))
            ++p;
        const std::string_view keyword = text.substr(name, p - name);
        while (p < text.size() && isSpace(text[p]))
            ++p;
        if (p >= text.size() || text[p] != '=')
            return; // libpq stops here ("missing "=" after ..."): what follows is not read as values
        ++p;
        while (p < text.size() && isSpace(text[p]))
            ++p;
        const std::size_t value = p;
        if (p < text.size() && text[p] == '\'') {
            for (++p; p < text.size() && text[p] != '\''; ++p)
                if (text[p] == '\\' && p + 1 < text.size())
                    ++p;
            if (p < text.size())
                ++p; // the closing quote
        } else {
            for (; p < text.size() && !isSpace(text[p]); ++p)
                if (text[p] == '\\' && p + 1 < text.size())
                    ++p;
        }
        if (keyword == "password" && p > value)
            spans.push_back({value, p - value});
    }
}

} // namespace

bool isConnectionString(std::string_view conninfo) {
    return uriPrefix(conninfo) > 0 || conninfo.find('=') != std::string_view::npos;
}

std::vector<TextSpan> passwordSpans(std::string_view conninfo) {
    std::vector<TextSpan> spans;
    if (const std::size_t prefix = uriPrefix(conninfo); prefix > 0)
        uriPasswords(conninfo, prefix, spans);
    else if (isConnectionString(conninfo))
        keywordPasswords(conninfo, spans);
    return spans;
}

std::string maskedConninfo(std::string_view conninfo) {
    std::vector<TextSpan> spans = passwordSpans(conninfo);
    std::sort(spans.begin(), spans.end(),
              [](const TextSpan& a, const TextSpan& b) { return a.from < b.from; });
    std::string masked;
    std::size_t done = 0;
    for (const TextSpan& span : spans) {
        if (span.from < done) // overlapping spans cannot come from one parse; kept safe all the same
            continue;
        masked.append(conninfo.substr(done, span.from - done)).append(kMask);
        done = span.from + span.length;
    }
    masked.append(conninfo.substr(std::min(done, conninfo.size())));
    return masked;
}

std::string passwordEscapeProblem(std::string_view conninfo) {
    if (uriPrefix(conninfo) == 0)
        return {};
    std::string decoded;
    for (const TextSpan& span : passwordSpans(conninfo))
        if (!uriDecoded(conninfo.substr(span.from, span.length), decoded))
            return "the password in the connection URI has a '%' that is not followed by two hexadecimal "
                   "digits, or is %00 (a zero byte, which no password may hold): write a '%' in a password "
                   "as %25";
    return {};
}

} // namespace la
