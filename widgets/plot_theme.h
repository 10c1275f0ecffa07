// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>

class QPalette;

namespace la {

// Colours of every view. On screen they follow the system palette (light or dark); exports always
// use light(), so a PNG does not depend on the desktop it was made on.
struct PlotTheme {
    QColor background;
    QColor text;
    QColor axis;
    QColor grid;
    QColor distance;
    QColor combineDistance;
    QColor pinned;
    QColor inFlight;
    QColor limit;
    QColor collapseFill;
    QColor collapseText;
    QColor labelBackground;
    QColor hit;
    QColor miss;
    QColor waited;
    QColor runA;
    QColor runB;
    QColor deviceRead;      // a kernel capture's device reads, under the reads
    QColor queueDepth;      // a kernel capture's device requests in flight, apart from a model's in flight
    QColor kernelReadAhead; // those that were the kernel's read-ahead

    static PlotTheme light();
    static PlotTheme dark();
    static PlotTheme fromPalette(const QPalette& palette);
};

} // namespace la
