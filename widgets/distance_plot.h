// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plot_view.h"
#include "series_columns.h"
#include "state_buckets.h"

#include <array>
#include <vector>

class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;

namespace la {

// Read-ahead distance (and PG19's combine distance), pinned buffers and reads in flight, with the
// max_pinned and io_combine_limit lines and every collapse shaded and labelled.
class DistancePlot : public PlotView {
    Q_OBJECT
public:
    explicit DistancePlot(QWidget* parent = nullptr);

protected:
    void createPane(std::size_t run) override;
    void destroyPanes() override;
    void prepare() override;
    bool binPane(std::size_t run, std::uint64_t budget) override;
    void publishPane(std::size_t run) override;
    QString tooltip(std::size_t run, const PixelRange& pixel) const override;
    void applyTheme() override;

private:
    struct LimitLine {
        QCPItemStraightLine* line = nullptr;
        QCPItemText* label = nullptr;
    };
    struct Pane {
        std::array<QCPGraph*, kStateSeriesCount> graphs{};
        LimitLine maxPinned;
        LimitLine ioCombineLimit;
        QCPItemText* runLabel = nullptr;
        std::vector<QCPItemRect*> collapseRects;
        std::vector<QCPItemText*> collapseLabels;
        SeriesColumns columns;
    };

    LimitLine makeLimitLine(std::size_t run);
    void placeLimitLine(const LimitLine& limit, double value, const QString& text);
    void updateCollapses(std::size_t run);
    QCPItemRect* collapseRect(std::size_t run, std::size_t index);
    QCPItemText* collapseText(std::size_t run, std::size_t index);

    std::vector<Pane> m_panes;
    double m_yMax = 1.0;
    bool m_showCombine = false;
};

} // namespace la
