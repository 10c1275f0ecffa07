// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_theme.h"

#include <QPalette>

namespace la {

namespace {

// Each colour of the two themes, 0xAARRGGBB: the light one (exports, light desktops) beside the dark.
struct ThemeColour {
    QColor PlotTheme::*field;
    QRgb light;
    QRgb dark;
};

constexpr ThemeColour kColours[] = {
    {&PlotTheme::background, 0xffffffff, 0xff23262b},   {&PlotTheme::text, 0xff202020, 0xffe0e0e0},
    {&PlotTheme::axis, 0xff505050, 0xffb0b0b0},         {&PlotTheme::grid, 0xffe4e4e4, 0xff3a3e45},
    {&PlotTheme::distance, 0xff1f5fbf, 0xff5d9cec},     {&PlotTheme::combineDistance, 0xff8e44ad, 0xffc38be0},
    {&PlotTheme::pinned, 0xff2e9e4f, 0xff5cc87a},       {&PlotTheme::inFlight, 0xffe67e22, 0xfff5a65b},
    {&PlotTheme::limit, 0xff808080, 0xffa0a0a0},        {&PlotTheme::collapseFill, 0x30d62728, 0x38ff5050},
    {&PlotTheme::collapseText, 0xffa01010, 0xffff8a8a}, {&PlotTheme::labelBackground, 0xd0ffffff, 0xd023262b},
    {&PlotTheme::hit, 0xff9ecae1, 0xff3e6e8e},          {&PlotTheme::miss, 0xfffd8d3c, 0xfffd8d3c},
    {&PlotTheme::waited, 0xffa50f15, 0xffa50f15},       {&PlotTheme::runA, 0xff1f5fbf, 0xff5d9cec},
    {&PlotTheme::runB, 0xffe67e22, 0xfff5a65b},         {&PlotTheme::deviceRead, 0xff7f7f7f, 0xffa8a8a8},
    {&PlotTheme::queueDepth, 0xff8c564b, 0xffc49c94},   {&PlotTheme::kernelReadAhead, 0xff17becf, 0xff5fdcea},
};

PlotTheme themeOf(QRgb ThemeColour::*variant) {
    PlotTheme t;
    for (const ThemeColour& colour : kColours)
        t.*colour.field = QColor::fromRgba(colour.*variant);
    return t;
}

} // namespace

PlotTheme PlotTheme::light() {
    return themeOf(&ThemeColour::light);
}

PlotTheme PlotTheme::dark() {
    return themeOf(&ThemeColour::dark);
}

PlotTheme PlotTheme::fromPalette(const QPalette& palette) {
    PlotTheme t = palette.color(QPalette::Base).lightness() < 128 ? dark() : light();
    t.background = palette.color(QPalette::Base);
    t.text = palette.color(QPalette::Text);
    return t;
}

} // namespace la
