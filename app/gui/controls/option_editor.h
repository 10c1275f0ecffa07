// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run_options.h"

#include <QString>

class QWidget;

namespace la {

// One run option edited in the window with the editor its type calls for (run_options.h): a spin box
// for a whole number that fits one, a decimal spin box for a real, a line edit otherwise. Its range
// and tooltip come from the option table, and the value goes in through setRunOption(), so the
// window takes exactly what the command line takes. An option that can be left unset shows "auto".
class OptionEditor {
public:
    OptionEditor(const RunOption& option, QWidget* parent);

    QWidget* widget() const { return m_widget; }
    const RunOption& option() const { return m_option; }
    void show(const RunConfig& config);
    // Stores the shown value; throws InputError if a line edit holds something the option refuses.
    void apply(RunConfig& config) const;
    // The value as typed (empty: not set), checked or not, and back: what a dialog keeps between openings.
    QString value() const;
    void setValue(const QString& text);

private:
    const RunOption& m_option;
    QWidget* m_widget = nullptr;
    bool m_unsettable = false; // get() of a default configuration is "": a spin box's minimum means that
};

} // namespace la
