// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fd_files.h"
#include "io/file_extents.h"
#include "io/output_file.h"
#include "io/unique_fd.h"
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
// The traced processes' read calls (sys_enter/exit of pread64, preadv, preadv2) go to a second
// instance, limited to those processes and the tasks they create: block events fire in whichever
// task is current, so they cannot share that filter.
// It sees every read whatever submits it (io_uring included) and does not stop the traced
// processes. A thread empties the instance's trace_pipe while the capture runs (the ring buffer
// alone would overflow on a long scan); the file is written at stop().
class KernelTracer final : public Tracer {
public:
    KernelTracer();
    ~KernelTracer() override;
    TracerKind kind() const override { return TracerKind::Kernel; }
    TraceFormat format() const override { return TraceFormat::Kernel; }
    QString unavailable(const CaptureTargets& targets) const override;
    QString start(const CaptureTargets& targets, const QString& outPath) override;
    QString stop() override;

    // The instance's directory while capturing, else empty.
    QString instancePath() const { return m_instance; }

private:
    QString setUp(const CaptureTargets& targets);
    QString setUpCalls(const CaptureTargets& targets);
    void readEvents();
    QString removeInstance();

    QString m_instance;
    QString m_callInstance;  // empty when calls are not recorded
    std::string m_callsNote; // why they are not, for the capture's comments
    std::vector<std::string> m_paths;
    std::vector<FileExtents> m_before;
    std::unique_ptr<KernelCapture> m_capture;
    std::unique_ptr<OutputFile> m_output;
    std::unique_ptr<FdFiles> m_fdFiles;
    UniqueFd m_pipe;
    UniqueFd m_callPipe;
    UniqueFd m_stop; // an eventfd: readable when the reader should drain and end
    std::thread m_reader;
};

} // namespace la
