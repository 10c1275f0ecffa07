// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"

#include <QString>
#include <QWidget>

#include <vector>

namespace la {

// One run's row of the strip: its label, each repeat's run time in seconds in the order they ran, and
// which repeat is the median one (the one the plots draw).
struct RepeatStripRow {
    QString label;
    std::vector<double> seconds;
    std::size_t median = 0;
};

// The rows of the runs that were repeated (docs/repeats.md), in order; none when no run was.
std::vector<RepeatStripRow> repeatStripRows(const std::vector<const RunSummary*>& runs,
                                            const std::vector<QString>& labels);

// Each repeated run's run times on one shared time axis, a dot per repeat and the median's drawn
// larger, so that how far apart A and B lie against their own spread shows at a glance. Hidden while
// no run on screen was repeated.
class RepeatStrip : public QWidget {
    Q_OBJECT
public:
    explicit RepeatStrip(QWidget* parent = nullptr);
    void setRows(std::vector<RepeatStripRow> rows);
    const std::vector<RepeatStripRow>& rows() const { return m_rows; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<RepeatStripRow> m_rows;
};

} // namespace la
