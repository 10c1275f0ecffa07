// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plot_theme.h"
#include "summary_rows.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QPainter;
class QRectF;
class QTableWidget;

namespace la {

class RepeatStrip;
class RunTrace;

// The runs' key numbers side by side (I/Os, mean size, MB/s, waits, distance, collapses, I/O method),
// and under them, for repeated runs, each repeat's run time (repeat_strip.h).
class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget* parent = nullptr);
    void setRuns(const std::vector<const RunTrace*>& runs);
    // Re-reads the runs' summaries (a run finished).
    void refresh();
    // While a run plays live the panel keeps its height, so that the plots above never change size
    // mid-run: values too long for a line end in "…" (their tooltips have all of them) until the run
    // is over and the panel fits them again.
    void setLive(bool live);
    QStringList headers() const;
    std::vector<SummaryRow> rows() const;
    const RepeatStrip* repeatStrip() const { return m_strip; }

protected:
    // Long values (the EXPLAIN rows) wrap at the columns' new width, and the table grows to fit.
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitHeight();
    void showStripIfDone();
    QTableWidget* m_table;
    RepeatStrip* m_strip;
    std::vector<const RunTrace*> m_runs;
    bool m_live = false;
};

// Paints the same table for the PNG export; returns the height it needs for `rows` when `painter` is
// null (measuring pass).
double paintSummaryTable(QPainter* painter, const QRectF& area, const QStringList& headers,
                         const std::vector<SummaryRow>& rows, const PlotTheme& theme);

} // namespace la
