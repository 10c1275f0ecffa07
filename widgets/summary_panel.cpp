// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary_panel.h"

#include "repeat_strip.h"
#include "run_trace.h"
#include "text_fit.h"

#include <QFontMetricsF>
#include <QHeaderView>
#include <QPainter>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <numeric>

namespace la {

namespace {
constexpr int kExportFontPixels = 11;
constexpr double kRowPadding = 4.0;
// A run's label takes at most this many lines of the header.
constexpr int kHeaderLines = 2;

// A narrow cell wraps before a parenthesis, never inside one: "154 ms" over "(128 ms–210 ms)" rather
// than "154 ms (128 ms–" over "210 ms)".
QString keepParenthesesTogether(const QString& text) {
    QString kept;
    int depth = 0;
    for (const QChar c : text) {
        depth += c == QLatin1Char('(') ? 1 : c == QLatin1Char(')') ? -1 : 0;
        kept += depth > 0 && c == QLatin1Char(' ') ? QChar(0x00A0) : c; // no-break space
        if (depth > 0 && c == QChar(0x2013))
            kept += QChar(0x2060); // word joiner: a line may break after an en dash, not here
    }
    return kept;
}
} // namespace

SummaryPanel::SummaryPanel(QWidget* parent)
    : QWidget(parent), m_table(new QTableWidget(this)), m_strip(new RepeatStrip(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
    layout->addWidget(m_strip);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->verticalHeader()->setVisible(false);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(true);
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column) {
        fitHeader(column);
        fitHeight();
    });
    refresh();
}

void SummaryPanel::setRuns(const std::vector<const RunTrace*>& runs) {
    m_runs = runs;
    refresh();
}

QStringList SummaryPanel::headers() const {
    QStringList headers{QString()};
    const char* const names[] = {"A", "B"};
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        headers << QStringLiteral("%1: %2").arg(QLatin1String(names[i % 2]),
                                                QString::fromStdString(m_runs[i]->label()));
    return headers;
}

std::vector<SummaryRow> SummaryPanel::rows() const {
    std::vector<const RunSummary*> summaries;
    for (const RunTrace* trace : m_runs)
        summaries.push_back(trace->summary() ? &*trace->summary() : nullptr);
    return summaryRows(summaries);
}

void SummaryPanel::refresh() {
    // The rows in two halves side by side, across the whole width and with no scrolling: every row,
    // "Collapses" included, is in view at once.
    const std::vector<SummaryRow> summary = rows();
    const QStringList header = headers();
    const int groupColumns = static_cast<int>(header.size());
    const int groupRows = static_cast<int>((summary.size() + 1) / 2);
    m_table->clear();
    m_table->setColumnCount(2 * groupColumns);
    m_table->setHorizontalHeaderLabels(header + header);
    m_table->setRowCount(groupRows);
    for (std::size_t r = 0; r < summary.size(); ++r) {
        const int row = static_cast<int>(r) % groupRows;
        const int first = static_cast<int>(r) / groupRows * groupColumns;
        auto* label = new QTableWidgetItem(summary[r].label);
        QFont bold = label->font();
        bold.setBold(true);
        label->setFont(bold);
        label->setToolTip(summary[r].note);
        m_table->setItem(row, first, label);
        for (std::size_t c = 0; c < summary[r].values.size(); ++c) {
            auto* value = new QTableWidgetItem(keepParenthesesTogether(summary[r].values[c]));
            value->setToolTip(summary[r].values[c]);
            m_table->setItem(row, first + 1 + static_cast<int>(c), value);
        }
    }
    std::vector<const RunSummary*> summaries;
    for (const RunTrace* trace : m_runs)
        summaries.push_back(trace->summary() ? &*trace->summary() : nullptr);
    m_strip->setRows(repeatStripRows(summaries, {header.begin() + 1, header.end()}));
    showStripIfDone();
    QHeaderView* columns = m_table->horizontalHeader();
    for (int c = 0; c < m_table->columnCount(); ++c)
        columns->setSectionResizeMode(c, c % groupColumns == 0 ? QHeaderView::ResizeToContents
                                                               : QHeaderView::Stretch);
    for (int c = 0; c < m_table->columnCount(); ++c)
        fitHeader(c);
    fitHeight();
}

// A run's label wider than its column wraps onto a second line ("B: pg19 + restore after reset"
// beside three other columns); only a label too long for two lines ends in "…", whole in its tooltip.
void SummaryPanel::fitHeader(int column) {
    QTableWidgetItem* item = m_table->horizontalHeaderItem(column);
    if (!item)
        return;
    const QStringList whole = headers();
    const QString text = whole.value(column % static_cast<int>(whole.size()));
    const QHeaderView* header = m_table->horizontalHeader();
    const int margin = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 2;
    const FittedText fitted =
        fitLines(text, header->font(), std::max(0, header->sectionSize(column) - margin), kHeaderLines);
    const QString shown = fitted.lines.join(QLatin1Char('\n'));
    if (item->text() != shown)
        item->setText(shown);
    item->setToolTip(fitted.elided ? text : QString());
}

void SummaryPanel::setLive(bool live) {
    if (live == m_live)
        return;
    m_live = live;
    m_table->setWordWrap(!live);
    if (live) {
        setFixedHeight(height());
    } else {
        setMinimumHeight(0);
        setMaximumHeight(QWIDGETSIZE_MAX);
    }
    showStripIfDone();
    fitHeight();
}

void SummaryPanel::showStripIfDone() {
    // While live the panel keeps its height, and a strip that appeared as A's repeats ended was drawn
    // over the table's last rows: it shows once the runs are over.
    m_strip->setVisible(!m_live && !m_strip->rows().empty());
}

void SummaryPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitHeight();
}

void SummaryPanel::fitHeight() {
    m_table->resizeRowsToContents();
    if (m_live)
        return;
    int height = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    for (int r = 0; r < m_table->rowCount(); ++r)
        height += m_table->rowHeight(r);
    m_table->setFixedHeight(height);
}

namespace {

QFont exportFont(bool bold) {
    QFont font;
    font.setPixelSize(kExportFontPixels);
    font.setBold(bold);
    return font;
}

double exportRowHeight() {
    return QFontMetricsF(exportFont(true)).height() + kRowPadding;
}

// The exported table's halves side by side, and the rows in each.
constexpr std::size_t kTableGroups = 2;
std::size_t exportTableRows(std::size_t rows) {
    return std::max<std::size_t>(1, (rows + kTableGroups - 1) / kTableGroups);
}

// Columns' widths in `room`, each column needing `needs`: all in proportion to their needs where they
// fit; else the ones that need least get what they need, no more than an even share of what is left,
// and the widest ones share the rest (a long text is cut, not every text).
std::vector<double> sharedWidths(const std::vector<double>& needs, double room) {
    std::vector<double> widths(needs.size(), 0.0);
    const double total = std::accumulate(needs.begin(), needs.end(), 0.0);
    if (total <= room) {
        for (std::size_t i = 0; i < needs.size(); ++i)
            widths[i] = total > 0.0 ? needs[i] * room / total : room / static_cast<double>(needs.size());
        return widths;
    }
    std::vector<std::size_t> order(needs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return needs[a] < needs[b]; });
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t i = order[k];
        widths[i] = std::min(needs[i], room / static_cast<double>(order.size() - k));
        room -= widths[i];
    }
    return widths;
}

} // namespace

std::vector<TableCell> layoutSummaryTable(const QRectF& area, const QStringList& headers,
                                          const std::vector<SummaryRow>& rows) {
    const QFontMetricsF bold(exportFont(true));
    const QFontMetricsF plain(exportFont(false));
    const double rowHeight = exportRowHeight();
    // As in the window, the rows in two halves side by side: half as tall, so that a 1280×720 export
    // leaves the plots their room. In each half the label column is as wide as its longest label;
    // the value columns of both halves share the rest by what their longest texts need.
    const std::size_t groupRows = exportTableRows(rows.size());
    const std::size_t valueColumns = static_cast<std::size_t>(std::max<qsizetype>(1, headers.size() - 1));
    std::array<double, kTableGroups> labelWidths{};
    std::vector<double> needs(kTableGroups * valueColumns, 0.0); // a half's columns, then the next's
    const auto need = [&](std::size_t group, std::size_t column, double width) {
        double& needed = needs[group * valueColumns + column];
        needed = std::max(needed, width + 8.0);
    };
    for (std::size_t group = 0; group < kTableGroups; ++group) {
        labelWidths[group] = bold.horizontalAdvance(headers.value(0));
        for (std::size_t c = 0; c + 1 < static_cast<std::size_t>(headers.size()); ++c)
            need(group, c, bold.horizontalAdvance(headers[static_cast<qsizetype>(c + 1)]));
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t group = r / groupRows;
        labelWidths[group] = std::max(labelWidths[group], bold.horizontalAdvance(rows[r].label));
        for (std::size_t c = 0; c < rows[r].values.size() && c < valueColumns; ++c)
            need(group, c,
                 plain.horizontalAdvance(
                     QString(rows[r].values[c]).replace(QLatin1Char('\n'), QStringLiteral("; "))));
    }
    double valueRoom = area.width();
    for (double& width : labelWidths) {
        width += 16.0;
        valueRoom -= width;
    }
    const std::vector<double> widths = sharedWidths(needs, std::max(0.0, valueRoom));
    std::vector<double> lefts; // each cell's column's left edge, a half's label column first
    double x = area.left();
    for (std::size_t group = 0; group < kTableGroups; ++group) {
        lefts.push_back(x);
        x += labelWidths[group];
        for (std::size_t c = 0; c < valueColumns; ++c) {
            lefts.push_back(x);
            x += widths[group * valueColumns + c];
        }
    }
    const auto cellRect = [&](std::size_t group, int column, std::size_t row) {
        const std::size_t c = static_cast<std::size_t>(column);
        const double w = column == 0 ? labelWidths[group] : widths[group * valueColumns + c - 1];
        return QRectF(lefts[group * (valueColumns + 1) + c] + 4.0,
                      area.top() + rowHeight * static_cast<double>(row), w - 8.0, rowHeight);
    };
    // One line per cell: a longer text ends in "…" instead of running into its neighbours (the
    // export's metadata has every text whole).
    std::vector<TableCell> cells;
    const auto add = [&](std::size_t group, int column, std::size_t row, const QString& text, bool bold) {
        const QRectF rect = cellRect(group, column, row);
        const QString line = QString(text).replace(QLatin1Char('\n'), QStringLiteral("; "));
        cells.push_back({rect, QFontMetricsF(exportFont(bold)).elidedText(line, Qt::ElideRight, rect.width()),
                         text, exportFont(bold)});
    };
    for (std::size_t group = 0; group * groupRows < rows.size() || group == 0; ++group)
        for (int c = 0; c < headers.size(); ++c)
            add(group, c, 0, headers[c], true);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t group = r / groupRows, row = r % groupRows + 1;
        add(group, 0, row, rows[r].label, true);
        for (std::size_t c = 0; c < rows[r].values.size(); ++c)
            add(group, static_cast<int>(c + 1), row, rows[r].values[c], false);
    }
    return cells;
}

QString summaryTableText(const QStringList& headers, const std::vector<SummaryRow>& rows) {
    QStringList lines{headers.mid(1).join(QStringLiteral(" | "))};
    for (const SummaryRow& row : rows)
        lines << row.label + QStringLiteral(": ") +
                     QStringList(row.values.begin(), row.values.end())
                         .join(QStringLiteral(" | "))
                         .replace(QLatin1Char('\n'), QStringLiteral("; "));
    return lines.join(QLatin1Char('\n'));
}

double paintSummaryTable(QPainter* painter, const QRectF& area, const QStringList& headers,
                         const std::vector<SummaryRow>& rows, const PlotTheme& theme) {
    const double rowHeight = exportRowHeight();
    const std::size_t groupRows = exportTableRows(rows.size());
    const double height = rowHeight * static_cast<double>(groupRows + 1) + kRowPadding;
    if (!painter)
        return height;
    painter->save();
    for (std::size_t r = 0; r < groupRows; r += 2)
        painter->fillRect(
            QRectF(area.left(), area.top() + rowHeight * static_cast<double>(r + 1), area.width(), rowHeight),
            theme.grid);
    painter->setPen(theme.text);
    for (const TableCell& cell : layoutSummaryTable(area, headers, rows)) {
        painter->setFont(cell.font);
        painter->drawText(cell.rect, Qt::AlignLeft | Qt::AlignVCenter, cell.shown);
    }
    painter->restore();
    return height;
}

} // namespace la
