// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one place qcustomplot.h is included, and only from .cpp files: it costs ~5 s of compile time per
// translation unit, so headers forward-declare the QCP classes they mention.
// NOTE: qcustomplot.h uses `foreach` in inline code, and with Qt 6 an #undef QT_NO_FOREACH here comes
// too late (qforeach.h is read by the first Qt header), so lookahead_widgets builds without it.
#include <qcustomplot.h>
