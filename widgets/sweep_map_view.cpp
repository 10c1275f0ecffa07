// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep_map_view.h"

#include "qcp.h"

#include <QMouseEvent>
#include <QVBoxLayout>

#include <cmath>

namespace la {

namespace {

// Low values blue, the middle pale, high values red: in every metric of a sweep one end is the
// trouble (slow, collapsed, many waits) and the scale's label says which.
QCPColorGradient sweepGradient() {
    QCPColorGradient gradient;
    gradient.setColorStopAt(0.0, QColor(0x2c, 0x7b, 0xb6));
    gradient.setColorStopAt(0.5, QColor(0xff, 0xff, 0xbf));
    gradient.setColorStopAt(1.0, QColor(0xd7, 0x19, 0x1c));
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

// At most about `room` labels: every k-th, the first always.
QSharedPointer<QCPAxisTickerText> labelTicker(const std::vector<std::string>& labels, int room) {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const std::size_t step = labels.size() <= std::size_t(room) ? 1 : (labels.size() + room - 1) / room;
    for (std::size_t i = 0; i < labels.size(); i += step)
        ticker->addTick(double(i), QString::fromStdString(labels[i]));
    return ticker;
}

void themeAxis(QCPAxis* axis, const PlotTheme& theme) {
    axis->setBasePen(QPen(theme.axis));
    axis->setTickPen(QPen(theme.axis));
    axis->setSubTickPen(Qt::NoPen);
    axis->setTickLabelColor(theme.text);
    axis->setLabelColor(theme.text);
    axis->grid()->setVisible(false);
    QFont font;
    font.setPixelSize(11);
    axis->setTickLabelFont(font);
    axis->setLabelFont(font);
}

} // namespace

SweepMapView::SweepMapView(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMouseTracking(true);
    m_plot->installEventFilter(this);
    setMinimumSize(480, 260);
}

void SweepMapView::setGrid(const SweepGrid& grid, int onlyPolicy) {
    m_grid = grid;
    m_shown.clear();
    for (std::size_t p = 0; p < grid.policies.size(); ++p)
        if (onlyPolicy < 0 || std::size_t(onlyPolicy) == p)
            m_shown.push_back(p);
    rebuild(PlotTheme::fromPalette(palette()));
}

void SweepMapView::rebuild(const PlotTheme& theme) {
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->plotLayout()->clear();
    m_plot->setBackground(theme.background);
    const std::size_t nx = m_grid.columns(), ny = m_grid.rows();
    if (m_shown.empty() || nx == 0) {
        m_plot->replot();
        return;
    }
    double lo = 0.0, hi = 1.0;
    m_grid.range(lo, hi);

    auto* scale = new QCPColorScale(m_plot);
    scale->setType(QCPAxis::atRight);
    scale->setBarWidth(12);
    scale->setRangeDrag(false);
    scale->setRangeZoom(false);
    scale->setGradient(sweepGradient());
    scale->setDataRange(QCPRange(lo, hi));
    scale->setLabel(QString::fromStdString(m_grid.title));
    themeAxis(scale->axis(), theme);
    auto* group = new QCPMarginGroup(m_plot);

    const int room = std::max(2, int(14 / m_shown.size()) + 2);
    for (std::size_t i = 0; i < m_shown.size(); ++i) {
        const std::size_t policy = m_shown[i];
        auto* title = new QCPTextElement(m_plot, QString::fromStdString(m_grid.policies[policy]));
        QFont font;
        font.setPixelSize(13);
        font.setBold(true);
        title->setFont(font);
        title->setTextColor(theme.text);
        m_plot->plotLayout()->addElement(0, int(i), title);
        auto* rect = new QCPAxisRect(m_plot);
        m_plot->plotLayout()->addElement(1, int(i), rect);
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        themeAxis(x, theme);
        themeAxis(y, theme);
        x->setTicker(labelTicker(m_grid.xLabels, room));
        x->setLabel(QString::fromStdString(m_grid.xTitle));
        x->setRange(-0.5, double(nx) - 0.5);
        if (m_grid.yLabels.empty()) {
            y->setTicks(false);
        } else {
            y->setTicker(labelTicker(m_grid.yLabels, 20));
            if (i == 0)
                y->setLabel(QString::fromStdString(m_grid.yTitle));
        }
        y->setRange(-0.5, double(ny) - 0.5);
        auto* map = new QCPColorMap(x, y);
        map->setInterpolate(false);
        map->setAntialiased(false);
        map->setTightBoundary(false);
        map->data()->setSize(int(nx), int(ny));
        map->data()->setRange(QCPRange(0.0, double(nx) - 1.0), QCPRange(0.0, double(ny) - 1.0));
        for (std::size_t cy = 0; cy < ny; ++cy)
            for (std::size_t cx = 0; cx < nx; ++cx)
                map->data()->setCell(int(cx), int(cy), m_grid.at(policy, cx, cy));
        map->setColorScale(scale);
        map->setDataRange(QCPRange(lo, hi));
        markWithinNoise(rect, policy, theme);
    }
    m_plot->plotLayout()->addElement(1, int(m_shown.size()), scale);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.01);
    m_plot->replot();
}

// "≈" on each cell whose policy does not differ from the baseline beyond noise (docs/repeats.md).
void SweepMapView::markWithinNoise(QCPAxisRect* rect, std::size_t policy, const PlotTheme& theme) {
    if (policy >= m_grid.withinNoise.size())
        return;
    for (std::size_t cy = 0; cy < m_grid.rows(); ++cy)
        for (std::size_t cx = 0; cx < m_grid.columns(); ++cx) {
            if (!m_grid.withinNoise[policy][cy * m_grid.columns() + cx])
                continue;
            auto* mark = new QCPItemText(m_plot);
            mark->setClipAxisRect(rect);
            mark->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            mark->position->setCoords(double(cx), double(cy));
            mark->setText(QStringLiteral("≈"));
            mark->setColor(theme.text);
        }
}

QWidget* SweepMapView::plotWidget() const {
    return m_plot;
}

std::optional<SweepCell> SweepMapView::cellAt(QPoint widgetPos) const {
    const QPoint pos = m_plot->mapFrom(this, widgetPos);
    for (std::size_t i = 0; i < m_shown.size(); ++i) {
        auto* rect = qobject_cast<QCPAxisRect*>(m_plot->plotLayout()->element(1, int(i)));
        if (!rect || !rect->rect().contains(pos))
            continue;
        const long x = std::lround(rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x()));
        const long y = std::lround(rect->axis(QCPAxis::atLeft)->pixelToCoord(pos.y()));
        if (x < 0 || y < 0 || std::size_t(x) >= m_grid.columns() || std::size_t(y) >= m_grid.rows())
            return std::nullopt;
        return SweepCell{m_shown[i], std::size_t(x), std::size_t(y)};
    }
    return std::nullopt;
}

QPoint SweepMapView::cellCentre(const SweepCell& cell) const {
    for (std::size_t i = 0; i < m_shown.size(); ++i) {
        if (m_shown[i] != cell.policy)
            continue;
        auto* rect = qobject_cast<QCPAxisRect*>(m_plot->plotLayout()->element(1, int(i)));
        const QPointF centre(rect->axis(QCPAxis::atBottom)->coordToPixel(double(cell.x)),
                             rect->axis(QCPAxis::atLeft)->coordToPixel(double(cell.y)));
        return m_plot->mapTo(this, centre.toPoint());
    }
    return {};
}

void SweepMapView::paint(QPaintDevice& device, QSize size) {
    rebuild(PlotTheme::light());
    QCPPainter qcpPainter(&device);
    qcpPainter.setRenderHint(QPainter::TextAntialiasing);
    m_plot->toPainter(&qcpPainter, size.width(), size.height());
    rebuild(PlotTheme::fromPalette(palette()));
}

bool SweepMapView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot &&
        (event->type() == QEvent::MouseMove || event->type() == QEvent::MouseButtonRelease)) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        const QPoint pos = m_plot->mapTo(this, mouse->position().toPoint());
        if (const std::optional<SweepCell> cell = cellAt(pos)) {
            if (event->type() == QEvent::MouseMove)
                emit cellHovered(*cell, mouse->globalPosition().toPoint());
            else if (mouse->button() == Qt::LeftButton)
                emit cellClicked(*cell);
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace la
