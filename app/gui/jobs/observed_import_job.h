// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/jobs/job_thread.h"
#include "observed/observed_trace.h"
#include "observed/trace_importer.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace la {

// Imports a trace on a worker thread (a multi-GB strace takes a while), with progress and cancel,
// so the window stays responsive. finished() hands over the trace, or says why there is none.
class ObservedImportJob : public QObject {
    Q_OBJECT
public:
    ObservedImportJob(TraceImportRequest request, QObject* parent = nullptr);
    ~ObservedImportJob() override;

    void start();
    void cancel() { m_job.cancel(); }
    const TraceImportRequest& request() const { return m_request; }

signals:
    void progressChanged(double fraction);
    // `trace` is null on error (then `error` says why) or when cancelled (both empty).
    void finished(std::shared_ptr<const ObservedTrace> trace, const QString& error);

private:
    TraceImportRequest m_request;
    std::atomic<std::uint64_t> m_done{0};
    std::atomic<std::uint64_t> m_total{0};
    std::shared_ptr<const ObservedTrace> m_trace; // written by the worker, read after it is joined
    std::string m_error;
    JobThread m_job; // last: it joins the worker before the members above go
};

} // namespace la
