// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/plot_file.h"

#include "dashboard.h"
#include "files/output_file.h"
#include "render/export_text.h"
#include "render/png_export.h"
#include "summary_panel.h"

#include <QBuffer>
#include <QJsonDocument>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <array>

namespace la {

namespace {

struct FormatEntry {
    PlotFormat format;
    const char* suffix;
    const char* name;
    const char* filter;
};

constexpr std::array kFormats{
    FormatEntry{PlotFormat::Png, "png", "PNG", "PNG image (*.png)"},
    FormatEntry{PlotFormat::Svg, "svg", "SVG", "SVG drawing (*.svg)"},
    FormatEntry{PlotFormat::Pdf, "pdf", "PDF", "PDF document (*.pdf)"},
};

const FormatEntry& entryOf(PlotFormat format) {
    for (const FormatEntry& entry : kFormats)
        if (entry.format == format)
            return entry;
    return kFormats.front();
}

// What the export draws, whole: the caption, the verdict and the summary table (drawn, a longer text
// ends in "…"), as every format carries it.
QString describedCaption(const PlotExport& what, const Dashboard& dashboard) {
    QString text = what.caption;
    if (!dashboard.verdict().isEmpty())
        text += QLatin1Char('\n') + dashboard.verdict();
    if (what.plotIndex < 0 && !dashboard.runs().empty()) {
        const SummaryPanel& table = *dashboard.summaryPanel();
        text += QLatin1Char('\n') + summaryTableText(table.headers(), table.rows());
    }
    return text;
}

// The caption, the verdict and the summary JSON, as SVG and PDF carry them.
QString metadataText(const PlotExport& what, const Dashboard& dashboard) {
    return QString(describedCaption(what, dashboard) + QStringLiteral("\nlookahead.summary: ") +
                   QString::fromUtf8(what.summary));
}

QString writeBytes(const QString& path, PlotFormat format, const QByteArray& bytes) {
    return QString::fromStdString(writeOutputFile(path.toStdString(), entryOf(format).name,
                                                  std::string_view(bytes.constData(), bytes.size())));
}

// Replays the dashboard's drawing onto a vector device; false if the device cannot be painted on.
bool replay(QPaintDevice& device, const QPicture& picture) {
    QPainter painter;
    if (!painter.begin(&device))
        return false;
    painter.drawPicture(0, 0, picture);
    return painter.end();
}

QString writeSvg(const QString& path, const Drawing& drawing, int dpi) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setResolution(dpi);
    svg.setSize(drawing.size);
    svg.setViewBox(QRect(QPoint(0, 0), drawing.size));
    svg.setTitle(kSvgTitleMark);
    svg.setDescription(kSvgDescriptionMark);
    if (!drawing.paint(svg))
        return QStringLiteral("cannot draw the SVG '%1'").arg(path);
    return writeBytes(path, PlotFormat::Svg, finishedSvg(bytes, drawing.title, drawing.description));
}

// XMP metadata is XML: the caption and the JSON go in as text.
QByteArray xmpPacket(const QString& text) {
    const QString description = xmlText(text);
    return QStringLiteral("<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
                          "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF "
                          "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                          "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
                          "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">%1</rdf:li></rdf:Alt>"
                          "</dc:description></rdf:Description></rdf:RDF></x:xmpmeta>"
                          "<?xpacket end=\"w\"?>")
        .arg(description)
        .toUtf8();
}

QString writePdf(const QString& path, const Drawing& drawing, int dpi) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        // At the drawing's resolution one unit is one pixel; the page is the drawing's size at it.
        pdf.setResolution(dpi);
        pdf.setPageLayout(QPageLayout(QPageSize(QSizeF(drawing.size) * 72.0 / dpi, QPageSize::Point),
                                      QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        pdf.setTitle(exportText(drawing.title));
        pdf.setCreator(QStringLiteral("Lookahead " LOOKAHEAD_VERSION));
        pdf.setDocumentXmpMetadata(xmpPacket(drawing.description));
        if (!drawing.paint(pdf))
            return QStringLiteral("cannot draw the PDF '%1'").arg(path);
    }
    return writeBytes(path, PlotFormat::Pdf, bytes);
}

QString writeDrawingPng(const QString& path, const Drawing& drawing) {
    QImage image(drawing.size, QImage::Format_ARGB32);
    image.fill(Qt::white);
    if (!drawing.paint(image))
        return QStringLiteral("cannot draw the PNG '%1'").arg(path);
    image.setText(QStringLiteral("Title"), exportText(drawing.title));
    image.setText(QStringLiteral("Description"), exportText(drawing.description));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return QStringLiteral("cannot encode the PNG '%1'").arg(path);
    return writeBytes(path, PlotFormat::Png, bytes);
}

// The dashboard's drawing, replayed onto a vector device at the picture's own resolution.
Drawing dashboardDrawing(const QPicture& picture, const PlotExport& what, const Dashboard& dashboard) {
    return {what.size, what.caption.section(QLatin1Char('\n'), 0, 0), metadataText(what, dashboard),
            [&picture](QPaintDevice& device) { return replay(device, picture); }};
}

} // namespace

PlotFormat plotFormatOf(const QString& path) {
    for (const FormatEntry& entry : kFormats)
        if (path.endsWith(QLatin1Char('.') + QLatin1String(entry.suffix), Qt::CaseInsensitive))
            return entry.format;
    return PlotFormat::Png;
}

QString plotFileFilter(PlotFormat current) {
    QStringList filters{QString::fromLatin1(entryOf(current).filter)};
    for (const FormatEntry& entry : kFormats)
        if (entry.format != current)
            filters << QString::fromLatin1(entry.filter);
    return filters.join(QStringLiteral(";;"));
}

QString plotFormatName(PlotFormat format) {
    return QString::fromLatin1(entryOf(format).name);
}

QString writePlotFile(const QString& path, Dashboard& dashboard, const PlotExport& what) {
    if (what.format != PlotFormat::Png) {
        const QPicture picture = dashboard.renderPicture(what.size, what.caption, what.plotIndex);
        // The picture replays at the target's resolution; the same one keeps one unit one pixel.
        const int dpi = picture.logicalDpiX();
        const Drawing drawing = dashboardDrawing(picture, what, dashboard);
        return what.format == PlotFormat::Svg ? writeSvg(path, drawing, dpi) : writePdf(path, drawing, dpi);
    }
    return writePng(path, dashboard.renderImage(what.size, what.scale, what.caption, what.plotIndex),
                    describedCaption(what, dashboard), what.summary);
}

} // namespace la

namespace la {

QString writeDrawingFile(const QString& path, PlotFormat format, const Drawing& drawing) {
    switch (format) {
    case PlotFormat::Svg:
        return writeSvg(path, drawing, kDrawingDpi);
    case PlotFormat::Pdf:
        return writePdf(path, drawing, kDrawingDpi);
    case PlotFormat::Png:
        break;
    }
    return writeDrawingPng(path, drawing);
}

} // namespace la
