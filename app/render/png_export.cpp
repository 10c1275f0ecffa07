// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/png_export.h"

#include "experiment/plan_nodes.h"
#include "files/output_file.h"
#include "render/export_text.h"

#include <QBuffer>
#include <QImageWriter>
#include <QJsonDocument>
#include <QLocale>

namespace la {

namespace {

QString number(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

QString datasetText(const RunConfig& c) {
    if (c.pg.active()) {
        QString text = QStringLiteral("PostgreSQL index scan of %1 via %2")
                           .arg(QString::fromStdString(c.pg.heap), QString::fromStdString(c.pg.index));
        if (!c.pg.keyRange.empty())
            text += QStringLiteral(", key %1").arg(QString::fromStdString(c.pg.keyRange));
        switch (c.pg.batching.mode) {
        case pg::IndexBatches::Continue:
            text += QStringLiteral(", one stream across leaf pages");
            break;
        case pg::IndexBatches::Reset:
            text += QStringLiteral(", stream reset at every leaf page");
            break;
        case pg::IndexBatches::Ring:
            text += QStringLiteral(", one stream across a ring of %1 leaf pages").arg(c.pg.batching.ring);
            break;
        }
        if (const std::uint64_t after = c.pg.streamStartsAfter(); after > 0)
            text += QStringLiteral(", stream from visit %1").arg(after);
        return text + (c.dataset.direction == Direction::Backward ? QStringLiteral(", backward")
                                                                  : QStringLiteral(", forward"));
    }
    QString text = c.blockList.empty()
                       ? QString::fromStdString(c.dataset.name)
                       : QStringLiteral("block list %1").arg(QString::fromStdString(c.blockList));
    if (c.dataset.scale > 0.0)
        text += QStringLiteral(" at scale %1").arg(c.dataset.scale);
    if (c.dataset.blocks > 0)
        text += QStringLiteral(" (%1 blocks)").arg(number(c.dataset.blocks));
    if (!c.file.empty())
        text += QStringLiteral(" on %1").arg(QString::fromStdString(c.file));
    return text + (c.dataset.direction == Direction::Backward ? QStringLiteral(", backward")
                                                              : QStringLiteral(", forward"));
}

QString ioText(const RunConfig& c) {
    if (c.io == IoMode::Sim) {
        return QStringLiteral("simulated I/O like %1, latency %2 µs")
            .arg(QLatin1String(ioMethodName(c.stream.ioMethod)))
            .arg(static_cast<double>(c.device.baseLatencyNs + c.device.perBlockNs) / 1000.0, 0, 'f', 0);
    }
    return QStringLiteral("%1 I/O, %2")
        .arg(QLatin1String(ioModeName(c.io)),
             c.directIo.value_or(true) ? QStringLiteral("direct") : QStringLiteral("buffered"));
}

} // namespace

QString runCaption(const Experiment& experiment) {
    const std::vector<RunVariant>& runs = experiment.runs;
    if (runs.empty())
        return {};
    const QString recordedNode = modelledNodeText(experiment.recorded);
    if (runs.front().observed) {
        const ObservedTrace& trace = *runs.front().observed;
        QString title = recordedNode.isEmpty()
                            ? QStringLiteral("Lookahead — trace %1, relation %2 — observed")
                                  .arg(QString::fromStdString(runs.front().tracePath),
                                       QString::fromStdString(trace.relation))
                            : QStringLiteral("Lookahead — %1 — observed").arg(recordedNode);
        if (runs.size() > 1)
            title += QStringLiteral(" vs %1").arg(QString::fromStdString(runs[1].label));
        const RunConfig& m = runs.back().config;
        return title +
               QStringLiteral("\n%1 reads of %2 process(es) (%3); model: %4; effective_io_concurrency %5, "
                              "io_combine_limit %6, consumer %7 ns/block")
                   .arg(number(trace.reads.size()))
                   .arg(trace.processes.size())
                   .arg(QLatin1String(traceFormatName(trace.format)), ioText(m))
                   .arg(m.stream.effectiveIoConcurrency)
                   .arg(m.stream.ioCombineLimit)
                   .arg(m.consumerNs);
    }
    const RunConfig& c = runs.front().config;
    QString title = QStringLiteral("Lookahead — %1 — %2")
                        .arg(recordedNode.isEmpty() ? datasetText(c) : recordedNode,
                             QString::fromStdString(runs.front().label));
    if (runs.size() > 1)
        title += QStringLiteral(" vs %1").arg(QString::fromStdString(runs[1].label));
    QString settings =
        QStringLiteral("%1; effective_io_concurrency %2, io_combine_limit %3, shared_buffers %4, "
                       "cache state %5, consumer %6 ns/block")
            .arg(ioText(c))
            .arg(c.stream.effectiveIoConcurrency)
            .arg(c.stream.ioCombineLimit)
            .arg(c.poolBlocks ? number(c.poolBlocks) : QStringLiteral("auto"),
                 QString::fromStdString(effectivePrewarm(c)))
            .arg(c.consumerNs);
    if (c.resetEvery)
        settings += QStringLiteral(", reset every %1").arg(number(c.resetEvery));
    if (c.stream.restoreAfterReset)
        settings += QStringLiteral(", restore after reset");
    if (c.stream.backwardCombining)
        settings += QStringLiteral(", backward combining");
    return title + QLatin1Char('\n') + settings;
}

QString writePng(const QString& path, QImage image, const QString& caption, const QByteArray& summary) {
    image.setText(QStringLiteral("Title"), exportText(caption.section(QLatin1Char('\n'), 0, 0)));
    image.setText(QStringLiteral("Software"), QStringLiteral("Lookahead " LOOKAHEAD_VERSION));
    image.setText(QStringLiteral("Description"), exportText(caption));
    image.setText(QStringLiteral("lookahead.summary"), QString::fromUtf8(summary));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "png");
    if (!writer.write(image))
        return QStringLiteral("cannot encode PNG '%1': %2").arg(path, writer.errorString());
    return QString::fromStdString(
        writeOutputFile(path.toStdString(), "PNG", std::string_view(bytes.constData(), bytes.size())));
}

} // namespace la
