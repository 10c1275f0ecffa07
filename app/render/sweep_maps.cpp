// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/sweep_maps.h"

#include "experiment/summary_json.h"
#include "sweep_map_view.h"

#include <QDir>

namespace la {

namespace {

const QSize kMapSize(640, 420);

// Positions of the axes after the first two, by slice index (the last varies fastest).
std::vector<std::size_t> sliceCoordinates(const SweepSpec& spec, std::uint64_t slice) {
    std::vector<std::size_t> at(spec.axes.size(), 0);
    for (std::size_t i = spec.axes.size(); i-- > 2;) {
        at[i] = slice % spec.axes[i].values.size();
        slice /= spec.axes[i].values.size();
    }
    return at;
}

// "-eic-16" for the slice's files, empty with two axes or fewer. Appended, not inserted: GCC 12 at -O3
// warns -Wrestrict on insert(0, "-") (GCC bug 105329).
std::string sliceSuffix(const SweepSpec& spec, std::uint64_t slice) {
    const std::string sliceName = sweepSliceName(spec, slice);
    std::string suffix;
    if (!sliceName.empty()) {
        suffix += '-';
        suffix += sliceName;
    }
    return suffix;
}

// DIR/<metric>-<policy><suffix>.<format>; policy == policies.size() is the map of every policy.
QString mapPath(const SweepSpec& spec, const QString& dir, const std::string& suffix,
                const SweepMetric& metric, std::size_t policy, PlotFormat format) {
    std::string base(metric.key);
    if (policy < spec.policies.size()) {
        base += '-';
        base += fileSafeName(spec.policies[policy].label());
    }
    base += suffix;
    return QDir(dir).filePath(QString::fromStdString(base) + QLatin1Char('.') +
                              plotFormatName(format).toLower());
}

QString description(const SweepResults& results, const SweepGrid& grid) {
    return QStringLiteral("lookahead sweep %1 (%2): %3")
        .arg(QString::fromStdString(results.spec.name), QString::fromStdString(results.spec.source),
             QString::fromStdString(grid.title));
}

} // namespace

std::uint64_t sweepSlices(const SweepSpec& spec) {
    std::uint64_t n = 1;
    for (std::size_t i = 2; i < spec.axes.size(); ++i)
        n *= spec.axes[i].values.size();
    return n;
}

std::uint64_t sweepCellAt(const SweepSpec& spec, std::uint64_t slice, std::size_t x, std::size_t y) {
    std::vector<std::size_t> at = sliceCoordinates(spec, slice);
    at[0] = x;
    if (spec.axes.size() > 1)
        at[1] = y;
    std::uint64_t cell = 0;
    for (std::size_t i = 0; i < spec.axes.size(); ++i)
        cell = cell * spec.axes[i].values.size() + at[i];
    return cell;
}

std::string sweepSliceName(const SweepSpec& spec, std::uint64_t slice) {
    const std::vector<std::size_t> at = sliceCoordinates(spec, slice);
    std::string name;
    for (std::size_t i = 2; i < spec.axes.size(); ++i) {
        if (!name.empty())
            name += '-';
        name += spec.axes[i].option;
        name += '-';
        name += fileSafeName(spec.axes[i].values[at[i]]);
    }
    return name;
}

SweepGrid sweepGrid(const SweepResults& results, const SweepMetric& metric, std::uint64_t slice) {
    const SweepSpec& spec = results.spec;
    SweepGrid grid;
    grid.title = metric.title;
    grid.xTitle = spec.axes[0].title;
    grid.xLabels = spec.axes[0].values;
    if (spec.axes.size() > 1) {
        grid.yTitle = spec.axes[1].title;
        grid.yLabels = spec.axes[1].values;
    }
    for (const SweepPolicy& policy : spec.policies)
        grid.policies.push_back(policy.label());
    grid.values.assign(spec.policies.size(), std::vector<double>(grid.columns() * grid.rows()));
    for (std::size_t p = 0; p < spec.policies.size(); ++p)
        for (std::size_t y = 0; y < grid.rows(); ++y)
            for (std::size_t x = 0; x < grid.columns(); ++x)
                grid.values[p][y * grid.columns() + x] =
                    metric.value(results, sweepCellAt(spec, slice, x, y), p);
    grid.withinNoise.assign(spec.policies.size(), std::vector<char>(grid.columns() * grid.rows(), 0));
    bool marked = false;
    for (std::size_t p = 0; p < spec.policies.size(); ++p)
        for (std::size_t y = 0; y < grid.rows(); ++y)
            for (std::size_t x = 0; x < grid.columns(); ++x) {
                const bool within = results.withinNoise(sweepCellAt(spec, slice, x, y), p);
                grid.withinNoise[p][y * grid.columns() + x] = within;
                marked = marked || within;
            }
    if (!marked)
        grid.withinNoise.clear();
    return grid;
}

QStringList sweepMapFiles(const SweepSpec& spec, const QString& dir, const std::vector<PlotFormat>& formats) {
    QStringList files;
    for (std::uint64_t slice = 0; slice < sweepSlices(spec); ++slice) {
        const std::string suffix = sliceSuffix(spec, slice);
        for (const SweepMetric& metric : sweepMetrics())
            for (std::size_t p = 0; p <= spec.policies.size(); ++p)
                for (const PlotFormat format : formats)
                    files << mapPath(spec, dir, suffix, metric, p, format);
    }
    return files;
}

QString writeSweepMaps(const SweepResults& results, const QString& dir,
                       const std::vector<PlotFormat>& formats, QStringList* written) {
    SweepMapView view;
    view.resize(kMapSize);
    const std::size_t policies = results.spec.policies.size();
    for (std::uint64_t slice = 0; slice < sweepSlices(results.spec); ++slice) {
        const std::string suffix = sliceSuffix(results.spec, slice);
        for (const SweepMetric& metric : sweepMetrics()) {
            const SweepGrid grid = sweepGrid(results, metric, slice);
            // Every policy alone, then all side by side: one map's width each.
            for (std::size_t p = 0; p <= policies; ++p) {
                const bool all = p == policies;
                const QSize size = all ? QSize(int(420 * policies) + 220, kMapSize.height()) : kMapSize;
                view.resize(size);
                view.setGrid(grid, all ? -1 : int(p));
                for (const PlotFormat format : formats) {
                    const QString path = mapPath(results.spec, dir, suffix, metric, p, format);
                    const Drawing drawing{
                        size,
                        QString::fromStdString(grid.title) + QStringLiteral(" — ") +
                            (all ? QStringLiteral("every policy") : QString::fromStdString(grid.policies[p])),
                        description(results, grid), [&view, size](QPaintDevice& device) {
                            view.paint(device, size);
                            return true;
                        }};
                    const QString error = writeDrawingFile(path, format, drawing);
                    if (!error.isEmpty())
                        return error;
                    if (written)
                        written->append(path);
                }
            }
        }
    }
    return {};
}

} // namespace la
