// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `lookahead record` as the recording tests run it: one query on a test server, its summary JSON
// read back.

#include "cli_process.h"
#include "test_files.h"

#include <QJsonObject>
#include <QStringList>
#include <QTemporaryDir>

namespace la::test {

struct Recording {
    QJsonObject doc; // the summary JSON, empty where none was written
    CliResult run;
};

// Records `query` over `conninfo` with --set for each of `settings`, and `options` besides.
inline Recording recordQuery(const QString& conninfo, const QString& query, const QStringList& settings = {},
                             const QStringList& options = {}) {
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("r.json"));
    QStringList args{QStringLiteral("record"),
                     QStringLiteral("--conninfo"),
                     conninfo,
                     QStringLiteral("--query"),
                     query,
                     QStringLiteral("--summary-json"),
                     json};
    for (const QString& setting : settings)
        args << QStringLiteral("--set") << setting;
    Recording recording;
    recording.run = runLookahead(args + options, 300'000);
    recording.doc = readJson(json);
    return recording;
}

} // namespace la::test
