// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_import_job.h"

#include "input_error.h"
#include "tsan_annotations.h"

#include <QThread>

namespace la {

TraceImportJob::TraceImportJob(TraceImportRequest request, QObject* parent)
    : QObject(parent), m_request(std::move(request)) {
    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (const std::uint64_t total = m_total.load(); total > 0)
            emit progressChanged(static_cast<double>(m_done.load()) / static_cast<double>(total));
    });
}

TraceImportJob::~TraceImportJob() {
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
    }
}

void TraceImportJob::start() {
    m_thread.reset(QThread::create([this] {
        TraceImportCallbacks callbacks;
        callbacks.cancel = &m_cancel;
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
        LA_TSAN_RELEASE(this);
    }));
    m_thread->setObjectName(QStringLiteral("lookahead-import"));
    connect(m_thread.get(), &QThread::finished, this, [this] {
        m_thread->wait();
        LA_TSAN_ACQUIRE(this);
        m_timer.stop();
        emit finished(m_trace, QString::fromStdString(m_error));
    });
    m_timer.start();
    m_thread->start();
}

} // namespace la
