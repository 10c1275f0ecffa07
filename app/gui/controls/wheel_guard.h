// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QAbstractScrollArea;
class QWidget;

namespace la {

// Fields in a scrolling panel take the mouse wheel only once the user has clicked or tabbed into
// them: a wheel turned to scroll the panel must not change every setting it passes over. Until
// then the wheel scrolls the panel.
class WheelGuard final : public QObject {
public:
    explicit WheelGuard(QAbstractScrollArea* area); // owned by the area
    // Every spin box and combo box under `root`.
    void protectFieldsOf(QWidget* root);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QAbstractScrollArea* m_area;
};

} // namespace la
