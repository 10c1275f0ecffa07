// SPDX-License-Identifier: GPL-3.0-or-later
#include "direction.h"

#include "enum_names.h"

namespace la {

namespace {
constexpr EnumName<Direction> kDirectionNames[] = {
    {Direction::Forward, "forward"},
    {Direction::Backward, "backward"},
};
static_assert(namesEvery(kDirectionNames, Direction::Backward));
} // namespace

const char* directionName(Direction direction) {
    return nameIn(kDirectionNames, direction, "forward");
}

std::optional<Direction> directionNamed(std::string_view name) {
    return valueNamed(kDirectionNames, name);
}

} // namespace la
