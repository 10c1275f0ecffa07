// SPDX-License-Identifier: GPL-3.0-or-later
#include "distance_plot.h"

#include "device_trace.h"
#include "number_text.h"
#include "qcp.h"
#include "run_trace.h"
#include "series_columns.h"
#include "tooltips.h"
#include "x_mapping.h"

#include <QMenu>

#include <algorithm>
#include <cmath>
#include <limits>

namespace la {

namespace {

// Powers of 2 that always include 2 where it is in view: a short pane's ticks (1, 32) would
// otherwise leave out the very value the 1↔2 collapse is about.
class DistanceTicker final : public QCPAxisTickerLog {
protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        QVector<double> ticks = QCPAxisTickerLog::createTickVector(tickStep, range);
        if (range.contains(2.0) && !ticks.contains(2.0)) {
            ticks.append(2.0);
            std::sort(ticks.begin(), ticks.end());
        }
        return ticks;
    }
};

constexpr double kHeadroom = 1.1;
// On the log axis: room above the highest step for the collapse labels, and 1 just above the bottom.
constexpr double kLogHeadroom = 1.6;
constexpr double kLogBottom = 0.8;

// Reset marks: full height while they leave most pixel columns free, else a rug of ticks this high
// along the top of the pane, where only the collapse labels' headroom is.
constexpr double kSparseResets = 0.125; // marked columns per pixel column
constexpr double kResetRugPixels = 8.0;
constexpr int kResetAlpha = 110;

const char* const kSeriesNames[kStateSeriesCount] = {"distance", "combine dist.", "pinned", "in flight"};

QVector<double> toVector(const std::vector<double>& v) {
    return QVector<double>(v.begin(), v.end());
}

// A log axis has no 0 (the stream's end): it sits on the axis' bottom. Drawn below it, the line would
// leave the pane in an SVG, which does not clip.
QVector<double> atLeast(const std::vector<double>& v, double floor) {
    QVector<double> out(v.begin(), v.end());
    for (double& value : out)
        value = std::max(value, floor);
    return out;
}

} // namespace

DistancePlot::DistancePlot(QWidget* parent) : PlotView(tr("Read-ahead distance"), parent) {
    // The legend lives in the side column, where it never covers data.
    QCPLegend* legend = plot()->legend;
    plot()->axisRect(0)->insetLayout()->take(legend);
    side()->addElement(0, 0, legend);
    legend->setVisible(true);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setIconSize(14, 8);
    legend->setRowSpacing(-2);
    legend->setMargins(QMargins(6, 6, 2, 2));
    QFont font = legend->font();
    font.setPixelSize(10);
    legend->setFont(font);
    side()->addElement(1, 0, new QCPLayoutElement(plot())); // takes the space under the legend
    side()->setRowStretchFactor(0, 0.01);
    // The distance is what the plot is about: drawn over pinned and in flight, which often share its
    // values (in a collapse all three sit at 1-2).
    plot()->addLayer(QStringLiteral("distance"), plot()->layer(QStringLiteral("main")),
                     QCustomPlot::limAbove);
}

void DistancePlot::createPane(std::size_t run) {
    Pane& p = m_panes.emplace_back();
    QCPAxisRect* rect = pane(run);
    for (std::size_t s = 0; s < kStateSeriesCount; ++s) {
        QCPGraph* graph = plot()->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        graph->setName(QString::fromLatin1(kSeriesNames[s]));
        graph->setAdaptiveSampling(false); // reduced per pixel already
        graph->setAntialiased(false);      // steps are axis-aligned; antialiasing only costs replot time
        if (run != 0)
            graph->removeFromLegend();
        if (static_cast<StateSeries>(s) == StateSeries::Distance)
            graph->setLayer(QStringLiteral("distance"));
        p.graphs[s] = graph;
    }
    p.queueDepth = plot()->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    p.queueDepth->setName(tr("device queue depth"));
    p.queueDepth->setLineStyle(QCPGraph::lsStepLeft);
    p.queueDepth->setAdaptiveSampling(false);
    p.queueDepth->removeFromLegend(); // added once a run has device reads
    p.resets = plot()->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    p.resets->setAdaptiveSampling(false);
    p.resets->setAntialiased(false);
    p.resets->setLayer(QStringLiteral("grid")); // under the data it marks
    p.resets->removeFromLegend();               // added once the run has reset
    p.resetCount = new QCPItemText(plot());
    p.resetCount->setClipToAxisRect(false); // in the top margin, where it hides no data
    p.resetCount->position->setAxisRect(rect);
    p.resetCount->position->setType(QCPItemPosition::ptAxisRectRatio);
    p.resetCount->position->setCoords(1.0, 0.0);
    p.resetCount->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    p.resetCount->setPadding(QMargins(3, 1, 0, 2));
    p.resetCount->setLayer(QStringLiteral("legend"));
    QFont countFont = p.resetCount->font();
    countFont.setPixelSize(11);
    countFont.setBold(true);
    p.resetCount->setFont(countFont);
    p.resetCount->setVisible(false);
    p.maxPinned = makeLimitLine(run);
    p.ioCombineLimit = makeLimitLine(run);
    applyYScale(rect->axis(QCPAxis::atLeft));
}

DistancePlot::LimitLine DistancePlot::makeLimitLine(std::size_t run) {
    QCPAxisRect* rect = pane(run);
    LimitLine limit;
    limit.line = new QCPItemStraightLine(plot());
    limit.line->setClipAxisRect(rect);
    for (QCPItemPosition* position : {limit.line->point1, limit.line->point2})
        position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    limit.label = new QCPItemText(plot());
    limit.label->setClipAxisRect(rect);
    limit.label->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    limit.label->position->setAxisRect(rect);
    limit.label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    limit.label->position->setTypeY(QCPItemPosition::ptPlotCoords);
    limit.label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    QFont font = limit.label->font();
    font.setPixelSize(10);
    limit.label->setFont(font);
    return limit;
}

void DistancePlot::setLogY(bool log) {
    m_logY = log;
    for (std::size_t run = 0; run < paneCount(); ++run)
        applyYScale(pane(run)->axis(QCPAxis::atLeft));
    emit needsRefresh();
}

void DistancePlot::applyYScale(QCPAxis* y) const {
    y->setScaleType(m_logY ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (m_logY) {
        auto ticker = QSharedPointer<DistanceTicker>::create();
        ticker->setLogBase(2);
        ticker->setSubTickCount(0);
        y->setTicker(ticker);
        y->setNumberFormat(QStringLiteral("f"));
        y->setNumberPrecision(0);
    } else {
        y->setTicker(QSharedPointer<QCPAxisTicker>::create());
        y->setNumberFormat(QStringLiteral("gbd")); // QCustomPlot's default
        y->setNumberPrecision(6);
    }
    y->setLabel(m_logY ? tr("buffers (log₂)") : tr("buffers"));
}

void DistancePlot::addViewActions(QMenu* menu) {
    QAction* log = menu->addAction(tr("Logarithmic y axis (log₂)"), this, [this](bool on) { setLogY(on); });
    log->setCheckable(true);
    log->setChecked(m_logY);
}

void DistancePlot::placeLimitLine(std::size_t run, const LimitLine& limit, double value,
                                  const QString& text) {
    const QCPAxis* y = pane(run)->axis(QCPAxis::atLeft);
    const bool visible = value > 0 && y->range().contains(value);
    limit.line->setVisible(visible);
    limit.label->setVisible(visible);
    limit.line->point1->setCoords(0.0, value);
    limit.line->point2->setCoords(1.0, value);
    limit.label->position->setCoords(0.995, value);
    limit.label->setText(text);
    // Above its line, unless that would cut it off at the top of the plot area.
    const double room = y->coordToPixel(value) - pane(run)->top();
    const bool above = room >= QFontMetricsF(limit.label->font()).height() + 2.0;
    limit.label->setPositionAlignment(Qt::AlignRight | (above ? Qt::AlignBottom : Qt::AlignTop));
}

void DistancePlot::destroyPanes() {
    for (Pane& p : m_panes) {
        for (QCPGraph* graph : p.graphs)
            plot()->removeGraph(graph);
        plot()->removeGraph(p.queueDepth);
        plot()->removeGraph(p.resets);
        plot()->removeItem(p.resetCount);
        for (QCPAbstractItem* item : std::initializer_list<QCPAbstractItem*>{
                 p.maxPinned.line, p.maxPinned.label, p.ioCombineLimit.line, p.ioCombineLimit.label})
            plot()->removeItem(item);
        for (QCPItemRect* rect : p.collapseRects)
            plot()->removeItem(rect);
        for (QCPItemText* text : p.collapseLabels)
            plot()->removeItem(text);
    }
    m_panes.clear();
}

void DistancePlot::prepare() {
    m_showCombine = false;
    double end = 0.0;
    double limits = 0.0;
    for (const RunTrace* trace : runs()) {
        m_showCombine = m_showCombine || trace->state().maxValue(StateSeries::CombineDistance) > 0;
        end = std::max(end, xEnd(*trace, xMode()));
        limits = std::max<double>({limits, static_cast<double>(trace->limits().maxPinned),
                                   static_cast<double>(trace->limits().ioCombineLimit)});
    }
    // Zoomed in, y fits the data in view; the whole run also shows the limits it runs up against.
    m_limitMax = xLo() <= 0.0 && xHi() >= end ? limits : 0.0;
}

void DistancePlot::fitYAxes() {
    double yMax = std::max(2.0, m_limitMax);
    for (const Pane& p : m_panes) {
        for (std::size_t s = 0; s < kStateSeriesCount; ++s)
            yMax = std::max<double>(yMax, p.columns.maxValue(static_cast<StateSeries>(s)));
        yMax = std::max(yMax, p.queueDepthMax);
    }
    for (std::size_t run = 0; run < m_panes.size(); ++run) {
        if (m_logY)
            pane(run)->axis(QCPAxis::atLeft)->setRange(kLogBottom, yMax * kLogHeadroom);
        else
            pane(run)->axis(QCPAxis::atLeft)->setRange(0.0, yMax * kHeadroom);
    }
}

bool DistancePlot::binPane(std::size_t run, std::uint64_t budget) {
    const PaneGrid& g = grid(run);
    const SeriesColumns::Key key{g.mode, AxisMap{g.xLo, g.xHi, g.columns}};
    binResets(run, key);
    return m_panes[run].columns.update(*runs()[run], key, budget);
}

void DistancePlot::publishPane(std::size_t run) {
    const RunTrace& trace = *runs()[run];
    Pane& p = m_panes[run];
    updateQueueDepth(run);
    // Every pane, every time: A and B keep identical axes, whichever was binned last.
    fitYAxes();
    if (p.columns.takeChanged()) {
        for (std::size_t s = 0; s < kStateSeriesCount; ++s) {
            const Polyline line = p.columns.polyline(static_cast<StateSeries>(s));
            p.graphs[s]->setData(toVector(line.x), m_logY ? atLeast(line.y, kLogBottom) : toVector(line.y),
                                 true);
        }
    }
    p.graphs[static_cast<std::size_t>(StateSeries::CombineDistance)]->setVisible(m_showCombine);
    if (run == 0) {
        QCPGraph* combine = p.graphs[static_cast<std::size_t>(StateSeries::CombineDistance)];
        if (m_showCombine)
            combine->addToLegend();
        else
            combine->removeFromLegend();
    }
    const RunLimits& limits = trace.limits();
    // The line is the limit the stream ran under: with a BULKREAD ring that capped it, the ring's.
    const bool ringCapped = limits.ringBuffers > 0 && limits.maxPinned == limits.ringBuffers;
    placeLimitLine(
        run, p.maxPinned, limits.maxPinned,
        (ringCapped ? QStringLiteral("max_pinned %1 (BULKREAD ring)") : QStringLiteral("max_pinned %1"))
            .arg(limits.maxPinned));
    placeLimitLine(run, p.ioCombineLimit, limits.ioCombineLimit,
                   QStringLiteral("io_combine_limit %1").arg(limits.ioCombineLimit));
    updateCollapses(run);
    updateResets(run);
}

// The marks span the pane's y range exactly: an SVG does not clip what is drawn beyond it.
void DistancePlot::placeResetMarks(std::size_t run) {
    const Pane& p = m_panes[run];
    const QCPAxis* y = pane(run)->axis(QCPAxis::atLeft);
    const double cells = std::max(1, p.resetKey.x.cells);
    const bool sparse = static_cast<double>(p.resetXs.size()) <= kSparseResets * cells;
    const double top = y->range().upper;
    const double bottom = sparse ? y->range().lower : y->pixelToCoord(pane(run)->top() + kResetRugPixels);
    QVector<double> keys, values;
    keys.reserve(static_cast<qsizetype>(p.resetXs.size() * 3));
    values.reserve(keys.capacity());
    for (const double x : p.resetXs) {
        keys << x << x << x;
        values << bottom << top << std::numeric_limits<double>::quiet_NaN();
    }
    p.resets->setData(keys, values, true);
}

QColor DistancePlot::resetColour(std::size_t run) const {
    QColor colour = run == 0 ? theme().runA : theme().runB;
    colour.setAlpha(kResetAlpha);
    return colour;
}

// One mark per pixel column holding a reset, drawn as a vertical segment of one graph (NaN between
// segments breaks its line): a million rescans cost a few thousand points, never a million items, and
// two searches of the resets per column. On the model thread: the resets may be on disk.
void DistancePlot::binResets(std::size_t run, const SeriesColumns::Key& key) {
    Pane& p = m_panes[run];
    const RunTrace& trace = *runs()[run];
    if (key == p.resetKey && trace.resets() == p.resetsBinned && trace.positions() == p.positionsBinned)
        return;
    p.resetKey = key;
    p.resetsBinned = trace.resets();
    p.positionsBinned = trace.positions();
    const AxisMap& columns = key.x;
    std::vector<double>& xs = p.resetXs;
    xs.clear();
    p.resetsMarked = 0;
    std::size_t from = trace.firstResetAt(positionAtX(trace, key.mode, columns.lo));
    for (int cell = 0; cell < columns.cells && from < trace.resets(); ++cell) {
        // The last column also takes a reset after the last block, which sits on the end of the range.
        const double end = cell + 1 < columns.cells
                               ? positionAtX(trace, key.mode, columns.cellStart(cell + 1))
                               : std::nextafter(positionAtX(trace, key.mode, columns.hi),
                                                std::numeric_limits<double>::max());
        const std::size_t to = std::max(from, trace.firstResetAt(end));
        if (to > from) {
            xs.push_back(columns.cellCentre(cell));
            p.resetsMarked += to - from;
        }
        from = to;
    }
    p.resetMarks = xs.size();
}

// The marks binned for the pane, its legend entry and its count.
void DistancePlot::updateResets(std::size_t run) {
    Pane& p = m_panes[run];
    const RunTrace& trace = *runs()[run];
    // The y range is common to the panes and the last one published may have moved it.
    for (std::size_t other = 0; other < m_panes.size(); ++other)
        placeResetMarks(other);
    const bool shown = trace.resets() > 0;
    p.resets->setVisible(shown);
    p.resets->setName(runs().size() > 1 ? runName(run).left(1) + QStringLiteral(" reset (rescan)")
                                        : QStringLiteral("reset (rescan)"));
    if (shown)
        p.resets->addToLegend();
    else
        p.resets->removeFromLegend();
    // The count beside the run's name, shortened where the two would meet.
    QString caption = resetCaption(run);
    const QFontMetricsF metrics(p.resetCount->font());
    const double room = pane(run)->width() - metrics.horizontalAdvance(runName(run) + QStringLiteral("  "));
    if (metrics.horizontalAdvance(caption) > room)
        caption = QStringLiteral("%1 resets").arg(formatCount(trace.resets()));
    p.resetCount->setText(caption);
    p.resetCount->setVisible(shown && metrics.horizontalAdvance(caption) <= room);
}

QString DistancePlot::resetCaption(std::size_t run) const {
    const std::size_t resets = runs()[run]->resets();
    if (resets == 0)
        return {};
    return resets == 1 ? QStringLiteral("1 reset (rescan)")
                       : QStringLiteral("%1 resets (rescans)").arg(formatCount(resets));
}

// The device's requests in flight over the x range in view, the highest in each pixel column: a
// burst of read-ahead shows at its peak however far out the view is zoomed.
void DistancePlot::updateQueueDepth(std::size_t run) {
    Pane& p = m_panes[run];
    const DeviceTrace& device = runs()[run]->device();
    const AxisMap columns{xLo(), xHi(), std::max(1, paneColumns(run))};
    QVector<double> xs, ys;
    int lastCell = -2;
    double carried = 0.0; // the depth where the view begins
    p.queueDepthMax = 0.0;
    for (const DeviceTrace::Depth& step : device.depth()) {
        const int cell = columns.cellOf(DeviceTrace::xOf(xMode(), step.timeNs, step.position));
        const double depth = step.depth;
        if (cell < 0) {
            carried = depth;
            continue;
        }
        if (cell >= columns.cells)
            break;
        if (xs.isEmpty()) {
            xs.push_back(columns.lo);
            ys.push_back(carried);
        }
        if (cell != lastCell) {
            xs.push_back(columns.cellStart(cell));
            ys.push_back(depth);
            lastCell = cell;
        } else {
            ys.back() = std::max(ys.back(), depth);
        }
        p.queueDepthMax = std::max(p.queueDepthMax, ys.back());
    }
    if (m_logY)
        for (double& y : ys)
            y = std::max(y, kLogBottom);
    p.queueDepth->setData(xs, ys, true);
    const bool shown = !device.empty();
    p.queueDepth->setVisible(shown);
    // One legend entry, for the first pane that draws it.
    const bool first = std::none_of(m_panes.begin(), m_panes.begin() + static_cast<std::ptrdiff_t>(run),
                                    [](const Pane& other) { return other.queueDepth->visible(); });
    if (shown && first)
        p.queueDepth->addToLegend();
    else
        p.queueDepth->removeFromLegend();
}

QCPItemRect* DistancePlot::collapseRect(std::size_t run, std::size_t index) {
    Pane& p = m_panes[run];
    while (p.collapseRects.size() <= index) {
        QCPAxisRect* rect = pane(run);
        auto* item = new QCPItemRect(plot());
        item->setLayer(QStringLiteral("grid"));
        item->setClipAxisRect(rect);
        for (QCPItemPosition* position : {item->topLeft, item->bottomRight}) {
            position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            position->setAxisRect(rect);
            position->setTypeX(QCPItemPosition::ptPlotCoords);
            position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        item->setPen(Qt::NoPen);
        item->setBrush(theme().collapseFill);
        p.collapseRects.push_back(item);
    }
    return p.collapseRects[index];
}

QCPItemText* DistancePlot::collapseText(std::size_t run, std::size_t index) {
    Pane& p = m_panes[run];
    while (p.collapseLabels.size() <= index) {
        QCPAxisRect* rect = pane(run);
        auto* item = new QCPItemText(plot());
        item->setClipAxisRect(rect);
        item->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        item->position->setAxisRect(rect);
        item->position->setTypeX(QCPItemPosition::ptPlotCoords);
        item->position->setTypeY(QCPItemPosition::ptPlotCoords);
        item->setPositionAlignment(Qt::AlignHCenter | Qt::AlignVCenter);
        QFont font = item->font();
        font.setPixelSize(11);
        font.setBold(true);
        item->setFont(font);
        item->setColor(theme().collapseText);
        p.collapseLabels.push_back(item);
    }
    return p.collapseLabels[index];
}

void DistancePlot::updateCollapses(std::size_t run) {
    const RunTrace& trace = *runs()[run];
    QCPAxis* x = pane(run)->axis(QCPAxis::atBottom);
    std::size_t rects = 0;
    std::size_t labels = 0;
    // Collapses closer than two pixels are drawn as one: a million tiny rectangles say no more.
    double lo = 0, hi = 0;
    CollapseInterval merged{0, 0};
    bool open = false;
    const auto flush = [&] {
        QCPItemRect* item = collapseRect(run, rects++);
        item->topLeft->setCoords(lo, 0.0);
        item->bottomRight->setCoords(hi, 1.0);
        item->setVisible(true);
        labelCollapse(run, labels, lo, hi, merged);
    };
    for (std::size_t i = 0; i < trace.collapseCount(); ++i) {
        const CollapseInterval interval = trace.collapse(i);
        const double a = xOfPosition(trace, xMode(), static_cast<double>(interval.first));
        const double b = xOfPosition(trace, xMode(), static_cast<double>(interval.second + 1));
        if (b < xLo() || a > xHi())
            continue;
        if (open && x->coordToPixel(a) - x->coordToPixel(hi) < 2.0) {
            hi = b;
            merged.second = interval.second;
            continue;
        }
        if (open)
            flush();
        lo = a;
        hi = b;
        merged = interval;
        open = true;
    }
    if (open)
        flush();
    Pane& p = m_panes[run];
    for (std::size_t i = rects; i < p.collapseRects.size(); ++i)
        p.collapseRects[i]->setVisible(false);
    for (std::size_t i = labels; i < p.collapseLabels.size(); ++i)
        p.collapseLabels[i]->setVisible(false);
}

// Between the collapsed distance (<= 2) and the lowest limit line in view, where nothing is drawn
// during a collapse.
double DistancePlot::collapseLabelY(std::size_t run) const {
    const QCPRange range = pane(run)->axis(QCPAxis::atLeft)->range();
    double top = range.upper;
    for (const double limit : {static_cast<double>(runs()[run]->limits().ioCombineLimit),
                               static_cast<double>(runs()[run]->limits().maxPinned)})
        if (limit > 2.5 && range.contains(limit))
            top = std::min(top, limit);
    const double bottom = std::min(2.5, top);
    return m_logY ? std::sqrt(bottom * top) : (bottom + top) / 2.0;
}

// The full caption where it fits over the shaded span in view, a short one where only that fits,
// none on slivers (hovering says more).
void DistancePlot::labelCollapse(std::size_t run, std::size_t& labels, double lo, double hi,
                                 CollapseInterval interval) {
    const QCPAxis* x = pane(run)->axis(QCPAxis::atBottom);
    const double visibleLo = std::max(lo, xLo());
    const double visibleHi = std::min(hi, xHi());
    const double pixels = x->coordToPixel(visibleHi) - x->coordToPixel(visibleLo);
    QCPItemText* text = collapseText(run, labels);
    const QFontMetricsF metrics(text->font());
    QString caption = collapseLabel(*runs()[run], interval);
    if (metrics.horizontalAdvance(caption) + 8.0 > pixels)
        caption = tr("stuck at 1↔2");
    if (metrics.horizontalAdvance(caption) + 8.0 > pixels)
        return;
    ++labels;
    text->position->setCoords((visibleLo + visibleHi) / 2.0, collapseLabelY(run));
    text->setText(caption);
    text->setVisible(true);
}

QString DistancePlot::tooltip(std::size_t run, const PixelRange& pixel) const {
    return stateTooltip(*runs()[run], xMode(), pixel.xLo, pixel.xHi);
}

void DistancePlot::applyTheme() {
    const PlotTheme& t = theme();
    const std::array<QColor, kStateSeriesCount> colours{t.distance, t.combineDistance, t.pinned, t.inFlight};
    plot()->legend->setTextColor(t.text);
    for (Pane& p : m_panes) {
        for (std::size_t s = 0; s < kStateSeriesCount; ++s)
            p.graphs[s]->setPen(QPen(colours[s], 1.0));
        p.queueDepth->setPen(QPen(t.queueDepth, 1.5));
        const auto run = static_cast<std::size_t>(&p - m_panes.data());
        p.resets->setPen(QPen(resetColour(run), 1.0));
        p.resetCount->setColor(run == 0 ? t.runA : t.runB);
        for (const LimitLine* limit : {&p.maxPinned, &p.ioCombineLimit}) {
            limit->line->setPen(QPen(t.limit, 1.0, Qt::DashLine));
            limit->label->setColor(t.limit);
            limit->label->setBrush(t.labelBackground); // data passing behind does not strike it through
        }
        for (QCPItemRect* rect : p.collapseRects)
            rect->setBrush(t.collapseFill);
        for (QCPItemText* text : p.collapseLabels)
            text->setColor(t.collapseText);
    }
}

QString DistancePlot::cannotDraw(const RunTrace& run) const {
    if (!run.observed() || !run.device().empty())
        return {};
    return tr("A syscall trace does not show the read-ahead distance:\nthe model beside it does (a kernel "
              "capture\nshows the device's queue depth here)");
}

} // namespace la
