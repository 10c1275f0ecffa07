// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "files/output_file.h"
#include "files/unique_fd.h"
#include "io/file_extents.h"
#include "tracer.h"

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace la {

class KernelCapture;

// Records the block requests on the devices of the files of interest from the kernel's tracepoints
// (block_rq_issue, block_rq_complete, mm_filemap_add_to_page_cache) in a tracefs instance of its
// own, and maps them to the files through their extents (docs/trace-import.md, "Kernel captures").
// The traced processes' read calls (sys_enter/exit of read, readv, pread64, preadv, preadv2) go to a
// second instance, limited to those processes and the tasks they create (block events fire in
// whichever task is current, so they cannot share that filter), with the page-cache lookups and
// direct reads those calls make, which name the file by device and inode.
// It sees every read whatever submits it (io_uring included) and does not stop the traced
// processes. A thread empties the instances' trace_pipe while the capture runs (the ring buffer
// alone would overflow on a long scan) and streams the records to the output's temporary file.
class KernelTracer final : public Tracer {
public:
    KernelTracer();
    ~KernelTracer() override;
    TracerKind kind() const override { return TracerKind::Kernel; }
    TraceFormat format() const override { return TraceFormat::Kernel; }
    QString unavailable(const CaptureTargets& targets) const override;
    QString start(const CaptureTargets& targets, std::unique_ptr<OutputFile> output) override;
    QString stop() override;
    void abandon() override;

    // The instance's directory while capturing, else empty.
    QString instancePath() const { return m_instance; }

private:
    QString setUp(const CaptureTargets& targets);
    // The calls' instance, its events limited to the files' file systems `fsDevices`; why not, or empty.
    QString setUpCalls(const CaptureTargets& targets, const std::vector<std::uint32_t>& fsDevices);
    // The pids tracefs knows `targets` by (ours, outside any PID namespace we are in); an error
    // message when they cannot be learnt.
    QString kernelPids(const CaptureTargets& targets, std::vector<qint64>& tasks);
    // Writes `text` (with `write`, perhaps by another process) to the calls instance's marker and waits
    // for it on the pipe: the task (thread) the kernel names with it. 0 if it did not come.
    std::uint32_t markedTask(const QByteArray& text, const std::function<bool()>& write);
    void readEvents();
    void writeOutput(std::string_view bytes);
    QString endReader();
    QString removeInstance();

    QString m_instance;
    QString m_callInstance;  // empty when calls are not recorded
    std::string m_callsNote; // why they are not, or what of them is missing, for the capture's notes
    std::vector<std::string> m_paths;
    std::vector<FileExtents> m_before;
    std::unique_ptr<KernelCapture> m_capture;
    std::unique_ptr<OutputFile> m_output;
    std::string m_writeError; // the reader's first failed write; nothing is written after it
    UniqueFd m_pipe;
    UniqueFd m_callPipe;
    UniqueFd m_stop; // an eventfd: readable when the reader should drain and end
    std::thread m_reader;
};

} // namespace la
