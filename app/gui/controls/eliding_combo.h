// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QComboBox>

namespace la {

// A combo box whose current text, if wider than its field, ends in "…" instead of being cut at the
// field's edge (a relation's path and its reads in a narrow panel); the tooltip holds all of it, above
// `hint`.
class ElidingComboBox : public QComboBox {
    Q_OBJECT
public:
    explicit ElidingComboBox(QString hint, QWidget* parent = nullptr);
    // The current text as drawn.
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_hint;
};

} // namespace la
