// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "hit_miss_raster.h"
#include "x_mapping.h"

#include <QString>

#include <cstdint>
#include <utility>

namespace la {

class RunTrace;

// Text for the hover tooltips. Each takes the data range under the cursor's pixel, so what it says
// is exactly what that pixel shows (one position when zoomed in, a min..max summary when not).

// Two times as a range with enough digits to tell them apart: "403.21 ms – 403.38 ms" where
// formatDuration() gives 403 ms for both; one time if they are the same to the nanosecond.
QString formatDurationSpan(double fromNs, double toNs);
QString formatBlocks(int blocks); // "16 blocks (128 KiB)"
// Binary units throughout, as block sizes are powers of two: "8 KiB", "7.1 MiB", "512 MiB".
QString formatBytes(double bytes);

// Distance plot: the state series over positions whose extent meets [xLo, xHi).
QString stateTooltip(const RunTrace& trace, XAxis mode, double xLo, double xHi);
// Hit/miss raster: one cell.
QString hitMissTooltip(const RunTrace& trace, XAxis mode, double xLo, double xHi, double yLo, double yHi,
                       const HitMissCell& cell);
// I/O size plot: the reads issued in [xLo, xHi).
QString ioSizeTooltip(const RunTrace& trace, XAxis mode, double xLo, double xHi);
// Request plot: the reads issued in [xLo, xHi) that cover blocks in [yLo, yHi).
QString requestTooltip(const RunTrace& trace, XAxis mode, double xLo, double xHi, double yLo, double yHi);

// "distance stuck at 1↔2 for 1,234 misses" for a collapse interval (consumer positions, inclusive).
QString collapseLabel(const RunTrace& trace, std::pair<std::uint64_t, std::uint64_t> interval);

} // namespace la
