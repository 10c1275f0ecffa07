// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: a device profile (app/experiment/device_profile_json.cpp, parseDeviceProfile), then
// service times drawn from it at every depth and read size the simulated device can ask for, each
// within the range an accepted profile's figures allow.
#include "experiment/device_profile_json.h"
#include "fuzz_input.h"
#include "input_error.h"

#include <QByteArray>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const la::DeviceProfile profile =
            la::parseDeviceProfile(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)));
        for (const int depth : {1, 3, 64, 5000})
            for (const std::uint32_t nblocks : {1u, 16u, 128u})
                for (const double u : {0.0, 0.0049, 0.5, 0.9995, 0.999999}) {
                    // A profile accepted bounds a read's time: at most a minute, and a minute more
                    // for each further block (docs/simulated-device.md), never 1 ns from an overflow.
                    const std::int64_t ns = profile.serviceNs(depth, nblocks, u);
                    if (ns < 1 || double(ns) > 60e9 * nblocks + 1.0)
                        __builtin_trap();
                }
    } catch (const la::InputError&) {
        // A clear refusal is what an untrusted file may get.
    }
    return 0;
}
