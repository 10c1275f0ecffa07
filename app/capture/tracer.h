// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A tracer records the reads of running processes into a file that --import-trace reads
// (docs/trace-import.md). `lookahead record` and `lookahead capture` choose one by kind.

#include "observed/trace_format.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace la {

class OutputFile;

enum class TracerKind { Strace, Kernel };

struct CaptureTargets {
    // The processes whose reads are wanted.
    std::vector<qint64> pids;
    // Those of `pids` whose new children are traced too: PostgreSQL's postmaster, whose I/O worker
    // pool grows during a query.
    std::vector<qint64> followChildren;
    // The files of interest (absolute paths): a tracer that sees device requests maps them to these.
    QStringList files;
    // The kernel tracer records the processes' read calls beside the device's reads; without them it
    // costs a scan less (bench/capture_bench.sh measures both).
    bool readCalls = true;
    // The command the capture started and holds until it is released (0: none), and how to have it
    // say who it is: it writes `text` to the tracefs marker file `markerPath`, where the kernel names
    // it by its pid outside any PID namespace we run in (ours in it mean nothing to tracefs).
    qint64 heldCommand = 0;
    std::function<bool(const QString& markerPath, const QByteArray& text)> announce;
};

class Tracer {
public:
    virtual ~Tracer() = default;
    virtual TracerKind kind() const = 0;
    // The format of the file it writes.
    virtual TraceFormat format() const = 0;
    // Why it cannot trace these targets here, saying what to do; empty if it can. Checked before
    // anything is started.
    virtual QString unavailable(const CaptureTargets& targets) const = 0;
    // Attaches to every target and returns once all are attached; what it records goes to `output`
    // (written through its private temporary file), published by stop(). An error message, empty on
    // success; on error nothing is left attached and `output` is left as it was.
    virtual QString start(const CaptureTargets& targets, std::unique_ptr<OutputFile> output) = 0;
    // Detaches and publishes the file. An error message, empty on success. Safe to call twice.
    virtual QString stop() = 0;
    // Detaches and publishes nothing: the output stays as it was (a command that could not run, a
    // recording that failed). Called by the destructor: no tracer outlives its object.
    virtual void abandon() = 0;

    // A line the file states about the capture (`# TEXT`), such as its wall time and the tracer's
    // overhead; written by stop().
    void addNote(const std::string& text) { m_notes.push_back(text); }
    // What the user must hear about the capture stop() published (events the kernel dropped).
    const std::vector<std::string>& warnings() const { return m_warnings; }

protected:
    const std::vector<std::string>& notes() const { return m_notes; }
    void warn(const std::string& text) { m_warnings.push_back(text); }

private:
    std::vector<std::string> m_notes;
    std::vector<std::string> m_warnings;
};

} // namespace la
