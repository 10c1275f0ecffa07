// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "collapse_detector.h"
#include "plot_view.h"
#include "series_columns.h"
#include "state_buckets.h"

#include <array>
#include <cstdint>
#include <vector>

class QCPAxis;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QMenu;

namespace la {

// Read-ahead distance (and PG19's combine distance), pinned buffers and reads in flight, with the
// max_pinned and io_combine_limit lines and every collapse shaded and labelled (live, as it happens).
// An observed run from a kernel capture has no distance: its pane draws the device's queue depth.
// The y axis is log2 by default (distances run from 1 to over 1,000, and a collapse to 1↔2 must show)
// and fits the visible x range, so a zoom into a collapse shows its 1,2,1,2 steps.
class DistancePlot : public PlotView {
    Q_OBJECT
public:
    explicit DistancePlot(QWidget* parent = nullptr);
    void setLogY(bool log);
    bool logY() const { return m_logY; }
    // Run `run`'s resets drawn in view as marks (several closer than a pixel are one mark), and the
    // marks; tests read them as a user counts the ticks.
    std::uint64_t resetsMarked(std::size_t run) const { return m_panes[run].resetsMarked; }
    std::size_t resetMarks(std::size_t run) const { return m_panes[run].resetMarks; }
    // What the pane says of its run's resets above its plot area; empty for a run without one.
    QString resetCaption(std::size_t run) const;

protected:
    void createPane(std::size_t run) override;
    void destroyPanes() override;
    void prepare() override;
    bool binPane(std::size_t run, std::uint64_t budget) override;
    void publishPane(std::size_t run) override;
    QString tooltip(std::size_t run, const PixelRange& pixel) const override;
    QString cannotDraw(const RunTrace& run) const override;
    void applyTheme() override;
    void addViewActions(QMenu* menu) override;

private:
    struct LimitLine {
        QCPItemStraightLine* line = nullptr;
        QCPItemText* label = nullptr;
    };
    struct Pane {
        std::array<QCPGraph*, kStateSeriesCount> graphs{};
        QCPGraph* queueDepth = nullptr;
        double queueDepthMax = 0.0; // in view
        LimitLine maxPinned;
        LimitLine ioCombineLimit;
        // Each reset (a nested loop's rescan) a thin vertical mark in the run's colour, or a tick at
        // the top of the pane where they are too many to leave the data readable.
        QCPGraph* resets = nullptr;
        QCPItemText* resetCount = nullptr; // "299 resets (rescans)", above the pane's right end
        std::uint64_t resetsMarked = 0;
        std::size_t resetMarks = 0;
        std::vector<double> resetXs; // the marks' x, one per pixel column with a reset
        // What the marks were binned for (on the model thread): the grid and how far the run was.
        SeriesColumns::Key resetKey;
        std::size_t resetsBinned = SIZE_MAX;
        std::uint64_t positionsBinned = 0;
        std::vector<QCPItemRect*> collapseRects;
        std::vector<QCPItemText*> collapseLabels;
        SeriesColumns columns;
    };

    LimitLine makeLimitLine(std::size_t run);
    void applyYScale(QCPAxis* y) const;
    void placeLimitLine(std::size_t run, const LimitLine& limit, double value, const QString& text);
    void fitYAxes();
    void updateCollapses(std::size_t run);
    void updateQueueDepth(std::size_t run);
    void binResets(std::size_t run, const SeriesColumns::Key& key);
    void updateResets(std::size_t run);
    void placeResetMarks(std::size_t run);
    QColor resetColour(std::size_t run) const;
    double collapseLabelY(std::size_t run) const;
    void labelCollapse(std::size_t run, std::size_t& labels, double lo, double hi, CollapseInterval interval);
    QCPItemRect* collapseRect(std::size_t run, std::size_t index);
    QCPItemText* collapseText(std::size_t run, std::size_t index);

    std::vector<Pane> m_panes;
    double m_limitMax = 0.0; // largest limit line, if the whole run is in view (else 0)
    bool m_showCombine = false;
    bool m_logY = true;
};

} // namespace la
