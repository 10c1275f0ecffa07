// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The files a test writes as input and reads back as output, whole.

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QtGlobal>

namespace la::test {

// Writes `bytes` to `path` and returns the path; a test that cannot make its input stops there.
inline QString writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

// A block list's text (a block number a line, as --blocks and the list: prewarm read it): the blocks
// from `first` up to below `end`, `step` apart.
inline QByteArray blockLines(int first, int end, int step = 1) {
    QByteArray text;
    for (int block = first; block < end; block += step)
        text += QByteArray::number(block) + '\n';
    return text;
}

// A nested loop's inner visits as a block list: `rows` outer rows of `perRow` visits each, spread
// over `blocks` blocks, with a reset (a rescan) between two rows.
inline QByteArray rescannedVisits(int rows, int perRow, int blocks) {
    QByteArray text;
    for (int row = 0; row < rows; ++row) {
        for (int visit = 0; visit < perRow; ++visit)
            text += QByteArray::number((row * 37 + visit * 5) % blocks) + '\n';
        text += row + 1 < rows ? "reset\n" : "";
    }
    return text;
}

// The file's bytes, or nothing if it cannot be read (an output that was never written).
inline QByteArray readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The JSON object a file holds (a summary JSON), empty if it cannot be read or is not one.
inline QJsonObject readJson(const QString& path) {
    return QJsonDocument::fromJson(readFile(path)).object();
}

// Run `index` of a summary JSON file, empty if it has none.
inline QJsonObject summaryRun(const QString& path, qsizetype index = 0) {
    return readJson(path)[QStringLiteral("runs")].toArray().at(index).toObject();
}

} // namespace la::test
