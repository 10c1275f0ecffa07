// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_device.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace la {

namespace {

QByteArray readSmall(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(256).trimmed() : QByteArray();
}

bool parseDevice(const QByteArray& text, std::uint32_t& major, std::uint32_t& minor) {
    const QList<QByteArray> parts = text.split(':');
    bool okMajor = false, okMinor = false;
    if (parts.size() != 2)
        return false;
    major = parts[0].toUInt(&okMajor);
    minor = parts[1].toUInt(&okMinor);
    return okMajor && okMinor && major < (1U << 12) && minor < (1U << 20);
}

} // namespace

QString requestDeviceOf(std::uint32_t major, std::uint32_t minor, RequestDevice& out) {
    const QString name = QStringLiteral("%1:%2").arg(major).arg(minor);
    const QString sys = QStringLiteral("/sys/dev/block/") + name;
    if (!QFileInfo::exists(sys))
        return QStringLiteral(
                   "device %1 is not a block device (tmpfs, overlay or a network file system): the "
                   "kernel tracer sees block requests only")
            .arg(name);
    if (QFileInfo::exists(sys + QStringLiteral("/dm")))
        return QStringLiteral("device %1 is device-mapper (LVM, dm-crypt): its requests reach the disk at "
                              "other sectors, which the kernel tracer does not follow")
            .arg(name);
    if (QFileInfo::exists(sys + QStringLiteral("/md")))
        return QStringLiteral("device %1 is software RAID: its requests are spread over several disks, which "
                              "the kernel tracer does not follow")
            .arg(name);
    out = RequestDevice{major, minor, 0};
    if (!QFileInfo::exists(sys + QStringLiteral("/partition")))
        return {};
    bool ok = false;
    out.startSector = readSmall(sys + QStringLiteral("/start")).toULongLong(&ok);
    const QString disk = QFileInfo(sys).canonicalFilePath() + QStringLiteral("/..");
    if (!ok || !parseDevice(readSmall(disk + QStringLiteral("/dev")), out.major, out.minor))
        return QStringLiteral("cannot tell which disk partition %1 is on (%2)").arg(name, sys);
    return {};
}

} // namespace la
