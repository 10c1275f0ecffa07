// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace la {

// Messages from core/ and the experiment name a setting as the command line spells it ("--pg-index",
// the option table's name). The window words each as the control that sets it ("Index file"), so a
// user of the window is never told about a flag they never typed. Names that are no setting of
// ours ("--sparse=never", a tool's flag) stay as they are.
QString windowWording(const QString& message);

// The window's name for the setting `name` (an option-table or command-line option name), or empty.
QString settingLabel(const QString& name);

} // namespace la
