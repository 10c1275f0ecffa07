// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/jobs/job_thread.h"
#include "io/event_spool.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace la {

// One run to write: its label (the CSV's first column) and every event it produced.
struct SpooledRun {
    std::string label;
    std::shared_ptr<const EventSpool> events;
};

// Writes the runs' events to a trace CSV at `path`, committed only when complete. Returns an error
// message (a cancel says so), empty on success. `done`: events written so far, for progress.
std::string writeEventCsv(const std::string& path, const std::vector<SpooledRun>& runs,
                          const std::atomic<bool>* cancel, std::atomic<std::uint64_t>* done);

// Writes runs on screen to a trace CSV from their spools, on a worker thread so that the window
// stays responsive for a multi-GB file, with progress and cancel. The file appears only when
// complete (OutputFile): a cancelled or failed export leaves an existing file as it was.
class EventCsvExport : public QObject {
    Q_OBJECT
public:
    EventCsvExport(QString path, std::vector<SpooledRun> runs, QObject* parent = nullptr);
    ~EventCsvExport() override;

    void start();
    void cancel() { m_job.cancel(); }
    const QString& path() const { return m_path; }

signals:
    void progressChanged(double fraction);
    // `error` is empty on success; a cancelled export says so in it.
    void finished(const QString& error);

private:
    QString m_path;
    std::vector<SpooledRun> m_runs;
    std::atomic<std::uint64_t> m_done{0};
    std::uint64_t m_total = 0;
    std::string m_error; // written by the worker, read after it is joined
    JobThread m_job;     // last: it joins the worker before the members above go
};

} // namespace la
