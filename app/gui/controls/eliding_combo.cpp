// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/controls/eliding_combo.h"

#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace la {

ElidingComboBox::ElidingComboBox(QString hint, QWidget* parent) : QComboBox(parent), m_hint(std::move(hint)) {
    setToolTip(m_hint);
    connect(this, &QComboBox::currentTextChanged, this, [this](const QString& text) {
        setToolTip(text.isEmpty() ? m_hint : text + QStringLiteral("\n") + m_hint);
    });
}

QString ElidingComboBox::shownText() const {
    QStyleOptionComboBox option;
    initStyleOption(&option);
    const QRect field =
        style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    return fontMetrics().elidedText(option.currentText, Qt::ElideRight, field.width());
}

void ElidingComboBox::paintEvent(QPaintEvent*) {
    // QComboBox's own painting, with the text elided to the field.
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    option.currentText = shownText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

} // namespace la
