// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_size_plot.h"

#include "device_trace.h"
#include "gradients.h"
#include "number_text.h"
#include "qcp.h"
#include "run_trace.h"
#include "tooltips.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <tuple>

namespace la {

namespace {
std::size_t sizeClass(int blocks) {
    return static_cast<std::size_t>(std::bit_width(static_cast<unsigned>(std::max(1, blocks))) - 1);
}
} // namespace

IoSizePlot::IoSizePlot(QWidget* parent) : PlotView(tr("I/O sizes"), parent) {
    m_histogramRect = new QCPAxisRect(plot());
    side()->addElement(0, 0, m_histogramRect);
    m_histogramRect->setAutoMargins(QCP::msNone);
    // Room for the size labels on the left (and for B's last x tick next to it), and for the last
    // count label on the right, at the window's edge.
    m_histogramRect->setMargins(paneMargins(34, 18));
    m_histogramRect->setRangeDrag(Qt::Orientations());
    m_histogramRect->setRangeZoom(Qt::Orientations());
    for (QCPAxis* axis : m_histogramRect->axes())
        styleAxis(axis);
    QCPAxis* counts = m_histogramRect->axis(QCPAxis::atBottom);
    counts->setLabel(tr("reads"));
    useCompactTicks(counts);
    counts->ticker()->setTickCount(2);
    m_barsGroup = new QCPBarsGroup(plot());
    m_barsGroup->setSpacing(0);
}

void IoSizePlot::setSizeAxis(QCPAxis* axis) {
    useBlockSizeTicks(axis, m_maxBlocks);
    axis->setRange(0.7, m_maxBlocks * 1.45);
}

void IoSizePlot::createPane(std::size_t run) {
    Pane& p = m_panes.emplace_back();
    QCPAxisRect* rect = pane(run);
    // Created first: drawn under the reads.
    for (QCPGraph** layer : {&p.deviceReads, &p.readAhead}) {
        *layer = plot()->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        (*layer)->setLineStyle(QCPGraph::lsNone);
        (*layer)->setAdaptiveSampling(false);
        (*layer)->removeFromLegend();
    }
    // Its legend above the pane's top right corner, clear of the data (the largest reads are drawn at
    // the top): the read-ahead entry last, the device-read entry left of it.
    for (std::size_t i = p.deviceLegend.size(); i-- > 0;) {
        auto* entry = new QCPItemText(plot());
        entry->setClipToAxisRect(false);
        if (i + 1 == p.deviceLegend.size()) {
            entry->position->setAxisRect(rect);
            entry->position->setType(QCPItemPosition::ptAxisRectRatio);
            entry->position->setCoords(1.0, 0.0);
            entry->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        } else {
            entry->position->setParentAnchor(p.deviceLegend[i + 1]->topLeft);
            entry->position->setCoords(-8.0, 0.0);
            entry->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        }
        QFont font = entry->font();
        font.setPixelSize(10);
        entry->setFont(font);
        entry->setText(i == 0 ? tr("○ device read") : tr("○ kernel read-ahead"));
        entry->setVisible(false);
        p.deviceLegend[i] = entry;
    }
    for (std::size_t c = 0; c < kSizeClasses; ++c) {
        QCPGraph* graph = plot()->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setAdaptiveSampling(false); // already one point per size and pixel column
        graph->removeFromLegend();
        p.graphs[c] = graph;
    }
    p.histogram =
        new QCPBars(m_histogramRect->axis(QCPAxis::atLeft), m_histogramRect->axis(QCPAxis::atBottom));
    p.histogram->setWidthType(QCPBars::wtAbsolute);
    p.histogram->setWidth(5);
    p.histogram->setBarsGroup(m_barsGroup);
    p.legend = new QCPItemText(plot());
    p.legend->setClipToAxisRect(false);
    p.legend->position->setAxisRect(m_histogramRect);
    p.legend->position->setType(QCPItemPosition::ptAxisRectRatio);
    p.legend->position->setCoords(0.5 * static_cast<double>(run % 2), 0.0);
    p.legend->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    p.legend->setText(QStringLiteral("■ ") + QLatin1Char(run % 2 == 0 ? 'A' : 'B'));
    QFont legendFont = p.legend->font();
    legendFont.setPixelSize(11);
    legendFont.setBold(true);
    p.legend->setFont(legendFont);
    p.legend->setPadding(QMargins(0, 1, 0, 2));
    rect->axis(QCPAxis::atLeft)->setLabel(tr("read size"));
    m_tickedMaxBlocks = 0;
}

void IoSizePlot::destroyPanes() {
    for (Pane& p : m_panes) {
        for (QCPGraph* graph : p.graphs)
            plot()->removeGraph(graph);
        plot()->removeGraph(p.deviceReads);
        plot()->removeGraph(p.readAhead);
        plot()->removePlottable(p.histogram);
        plot()->removeItem(p.legend);
        for (QCPItemText* entry : p.deviceLegend)
            plot()->removeItem(entry);
    }
    m_panes.clear();
}

void IoSizePlot::prepare() {
    m_maxBlocks = 2;
    for (const RunTrace* trace : runs()) {
        m_maxBlocks = std::max(m_maxBlocks, trace->limits().ioCombineLimit);
        m_maxBlocks = std::max(m_maxBlocks, trace->largestRead());
        for (const DeviceTrace::Read& read : trace->device().reads())
            m_maxBlocks = std::max<int>(m_maxBlocks, read.nblocks);
    }
    if (m_maxBlocks != m_tickedMaxBlocks) {
        for (std::size_t run = 0; run < paneCount(); ++run)
            setSizeAxis(pane(run)->axis(QCPAxis::atLeft));
        setSizeAxis(m_histogramRect->axis(QCPAxis::atLeft));
        m_tickedMaxBlocks = m_maxBlocks;
        applyTheme(); // the size colours are relative to the largest size
    }
}

bool IoSizePlot::binPane(std::size_t run, std::uint64_t budget) {
    const PaneGrid& g = grid(run);
    const IoSizeScatter::Key key{g.mode, AxisMap{g.xLo, g.xHi, g.columns}};
    return m_panes[run].scatter.update(*runs()[run], key, budget);
}

void IoSizePlot::publishPane(std::size_t run) {
    Pane& p = m_panes[run];
    if (p.scatter.takeChanged()) {
        std::array<QVector<double>, kSizeClasses> xs;
        std::array<QVector<double>, kSizeClasses> ys;
        for (const IoSizeScatter::Point& point : p.scatter.points()) {
            const std::size_t c = std::min(sizeClass(point.blocks), kSizeClasses - 1);
            xs[c].push_back(point.x);
            ys[c].push_back(point.blocks);
        }
        for (std::size_t c = 0; c < kSizeClasses; ++c)
            p.graphs[c]->setData(xs[c], ys[c], true);
    }
    updateDeviceLayer(run);
    updateHistogram(run);
}

// One mark per pixel column, size and kind: a capture's device reads are few enough to walk each frame.
void IoSizePlot::updateDeviceLayer(std::size_t run) {
    Pane& p = m_panes[run];
    const DeviceTrace& device = runs()[run]->device();
    const AxisMap columns{xLo(), xHi(), std::max(1, paneColumns(run))};
    std::set<std::tuple<bool, int, int>> marks; // read-ahead, column, blocks
    for (const DeviceTrace::Read& read : device.reads()) {
        const int cell = columns.cellOf(DeviceTrace::xOf(xMode(), read.startNs, read.position));
        if (cell >= 0 && cell < columns.cells)
            marks.emplace(read.readAhead, cell, std::max<int>(read.nblocks, 1));
    }
    std::array<QVector<double>, 2> xs, ys;
    for (const auto& [readAhead, cell, blocks] : marks) {
        xs[readAhead].push_back(columns.cellCentre(cell));
        ys[readAhead].push_back(blocks);
    }
    p.deviceReads->setData(xs[0], ys[0], true);
    p.readAhead->setData(xs[1], ys[1], true);
    const bool shown = !device.empty();
    p.deviceReads->setVisible(shown);
    p.readAhead->setVisible(shown);
    for (QCPItemText* entry : p.deviceLegend)
        entry->setVisible(shown);
}

void IoSizePlot::updateHistogram(std::size_t run) {
    QVector<double> keys;
    QVector<double> counts;
    double maxCount = 1.0;
    for (const RunTrace* trace : runs()) {
        for (const std::uint64_t count : trace->readSizeCounts())
            maxCount = std::max(maxCount, static_cast<double>(count));
    }
    const auto& sizes = runs()[run]->readSizeCounts();
    for (std::size_t size = 1; size < sizes.size(); ++size) {
        if (sizes[size] > 0) {
            keys.push_back(static_cast<double>(size));
            counts.push_back(static_cast<double>(sizes[size]));
        }
    }
    m_panes[run].histogram->setData(keys, counts, true);
    m_histogramRect->axis(QCPAxis::atBottom)->setRange(0.0, maxCount * 1.1);
}

QString IoSizePlot::tooltip(std::size_t run, const PixelRange& pixel) const {
    return ioSizeTooltip(*runs()[run], xMode(), pixel.xLo, pixel.xHi);
}

QString IoSizePlot::sideTooltip(const QPoint& pos) const {
    if (!m_histogramRect->rect().contains(pos) || runs().empty())
        return {};
    // The size whose bar is nearest the cursor, within a few pixels.
    const QCPAxis* sizes = m_histogramRect->axis(QCPAxis::atLeft);
    int nearest = 0;
    double best = 6.0;
    for (const RunTrace* trace : runs()) {
        const auto& counts = trace->readSizeCounts();
        for (std::size_t size = 1; size < counts.size(); ++size) {
            const double distance = std::fabs(sizes->coordToPixel(static_cast<double>(size)) - pos.y());
            if (counts[size] > 0 && distance < best) {
                best = distance;
                nearest = static_cast<int>(size);
            }
        }
    }
    if (nearest == 0)
        return {};
    QString text = formatBlocks(nearest);
    for (std::size_t run = 0; run < runs().size(); ++run)
        text += QStringLiteral("\n%1: %2 reads")
                    .arg(runName(run),
                         formatCount(runs()[run]->readSizeCounts()[static_cast<std::size_t>(nearest)]));
    return text;
}

void IoSizePlot::applyTheme() {
    const std::array<QColor, 2> runColours{theme().runA, theme().runB};
    for (std::size_t run = 0; run < m_panes.size(); ++run) {
        Pane& p = m_panes[run];
        for (std::size_t c = 0; c < kSizeClasses; ++c) {
            const QColor colour = sizeColour(1 << c, std::max(2, m_maxBlocks));
            p.graphs[c]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, colour, colour, 3));
        }
        p.deviceReads->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, theme().deviceRead, 7));
        p.readAhead->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, theme().kernelReadAhead, 7));
        p.deviceLegend[0]->setColor(theme().deviceRead);
        p.deviceLegend[1]->setColor(theme().kernelReadAhead);
        p.histogram->setPen(Qt::NoPen);
        p.histogram->setBrush(runColours[run % 2]);
        p.legend->setColor(runColours[run % 2]);
    }
}

} // namespace la
