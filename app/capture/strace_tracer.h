// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "drained_process.h"
#include "files/held_directory.h"
#include "files/unique_fd.h"
#include "tracer.h"

#include <memory>
#include <optional>

namespace la {

// Attaches strace to processes (ptrace): every read call, its file, offset, size, time and
// duration. Blind to io_uring, and it stops the traced process at each call, so a traced scan is
// slower than an untraced one. strace writes to a file of ours in a private directory (nobody else
// can name, replace or link it), and stop() copies that through the output's own atomic path.
class StraceTracer final : public Tracer {
public:
    ~StraceTracer() override;
    TracerKind kind() const override { return TracerKind::Strace; }
    TraceFormat format() const override { return TraceFormat::Strace; }
    QString unavailable(const CaptureTargets& targets) const override;
    QString start(const CaptureTargets& targets, std::unique_ptr<OutputFile> output) override;
    QString stop() override;
    void abandon() override;

private:
    // Ends strace (it detaches from every process); an error message, empty on success.
    QString endStrace();
    QString publish();

    std::unique_ptr<DrainedProcess> m_strace;
    std::unique_ptr<OutputFile> m_output;
    std::optional<HeldDirectory> m_private;
    UniqueFd m_written; // strace's file, as we created it
};

} // namespace la
