// SPDX-License-Identifier: GPL-3.0-or-later
#include "streams_plot.h"

#include "axis_map.h"
#include "qcp.h"
#include "run_trace.h"
#include "state_buckets.h"

#include <algorithm>
#include <cmath>

namespace la {

namespace {

// A lane's data takes this share of its height; the rest keeps lanes apart.
constexpr double kLaneFill = 0.8;
constexpr double kNsPerSecond = 1e9;

} // namespace

StreamsPlot::StreamsPlot(QWidget* parent) : PlotView(tr("Streams' read-ahead distance"), parent) {
    // The side column has nothing to show, but an empty grid would take the panes' height to 0.
    side()->addElement(0, 0, new QCPLayoutElement(plot()));
}

bool StreamsPlot::hasStreams() const {
    return std::any_of(runs().begin(), runs().end(),
                       [](const RunTrace* trace) { return trace->streams() > 1; });
}

void StreamsPlot::createPane(std::size_t run) {
    m_panes.emplace_back();
    QCPAxis* y = pane(run)->axis(QCPAxis::atLeft);
    y->setLabel(tr("stream"));
    m_labelledLanes = 0;
}

void StreamsPlot::destroyPanes() {
    for (Pane& p : m_panes)
        for (QCPGraph* graph : p.graphs)
            plot()->removeGraph(graph);
    m_panes.clear();
}

void StreamsPlot::prepare() {
    m_lanes = 1;
    m_maxDistance = 2.0;
    for (const RunTrace* trace : runs()) {
        m_lanes = std::max(m_lanes, trace->streams());
        for (std::size_t s = 0; s < trace->streams(); ++s)
            if (const StateBuckets* state = trace->streamState(s))
                m_maxDistance = std::max<double>(m_maxDistance, state->maxValue(StateSeries::Distance));
    }
}

double StreamsPlot::laneY(std::size_t lane, double distance) const {
    const double share = std::log2(1.0 + std::max(0.0, distance)) / std::log2(1.0 + m_maxDistance);
    return static_cast<double>(lane) + kLaneFill * std::clamp(share, 0.0, 1.0);
}

// On the model thread: a lane is at most RunTrace::kStreamBuckets buckets (the shown stream's its full
// state), binned whole each time.
bool StreamsPlot::binPane(std::size_t run, std::uint64_t) {
    const RunTrace& trace = *runs()[run];
    const PaneGrid& g = grid(run);
    const AxisMap columns{g.xLo, g.xHi, g.columns};
    std::vector<Lane>& lanes = m_panes[run].binned;
    lanes.assign(trace.streams(), Lane{});
    if (!columns.valid())
        return true;
    for (std::size_t s = 0; s < trace.streams(); ++s) {
        const StateBuckets* state = trace.streamState(s);
        if (state == nullptr)
            continue;
        std::vector<double> largest(static_cast<std::size_t>(columns.cells), -1.0);
        for (std::size_t b = 0; b < state->size(); ++b) {
            const double ns = static_cast<double>(state->firstTime(b));
            const double x = g.mode == XAxis::Time ? ns / kNsPerSecond : trace.positionAtTimeNs(ns);
            const int cell = columns.cellOf(x);
            if (cell < 0 || cell >= columns.cells)
                continue;
            double& cellMax = largest[static_cast<std::size_t>(cell)];
            cellMax = std::max<double>(cellMax, state->hi(StateSeries::Distance, b));
        }
        for (int cell = 0; cell < columns.cells; ++cell) {
            if (largest[static_cast<std::size_t>(cell)] < 0.0)
                continue;
            lanes[s].x.push_back(columns.cellCentre(cell));
            lanes[s].distance.push_back(largest[static_cast<std::size_t>(cell)]);
        }
    }
    return true;
}

void StreamsPlot::publishPane(std::size_t run) {
    Pane& p = m_panes[run];
    QCPAxisRect* rect = pane(run);
    while (p.graphs.size() < p.binned.size()) {
        QCPGraph* graph = plot()->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setAdaptiveSampling(false); // one point per pixel column already
        graph->setPen(QPen(theme().distance, 1.0));
        p.graphs.push_back(graph);
    }
    for (std::size_t lane = 0; lane < p.graphs.size(); ++lane) {
        QVector<double> keys, values;
        if (lane < p.binned.size()) {
            keys = QVector<double>(p.binned[lane].x.begin(), p.binned[lane].x.end());
            for (const double distance : p.binned[lane].distance)
                values.append(laneY(lane, distance));
        }
        p.graphs[lane]->setData(keys, values, true);
    }
    rect->axis(QCPAxis::atLeft)->setRange(0.0, static_cast<double>(m_lanes));
    labelLanes();
}

// Each lane named at its middle; the stream the other views draw is said to be so.
void StreamsPlot::labelLanes() {
    if (m_labelledLanes == m_lanes || m_panes.empty())
        return;
    m_labelledLanes = m_lanes;
    for (std::size_t run = 0; run < m_panes.size(); ++run) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        const std::size_t shown = runs()[run]->limits().stream;
        for (std::size_t lane = 0; lane < m_lanes; ++lane)
            ticker->addTick(static_cast<double>(lane) + kLaneFill / 2.0,
                            lane == shown ? tr("%1 (drawn)").arg(lane) : QString::number(lane));
        pane(run)->axis(QCPAxis::atLeft)->setTicker(ticker);
    }
}

QString StreamsPlot::tooltip(std::size_t run, const PixelRange& pixel) const {
    const std::vector<Lane>& lanes = m_panes[run].binned;
    const double middle = (pixel.yLo + pixel.yHi) / 2.0;
    if (middle < 0.0)
        return {};
    const auto lane = static_cast<std::size_t>(middle);
    if (lane >= lanes.size())
        return {};
    const Lane& l = lanes[lane];
    const double x = (pixel.xLo + pixel.xHi) / 2.0;
    const auto at = std::upper_bound(l.x.begin(), l.x.end(), x);
    if (at == l.x.begin())
        return tr("stream %1: no buffer yet").arg(lane);
    const auto index = static_cast<std::size_t>(at - l.x.begin() - 1);
    return tr("stream %1: read-ahead distance up to %2").arg(lane).arg(l.distance[index]);
}

QString StreamsPlot::cannotDraw(const RunTrace& run) const {
    if (!run.observed())
        return {};
    return tr("A trace has no read streams: the model does");
}

void StreamsPlot::applyTheme() {
    for (Pane& p : m_panes)
        for (QCPGraph* graph : p.graphs)
            graph->setPen(QPen(theme().distance, 1.0));
}

} // namespace la
