// SPDX-License-Identifier: GPL-3.0-or-later
#include "dashboard.h"

#include "distance_plot.h"
#include "hit_miss_plot.h"
#include "io_size_plot.h"
#include "model_thread.h"
#include "plot_theme.h"
#include "request_plot.h"
#include "run_trace.h"
#include "streams_plot.h"
#include "summary_panel.h"
#include "text_fit.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>

namespace la {

namespace {
// Binning time per view and frame when the frames bin themselves (no model thread): a redraw of a
// 10 M-block run spreads over a few frames.
constexpr std::chrono::milliseconds kViewSlice{2};
constexpr int kFrameMs = 15;
// While a redraw is still binning in the frames, the next frame follows soon, leaving the event loop
// room to breathe.
constexpr int kCatchUpMs = 8;
// While the model thread bins a redraw, the frames show its progress at 30 a second: each replots
// every view, which is a frame's largest cost.
constexpr int kModelFrameMs = 33;
// A frame whose lock the model thread had comes back this soon (it has stepped aside by then).
constexpr int kRetryMs = 1;
// While a run plays live and every view has drawn all there is, the next frame comes at most this
// soon: the data arrives in batches anyway, and replotting every view is a frame's largest cost.
constexpr int kLiveFrameMs = 50;
// A live x range starts at this multiple of the data and doubles whenever the data reaches its end:
// each doubling folds what the views have binned in pairs of pixel columns (grid.h), so they never
// bin a live run's events twice and every pane keeps drawing up to the newest data.
constexpr double kLiveGrowth = 2.0;
// The notes list's height in rows, at most.
constexpr int kNoteRows = 4;

// The views, top to bottom: adding a view is one entry here.
struct ViewSpec {
    PlotView* (*create)();
    double exportWeight; // height in a dashboard export, relative to the others
    int stretch;         // share of the window's height
    int minimumHeight;   // below this, axes and captions no longer fit
};
template <typename View> PlotView* make() {
    return new View;
}
constexpr ViewSpec kViews[] = {
    {make<DistancePlot>, 3.0, 3, 140}, {make<HitMissPlot>, 2.0, 2, 105}, {make<IoSizePlot>, 2.0, 2, 105},
    {make<RequestPlot>, 3.0, 3, 105},  {make<StreamsPlot>, 2.0, 2, 105}, // shown while a run has several
                                                                         // streams
};
} // namespace

Dashboard::Dashboard(QWidget* parent)
    : QWidget(parent), m_reconciliation(new QLabel(this)), m_verdict(new QLabel(this)),
      m_stale(new QLabel(this)), m_notes(new QListWidget(this)),
      m_splitter(new QSplitter(Qt::Vertical, this)), m_summary(new SummaryPanel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    // A banner, not a line among others: figures that do not agree are what the reader must see first.
    m_reconciliation->setObjectName(QStringLiteral("reconciliationBanner"));
    m_reconciliation->setWordWrap(true);
    m_reconciliation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reconciliation->setStyleSheet(QStringLiteral("QLabel { background: #fdecea; color: #8e1b10; border: "
                                                   "1px solid #e6a39b; padding: 4px; font-weight: bold; }"));
    m_reconciliation->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    m_reconciliation->setVisible(false);
    layout->addWidget(m_reconciliation);
    QFont verdictFont = m_verdict->font();
    verdictFont.setBold(true);
    m_verdict->setFont(verdictFont);
    // Three lines high (shown by showVerdict()): a long verdict (a recording's names what limited each side
    // and why) is broken into lines here rather than widening the window; the label draws exactly the lines
    // fitVerdict() measured.
    m_verdict->setWordWrap(false);
    m_verdict->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_verdict->setFixedHeight(kVerdictLines * QFontMetrics(verdictFont).lineSpacing() + 4);
    m_verdict->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_verdict->setVisible(false);
    m_stale->setText(tr("Settings changed since this run: press Run to update"));
    m_stale->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_stale->setVisible(false);
    auto* header = new QHBoxLayout;
    header->addWidget(m_verdict, 1);
    header->addWidget(m_stale);
    layout->addLayout(header);
    // The notes: each whole, a longer one wrapped over as many lines as it needs (a note cut short
    // hid what it was about); the first kNoteRows notes high, scrolled beyond.
    m_notes->setObjectName(QStringLiteral("notesList"));
    m_notes->setWordWrap(true);
    m_notes->setTextElideMode(Qt::ElideNone);
    m_notes->setResizeMode(QListView::Adjust);
    m_notes->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_notes->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_notes->setAlternatingRowColors(true);
    m_notes->setVisible(false);
    m_notes->installEventFilter(this);
    layout->addWidget(m_notes);
    // Below the views' minimum heights (a small window) the views scroll rather than squeeze.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_splitter);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll, 1);
    for (const ViewSpec& spec : kViews) {
        PlotView* view = spec.create();
        view->setMinimumHeight(spec.minimumHeight);
        addView(view);
        view->setVisible(viewShown(m_views.size() - 1));
        m_splitter->setStretchFactor(m_splitter->count() - 1, spec.stretch);
        m_exportWeights.push_back(spec.exportWeight);
        m_stretches.push_back(spec.stretch);
    }
    m_splitter->addWidget(m_summary);
    m_splitter->setStretchFactor(m_splitter->count() - 1, 0); // as tall as its rows, no more
    m_splitter->setChildrenCollapsible(false);
    m_refreshTimer.setObjectName(QStringLiteral("plot refresh")); // names its stalls in the GUI bench
    m_refreshTimer.setSingleShot(true);
    connect(&m_refreshTimer, &QTimer::timeout, this, &Dashboard::refreshNow);
}

Dashboard::~Dashboard() {
    setModelThread(nullptr);
}

void Dashboard::setModelThread(ModelThread* thread) {
    if (m_model)
        m_model->removeTask(m_binTask);
    m_model = thread;
    for (PlotView* view : m_views)
        view->setModelThread(thread);
    if (m_model)
        m_binTask = m_model->addTask(
            ModelThread::Rank::Views,
            [this](std::chrono::steady_clock::time_point deadline) { return binSlice(deadline); });
    scheduleRefresh();
}

bool Dashboard::binSlice(std::chrono::steady_clock::time_point deadline) {
    bool done = true;
    for (std::size_t i = 0; i < m_views.size(); ++i) {
        // An equal share of the time left, so that every pane keeps up with the data.
        const auto now = std::chrono::steady_clock::now();
        const auto share = now < deadline ? (deadline - now) / static_cast<long>(m_views.size() - i)
                                          : std::chrono::steady_clock::duration::zero();
        done = m_views[i]->bin(now + share) && done;
    }
    return !done;
}

void Dashboard::addView(PlotView* view) {
    const int index = static_cast<int>(m_views.size());
    m_views.push_back(view);
    m_splitter->addWidget(view);
    connect(view, &PlotView::needsRefresh, this, &Dashboard::scheduleRefresh);
    connect(view, &PlotView::resized, this, [this] {
        scheduleRefresh();
        if (m_frameTurn == 0)
            m_refreshTimer.start(0);
    });
    connect(view, &PlotView::xRangeChangedByUser, this,
            [this, view](double lo, double hi) { onUserRange(view, lo, hi); });
    connect(view, &PlotView::resetZoomRequested, this, &Dashboard::resetZoom);
    connect(view, &PlotView::exportRequested, this, [this, index] { emit exportPlotRequested(index); });
    connect(view, &PlotView::exportDashboardRequested, this, &Dashboard::exportAllRequested);
}

void Dashboard::setRuns(const std::vector<const RunTrace*>& runs) {
    const ModelThread::Hold hold(m_model, ModelThread::Hold::Mode::Wait);
    m_runs = runs;
    showVerdict();
    for (PlotView* view : m_views)
        view->setRuns(runs);
    m_summary->setRuns(runs);
    m_autoHi = 0.0;
    m_userZoomed = false;
    applyAutoRange();
    scheduleRefresh();
}

void Dashboard::setVerdict(const QString& verdict) {
    m_verdictText = verdict;
    m_verdict->setToolTip(verdict);
    showVerdict();
    fitVerdict();
}

// A comparison keeps its verdict's band while it runs, so that the verdict arriving at its end does not
// push the plots down; a single run without a verdict has no band at all.
void Dashboard::showVerdict() {
    m_verdict->setVisible(!m_verdictText.isEmpty() || m_runs.size() > 1);
}

void Dashboard::setReconciliation(const QString& text) {
    m_reconciliationText = text;
    m_reconciliation->setText(text);
    m_reconciliation->setToolTip(text);
    m_reconciliation->setVisible(!text.isEmpty());
}

void Dashboard::setNotes(const QStringList& notes) {
    if (notes == this->notes())
        return;
    m_notes->clear();
    for (const QString& note : notes) {
        auto* item = new QListWidgetItem(note, m_notes);
        item->setToolTip(note);
    }
    // While a run goes, the newest notice; once over, from the first note (the reconciliation).
    if (m_live) {
        m_notes->scrollToBottom();
    } else {
        m_notes->scrollToTop();
        showNotes();
    }
}

QStringList Dashboard::notes() const {
    QStringList notes;
    for (int i = 0; i < m_notes->count(); ++i)
        notes << m_notes->item(i)->text();
    return notes;
}

void Dashboard::showNotes() {
    m_notes->setVisible(m_notes->count() > 0);
    fitNotes();
}

// The first kNoteRows notes as the list lays them out, wrapped to its width.
void Dashboard::fitNotes() {
    const int rows = std::min(m_notes->count(), kNoteRows);
    if (rows == 0)
        return;
    int height = 2 * m_notes->frameWidth();
    for (int row = 0; row < rows; ++row)
        height += m_notes->visualRect(m_notes->model()->index(row, 0)).height();
    m_notes->setFixedHeight(height);
}

void Dashboard::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitVerdict();
}

bool Dashboard::eventFilter(QObject* watched, QEvent* event) {
    // The notes wrap to the list's new width, so their heights change: fitted once the list has laid
    // them out again. While live the list keeps its height (a resized list would resize the plots
    // mid-run).
    if (watched == m_notes && event->type() == QEvent::Resize)
        QTimer::singleShot(0, this, [this] {
            if (!m_live)
                fitNotes();
        });
    return QWidget::eventFilter(watched, event);
}

// The verdict's three lines: a longer one is cut after a word with "…" (its tooltip has all of it),
// never clipped.
void Dashboard::fitVerdict() {
    const FittedText fitted = fitLines(m_verdictText, m_verdict->font(),
                                       std::max(1, m_verdict->contentsRect().width() - 1), kVerdictLines);
    m_verdict->setText(fitted.lines.join(QLatin1Char('\n')));
}

void Dashboard::setStale(bool stale) {
    m_stale->setVisible(stale);
}

void Dashboard::setWaiting(std::size_t firstWaiting, bool realIo) {
    const QString note = realIo ? tr("Waiting for A to finish: the runs take turns,\nso that their real "
                                     "I/O never shares the device")
                                : tr("Waiting for A to finish:\nthe runs go one after the other");
    for (PlotView* view : m_views)
        for (std::size_t run = 0; run < 2; ++run)
            view->setWaitingNote(run, run >= firstWaiting && run > 0 ? note : QString());
}

bool Dashboard::stale() const {
    return !m_stale->isHidden();
}

void Dashboard::dataChanged() {
    applyAutoRange();
    scheduleRefresh();
}

void Dashboard::summariesChanged() {
    m_summary->refresh();
    scheduleRefresh();
}

void Dashboard::setLive(bool live) {
    m_live = live;
    for (PlotView* view : m_views)
        view->setLive(live);
    m_summary->setLive(live);
    if (!live) {
        m_autoHi = 0.0;
        // Once over, the notes are read from the first (the reconciliation, the recording's).
        m_notes->scrollToTop();
        showNotes();
    }
    applyAutoRange();
    scheduleRefresh();
}

void Dashboard::setXMode(XAxis mode) {
    m_xMode = mode;
    for (PlotView* view : m_views)
        view->setXMode(mode);
    resetZoom();
}

void Dashboard::resetZoom() {
    m_userZoomed = false;
    m_autoHi = 0.0;
    applyAutoRange();
    scheduleRefresh();
}

double Dashboard::dataEnd() const {
    double end = 0.0;
    for (const RunTrace* trace : m_runs)
        end = std::max(end, xEnd(*trace, m_xMode));
    return end;
}

void Dashboard::applyAutoRange() {
    // Otherwise the next frame does it, with the lock.
    const ModelThread::Hold hold(m_model);
    if (m_userZoomed || !hold)
        return;
    const double end = dataEnd();
    double hi = end;
    if (m_live) {
        if (m_xMode == XAxis::Position && m_expectedPositions > 0)
            hi = std::max(end, static_cast<double>(m_expectedPositions));
        else if (m_autoHi > 0.0) {
            hi = m_autoHi;
            while (hi < end)
                hi *= kLiveGrowth;
        } else
            hi = end * kLiveGrowth;
    }
    if (!(hi > 0.0))
        hi = m_xMode == XAxis::Time ? 1e-3 : 1.0;
    m_autoHi = hi;
    for (PlotView* view : m_views)
        view->setXRange(0.0, hi);
}

void Dashboard::zoomTo(double lo, double hi) {
    for (PlotView* view : m_views)
        view->setXRange(lo, hi);
    onUserRange(nullptr, lo, hi);
}

void Dashboard::onUserRange(PlotView* source, double lo, double hi) {
    m_userZoomed = true;
    for (PlotView* view : m_views) {
        if (view != source)
            view->setXRange(lo, hi);
    }
    scheduleRefresh();
}

void Dashboard::scheduleRefresh() {
    // This frame's prepared turn missed the change: the frame ends by starting another.
    if (m_frameTurn > 0) {
        m_frameDone = false;
        return;
    }
    if (m_refreshTimer.isActive())
        return;
    qint64 delay = kFrameMs;
    if (m_live && m_lastFrame.isValid())
        delay = std::max(delay, kLiveFrameMs - m_lastFrame.elapsed());
    m_refreshTimer.start(static_cast<int>(delay));
}

void Dashboard::refreshNow() {
    if (m_frameTurn == 0) {
        const ModelThread::Hold hold(m_model);
        if (!hold) {
            m_refreshTimer.start(kRetryMs);
            return;
        }
        m_lastFrame.start();
        m_frameDone = true;
        prepareFrame();
        if (!m_views.empty()) {
            m_frameTurn = 1;
            m_refreshTimer.start(0);
            return;
        }
    } else {
        // One view's replot per turn, in a turn of its own: the loop answers input and timers
        // between them and after the preparing turn.
        m_views[m_frameTurn - 1]->replot();
        if (m_frameTurn < m_views.size()) {
            ++m_frameTurn;
            m_refreshTimer.start(0);
            return;
        }
    }
    m_frameTurn = 0;
    if (!m_frameDone)
        scheduleRefresh();
    else if (!m_allBinned)
        m_refreshTimer.start(catchUpDelay()); // live too: the panes must not fall behind the data
    if (idle())
        emit settled();
}

// The views shown share the plots' height by their stretch, as when the window was laid out: a
// view shown later would otherwise get only its minimum height.
void Dashboard::shareHeights() {
    QList<int> sizes = m_splitter->sizes();
    int plots = 0, stretch = 0;
    for (std::size_t i = 0; i < m_views.size(); ++i) {
        plots += sizes[static_cast<qsizetype>(i)];
        stretch += m_views[i]->isHidden() ? 0 : m_stretches[i];
    }
    if (stretch == 0)
        return;
    for (std::size_t i = 0; i < m_views.size(); ++i)
        sizes[static_cast<qsizetype>(i)] = m_views[i]->isHidden() ? 0 : plots * m_stretches[i] / stretch;
    m_splitter->setSizes(sizes);
}

bool Dashboard::viewShown(std::size_t index) const {
    const auto* streams = qobject_cast<const StreamsPlot*>(m_views[index]);
    return streams == nullptr || streams->hasStreams();
}

void Dashboard::prepareFrame() {
    applyAutoRange();
    bool shownChanged = false;
    for (std::size_t i = 0; i < m_views.size(); ++i)
        if (m_views[i]->isHidden() == viewShown(i)) {
            m_views[i]->setVisible(viewShown(i));
            shownChanged = true;
        }
    // Laid out again before the views can draw at their new heights: the next frame draws them.
    if (shownChanged) {
        shareHeights();
        m_frameDone = false;
    }
    for (PlotView* view : m_views)
        view->prepareFrame();
    if (!m_model) {
        for (PlotView* view : m_views)
            view->bin(std::chrono::steady_clock::now() + kViewSlice);
    }
    m_allBinned = true;
    for (PlotView* view : m_views) {
        view->publish();
        m_allBinned = view->binned() && m_allBinned;
    }
    if (m_model && !m_allBinned)
        m_model->wake();
}

int Dashboard::catchUpDelay() const {
    if (!m_model)
        return kCatchUpMs;
    const qint64 frame = m_live ? kLiveFrameMs : kModelFrameMs;
    return static_cast<int>(std::clamp<qint64>(frame - m_lastFrame.elapsed(), 0, frame));
}

void Dashboard::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        scheduleRefresh();
}

} // namespace la
