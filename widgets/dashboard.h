// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "x_mapping.h"

#include <QElapsedTimer>
#include <QFont>
#include <QImage>
#include <QPicture>
#include <QTimer>
#include <QWidget>

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

class QLabel;
class QListWidget;
class QSplitter;

namespace la {

class ModelThread;
class PlotView;
class RunTrace;
class SummaryPanel;

// The stacked views (distance, hit/miss, I/O sizes, combined requests) over one shared x axis with
// linked zoom and pan, the A/B verdict and the summary panel. Views are refreshed on a coalescing
// timer and bin progressively, so the event loop never waits on a 10 M-block redraw: with a model
// thread they bin on it and a frame only hands the bins to the plots and draws them; without one (an
// offscreen dashboard) a frame bins a slice itself.
class Dashboard : public QWidget {
    Q_OBJECT
public:
    explicit Dashboard(QWidget* parent = nullptr);
    ~Dashboard() override;

    // The views bin on `thread` from now on (null: in the frames, on this thread). The runs' traces
    // are then read only with its lock held. Detach before the thread goes.
    void setModelThread(ModelThread* thread);

    void setRuns(const std::vector<const RunTrace*>& runs);
    void setVerdict(const QString& verdict);
    const QString& verdict() const { return m_verdictText; }
    // Where the model's figures do not agree with the server's and the trace's: a banner above the
    // verdict (and the first line of an export's caption); empty hides it.
    void setReconciliation(const QString& text);
    const QString& reconciliation() const { return m_reconciliationText; }
    // Every note of the recording, the import and the runs on screen, listed under the verdict, each
    // whole (wrapped, never cut).
    // While a run is live the list keeps the height it has (a list appearing would resize the plots
    // mid-run): it shows or hides once the run is over (setLive(false)).
    void setNotes(const QStringList& notes);
    QStringList notes() const;
    // The settings no longer match the runs shown: says so next to the verdict.
    void setStale(bool stale);
    // Runs from `firstWaiting` on have not started: their panes say that they wait for the one
    // before (the runs go one after the other; with `realIo`, so that their real I/O never shares
    // the device). Past the last run: none waits.
    void setWaiting(std::size_t firstWaiting, bool realIo);
    bool stale() const;
    // The traces grew.
    void dataChanged();
    // A run finished: its summary (numbers, collapses) is there.
    void summariesChanged();
    // While live the x range grows ahead of the data (rarely re-binning); `expectedPositions` is the
    // scan's length once known (position axis).
    void setLive(bool live);
    void setExpectedPositions(std::uint64_t positions) { m_expectedPositions = positions; }
    void setXMode(XAxis mode);
    XAxis xMode() const { return m_xMode; }
    void resetZoom();
    // No refresh pending or in progress and everything in view binned and drawn (tests wait for
    // this before checking pixels).
    bool idle() const { return !m_refreshTimer.isActive() && m_frameTurn == 0 && m_allBinned; }
    const std::vector<PlotView*>& views() const { return m_views; }
    const std::vector<const RunTrace*>& runs() const { return m_runs; }
    const SummaryPanel* summaryPanel() const { return m_summary; }

    // The whole dashboard (plotIndex < 0) or one view, at size × scale pixels, always in the light
    // theme, with `caption` (the run's settings) and the verdict printed on top. `panes` (if given)
    // receives where each rendered view's run panes are in the image, in logical pixels.
    QImage renderImage(QSize size, double scale, const QString& caption, int plotIndex = -1,
                       std::vector<std::vector<QRect>>* panes = nullptr);
    // The same as vector drawing commands at size (logical pixels = points), for SVG and PDF.
    QPicture renderPicture(QSize size, const QString& caption, int plotIndex = -1);
    // Zooms every view to [lo, hi) as a user's zoom would (auto-ranging stops until a reset).
    void zoomTo(double lo, double hi);
    // The caption an export `width` pixels wide prints on top: `caption`'s lines and the verdict,
    // each broken into lines that fit, a longer one ending in "…".
    struct CaptionLine {
        QString text; // as drawn
        QFont font;
        QString whole; // the caption's line or the verdict it is (a part of)
    };
    std::vector<CaptionLine> captionLines(double width, const QString& caption) const;
    // The verdict's banner: its lines as the window shows them (the whole text is its tooltip).
    const QLabel* verdictLabel() const { return m_verdict; }

signals:
    // idle() has just become true: what a test waits for before checking pixels.
    void settled();
    void exportPlotRequested(int plotIndex);
    void exportAllRequested();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void addView(PlotView* view);
    // Whether view `index` has something to draw for the runs (the streams' view: a run of several).
    // With the model's lock held.
    bool viewShown(std::size_t index) const;
    void shareHeights();
    void fitVerdict();
    void showVerdict();
    void scheduleRefresh();
    void refreshNow();
    // The frame's first turn, with the model's lock held: axes, grids, bins handed to the plots.
    void prepareFrame();
    // When the next frame is due after one that left binning to do.
    int catchUpDelay() const;
    // On the model thread, with its lock held: a slice of binning for every view.
    bool binSlice(std::chrono::steady_clock::time_point deadline);
    void applyAutoRange();
    void onUserRange(PlotView* source, double lo, double hi);
    double dataEnd() const;
    // The verdict's lines in the window, and in an export's caption.
    static constexpr int kVerdictLines = 3;
    double paintCaption(QPainter* painter, double width, const QString& caption) const;
    // Draws one view at (0, y), width × height, filling `panes` with its run panes.
    using ViewPainter =
        std::function<void(PlotView*, int width, int height, double y, std::vector<QRect>* panes)>;
    // Lays out what an export shows (caption, the views, the summary table) and paints it.
    void paintExport(QPainter& painter, QSize size, const QString& caption, int plotIndex,
                     const ViewPainter& paintView, std::vector<std::vector<QRect>>* panes);

    void showNotes();
    void fitNotes();

    QLabel* m_reconciliation;
    QLabel* m_verdict;
    QLabel* m_stale;
    QListWidget* m_notes;
    QSplitter* m_splitter;
    std::vector<PlotView*> m_views;
    std::vector<double> m_exportWeights; // per view, from its entry in the view list
    std::vector<int> m_stretches;        // per view: its share of the window's height
    SummaryPanel* m_summary;
    QTimer m_refreshTimer;
    QElapsedTimer m_lastFrame; // when the last refresh began
    // The frame's next turn: 0 prepares it (under the model's lock), then turn k replots view k - 1.
    std::size_t m_frameTurn = 0;
    bool m_frameDone = true; // nothing asked for a refresh since the frame under way began
    bool m_allBinned = true; // the last frame found everything in view binned
    ModelThread* m_model = nullptr;
    int m_binTask = 0;
    std::vector<const RunTrace*> m_runs;
    QString m_verdictText;
    QString m_reconciliationText;
    XAxis m_xMode = XAxis::Time;
    bool m_live = false;
    bool m_userZoomed = false;
    double m_autoHi = 0.0;
    std::uint64_t m_expectedPositions = 0;
};

} // namespace la
