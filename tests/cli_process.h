// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lookahead binary run as a user runs it: arguments in, exit code and both outputs back.

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace la::test {

struct CliResult {
    int exitCode = -1; // -1: killed by a signal or timed out
    QString out;
    QString err;
};

// Waits for a started `process`; one that outlasts `timeoutMs` is killed.
inline CliResult finishProcess(QProcess& process, int timeoutMs) {
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

// Waits until a started `process` has written `text` on stderr (a stage of its work it reports);
// `err` gathers what it wrote so far.
inline bool waitForStderr(QProcess& process, const char* text, QByteArray& err, int timeoutMs) {
    return QTest::qWaitFor(
        [&] {
            err += process.readAllStandardError();
            return err.contains(text);
        },
        timeoutMs);
}

// Runs LOOKAHEAD_BINARY (each test defines it); one that outlasts `timeoutMs` is killed.
inline CliResult runLookahead(const QStringList& args, int timeoutMs) {
    QProcess process;
    process.start(QStringLiteral(LOOKAHEAD_BINARY), args);
    return finishProcess(process, timeoutMs);
}

// The most memory `lookahead ARGS` held at once (its peak resident set, as wait4 gives it), in KiB; -1
// if it did not run to a clean end.
inline long peakKiB(const QStringList& args) {
    std::vector<std::string> words{LOOKAHEAD_BINARY};
    for (const QString& arg : args)
        words.push_back(arg.toStdString());
    std::vector<char*> argv;
    for (std::string& word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(null, STDERR_FILENO);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    if (pid < 0 || ::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return usage.ru_maxrss;
}

} // namespace la::test
