// SPDX-License-Identifier: GPL-3.0-or-later
#include "checksum_mode.h"

#include "enum_names.h"

namespace la::pg {

namespace {
constexpr EnumName<ChecksumMode> kChecksumModeNames[] = {
    {ChecksumMode::Auto, "auto"},
    {ChecksumMode::On, "on"},
    {ChecksumMode::Off, "off"},
};
static_assert(namesEvery(kChecksumModeNames, ChecksumMode::Off));
} // namespace

ChecksumMode checksumModeNamed(const std::string& name) {
    return valueNamed(kChecksumModeNames, name).value_or(ChecksumMode::Auto);
}

} // namespace la::pg
