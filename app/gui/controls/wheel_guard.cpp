// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/controls/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>

namespace la {

WheelGuard::WheelGuard(QAbstractScrollArea* area) : QObject(area), m_area(area) {}

void WheelGuard::protectFieldsOf(QWidget* root) {
    QList<QWidget*> fields;
    for (QAbstractSpinBox* box : root->findChildren<QAbstractSpinBox*>())
        fields << box;
    for (QComboBox* combo : root->findChildren<QComboBox*>())
        fields << combo;
    for (QWidget* field : fields) {
        field->setFocusPolicy(Qt::StrongFocus); // a wheel alone no longer gives it focus
        field->installEventFilter(this);
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    const auto* field = qobject_cast<QWidget*>(watched);
    if (event->type() != QEvent::Wheel || field == nullptr || field->hasFocus())
        return false;
    QCoreApplication::sendEvent(m_area->viewport(), event);
    return true;
}

} // namespace la
