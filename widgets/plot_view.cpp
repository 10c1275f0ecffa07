// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_view.h"

#include "model_thread.h"
#include "qcp.h"
#include "run_trace.h"
#include "text_fit.h"

#include <QEvent>
#include <QMenu>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>

namespace la {

namespace {

// Fixed pane margins (logical pixels): identical in every view so stacked x axes line up. The top
// margin holds the run's name, where it hides no data.
constexpr int kMarginLeft = 64;
constexpr int kMarginTop = 17;
constexpr int kMarginRight = 14;
constexpr int kMarginBottom = 36;
constexpr int kSideWidth = 132;
constexpr int kFontPixels = 11;
// Binning work between two looks at the clock, and done per pane and refresh however late it is:
// a fraction of a millisecond, even on a busy machine.
constexpr std::uint64_t kBinChunk = 1 << 10;
// The property of a pane's note item holding its whole text (the item shows it fitted to the pane).
constexpr const char* kWholeNote = "wholeNote";

// Decimals that write ticks `step` apart exactly in units of `unit` (0 when whole units do): a step of
// 2.5k needs one ("12.5k", not "13k"), one of 0.25 ms two.
int decimalsFor(double step, double unit) {
    const double ratio = step / unit;
    if (!(ratio > 0.0) || !std::isfinite(ratio))
        return 0;
    int decimals = 0;
    for (double scaled = ratio; decimals < 6 && std::fabs(scaled - std::round(scaled)) > 1e-6 * scaled;
         scaled *= 10.0)
        ++decimals;
    return decimals;
}

// 1.2M, 350k: block numbers fit the fixed left margin; zoomed in, as many digits as the tick step
// needs (23.41k, 23.42k), and whole numbers once a suffix would need more than two decimals.
class CompactTicker : public QCPAxisTicker {
protected:
    // Positions and blocks are whole numbers: a step of 2.5 would put "1483" on the tick at 1482.5.
    double getTickStep(const QCPRange& range) override {
        m_step = QCPAxisTicker::getTickStep(range);
        if (m_step > 1.0 && m_step < 10.0)
            m_step = std::floor(m_step);
        return m_step;
    }
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override {
        const double a = std::fabs(tick);
        const double unit = a >= 1e6 ? 1e6 : a >= 1e4 ? 1e3 : 1.0;
        const int decimals = decimalsFor(m_step, unit);
        if (unit > 1.0 && decimals <= 2)
            return QString::number(tick / unit, 'f', decimals) + QLatin1Char(unit == 1e6 ? 'M' : 'k');
        if (m_step >= 1.0)
            return QString::number(tick, 'f', 0);
        return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision);
    }

private:
    double m_step = 1.0;
};

// Seconds shown in the unit the visible range calls for ("250 ms", "1.5 s", "40 µs"), with the
// decimals the tick step needs (deep zoom: "1.2345 s", "1.2346 s").
class TimeTicker : public QCPAxisTicker {
public:
    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                  QVector<double>& ticks, QVector<double>* subTicks, QVector<QString>* tickLabels) override {
        const double span = std::max(std::fabs(range.upper), std::fabs(range.lower));
        m_unit = span >= 1.0 ? 1.0 : span >= 1e-3 ? 1e-3 : 1e-6;
        QCPAxisTicker::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    }

protected:
    double getTickStep(const QCPRange& range) override {
        m_step = QCPAxisTicker::getTickStep(range);
        return m_step;
    }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        const QString unit = m_unit == 1.0    ? QStringLiteral("s")
                             : m_unit == 1e-3 ? QStringLiteral("ms")
                                              : QStringLiteral("µs");
        const double v = tick / m_unit;
        const int decimals = decimalsFor(m_step, m_unit);
        return (std::fabs(v) < 1e-9 * std::max(1.0, m_step / m_unit) ? QStringLiteral("0")
                                                                     : QString::number(v, 'f', decimals)) +
               QLatin1Char(' ') + unit;
    }

private:
    double m_unit = 1.0;
    double m_step = 1.0;
};

// Block counts as sizes: 1 -> "8 kB", 16 -> "128 kB", on a log2 axis.
class BlockSizeTicker : public QCPAxisTickerText {
public:
    BlockSizeTicker(const QCPAxis* axis, int maxBlocks) : m_axis(axis) {
        for (int blocks = 1; blocks <= std::max(1, maxBlocks); blocks *= 2) {
            const int kb = blocks * 8;
            addTick(blocks,
                    kb >= 1024 ? QStringLiteral("%1M").arg(kb / 1024) : QStringLiteral("%1k").arg(kb));
        }
    }

protected:
    // In a short pane (a 1200×800 export) labels one octave apart would overlap: keep every second
    // or fourth power of two, always 8k among them.
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        const QVector<double> all = QCPAxisTickerText::createTickVector(tickStep, range);
        const double octave = std::abs(m_axis->coordToPixel(2.0) - m_axis->coordToPixel(1.0));
        int every = 1;
        while (octave * every < kMinLabelSpacing && every < 64)
            every *= 2;
        QVector<double> kept;
        for (const double tick : all)
            if (static_cast<int>(std::lround(std::log2(tick))) % every == 0)
                kept.push_back(tick);
        return kept;
    }

private:
    static constexpr double kMinLabelSpacing = 13.0; // pixels: a tick label's height and a little air
    const QCPAxis* m_axis;
};

QFont plotFont(int pixels, bool bold = false) {
    QFont font;
    font.setPixelSize(pixels);
    font.setBold(bold);
    return font;
}

// A run's name above the top-left corner of its pane's plot area.
QCPItemText* addRunLabel(QCustomPlot* plot, QCPAxisRect* rect, const QString& text) {
    auto* label = new QCPItemText(plot);
    // In the pane's top margin, above the plot area: it never hides data.
    label->setClipToAxisRect(false);
    label->position->setAxisRect(rect);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.0, 0.0);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->setText(text);
    QFont font = label->font();
    font.setPixelSize(11);
    font.setBold(true);
    label->setFont(font);
    label->setPadding(QMargins(0, 1, 3, 2));
    label->setLayer(QStringLiteral("legend"));
    return label;
}

} // namespace

// QCustomPlot with its layout pass public: binning needs the axis rect sizes before drawing.
class LayoutPlot : public QCustomPlot {
public:
    using QCustomPlot::QCustomPlot;
    void layoutNow() { updateLayout(); }

protected:
    // QCustomPlot replots at once on a resize: when the summary below the views grew, the splitter
    // resized all four in one event and the GUI thread stood 20 ms in it, mostly reallocating paint
    // buffers (and queued replots all run in one turn too). The view asks the dashboard for a frame
    // instead, which replots one view per turn.
    void resizeEvent(QResizeEvent* event) override {
        Q_UNUSED(event);
        setViewport(rect());
    }
};

PlotView::PlotView(const QString& title, QWidget* parent)
    : QWidget(parent), m_titleText(title), m_plot(new LayoutPlot(this)),
      m_theme(PlotTheme::fromPalette(palette())) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setFont(plotFont(kFontPixels));
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->legend->setVisible(false);

    QCPLayoutGrid* top = m_plot->plotLayout();
    QCPAxisRect* first = m_plot->axisRect(0);
    top->take(first);
    top->simplify();
    m_title = new QCPTextElement(m_plot, title, plotFont(kFontPixels + 1, true));
    top->addElement(0, 0, m_title);
    m_paneRow = new QCPLayoutGrid;
    top->addElement(1, 0, m_paneRow);
    top->setRowSpacing(0);
    m_paneRow->setColumnSpacing(0);
    m_paneRow->addElement(0, 0, first);
    m_side = new QCPLayoutGrid;
    m_side->setMinimumSize(kSideWidth, 0);
    m_side->setMaximumSize(kSideWidth, QWIDGETSIZE_MAX);
    m_paneRow->addElement(0, 1, m_side);
    m_panes.push_back(first);
    setupPane(first);

    connect(m_plot, &QCustomPlot::mouseMove, this, &PlotView::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { emit resetZoomRequested(); });
    connect(m_plot, &QWidget::customContextMenuRequested, this, &PlotView::showContextMenu);
    applyBaseTheme();
}

PlotView::~PlotView() = default;

QCustomPlot* PlotView::plot() const {
    return m_plot;
}

QMargins PlotView::paneMargins(int left, int right) {
    return QMargins(left, kMarginTop, right, kMarginBottom);
}

QString PlotView::runName(std::size_t run) const {
    return QString(QLatin1Char(run % 2 == 0 ? 'A' : 'B')) + QStringLiteral(": ") +
           QString::fromStdString(m_runs[run]->label());
}

QString PlotView::shownTitle() const {
    return m_title->text();
}

QRect PlotView::paneArea(std::size_t run) const {
    m_plot->layoutNow();
    return m_panes[run]->rect().translated(m_plot->pos());
}

void PlotView::setupPane(QCPAxisRect* rect) {
    rect->setAutoMargins(QCP::msNone);
    rect->setMargins(QMargins(kMarginLeft, kMarginTop, kMarginRight, kMarginBottom));
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    applyXTicker(x);
    styleAxis(x);
    styleAxis(rect->axis(QCPAxis::atLeft));
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &PlotView::onAxisRangeChanged);
}

QCPAxisRect* PlotView::addPaneRect() {
    auto* rect = new QCPAxisRect(m_plot);
    setupPane(rect);
    rect->axis(QCPAxis::atBottom)->setRange(m_panes.front()->axis(QCPAxis::atBottom)->range());
    return rect;
}

void PlotView::setRuns(const std::vector<const RunTrace*>& runs) {
    destroyPanes();
    for (QCPItemText* item : m_runLabels)
        m_plot->removeItem(item);
    m_runLabels.clear();
    for (QCPItemText* note : m_cannotDraw)
        m_plot->removeItem(note);
    m_cannotDraw.clear();
    for (QCPItemText* note : m_waiting)
        if (note)
            m_plot->removeItem(note);
    m_waiting.clear();
    m_runs = runs;
    m_grids.clear(); // nothing to bin for the new runs until a frame fixes their grids
    const std::size_t wanted = std::max<std::size_t>(1, runs.size());
    m_paneRow->take(m_side);
    while (m_panes.size() > wanted) {
        m_paneRow->remove(m_panes.back());
        m_panes.pop_back();
    }
    while (m_panes.size() < wanted)
        m_panes.push_back(addPaneRect());
    m_paneRow->simplify();
    for (std::size_t i = 0; i < m_panes.size(); ++i) {
        if (m_paneRow->elementAt(static_cast<int>(i)) != m_panes[i])
            m_paneRow->addElement(0, static_cast<int>(i), m_panes[i]);
    }
    m_paneRow->addElement(0, static_cast<int>(m_panes.size()), m_side);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        createPane(i);
        m_runLabels.push_back(addRunLabel(m_plot, m_panes[i], runName(i)));
        auto* note = new QCPItemText(m_plot);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setAxisRect(m_panes[i]);
        note->position->setCoords(0.5, 0.5);
        note->setClipAxisRect(m_panes[i]);
        note->setTextAlignment(Qt::AlignCenter);
        m_cannotDraw.push_back(note);
        updateCannotDraw(i);
    }
    updateXAxisLabels();
    applyBaseTheme();
    applyTheme();
    emit needsRefresh();
}

// What a run's pane cannot draw can change as its events arrive (a kernel capture's device reads come
// after the run is set), so the note follows the run at every refresh.
void PlotView::updateCannotDraw(std::size_t run) {
    fitNote(m_cannotDraw[run], cannotDraw(*m_runs[run]), run);
}

// A note across a pane in as many lines as its width asks and its height holds, the last ending in
// "…" if it has to (hovering over the pane shows all of it): a narrow pane (1280×720, a small export)
// cut it at its sides and bottom.
void PlotView::fitNote(QCPItemText* note, const QString& whole, std::size_t run) {
    note->setProperty(kWholeNote, whole);
    const QRect area = m_panes[run]->rect();
    if (area.isEmpty()) { // not laid out yet: the next frame fits it
        note->setText(whole);
        note->setVisible(!whole.isEmpty());
        return;
    }
    const int lines = std::max(0, (area.height() - 4) / QFontMetrics(note->font()).lineSpacing());
    const FittedText fitted = fitLines(QString(whole).replace(QLatin1Char('\n'), QLatin1Char(' ')),
                                       note->font(), area.width() - 8.0, lines);
    note->setText(fitted.lines.join(QLatin1Char('\n')));
    note->setVisible(!fitted.lines.isEmpty());
}

QString PlotView::paneNote(std::size_t run) const {
    for (const std::vector<QCPItemText*>* notes : {&m_waiting, &m_cannotDraw})
        if (run < notes->size() && (*notes)[run] && (*notes)[run]->visible())
            return (*notes)[run]->property(kWholeNote).toString();
    return {};
}

void PlotView::setXMode(XAxis mode) {
    m_xMode = mode;
    for (QCPAxisRect* rect : m_panes)
        applyXTicker(rect->axis(QCPAxis::atBottom));
    updateXAxisLabels();
    updateTitle();
    emit needsRefresh();
}

// Panes created later (a B run appearing) must follow the mode too, not start on the time ticker.
void PlotView::applyXTicker(QCPAxis* x) const {
    if (m_xMode == XAxis::Time)
        x->setTicker(QSharedPointer<QCPAxisTicker>(new TimeTicker));
    else
        useCompactTicks(x);
}

void PlotView::updateTitle() {
    m_title->setText(m_titleText +
                     (m_axisNoun.isEmpty()
                          ? QString()
                          : QStringLiteral(" (%1 × %2)")
                                .arg(m_axisNoun, m_xMode == XAxis::Time ? tr("time") : tr("position"))));
}

void PlotView::setTitleAxis(const QString& yNoun) {
    m_axisNoun = yNoun;
    updateTitle();
}

void PlotView::updateXAxisLabels() {
    for (QCPAxisRect* rect : m_panes)
        rect->axis(QCPAxis::atBottom)
            ->setLabel(m_xMode == XAxis::Time ? QStringLiteral("time")
                                              : QStringLiteral("position (buffers handed out)"));
}

void PlotView::setXRange(double lo, double hi) {
    m_settingRange = true;
    for (QCPAxisRect* rect : m_panes)
        rect->axis(QCPAxis::atBottom)->setRange(lo, hi);
    m_settingRange = false;
}

double PlotView::xLo() const {
    return m_panes.front()->axis(QCPAxis::atBottom)->range().lower;
}
double PlotView::xHi() const {
    return m_panes.front()->axis(QCPAxis::atBottom)->range().upper;
}

void PlotView::onAxisRangeChanged(const QCPRange& range) {
    if (m_settingRange)
        return;
    // Time and positions start at 0: a drag past the start stops there, keeping the zoom's width.
    // Copied first: `range` is the axis's own, which setXRange() changes.
    const double shift = range.lower < 0.0 ? -range.lower : 0.0;
    const double lo = range.lower + shift;
    const double hi = range.upper + shift;
    setXRange(lo, hi);
    emit xRangeChangedByUser(lo, hi);
    emit needsRefresh();
}

int PlotView::paneColumns(std::size_t run) const {
    return std::max(1, static_cast<int>(std::lround(m_panes[run]->width() * m_pixelScale)));
}

int PlotView::paneRows(std::size_t run) const {
    return std::max(1, static_cast<int>(std::lround(m_panes[run]->height() * m_pixelScale)));
}

bool PlotView::refresh(std::chrono::steady_clock::time_point deadline) {
    bool done = false;
    {
        const ModelThread::Hold hold(m_model, ModelThread::Hold::Mode::Wait);
        prepareFrame();
        done = bin(deadline);
        publish();
    }
    replot();
    return done;
}

void PlotView::prepareFrame() {
    m_pixelScale = devicePixelRatioF();
    fixGrids();
}

void PlotView::fixGrids() {
    m_plot->layoutNow();
    // Fewer ticks on a short or narrow pane (a window with the plan beside the plots), so their labels
    // never run into each other: a time label ("70 ms", "1.25 s") is about 40 pixels wide, and the
    // ticker may put up to twice the count asked for.
    for (QCPAxisRect* rect : m_panes) {
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(std::clamp(rect->height() / 24, 2, 5));
        rect->axis(QCPAxis::atBottom)->ticker()->setTickCount(std::clamp(rect->width() / 90, 2, 5));
    }
    prepare();
    m_grids.resize(std::min(m_runs.size(), m_panes.size()));
    for (std::size_t run = 0; run < m_grids.size(); ++run)
        m_grids[run] = PaneGrid{m_xMode, xLo(), xHi(), paneColumns(run), paneRows(run)};
}

bool PlotView::bin(std::chrono::steady_clock::time_point deadline) {
    bool done = true;
    const std::size_t panes = m_grids.size();
    for (std::size_t i = 0; i < panes; ++i) {
        // An equal share of the time left, so that A's binning never leaves B none.
        const auto now = std::chrono::steady_clock::now();
        const auto share = now < deadline ? (deadline - now) / static_cast<long>(panes - i)
                                          : std::chrono::steady_clock::duration::zero();
        bool paneDone = binPane(i, kBinChunk);
        while (!paneDone && std::chrono::steady_clock::now() < now + share)
            paneDone = binPane(i, kBinChunk);
        done = done && paneDone;
    }
    return done;
}

bool PlotView::binned() {
    bool done = true;
    for (std::size_t i = 0; i < m_grids.size(); ++i)
        done = binPane(i, 0) && done;
    return done;
}

void PlotView::publish() {
    for (std::size_t i = 0; i < m_grids.size(); ++i)
        publishPane(i);
    fitNotes();
}

void PlotView::fitNotes() {
    for (std::size_t i = 0; i < m_grids.size(); ++i) {
        updateCannotDraw(i);
        if (i < m_waiting.size() && m_waiting[i])
            fitNote(m_waiting[i], m_waiting[i]->property(kWholeNote).toString(), i);
    }
}

void PlotView::replot() {
    // Drawn now, in the caller's turn for this view, rather than in a later turn with the others.
    m_plot->replot(QCustomPlot::rpRefreshHint);
}

QImage PlotView::renderImage(int width, int height, double scale, std::vector<QRect>* panes) {
    QImage image;
    renderForExport(width, height, scale, panes,
                    [&] { image = m_plot->toPixmap(width, height, scale).toImage(); });
    return image;
}

QPicture PlotView::renderPicture(int width, int height, std::vector<QRect>* panes) {
    QPicture picture;
    renderForExport(width, height, 1.0, panes, [&] {
        QCPPainter painter(&picture);
        m_plot->toPainter(&painter, width, height);
    });
    return picture;
}

void PlotView::renderForExport(int width, int height, double scale, std::vector<QRect>* panes,
                               const std::function<void()>& draw) {
    const ModelThread::Hold hold(m_model, ModelThread::Hold::Mode::Wait);
    const QRect screenViewport = m_plot->viewport();
    const double screenScale = m_pixelScale;
    m_pixelScale = scale;
    m_plot->setViewport(QRect(0, 0, width, height));
    // Twice: the first pass may change tick labels and so the layout the second pass bins for.
    for (int pass = 0; pass < 2; ++pass) {
        fixGrids();
        bin(std::chrono::steady_clock::time_point::max());
        publish();
    }
    draw();
    if (panes) {
        panes->clear();
        for (const QCPAxisRect* rect : m_panes)
            panes->push_back(rect->rect());
    }
    m_plot->setViewport(screenViewport);
    m_pixelScale = screenScale;
    // What is binned is the export's until the next frame fixes the screen's grids again; the notes
    // fit the screen's panes at once.
    prepareFrame();
    fitNotes();
    emit needsRefresh();
}

QString PlotView::tooltipAt(const QPoint& pos) const {
    // Hovering asks again at the next move: a tooltip never waits for the model thread.
    const ModelThread::Hold hold(m_model);
    if (!hold)
        return {};
    for (std::size_t i = 0; i < m_runs.size() && i < m_panes.size(); ++i) {
        QCPAxisRect* rect = m_panes[i];
        if (!rect->rect().contains(pos))
            continue;
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        const PixelRange pixel{x->pixelToCoord(pos.x()), x->pixelToCoord(pos.x() + 1),
                               y->pixelToCoord(pos.y() + 1), y->pixelToCoord(pos.y())};
        // Where the pane has nothing to say of its data, its note (whole, however it was cut).
        const QString text = tooltip(i, pixel);
        return text.isEmpty() ? paneNote(i) : text;
    }
    return sideTooltip(pos);
}

void PlotView::onMouseMove(QMouseEvent* event) {
    if (event->buttons() != Qt::NoButton)
        return;
    const QString text = tooltipAt(event->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void PlotView::showContextMenu(const QPoint& pos) {
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addAction(tr("Export this plot as PNG…"), this, [this] { emit exportRequested(); });
    menu->addAction(tr("Export all plots as PNG…"), this, [this] { emit exportDashboardRequested(); });
    menu->addSeparator();
    addViewActions(menu);
    menu->addAction(tr("Reset zoom"), this, [this] { emit resetZoomRequested(); });
    menu->popup(m_plot->mapToGlobal(pos));
}

void PlotView::styleAxis(QCPAxis* axis) const {
    axis->setTickLabelFont(plotFont(kFontPixels - 1));
    axis->setLabelFont(plotFont(kFontPixels));
    axis->setLabelPadding(2);
    axis->setTickLabelPadding(3);
}

void PlotView::useCompactTicks(QCPAxis* axis) {
    axis->setTicker(QSharedPointer<QCPAxisTicker>(new CompactTicker));
}

void PlotView::useBlockSizeTicks(QCPAxis* axis, int maxBlocks) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTicker>(new BlockSizeTicker(axis, maxBlocks)));
}

void PlotView::setTheme(const PlotTheme& theme) {
    m_theme = theme;
    applyBaseTheme();
    applyTheme();
    emit needsRefresh();
}

void PlotView::setWaitingNote(std::size_t run, const QString& text) {
    if (run >= m_panes.size() || run >= m_runs.size())
        return;
    m_waiting.resize(m_panes.size(), nullptr);
    QCPItemText*& note = m_waiting[run];
    if (!note) {
        if (text.isEmpty())
            return;
        note = new QCPItemText(m_plot);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setAxisRect(m_panes[run]);
        note->position->setCoords(0.5, 0.5);
        note->setClipAxisRect(m_panes[run]);
        note->setTextAlignment(Qt::AlignCenter);
        note->setColor(m_theme.text);
    }
    fitNote(note, text, run);
    emit needsRefresh();
}

void PlotView::applyBaseTheme() {
    m_plot->setBackground(m_theme.background);
    for (QCPItemText* label : m_runLabels)
        label->setColor(m_theme.text);
    for (QCPItemText* note : m_cannotDraw)
        note->setColor(m_theme.text);
    for (QCPItemText* note : m_waiting)
        if (note)
            note->setColor(m_theme.text);
    m_title->setTextColor(m_theme.text);
    for (QCPAxisRect* rect : m_plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(m_theme.axis));
            axis->setTickPen(QPen(m_theme.axis));
            axis->setSubTickPen(QPen(m_theme.axis));
            axis->setTickLabelColor(m_theme.text);
            axis->setLabelColor(m_theme.text);
            axis->grid()->setPen(QPen(m_theme.grid, 0, Qt::SolidLine));
            axis->grid()->setSubGridVisible(false);
        }
    }
}

void PlotView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        setTheme(PlotTheme::fromPalette(palette()));
}

void PlotView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    emit resized();
}

} // namespace la
