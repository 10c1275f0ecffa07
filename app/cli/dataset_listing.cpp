// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/dataset_listing.h"

#include "dataset.h"

#include <QLocale>
#include <QString>

namespace la {

namespace {

QString count(std::uint64_t n) {
    return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

} // namespace

std::string datasetListing() {
    QString text;
    QString group;
    for (const DatasetInfo& info : datasetCatalog()) {
        const QString g = QString::fromStdString(info.group);
        if (g != group) {
            text += (group.isEmpty() ? QString() : QStringLiteral("\n")) + g + QLatin1Char('\n');
            group = g;
        }
        const double mb = static_cast<double>(info.defaultBlocks) * 8192.0 / 1048576.0;
        text += QStringLiteral("  %1\n      %2\n      default %3 blocks (%4 MB)")
                    .arg(QString::fromStdString(info.name), QString::fromStdString(info.description),
                         count(info.defaultBlocks))
                    .arg(mb, 0, 'f', 0);
        if (!info.pattern)
            text += QStringLiteral(", published size %1 blocks").arg(count(info.publishedBlocks));
        text += QStringLiteral(", cache state %1\n").arg(QString::fromStdString(info.defaultPrewarm));
    }
    return text.toStdString();
}

} // namespace la
