// SPDX-License-Identifier: GPL-3.0-or-later
#include "datetime_key.h"

#include <chrono>
#include <limits>

namespace la::pg {

namespace {

constexpr std::int64_t kMicrosPerDay = 86'400'000'000;

// Exactly `digits` decimal digits at `at`, advancing it.
bool digitsAt(std::string_view text, std::size_t& at, std::size_t digits, int& value) {
    if (at + digits > text.size())
        return false;
    value = 0;
    for (std::size_t i = 0; i < digits; ++i) {
        const char c = text[at + i];
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    at += digits;
    return true;
}

bool charAt(std::string_view text, std::size_t& at, char wanted) {
    if (at >= text.size() || text[at] != wanted)
        return false;
    ++at;
    return true;
}

// The days since 2000-01-01 of the date at `at`, advancing past it.
std::optional<std::int32_t> daysAt(std::string_view text, std::size_t& at) {
    int y = 0, m = 0, d = 0;
    if (!digitsAt(text, at, 4, y) || !charAt(text, at, '-') || !digitsAt(text, at, 2, m) ||
        !charAt(text, at, '-') || !digitsAt(text, at, 2, d) || y < 1)
        return std::nullopt;
    using namespace std::chrono;
    const year_month_day date{year{y}, month{static_cast<unsigned>(m)}, day{static_cast<unsigned>(d)}};
    if (!date.ok())
        return std::nullopt;
    const sys_days epoch = year{2000} / January / 1;
    return static_cast<std::int32_t>((sys_days{date} - epoch).count());
}

// PostgreSQL stores 'infinity' and '-infinity' as the type's largest and smallest values.
template <typename Stored> std::optional<Stored> infinityKey(std::string_view text) {
    if (text == "infinity")
        return std::numeric_limits<Stored>::max();
    if (text == "-infinity")
        return std::numeric_limits<Stored>::min();
    return std::nullopt;
}

} // namespace

std::optional<std::int32_t> parseDateKey(std::string_view text) {
    if (const std::optional<std::int32_t> infinite = infinityKey<std::int32_t>(text))
        return infinite;
    std::size_t at = 0;
    const std::optional<std::int32_t> days = daysAt(text, at);
    if (!days || at != text.size())
        return std::nullopt;
    return days;
}

std::optional<std::int64_t> parseTimestampKey(std::string_view text) {
    if (const std::optional<std::int64_t> infinite = infinityKey<std::int64_t>(text))
        return infinite;
    std::size_t at = 0;
    const std::optional<std::int32_t> days = daysAt(text, at);
    if (!days)
        return std::nullopt;
    // Years 1..9999 keep every value far inside int8: no overflow below.
    std::int64_t micros = std::int64_t{*days} * kMicrosPerDay;
    if (at == text.size())
        return micros;
    int h = 0, min = 0, s = 0;
    if (!(charAt(text, at, ' ') || charAt(text, at, 'T')) || !digitsAt(text, at, 2, h) ||
        !charAt(text, at, ':') || !digitsAt(text, at, 2, min) || h > 23 || min > 59)
        return std::nullopt;
    if (charAt(text, at, ':') && (!digitsAt(text, at, 2, s) || s > 59))
        return std::nullopt;
    std::int64_t fraction = 0;
    if (charAt(text, at, '.')) {
        std::int64_t scale = 100'000;
        const std::size_t first = at;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9' && at - first < 6) {
            fraction += (text[at] - '0') * scale;
            scale /= 10;
            ++at;
        }
        if (at == first)
            return std::nullopt;
    }
    if (at != text.size())
        return std::nullopt;
    micros += ((std::int64_t{h} * 60 + min) * 60 + s) * 1'000'000 + fraction;
    return micros;
}

} // namespace la::pg
