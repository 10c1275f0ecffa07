// SPDX-License-Identifier: GPL-3.0-or-later
#include "repeat_strip.h"

#include "number_text.h"
#include "repeat_stats.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace la {

namespace {
constexpr int kRowHeight = 18;
constexpr int kAxisHeight = 16;
constexpr int kMargin = 6;
constexpr double kDot = 3.0;
constexpr double kMedianDot = 5.0;
} // namespace

std::vector<RepeatStripRow> repeatStripRows(const std::vector<const RunSummary*>& runs,
                                            const std::vector<QString>& labels) {
    std::vector<RepeatStripRow> rows;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunSummary* run = runs[i];
        if (!run || run->repeats.size() < 2)
            continue;
        RepeatStripRow row{i < labels.size() ? labels[i] : QString(), {}, medianRepeat(run->repeats)};
        for (const RunSummary& repeat : run->repeats)
            row.seconds.push_back(static_cast<double>(repeat.runtimeNs) / 1e9);
        rows.push_back(std::move(row));
    }
    return rows;
}

RepeatStrip::RepeatStrip(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setToolTip(tr("Each repeat's run time (the larger dot: the median repeat, the one the plots show)"));
    hide();
}

void RepeatStrip::setRows(std::vector<RepeatStripRow> rows) {
    m_rows = std::move(rows);
    setVisible(!m_rows.empty());
    updateGeometry();
    update();
}

QSize RepeatStrip::sizeHint() const {
    return {200, 2 * kMargin + kAxisHeight + kRowHeight * static_cast<int>(m_rows.size())};
}

void RepeatStrip::paintEvent(QPaintEvent*) {
    if (m_rows.empty())
        return;
    double low = m_rows.front().seconds.front(), high = low;
    for (const RepeatStripRow& row : m_rows)
        for (double s : row.seconds) {
            low = std::min(low, s);
            high = std::max(high, s);
        }
    if (!(high > low)) { // all alike: a small range around them
        low *= 0.95;
        high = high * 1.05 + 1e-9;
    }
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& colors = palette();
    const QFontMetrics metrics(font());
    int labelWidth = 0;
    for (const RepeatStripRow& row : m_rows)
        labelWidth = std::max(labelWidth, metrics.horizontalAdvance(row.label));
    const double left = kMargin + labelWidth + 2.0 * kMargin;
    const double right = width() - 2.0 * kMargin;
    const auto xOf = [&](double s) { return left + (s - low) / (high - low) * (right - left); };
    const QColor runColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28)};
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const RepeatStripRow& row = m_rows[r];
        const double y = kMargin + kRowHeight * (static_cast<double>(r) + 0.5);
        painter.setPen(colors.color(QPalette::WindowText));
        painter.drawText(QRectF(kMargin, y - kRowHeight / 2.0, labelWidth, kRowHeight),
                         Qt::AlignVCenter | Qt::AlignLeft, row.label);
        painter.setPen(colors.color(QPalette::Mid));
        painter.drawLine(QPointF(left, y), QPointF(right, y));
        const QColor color = runColors[r % 2];
        painter.setPen(Qt::NoPen);
        for (std::size_t i = 0; i < row.seconds.size(); ++i) {
            const double radius = i == row.median ? kMedianDot : kDot;
            painter.setBrush(i == row.median ? color : color.lighter(150));
            painter.drawEllipse(QPointF(xOf(row.seconds[i]), y), radius, radius);
        }
    }
    // The axis: its two ends.
    const double axisY = kMargin + kRowHeight * static_cast<double>(m_rows.size());
    painter.setPen(colors.color(QPalette::WindowText));
    const QRectF axis(left, axisY, right - left, kAxisHeight);
    painter.drawText(axis, Qt::AlignLeft | Qt::AlignVCenter, formatDuration(low * 1e9));
    painter.drawText(axis, Qt::AlignRight | Qt::AlignVCenter, formatDuration(high * 1e9));
    painter.drawText(axis, Qt::AlignHCenter | Qt::AlignVCenter, tr("run time of each repeat"));
}

} // namespace la
