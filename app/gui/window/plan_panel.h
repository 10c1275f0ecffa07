// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/window/plan_outline.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace la {

// A recorded query's plan beside the plots: a tree of its nodes as EXPLAIN nests them, each scan
// node with EXPLAIN's figures beside the model's and a mark (agrees, differs, not modelled), and,
// under it, the chosen node's figures in full, with how to model it where it is not. The modelled
// node is chosen when a plan is shown.
class PlanPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlanPanel(QWidget* parent = nullptr);

    void setOutline(PlanOutline outline);
    const PlanOutline& outline() const { return m_outline; }
    // Chooses the node `nodeId` (as a click on its row does): false if the plan has none.
    bool chooseNode(std::int64_t nodeId);
    // The chosen node's id, -1 for none.
    std::int64_t chosenNode() const;
    // What is said under the tree of the chosen node.
    QString details() const;
    const QTreeWidget* tree() const { return m_tree; }
    // How wide the panel is with every column of the tree whole.
    int wholeWidth() const;

private:
    void showChosen();

    QLabel* m_note;
    QTreeWidget* m_tree;
    QLabel* m_details;
    PlanOutline m_outline;
};

// The mark's words as the tree's column shows them ("agrees", "differs", "not modelled").
QString planMarkName(PlanMark mark);

} // namespace la
