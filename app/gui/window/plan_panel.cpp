// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/plan_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

#include <vector>

namespace la {

namespace {

enum Column { Node, Mark, Explain, Model, Resets, Columns };

// A whole figure without decimals, another with `decimals`.
QString figure(const std::optional<double>& value, int decimals = 0) {
    if (!value)
        return QStringLiteral("-");
    return QLocale(QLocale::English).toString(*value, 'f', std::floor(*value) == *value ? 0 : decimals);
}

QString figure(std::uint64_t value) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(value));
}

QString nodeName(const PlanRow& row) {
    QString name = row.type;
    if (!row.relation.isEmpty())
        name += QStringLiteral(" on ") + row.relation;
    if (!row.index.isEmpty())
        name += QStringLiteral(" using ") + row.index;
    return name;
}

// The model's run shown in the tree's columns: the first that is no trace.
const PlanRunFigures* modelRun(const PlanRow& row) {
    for (const PlanRunFigures& run : row.runs)
        if (!run.observed)
            return &run;
    return nullptr;
}

QColor markColour(PlanMark mark) {
    switch (mark) {
    case PlanMark::Agrees:
        return QColor(0x1e, 0x7b, 0x34);
    case PlanMark::Differs:
        return QColor(0xb0, 0x1e, 0x10);
    case PlanMark::NotModelled:
    case PlanMark::None:
        break;
    }
    return QColor(0x6b, 0x6b, 0x6b);
}

} // namespace

QString planMarkName(PlanMark mark) {
    switch (mark) {
    case PlanMark::Agrees:
        return QStringLiteral("agrees");
    case PlanMark::Differs:
        return QStringLiteral("differs");
    case PlanMark::NotModelled:
        return QStringLiteral("not modelled");
    case PlanMark::None:
        break;
    }
    return {};
}

PlanPanel::PlanPanel(QWidget* parent)
    : QWidget(parent), m_note(new QLabel(this)), m_tree(new QTreeWidget(this)), m_details(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_note->setObjectName(QStringLiteral("planNote"));
    m_note->setWordWrap(true);
    m_note->setVisible(false);
    layout->addWidget(m_note);
    m_tree->setObjectName(QStringLiteral("planTree"));
    m_tree->setColumnCount(Columns);
    // Two-line headers, the I/Os in the chosen node's lines below: the panel shares a column with the
    // run setup, and the plots keep most of the window's width.
    m_tree->setHeaderLabels(
        {tr("Node"), tr("Mark"), tr("EXPLAIN\nhit / read"), tr("Model\nhit / miss"), tr("Resets\n(loops)")});
    m_tree->setIndentation(14);
    m_tree->headerItem()->setToolTip(Explain, tr("EXPLAIN's shared hit and shared read of the node itself "
                                                 "(its children's taken off)"));
    m_tree->headerItem()->setToolTip(Model, tr("The model's hits and misses of the modelled node (its I/Os "
                                               "and their mean size are said below the tree)"));
    m_tree->headerItem()->setToolTip(Resets, tr("Rescans of the node (its loops less one): each a "
                                                "read_stream_reset() where the node reads through a stream"));
    m_tree->headerItem()->setToolTip(Mark, tr("The modelled node (in bold): whether the model's misses are "
                                              "EXPLAIN's shared read of it"));
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    // Every column as wide as its text (setOutline() fits them): what does not fit the panel scrolls,
    // nothing is cut.
    m_tree->header()->setStretchLastSection(false);
    m_tree->setTextElideMode(Qt::ElideNone);
    m_details->setObjectName(QStringLiteral("planDetails"));
    m_details->setWordWrap(true);
    m_details->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setTextFormat(Qt::PlainText);
    // The chosen node's lines scroll where the panel is too short for them, never cut.
    auto* details = new QScrollArea(this);
    details->setWidget(m_details);
    details->setWidgetResizable(true);
    details->setFrameShape(QFrame::NoFrame);
    details->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_tree);
    split->addWidget(details);
    split->setChildrenCollapsible(false);
    // Room for the chosen node's usual eight lines or so; the tree's rows are few.
    details->setMinimumHeight(8 * fontMetrics().lineSpacing());
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({1, 1}); // halves, rather than the tree's large size hint
    layout->addWidget(split, 1);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &PlanPanel::showChosen);
}

void PlanPanel::setOutline(PlanOutline outline) {
    m_outline = std::move(outline);
    m_tree->clear();
    m_note->setText(m_outline.note);
    m_note->setVisible(!m_outline.note.isEmpty());
    std::vector<QTreeWidgetItem*> parents; // the last item of each depth
    for (std::size_t i = 0; i < m_outline.rows.size(); ++i) {
        const PlanRow& row = m_outline.rows[i];
        // A depth deeper than one below its parent (a damaged plan) hangs below the last item.
        const std::size_t depth = std::min<std::size_t>(std::size_t(std::max(0, row.depth)), parents.size());
        auto* item = depth == 0 ? new QTreeWidgetItem(m_tree) : new QTreeWidgetItem(parents[depth - 1]);
        parents.resize(depth);
        parents.push_back(item);
        item->setData(Node, Qt::UserRole, int(i));
        item->setText(Node, nodeName(row));
        item->setToolTip(Node, nodeName(row));
        item->setText(Explain, figure(row.sharedHit) + QStringLiteral(" / ") + figure(row.sharedRead));
        if (const PlanRunFigures* run = modelRun(row)) {
            item->setText(Model, figure(run->hits) + QStringLiteral(" / ") + figure(run->misses));
            item->setToolTip(
                Model,
                tr("%1 I/Os of %2 blocks on average").arg(figure(run->ios), figure(run->meanIoBlocks, 1)));
        }
        item->setText(Resets, QStringLiteral("%1 (%2)").arg(figure(row.resets), figure(row.loops)));
        item->setText(Mark,
                      row.modelled && row.mark == PlanMark::None ? tr("modelled") : planMarkName(row.mark));
        item->setToolTip(Mark, row.markText);
        item->setForeground(Mark, markColour(row.mark));
        for (int column = Explain; column < Columns; ++column)
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        if (row.modelled) {
            QFont bold = item->font(Node);
            bold.setBold(true);
            for (int column = 0; column < Columns; ++column)
                item->setFont(column, bold);
        }
    }
    m_tree->expandAll();
    for (int column = 0; column < Columns; ++column)
        m_tree->resizeColumnToContents(column);
    if (m_outline.modelledRow >= 0)
        chooseNode(m_outline.rows[std::size_t(m_outline.modelledRow)].nodeId);
    else
        showChosen();
}

bool PlanPanel::chooseNode(std::int64_t nodeId) {
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        const int row = (*it)->data(Node, Qt::UserRole).toInt();
        if (m_outline.rows[std::size_t(row)].nodeId == nodeId) {
            m_tree->setCurrentItem(*it);
            m_tree->scrollToItem(*it);
            return true;
        }
    }
    return false;
}

int PlanPanel::wholeWidth() const {
    const int width = m_tree->header()->length();
    const QMargins margins = layout()->contentsMargins();
    return width + 2 * m_tree->frameWidth() + margins.left() + margins.right();
}

std::int64_t PlanPanel::chosenNode() const {
    const QTreeWidgetItem* item = m_tree->currentItem();
    return item ? m_outline.rows[std::size_t(item->data(Node, Qt::UserRole).toInt())].nodeId : -1;
}

QString PlanPanel::details() const {
    return m_details->text();
}

void PlanPanel::showChosen() {
    const QTreeWidgetItem* item = m_tree->currentItem();
    if (!item) {
        m_details->setText(m_outline.empty() ? tr("The runs shown have no recorded plan.") : QString());
        return;
    }
    const PlanRow& row = m_outline.rows[std::size_t(item->data(Node, Qt::UserRole).toInt())];
    QStringList lines;
    lines << tr("Node %1: %2%3")
                 .arg(row.nodeId)
                 .arg(nodeName(row), row.modelled ? tr(", the modelled node") : QString());
    lines << tr("EXPLAIN: shared hit %1, read %2 (the node's own); loops %3, resets %4; rows %5 per loop")
                 .arg(figure(row.sharedHit), figure(row.sharedRead), figure(row.loops), figure(row.resets),
                      figure(row.actualRows, 1));
    if (row.ioCount || row.prefetchAvg)
        lines << tr("EXPLAIN's read stream: %1 I/Os of %2 blocks on average, prefetch distance %3 on average")
                     .arg(figure(row.ioCount), figure(row.ioSize, 1), figure(row.prefetchAvg, 1));
    if (!row.serverStream.isEmpty())
        lines << tr("The server's read stream: %1").arg(row.serverStream);
    for (const PlanRunFigures& run : row.runs)
        lines << tr("%1 (%2): hits %3, misses %4, %5 I/Os of %6 blocks on average, resets %7")
                     .arg(run.run, run.observed ? tr("the trace") : tr("the model"), figure(run.hits),
                          figure(run.misses), figure(run.ios), figure(run.meanIoBlocks, 1),
                          figure(run.resets));
    if (row.mark != PlanMark::None || !row.markText.isEmpty())
        lines << tr("Reconciliation: %1").arg(row.markText);
    if (row.scan && !row.modelled)
        lines
            << tr("To model this node, record the query again with --node %1 (lookahead record … --node %1).")
                   .arg(row.nodeId);
    if (!row.scan)
        lines << tr("This node reads no relation: it has no stream of its own.");
    m_details->setText(lines.join(QLatin1Char('\n')));
}

} // namespace la
