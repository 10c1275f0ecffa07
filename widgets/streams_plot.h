// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plot_view.h"

#include <cstdint>
#include <vector>

class QCPGraph;

namespace la {

// Every stream of a plan run (docs/plan-runs.md) in a lane of its own, stacked over the shared x
// axis: each lane its stream's read-ahead distance (log2, one scale for all lanes), so that a join's
// streams are seen taking turns and each one's look-ahead beside the others'. Shown while a run has
// more than one stream; a lane's stream is named on the y axis, the stream the other views draw in
// bold.
class StreamsPlot : public PlotView {
    Q_OBJECT
public:
    explicit StreamsPlot(QWidget* parent = nullptr);
    // Whether any run shown has several streams (the window shows the view only then).
    bool hasStreams() const;
    // Run `run`'s lanes as binned: per lane, the pixel columns with a buffer and each one's largest
    // distance (tests read them).
    struct Lane {
        std::vector<double> x;
        std::vector<double> distance;
    };
    const std::vector<Lane>& lanes(std::size_t run) const { return m_panes[run].binned; }

protected:
    // A pane's lanes are graphs made as streams show up.
    void createPane(std::size_t run) override;
    void destroyPanes() override;
    void applyTheme() override;
    // A frame: the lanes and the distance scale they share, then each pane's lanes per pixel column.
    void prepare() override;
    bool binPane(std::size_t run, std::uint64_t budget) override;
    void publishPane(std::size_t run) override;
    // What a pane says: the lane under the cursor, or why it has none.
    QString tooltip(std::size_t run, const PixelRange& pixel) const override;
    QString cannotDraw(const RunTrace& run) const override;

private:
    struct Pane {
        std::vector<QCPGraph*> graphs; // one per lane, made as lanes appear
        std::vector<Lane> binned;
    };
    // y of `distance` in lane `lane`: the lane's bottom plus its log2 share of the lanes' height.
    double laneY(std::size_t lane, double distance) const;
    void labelLanes();

    std::vector<Pane> m_panes;
    std::size_t m_lanes = 1;
    double m_maxDistance = 2.0;
    std::size_t m_labelledLanes = 0;
};

} // namespace la
