// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plot_theme.h"
#include "x_mapping.h"

#include <QMargins>
#include <QPicture>
#include <QString>
#include <QWidget>

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

class QCPAxis;
class QCPAxisRect;
class QCPLayoutGrid;
class QCPRange;
class QCPTextElement;
class QCustomPlot;
class QCPItemText;
class QMenu;
class QMouseEvent;

namespace la {

class LayoutPlot;
class ModelThread;
class RunTrace;

// What one pane bins for, taken from its axes and size when a frame is prepared: binning (on the model
// thread) reads this, never the axes, which belong to the GUI thread.
struct PaneGrid {
    XAxis mode = XAxis::Time;
    double xLo = 0.0;
    double xHi = 1.0;
    int columns = 1; // device pixels
    int rows = 1;
};

// The plot-coordinate extent of the pixel under the cursor.
struct PixelRange {
    double xLo;
    double xHi;
    double yLo;
    double yHi;
};

// One QCustomPlot showing one view of one or two runs: a pane per run side by side (A | B, identical
// axes) and a fixed-width side column (legend, colour scale, histogram). Every pane of every view has
// the same fixed margins, so stacked views line their x axes up exactly. The base class handles the
// shared x axis, linked zoom and pan, each pane's run name, hover tooltips, the context menu, theming
// and export rendering; subclasses build and fill their panes from the plot model.
class PlotView : public QWidget {
    Q_OBJECT
public:
    explicit PlotView(const QString& title, QWidget* parent = nullptr);
    ~PlotView() override;

    // The view's name (menus, export dialog); the plot's title adds its axes, e.g. "(block × time)".
    const QString& title() const { return m_titleText; }
    QString shownTitle() const;
    // Run `run`'s pane, and its plot area in widget coordinates (tests check its axes, hover over it).
    QCPAxisRect* pane(std::size_t run) const { return m_panes[run]; }
    std::size_t paneCount() const { return m_panes.size(); }
    QRect paneArea(std::size_t run) const;
    void setRuns(const std::vector<const RunTrace*>& runs);
    // A note across run `run`'s pane while it has not started (empty: none), e.g. B waiting for A.
    void setWaitingNote(std::size_t run, const QString& text);
    // The note across pane `run` (why it cannot draw its run, or that it waits), whole; empty if none.
    QString paneNote(std::size_t run) const;
    void setXMode(XAxis mode);
    XAxis xMode() const { return m_xMode; }
    // Programmatic range change: no xRangeChangedByUser.
    void setXRange(double lo, double hi);
    double xLo() const;
    double xHi() const;
    // While live, views may round their axes so a growing run re-bins rarely.
    void setLive(bool live) { m_live = live; }
    void setTheme(const PlotTheme& theme);
    // The model the views draw (the run traces and what is binned of them) is guarded by the model
    // thread's lock (model_thread.h); null: no other thread touches it.
    void setModelThread(ModelThread* thread) { m_model = thread; }

    // A frame in four steps, each with the model's lock held but replot(): prepareFrame() (GUI thread)
    // lays the plot out and fixes what each pane bins for; bin() bins towards that, on the model
    // thread or the GUI thread; publish() (GUI thread) hands what is binned to the plottables;
    // replot() draws them.
    void prepareFrame();
    // Bins until `deadline` at most (one chunk per pane at least); true when all binning is complete.
    bool bin(std::chrono::steady_clock::time_point deadline);
    // Whether everything in view is binned, binning nothing.
    bool binned();
    void publish();
    void replot();
    // All four steps at once: brings every pane up to date, binning until `deadline` at most; true
    // when all binning is complete (false asks the caller to come back on the next frame).
    bool refresh(std::chrono::steady_clock::time_point deadline);
    // Renders the view at width × height (logical pixels) × scale, re-binned for that size, so a large
    // export is as sharp as the screen. Restores the on-screen state afterwards. `panes` (if given)
    // receives where each run's plot area is in the image, in logical pixels.
    QImage renderImage(int width, int height, double scale, std::vector<QRect>* panes = nullptr);
    // The same as vector drawing commands (for SVG and PDF); the raster panes stay images.
    QPicture renderPicture(int width, int height, std::vector<QRect>* panes = nullptr);
    // Margins of a side-column element lined up with the panes (their top and bottom margins).
    static QMargins paneMargins(int left, int right);

    // The tooltip the pixel at `pos` (widget coordinates) would show; empty if none.
    QString tooltipAt(const QPoint& pos) const;

signals:
    void xRangeChangedByUser(double lo, double hi);
    void needsRefresh();
    // Its plot shows its old picture until it is drawn again at its new size: a frame is due now.
    void resized();
    void exportRequested();
    void exportDashboardRequested();
    void resetZoomRequested();

protected:
    // Creates the plottables and items of pane `run` (its axis rect exists already): for runs 0, 1, ...
    // in turn, after destroyPanes().
    virtual void createPane(std::size_t run) = 0;
    // Removes every plottable and item of every pane (before panes are rebuilt).
    virtual void destroyPanes() = 0;
    // Shared state computed once per frame, on the GUI thread, before the panes (e.g. a y range common
    // to A and B); what binPane() needs of it is kept in members.
    virtual void prepare() {}
    // Bins at most `budget` units of work for pane `run`, for grid(run) (on the model thread: it
    // reads no axis nor widget); true when its binning is complete.
    virtual bool binPane(std::size_t run, std::uint64_t budget) = 0;
    // Hands what binPane() produced to the pane's plottables.
    virtual void publishPane(std::size_t run) = 0;
    virtual QString tooltip(std::size_t run, const PixelRange& pixel) const = 0;
    // The tooltip over the side column (widget coordinates), if the view has one there.
    virtual QString sideTooltip(const QPoint& pos) const {
        Q_UNUSED(pos);
        return {};
    }
    // Re-colours plottables after a theme change (axes, grid and text are done by the base).
    virtual void applyTheme() = 0;
    // Why this view cannot draw `run` (an imported syscall trace has no distance, no hits), shown in
    // its pane instead of leaving it blank; empty if it can.
    virtual QString cannotDraw(const RunTrace& run) const {
        Q_UNUSED(run);
        return {};
    }
    // The view's own entries in the context menu (e.g. the distance plot's log/linear y axis).
    virtual void addViewActions(QMenu* menu) { Q_UNUSED(menu); }

    QCustomPlot* plot() const;
    QCPLayoutGrid* side() const { return m_side; }
    const std::vector<const RunTrace*>& runs() const { return m_runs; }
    const PlotTheme& theme() const { return m_theme; }
    bool live() const { return m_live; }
    // What pane `run` bins for, as prepareFrame() fixed it: the only view state binPane() may read.
    const PaneGrid& grid(std::size_t run) const { return m_grids[run]; }
    // Size of a pane's plot area in device pixels (screen or export), for per-pixel binning.
    int paneColumns(std::size_t run) const;
    int paneRows(std::size_t run) const;
    // "A: pg18": the run's letter (as in the summary table) and label.
    QString runName(std::size_t run) const;
    // Styling helpers shared by the views.
    void styleAxis(QCPAxis* axis) const;
    static void useCompactTicks(QCPAxis* axis);
    static void useBlockSizeTicks(QCPAxis* axis, int maxBlocks);
    void updateXAxisLabels();
    // Titles name the axes of a raster: "(yNoun × time)", following the x axis mode.
    void setTitleAxis(const QString& yNoun);

    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // Lays the plot out at its viewport and m_pixelScale and fixes what each pane bins for.
    void fixGrids();
    // Lays the view out at width × height for an export, calls `draw`, and restores the screen state.
    void renderForExport(int width, int height, double scale, std::vector<QRect>* panes,
                         const std::function<void()>& draw);
    QCPAxisRect* addPaneRect();
    void setupPane(QCPAxisRect* rect);
    void onAxisRangeChanged(const QCPRange& range);
    void onMouseMove(QMouseEvent* event);
    void showContextMenu(const QPoint& pos);
    void applyBaseTheme();
    void updateCannotDraw(std::size_t run);
    void fitNote(QCPItemText* note, const QString& whole, std::size_t run);
    void fitNotes();
    void applyXTicker(QCPAxis* x) const;
    void updateTitle();

    QString m_titleText;
    QString m_axisNoun;
    LayoutPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPLayoutGrid* m_paneRow = nullptr;
    QCPLayoutGrid* m_side = nullptr;
    std::vector<QCPAxisRect*> m_panes;
    std::vector<QCPItemText*> m_runLabels;  // each pane's run name, above its plot area
    std::vector<QCPItemText*> m_cannotDraw; // per pane: why it is empty, hidden when it is not
    std::vector<QCPItemText*> m_waiting;    // per pane, created on first use
    std::vector<const RunTrace*> m_runs;
    std::vector<PaneGrid> m_grids; // per run: what its pane bins for
    ModelThread* m_model = nullptr;
    XAxis m_xMode = XAxis::Time;
    PlotTheme m_theme;
    bool m_live = false;
    bool m_settingRange = false;
    double m_pixelScale = 1.0;
};

} // namespace la
