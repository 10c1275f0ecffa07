// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "device_profile.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace la {

// What `lookahead calibrate` measures and where (docs/simulated-device.md, "Calibrated profiles").
struct CalibrationSettings {
    // Measure the device this file lies on, reading it only. Empty: a scratch file written in
    // `scratchDir` (unnamed, so it vanishes when closed, even if the process dies).
    std::string file;
    std::string scratchDir;
    std::uint64_t scratchBytes = 256ULL << 20;
    double seconds = 12.0; // the whole measurement, shared by its phases
    std::vector<int> depths = {1, 2, 4, 8, 16, 32, 64};
    std::vector<int> sequentialDepths = {1, 16};
    std::uint32_t sequentialBytes = 131072;
    std::uint64_t seed = 1;
};

struct CalibrationCallbacks {
    // What is being measured and how far the whole calibration is, 0..1.
    std::function<void(const std::string& stage, double fraction)> progress;
    // Something the user should know that is not an error (io_uring or O_DIRECT refused).
    std::function<void(const std::string& message)> notice;
    const std::atomic<bool>* cancel = nullptr;
};

struct DeviceCalibration {
    DeviceProfile profile; // finished: ready for the simulated device
    std::string file;      // what was read (the scratch file's directory, for a scratch file)
    bool scratchFile = false;
    std::uint64_t fileBytes = 0;
    std::string engine; // "io_uring", or "threads" (one blocking pread per thread) where io_uring is refused
    bool direct = true; // O_DIRECT; false where the file system refused it (then the page cache was measured)
    double seconds = 0.0;
    bool cancelled = false; // the profile is then empty
};

// The smallest file that holds the largest read at the deepest queue several times over.
inline constexpr std::uint64_t kMinCalibrationFileBytes = 8ULL << 20;

// Measures the device: for each depth, 8 kB O_DIRECT reads at random 8 kB-aligned offsets, that many
// always under way (io_uring, else a thread per read); then `sequentialBytes` reads in file order at
// the sequential depths. Throws InputError for a file or directory that cannot be used (not a
// regular file, smaller than kMinCalibrationFileBytes, no room for the scratch file), IoError if a
// read or write fails.
DeviceCalibration calibrateDevice(const CalibrationSettings& settings, const CalibrationCallbacks& callbacks);

} // namespace la
