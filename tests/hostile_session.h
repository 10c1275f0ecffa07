// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the hostile-session tests share: a small strace of two processes reading one relation, saved
// as a session by the built binary, and the sqlite3 command-line tool that damages copies of it as
// a hostile sender would (docs/session-format.md, "Damaged files").

#include "cli_process.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <optional>

namespace la::test {

constexpr int kSessionTimeoutMs = 60'000;

// Reads of base/5/16390 by pids 100 and 101, with times and durations (strace -f -ttt -T -yy).
inline bool writeSmallStrace(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    for (int i = 0; i < 40; ++i) {
        const QString line = QStringLiteral("%1 1796114808.%2 pread64(39</pg/base/5/16390>, \"\"..., %3, %4) "
                                            "= %3 <0.000073>\n")
                                 .arg(100 + i % 2)
                                 .arg(i * 100, 6, 10, QLatin1Char('0'))
                                 .arg(i % 4 == 0 ? 16384 : 8192)
                                 .arg(qint64(i) * 16384);
        file.write(line.toUtf8());
    }
    return true;
}

// `lookahead --headless --import-trace TRACE --save SESSION`; true on exit 0.
inline bool saveImportedSession(const QString& trace, const QString& session) {
    const CliResult r = runLookahead({QStringLiteral("--headless"), QStringLiteral("--import-trace"), trace,
                                      QStringLiteral("--save"), session},
                                     kSessionTimeoutMs);
    if (r.exitCode != 0)
        qWarning("saving the imported session failed (%d): %s", r.exitCode, qPrintable(r.err));
    return r.exitCode == 0;
}

inline QString sqlite3Tool() {
    return QStandardPaths::findExecutable(QStringLiteral("sqlite3"));
}

// Runs `sql` on the database at `path` with the sqlite3 tool: what it printed, or nullopt if it failed.
inline std::optional<QString> querySql(const QString& path, const QString& sql) {
    QProcess tool;
    tool.start(sqlite3Tool(), {path, sql});
    const CliResult r = finishProcess(tool, kSessionTimeoutMs);
    if (r.exitCode != 0) {
        qWarning("sqlite3 failed (%d): %s", r.exitCode, qPrintable(r.err));
        return std::nullopt;
    }
    return r.out.trimmed();
}

inline bool runSql(const QString& path, const QString& sql) {
    return querySql(path, sql).has_value();
}

// A copy of `from` at `to` damaged by `sql`.
inline bool damagedCopy(const QString& from, const QString& to, const QString& sql) {
    QFile::remove(to);
    return QFile::copy(from, to) && runSql(to, sql);
}

} // namespace la::test
