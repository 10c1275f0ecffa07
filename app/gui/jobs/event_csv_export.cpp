// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/jobs/event_csv_export.h"

#include "input_error.h"
#include "io/event_csv.h"
#include "io_backend.h"

namespace la {

EventCsvExport::EventCsvExport(QString path, std::vector<SpooledRun> runs, QObject* parent)
    : QObject(parent), m_path(std::move(path)), m_runs(std::move(runs)),
      m_job(this, QStringLiteral("lookahead-export")) {
    for (const SpooledRun& run : m_runs)
        m_total += run.events->events();
}

EventCsvExport::~EventCsvExport() = default;

void EventCsvExport::start() {
    m_job.start(
        [this] { m_error = writeEventCsv(m_path.toStdString(), m_runs, m_job.cancelFlag(), &m_done); },
        [this] {
            if (m_total > 0)
                emit progressChanged(static_cast<double>(m_done.load()) / static_cast<double>(m_total));
        },
        [this] { emit finished(QString::fromStdString(m_error)); });
}

std::string writeEventCsv(const std::string& path, const std::vector<SpooledRun>& runs,
                          const std::atomic<bool>* cancel, std::atomic<std::uint64_t>* done) {
    try {
        EventCsvWriter csv(path, runs.empty() ? std::string() : runs.front().label);
        std::uint64_t before = 0;
        for (const SpooledRun& run : runs) {
            csv.setRunLabel(run.label);
            const bool complete =
                run.events->replay(csv, cancel, [done, before](std::uint64_t written, std::uint64_t) {
                    if (done)
                        *done = before + written;
                });
            if (!complete)
                return "cancelled: '" + path + "' was not written";
            before += run.events->events();
        }
        csv.commit();
    } catch (const InputError& error) {
        return error.what();
    } catch (const IoError& error) {
        return error.what();
    }
    return {};
}

} // namespace la
