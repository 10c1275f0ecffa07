// SPDX-License-Identifier: GPL-3.0-or-later
#include "traced_tasks.h"

#include <QDir>
#include <QFile>

#include <algorithm>

namespace la {

namespace {

// The parent of process `pid` from /proc/PID/stat ("PID (COMM) STATE PPID ..."; COMM may hold
// spaces and parentheses, so the fields are counted from its last ')'); 0 if it cannot be read.
qint64 parentOf(const QString& pid) {
    QFile stat(QStringLiteral("/proc/") + pid + QStringLiteral("/stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.read(4096);
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return 0;
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    return fields.size() > 1 ? fields[1].toLongLong() : 0;
}

void addThreads(qint64 pid, std::vector<qint64>& tasks) {
    const QStringList threads =
        QDir(QStringLiteral("/proc/%1/task").arg(pid)).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    tasks.push_back(pid); // also when the process is gone: the filter then holds a harmless id
    for (const QString& thread : threads) {
        bool ok = false;
        const qint64 tid = thread.toLongLong(&ok);
        if (ok && tid > 0)
            tasks.push_back(tid);
    }
}

} // namespace

std::vector<qint64> tracedTasks(const std::vector<qint64>& pids, const std::vector<qint64>& followChildren) {
    std::vector<qint64> tasks;
    for (const qint64 pid : pids)
        addThreads(pid, tasks);
    if (!followChildren.empty()) {
        const QStringList processes =
            QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        for (const QString& process : processes) {
            bool ok = false;
            const qint64 pid = process.toLongLong(&ok);
            if (ok && pid > 0 &&
                std::find(followChildren.begin(), followChildren.end(), parentOf(process)) !=
                    followChildren.end())
                addThreads(pid, tasks);
        }
    }
    std::sort(tasks.begin(), tasks.end());
    tasks.erase(std::unique(tasks.begin(), tasks.end()), tasks.end());
    return tasks;
}

} // namespace la
