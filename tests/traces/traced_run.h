// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Programs run under strace or perf by the trace tests.

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace la::test {

// strace's options for a trace the importer reads whole (docs/trace-import.md §2.1): every thread,
// start times, durations and paths of the read calls, written to `output`.
inline QStringList straceReadOptions(const QString& output) {
    return {QStringLiteral("-f"), QStringLiteral("-ttt"),
            QStringLiteral("-T"), QStringLiteral("-yy"),
            QStringLiteral("-e"), QStringLiteral("trace=pread64,preadv,preadv2"),
            QStringLiteral("-o"), output};
}

// The environment of a traced program: LeakSanitizer cannot work under ptrace, so a traced ASan
// build would die at exit.
inline QProcessEnvironment tracedEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString asan = env.value(QStringLiteral("ASAN_OPTIONS"));
    env.insert(QStringLiteral("ASAN_OPTIONS"),
               (asan.isEmpty() ? QString() : asan + QLatin1Char(':')) + QStringLiteral("detect_leaks=0"));
    return env;
}

} // namespace la::test
