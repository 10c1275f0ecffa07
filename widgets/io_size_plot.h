// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io_size_scatter.h"
#include "plot_view.h"

#include <array>
#include <vector>

class QCPAxisRect;
class QCPBars;
class QCPBarsGroup;
class QCPGraph;
class QCPItemText;

namespace la {

// Each read's size against x (log2 axis, 8 KiB up to io_combine_limit), with the size histogram of the
// whole run in the side column (A and B side by side, with a legend above and a tooltip per size).
// An observed run from a kernel capture also shows the device's reads, a lighter layer under the
// reads, the kernel's read-ahead apart: whether the OS or the read stream did the prefetching.
class IoSizePlot : public PlotView {
    Q_OBJECT
public:
    explicit IoSizePlot(QWidget* parent = nullptr);

protected:
    void createPane(std::size_t run) override;
    void destroyPanes() override;
    void prepare() override;
    bool binPane(std::size_t run, std::uint64_t budget) override;
    void publishPane(std::size_t run) override;
    QString tooltip(std::size_t run, const PixelRange& pixel) const override;
    QString sideTooltip(const QPoint& pos) const override;
    void applyTheme() override;

private:
    // Sizes 1, 2-3, 4-7, ... 128-255 blocks: one scatter graph (one colour) per power of two.
    static constexpr std::size_t kSizeClasses = 8;
    struct Pane {
        std::array<QCPGraph*, kSizeClasses> graphs{};
        QCPBars* histogram = nullptr;
        QCPItemText* legend = nullptr; // "■ A" above the histogram, in the run's bar colour
        IoSizeScatter scatter;
        QCPGraph* deviceReads = nullptr;            // asked for by a task
        QCPGraph* readAhead = nullptr;              // the kernel's read-ahead
        std::array<QCPItemText*, 2> deviceLegend{}; // device read, kernel read-ahead
    };
    void updateHistogram(std::size_t run);
    void updateDeviceLayer(std::size_t run);
    void setSizeAxis(QCPAxis* axis);

    std::vector<Pane> m_panes;
    QCPAxisRect* m_histogramRect = nullptr;
    QCPBarsGroup* m_barsGroup = nullptr;
    int m_maxBlocks = 16;
    int m_tickedMaxBlocks = 0;
};

} // namespace la
