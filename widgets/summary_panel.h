// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plot_theme.h"
#include "summary_rows.h"

#include <QFont>
#include <QRectF>
#include <QStringList>
#include <QWidget>

#include <vector>

class QPainter;
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
    const QTableWidget* table() const { return m_table; }

protected:
    // Long values (the EXPLAIN rows) wrap at the columns' new width, and the table grows to fit.
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitHeight();
    void fitHeader(int column);
    void showStripIfDone();
    QTableWidget* m_table;
    RepeatStrip* m_strip;
    std::vector<const RunTrace*> m_runs;
    bool m_live = false;
};

// A cell of the exported table: where it is, the text drawn (one line, ending in "…" where the
// whole does not fit) and the whole text.
struct TableCell {
    QRectF rect;
    QString shown;
    QString whole;
    QFont font;
};
// The exported table's cells in `area`: the headers, then each row's label and values.
std::vector<TableCell> layoutSummaryTable(const QRectF& area, const QStringList& headers,
                                          const std::vector<SummaryRow>& rows);

// The table as lines of text, every value whole: "Run time: 412 ms | 240 ms" (an export's metadata).
QString summaryTableText(const QStringList& headers, const std::vector<SummaryRow>& rows);

// Paints the same table for the PNG export; returns the height it needs for `rows` when `painter` is
// null (measuring pass).
double paintSummaryTable(QPainter* painter, const QRectF& area, const QStringList& headers,
                         const std::vector<SummaryRow>& rows, const PlotTheme& theme);

} // namespace la
