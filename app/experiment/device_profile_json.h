// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "device_profile.h"
#include "io/device_calibration.h"
#include "session/session_file.h"

#include <QByteArray>

#include <memory>
#include <string>

namespace la {

struct Experiment;
class OutputFile;

inline constexpr const char* kDeviceProfileSchema = "lookahead.device-profile/1";
// No profile is anywhere near this large; a larger file is refused unread.
inline constexpr std::uint64_t kDeviceProfileBytes = 1ULL << 20;

// The profile in `json` (docs/simulated-device.md, "Calibrated profiles"), every figure checked and
// the profile finished. Throws InputError saying what is wrong and where ("random_reads[2]: ...").
DeviceProfile parseDeviceProfile(const QByteArray& json);

// Reads and parses the profile file `path`; throws InputError naming the file.
std::shared_ptr<const DeviceProfile> loadDeviceProfile(const std::string& path);

// Loads the --device-profile of every run of `experiment` that names one, into its simulated device
// (a file named by several runs is read once). Throws InputError naming the file.
void loadDeviceProfiles(Experiment& experiment);

// The profile file of a calibration: its figures, what was read and how, and `machine` (provenance:
// kernel, date, file system, block device).
QByteArray deviceProfileJson(const DeviceCalibration& calibration, const NameValues& machine);

// Writes the profile of `calibration` into `output` with the machine's provenance and commits it
// (throws IoError naming the file).
void commitDeviceProfile(OutputFile& output, const DeviceCalibration& calibration,
                         const std::string& commandLine);

} // namespace la
