// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/jobs/observed_import_job.h"

#include "input_error.h"

namespace la {

ObservedImportJob::ObservedImportJob(TraceImportRequest request, QObject* parent)
    : QObject(parent), m_request(std::move(request)), m_job(this, QStringLiteral("lookahead-import")) {}

ObservedImportJob::~ObservedImportJob() = default;

void ObservedImportJob::start() {
    m_job.start(
        [this] {
            TraceImportCallbacks callbacks;
            callbacks.cancel = m_job.cancelFlag();
            callbacks.progress = [this](std::uint64_t done, std::uint64_t total) {
                m_done = done;
                m_total = total;
            };
            try {
                if (std::optional<ObservedTrace> trace = importTrace(m_request, callbacks))
                    m_trace = std::make_shared<const ObservedTrace>(std::move(*trace));
            } catch (const InputError& error) {
                m_error = error.what();
            }
        },
        [this] {
            if (const std::uint64_t total = m_total.load(); total > 0)
                emit progressChanged(static_cast<double>(m_done.load()) / static_cast<double>(total));
        },
        [this] { emit finished(m_trace, QString::fromStdString(m_error)); });
}

} // namespace la
