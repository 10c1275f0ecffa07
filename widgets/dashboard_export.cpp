// SPDX-License-Identifier: GPL-3.0-or-later
// The dashboard as an export draws it: the caption on top, the views, the summary table below.
#include "dashboard.h"

#include "model_thread.h"
#include "plot_theme.h"
#include "plot_view.h"
#include "summary_panel.h"
#include "text_fit.h"

#include <QPainter>

namespace la {

namespace {
constexpr int kCaptionPixels = 12;
// A caption line's (the title, the settings) in an export.
constexpr int kCaptionLineLines = 2;

// The views' heights in an export: each its share of `total` by weight, but none under its minimum
// while the others have room to give (squeezed under it, a plot drew its title over its axes).
std::vector<double> exportHeights(double total, const std::vector<double>& weights,
                                  const std::vector<double>& minimums) {
    std::vector<bool> pinned(weights.size(), false);
    std::vector<double> heights(weights.size(), 0.0);
    for (;;) {
        double rest = total, weightSum = 0.0;
        for (std::size_t k = 0; k < weights.size(); ++k) {
            if (pinned[k])
                rest -= minimums[k];
            else
                weightSum += weights[k];
        }
        std::size_t squeezed = weights.size();
        for (std::size_t k = 0; k < weights.size(); ++k) {
            heights[k] = pinned[k] ? minimums[k] : rest * weights[k] / weightSum;
            if (!pinned[k] && heights[k] < minimums[k] && squeezed == weights.size())
                squeezed = k;
        }
        if (squeezed == weights.size() || rest - minimums[squeezed] <= 0.0)
            return heights;
        pinned[squeezed] = true;
    }
}
} // namespace

std::vector<Dashboard::CaptionLine> Dashboard::captionLines(double width, const QString& caption) const {
    QFont font;
    font.setPixelSize(kCaptionPixels);
    QFont bold = font;
    bold.setBold(true);
    std::vector<CaptionLine> lines;
    const auto add = [&](const QString& text, bool strong, int most) {
        for (const QString& line : fitLines(text, strong ? bold : font, width - 16.0, most).lines)
            lines.push_back({line, strong ? bold : font, text});
    };
    // The first line is the title; the verdict (last) is what a reader looks for. Each is whole or
    // ends in "…": the export's metadata has all of it.
    const QStringList given = caption.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < given.size(); ++i)
        add(given[i], i == 0, kCaptionLineLines);
    // Figures that do not agree come before the verdict, as in the window.
    if (!m_reconciliationText.isEmpty())
        add(m_reconciliationText, true, kVerdictLines);
    if (!m_verdictText.isEmpty())
        add(m_verdictText, true, kVerdictLines);
    return lines;
}

double Dashboard::paintCaption(QPainter* painter, double width, const QString& caption) const {
    QFont bold;
    bold.setPixelSize(kCaptionPixels);
    bold.setBold(true);
    const std::vector<CaptionLine> lines = captionLines(width, caption);
    const double lineHeight = QFontMetricsF(bold).height() + 2.0;
    if (painter) {
        const PlotTheme theme = PlotTheme::light();
        painter->setPen(theme.text);
        for (std::size_t i = 0; i < lines.size(); ++i) {
            painter->setFont(lines[i].font);
            painter->drawText(
                QRectF(8.0, 4.0 + lineHeight * static_cast<double>(i), width - 16.0, lineHeight),
                Qt::AlignLeft | Qt::AlignVCenter, lines[i].text);
        }
    }
    return lines.empty() ? 0.0 : lineHeight * static_cast<double>(lines.size()) + 8.0;
}

QImage Dashboard::renderImage(QSize size, double scale, const QString& caption, int plotIndex,
                              std::vector<std::vector<QRect>>* panes) {
    const ModelThread::Hold hold(m_model, ModelThread::Hold::Mode::Wait);
    QImage image(QSize(qRound(size.width() * scale), qRound(size.height() * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(PlotTheme::light().background);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(scale, scale);
    paintExport(
        painter, size, caption, plotIndex,
        [&](PlotView* view, int width, int height, double y, std::vector<QRect>* viewPanes) {
            painter.drawImage(QRectF(0.0, y, width, height),
                              view->renderImage(width, height, scale, viewPanes));
        },
        panes);
    return image;
}

QPicture Dashboard::renderPicture(QSize size, const QString& caption, int plotIndex) {
    const ModelThread::Hold hold(m_model, ModelThread::Hold::Mode::Wait);
    QPicture picture;
    QPainter painter(&picture);
    painter.fillRect(QRectF(QPointF(0.0, 0.0), QSizeF(size)), PlotTheme::light().background);
    paintExport(
        painter, size, caption, plotIndex,
        [&](PlotView* view, int width, int height, double y, std::vector<QRect>* viewPanes) {
            const QPicture plot = view->renderPicture(width, height, viewPanes);
            painter.drawPicture(QPointF(0.0, y), plot);
        },
        nullptr);
    painter.end();
    // A picture's bounds are what was drawn; the page is the export's size.
    picture.setBoundingRect(QRect(QPoint(0, 0), size));
    return picture;
}

void Dashboard::paintExport(QPainter& painter, QSize size, const QString& caption, int plotIndex,
                            const ViewPainter& paintView, std::vector<std::vector<QRect>>* panes) {
    const PlotTheme light = PlotTheme::light();
    const double width = size.width();
    double y = paintCaption(&painter, width, caption);

    std::vector<int> indices;
    if (plotIndex >= 0 && plotIndex < static_cast<int>(m_views.size()))
        indices.push_back(plotIndex);
    else
        for (int i = 0; i < static_cast<int>(m_views.size()); ++i)
            if (viewShown(static_cast<std::size_t>(i)))
                indices.push_back(i);
    const bool whole = indices.size() > 1;
    const double tableHeight =
        whole ? paintSummaryTable(nullptr, {}, m_summary->headers(), m_summary->rows(), light) : 0.0;
    const double plotsHeight = size.height() - y - tableHeight;
    std::vector<double> weights, minimums;
    for (int i : indices) {
        weights.push_back(whole ? m_exportWeights[static_cast<std::size_t>(i)] : 1.0);
        minimums.push_back(m_views[static_cast<std::size_t>(i)]->minimumHeight());
    }
    const std::vector<double> heights = exportHeights(plotsHeight, weights, minimums);
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const int i = indices[k];
        PlotView* view = m_views[static_cast<std::size_t>(i)];
        const int h = static_cast<int>(heights[k]);
        view->setTheme(light);
        std::vector<QRect> viewPanes;
        paintView(view, size.width(), h, y, &viewPanes);
        if (panes) {
            for (QRect& rect : viewPanes)
                rect.translate(0, static_cast<int>(y));
            panes->push_back(std::move(viewPanes));
        }
        view->setTheme(PlotTheme::fromPalette(view->palette()));
        y += h;
    }
    if (whole)
        paintSummaryTable(&painter, QRectF(0.0, y, width, tableHeight), m_summary->headers(),
                          m_summary->rows(), light);
}

} // namespace la
