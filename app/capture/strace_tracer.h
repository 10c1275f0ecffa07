// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "tracer.h"

#include <QProcess>

namespace la {

// Attaches strace to processes (ptrace): every read call, its file, offset, size, time and
// duration. Blind to io_uring, and it stops the traced process at each call, so a traced scan is
// slower than an untraced one.
class StraceTracer final : public Tracer {
public:
    ~StraceTracer() override;
    TracerKind kind() const override { return TracerKind::Strace; }
    TraceFormat format() const override { return TraceFormat::Strace; }
    QString unavailable(const CaptureTargets& targets) const override;
    QString start(const CaptureTargets& targets, const QString& outPath) override;
    QString stop() override;

private:
    QString appendNotes(const QString& outPath) const;

    QProcess m_strace;
    QString m_outPath;
};

} // namespace la
