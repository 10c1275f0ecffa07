// SPDX-License-Identifier: GPL-3.0-or-later
#include "gradients.h"

#include <algorithm>

namespace la {

QCPColorGradient hitMissGradient(const PlotTheme& theme) {
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, theme.hit);
    gradient.setColorStopAt(0.5, theme.miss);
    gradient.setColorStopAt(1.0, theme.waited);
    gradient.setLevelCount(64);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

QCPColorGradient sizeGradient() {
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(0x1f, 0x5f, 0xbf));
    gradient.setColorStopAt(0.35, QColor(0x8e, 0x44, 0xad));
    gradient.setColorStopAt(0.7, QColor(0xf0, 0x8c, 0x1a));
    gradient.setColorStopAt(1.0, QColor(0xc0, 0x20, 0x20));
    gradient.setLevelCount(64);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    return gradient;
}

QColor sizeColour(int blocks, int maxBlocks) {
    QCPColorGradient gradient = sizeGradient();
    const double hi = std::max(2, maxBlocks);
    return QColor::fromRgb(gradient.color(std::clamp<double>(blocks, 1.0, hi), QCPRange(1.0, hi), true));
}

} // namespace la
