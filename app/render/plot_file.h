// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>

#include <functional>
#include <vector>

class QPaintDevice;

namespace la {

class Dashboard;

// The file formats plots are exported to. PNG is a picture of the screen at any scale; SVG and PDF
// are vector drawings (the hit/miss and request rasters stay images inside them).
enum class PlotFormat { Png, Svg, Pdf };

// By the file's suffix (.png, .svg, .pdf, any case); PNG for anything else.
PlotFormat plotFormatOf(const QString& path);
// The file dialog's filter: every format, the one of `current` first.
QString plotFileFilter(PlotFormat current);
QString plotFormatName(PlotFormat format);

// An export's size unless one is asked for (logical pixels), on the command line as in the window.
inline constexpr QSize kDefaultExportSize{1600, 1000};

// What an export shows and what its metadata says about it.
struct PlotExport {
    PlotFormat format = PlotFormat::Png;
    QSize size = kDefaultExportSize; // logical pixels: the SVG's user units, the PDF page at the screen's dpi
    double scale = 1.0;              // PNG only
    int plotIndex = -1;              // -1 = the whole dashboard
    QString caption;
    QByteArray summary; // the runs' summary JSON, compact (experiment/summary_json.h)
};

// Renders and writes the file atomically, with the caption, the dashboard's verdict (both whole: the
// drawn ones may end in "…") and the summary JSON (config, labels, compare mode) as metadata: PNG text
// chunks, the SVG's <title> and <desc>, the PDF's title and XMP description, each escaped for its
// format (export_text.h). Returns an error message naming the file, empty on success.
[[nodiscard]] QString writePlotFile(const QString& path, Dashboard& dashboard, const PlotExport& what);

// Anything else drawn onto a paint device (sweep maps), and what its file says about it: the PNG's
// Title and Description text chunks, the SVG's <title> and <desc>, the PDF's title and XMP.
struct Drawing {
    QSize size;
    QString title;
    QString description;
    std::function<bool(QPaintDevice&)> paint; // false: it could not draw
};
inline constexpr int kDrawingDpi = 96; // SVG and PDF: one unit is one pixel of `size`

// Renders and writes the file atomically; returns an error message naming it, empty on success.
[[nodiscard]] QString writeDrawingFile(const QString& path, PlotFormat format, const Drawing& drawing);

} // namespace la
