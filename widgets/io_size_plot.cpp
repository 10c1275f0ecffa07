// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_size_plot.h"

#include "gradients.h"
#include "raster_support.h"
#include "run_trace.h"
#include "tooltips.h"

#include <algorithm>
#include <bit>

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
    m_histogramRect->setMargins(paneMargins(6, 8));
    m_histogramRect->setRangeDrag(Qt::Orientations());
    m_histogramRect->setRangeZoom(Qt::Orientations());
    for (QCPAxis* axis : m_histogramRect->axes())
        styleAxis(axis);
    QCPAxis* counts = m_histogramRect->axis(QCPAxis::atBottom);
    counts->setLabel(tr("reads"));
    useCompactTicks(counts);
    counts->ticker()->setTickCount(2);
    m_histogramRect->axis(QCPAxis::atLeft)->setTickLabels(false);
    m_barsGroup = new QCPBarsGroup(plot());
    m_barsGroup->setSpacing(0);
}

void IoSizePlot::setSizeAxis(QCPAxis* axis) {
    useBlockSizeTicks(axis, m_maxBlocks);
    axis->setRange(0.7, m_maxBlocks * 1.45);
}

void IoSizePlot::createPane(std::size_t run) {
    if (m_panes.size() <= run)
        m_panes.resize(run + 1);
    Pane& p = m_panes[run];
    QCPAxisRect* rect = pane(run);
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
    p.runLabel = addRunLabel(plot(), rect, runName(run));
    p.scatter = IoSizeScatter();
    rect->axis(QCPAxis::atLeft)->setLabel(tr("read size"));
    m_tickedMaxBlocks = 0;
}

void IoSizePlot::destroyPanes() {
    for (Pane& p : m_panes) {
        for (QCPGraph* graph : p.graphs)
            plot()->removeGraph(graph);
        plot()->removePlottable(p.histogram);
        plot()->removeItem(p.runLabel);
    }
    m_panes.clear();
}

void IoSizePlot::prepare() {
    m_maxBlocks = 2;
    for (const RunTrace* trace : runs()) {
        m_maxBlocks = std::max(m_maxBlocks, trace->limits().ioCombineLimit);
        m_maxBlocks = std::max(m_maxBlocks, trace->largestRead());
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
    const IoSizeScatter::Key key{xMode(), AxisMap{xLo(), xHi(), paneColumns(run)}};
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
    updateHistogram(run);
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

void IoSizePlot::applyTheme() {
    const std::array<QColor, 2> runColours{theme().runA, theme().runB};
    for (std::size_t run = 0; run < m_panes.size(); ++run) {
        Pane& p = m_panes[run];
        for (std::size_t c = 0; c < kSizeClasses; ++c) {
            const QColor colour = sizeColour(1 << c, std::max(2, m_maxBlocks));
            p.graphs[c]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, colour, colour, 3));
        }
        p.histogram->setPen(Qt::NoPen);
        p.histogram->setBrush(runColours[run % 2]);
        p.runLabel->setColor(theme().text);
    }
}

} // namespace la
