// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/controls/option_editor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <limits>

namespace la {

namespace {

constexpr std::uint64_t kSpinMax = std::numeric_limits<int>::max();

QString helpOf(const RunOption& option) {
    return QString::fromUtf8(option.help.data(), qsizetype(option.help.size()))
        .replace(QLatin1Char('\n'), QLatin1Char(' '));
}

} // namespace

OptionEditor::OptionEditor(const RunOption& option, QWidget* parent)
    : m_option(option), m_unsettable(option.get(RunConfig{}).empty()) {
    if (option.kind == OptionKind::Whole && option.maxWhole <= kSpinMax &&
        (!m_unsettable || option.minWhole > 0)) {
        auto* box = new QSpinBox(parent);
        // One below the range stands for "not set".
        box->setRange(int(option.minWhole) - (m_unsettable ? 1 : 0), int(option.maxWhole));
        if (m_unsettable)
            box->setSpecialValueText(QObject::tr("auto"));
        box->setGroupSeparatorShown(true);
        m_widget = box;
    } else if (option.kind == OptionKind::Real) {
        auto* box = new QDoubleSpinBox(parent);
        box->setRange(option.minReal, option.maxReal);
        box->setDecimals(option.maxReal <= 1.0 ? 2 : 1);
        box->setSingleStep(option.maxReal <= 1.0 ? 0.05 : 1.0);
        box->setGroupSeparatorShown(true);
        m_widget = box;
    } else if (option.kind == OptionKind::Text && !option.choices.empty()) {
        auto* combo = new QComboBox(parent);
        combo->addItem(QObject::tr("default"), QString());
        for (const std::string_view choice : option.choices) {
            const QString text = QString::fromUtf8(choice.data(), qsizetype(choice.size()));
            combo->addItem(text, text);
        }
        m_widget = combo;
    } else {
        auto* edit = new QLineEdit(parent);
        if (option.kind == OptionKind::Whole)
            edit->setValidator(
                new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,20}")), edit));
        edit->setPlaceholderText(QObject::tr("default"));
        m_widget = edit;
    }
    m_widget->setToolTip(
        QStringLiteral("--%1: %2")
            .arg(QString::fromUtf8(option.name.data(), qsizetype(option.name.size())), helpOf(option)));
}

void OptionEditor::show(const RunConfig& config) {
    setValue(QString::fromStdString(m_option.get(config)));
}

void OptionEditor::setValue(const QString& text) {
    if (auto* box = qobject_cast<QSpinBox*>(m_widget))
        box->setValue(text.isEmpty() ? box->minimum() : text.toInt());
    else if (auto* real = qobject_cast<QDoubleSpinBox*>(m_widget))
        real->setValue(text.toDouble());
    else if (auto* combo = qobject_cast<QComboBox*>(m_widget))
        combo->setCurrentIndex(std::max(0, combo->findData(text)));
    else
        static_cast<QLineEdit*>(m_widget)->setText(text);
}

QString OptionEditor::value() const {
    if (const auto* box = qobject_cast<const QSpinBox*>(m_widget))
        return m_unsettable && box->value() == box->minimum() ? QString() : QString::number(box->value());
    if (const auto* real = qobject_cast<const QDoubleSpinBox*>(m_widget))
        return QString::number(real->value(), 'g', 10);
    if (const auto* combo = qobject_cast<const QComboBox*>(m_widget))
        return combo->currentData().toString();
    return static_cast<const QLineEdit*>(m_widget)->text().trimmed();
}

void OptionEditor::apply(RunConfig& config) const {
    const QString text = value();
    if (text.isEmpty()) {
        // Unset: the value a default configuration has. A whole option that can be unset stores
        // that as 0 (its get() shows 0 as ""), below the range setRunOption() accepts.
        if (const std::string fallback = m_option.get(RunConfig{}); !fallback.empty())
            setRunOption(config, m_option, fallback);
        else if (m_option.kind == OptionKind::Whole)
            m_option.set(config, "0");
        else
            m_option.set(config, std::string()); // a text option's "not set" is the empty text
        return;
    }
    setRunOption(config, m_option, text.toStdString());
}

} // namespace la
