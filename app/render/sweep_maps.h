// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "render/plot_file.h"
#include "sweep/sweep_results.h"
#include "sweep_grid.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace la {

// The cells of one map: every cell whose axes after the first two take the values `slice` picks
// (the slice is a cell index over those axes; 0 when there are at most two).
std::uint64_t sweepSlices(const SweepSpec& spec);
SweepGrid sweepGrid(const SweepResults& results, const SweepMetric& metric, std::uint64_t slice);
// The cell drawn at column x, row y of map `slice`.
std::uint64_t sweepCellAt(const SweepSpec& spec, std::uint64_t slice, std::size_t x, std::size_t y);
// "eic-16-io-combine-limit-8": the axes a slice fixes, for file names; empty with two axes or fewer.
std::string sweepSliceName(const SweepSpec& spec, std::uint64_t slice);

// Every file writeSweepMaps() writes, so that each can be checked against the inputs first.
QStringList sweepMapFiles(const SweepSpec& spec, const QString& dir, const std::vector<PlotFormat>& formats);

// Writes DIR/<metric>-<policy>.<format> for every metric, policy and format, and DIR/<metric>.<format>
// with every policy side by side (all of one metric on one colour scale). `written` gets each file.
// Needs a QApplication (QCustomPlot draws with widgets). Returns an error message, empty on success.
[[nodiscard]] QString writeSweepMaps(const SweepResults& results, const QString& dir,
                                     const std::vector<PlotFormat>& formats, QStringList* written);

} // namespace la
