// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace la {

// An enum's names as one table, read both ways (a value's name for output, a name's value for
// input), so the two cannot drift apart. A value may have several names: its first is the one
// written, later ones are only read (e.g. an earlier version's spelling). The core's tables are all
// in enum_names.cpp, behind the functions each enum's header declares (eventKindName, ...).
template <typename Enum> struct EnumName {
    Enum value;
    const char* name;
};

// The first name of `value` in `table`; `unknown` for a value the table does not list.
template <typename Enum, std::size_t N>
constexpr const char* nameIn(const EnumName<Enum> (&table)[N], Enum value, const char* unknown) {
    for (const EnumName<Enum>& entry : table)
        if (entry.value == value)
            return entry.name;
    return unknown;
}

// The value `table` names `name`, if any.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> valueNamed(const EnumName<Enum> (&table)[N], std::string_view name) {
    for (const EnumName<Enum>& entry : table)
        if (name == entry.name)
            return entry.value;
    return std::nullopt;
}

// Whether `table` names every value from the first enumerator up to `last`: a static_assert beside
// each table stands in for the compiler's check that a switch covers every enumerator.
template <typename Enum, std::size_t N>
constexpr bool namesEvery(const EnumName<Enum> (&table)[N], Enum last) {
    for (std::size_t i = 0; i <= static_cast<std::size_t>(last); ++i)
        if (nameIn(table, static_cast<Enum>(i), nullptr) == nullptr)
            return false;
    return true;
}

} // namespace la
