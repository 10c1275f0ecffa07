// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_export.h"

#include "input_error.h"
#include "io_backend.h"
#include "trace_csv.h"
#include "tsan_annotations.h"

#include <QThread>

namespace la {

TraceExport::TraceExport(QString path, std::vector<SpooledRun> runs, QObject* parent)
    : QObject(parent), m_path(std::move(path)), m_runs(std::move(runs)) {
    for (const SpooledRun& run : m_runs)
        m_total += run.events->events();
    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, &TraceExport::poll);
}

TraceExport::~TraceExport() {
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
    }
}

void TraceExport::start() {
    m_thread.reset(QThread::create([this] {
        write();
        LA_TSAN_RELEASE(this);
    }));
    m_thread->setObjectName(QStringLiteral("lookahead-export"));
    connect(m_thread.get(), &QThread::finished, this, [this] {
        m_thread->wait();
        LA_TSAN_ACQUIRE(this);
        m_timer.stop();
        emit finished(QString::fromStdString(m_error));
    });
    m_timer.start();
    m_thread->start();
}

void TraceExport::poll() {
    if (m_total > 0)
        emit progressChanged(static_cast<double>(m_done.load()) / static_cast<double>(m_total));
}

void TraceExport::write() {
    m_error = writeTraceCsv(m_path.toStdString(), m_runs, &m_cancel, &m_done);
}

std::string writeTraceCsv(const std::string& path, const std::vector<SpooledRun>& runs,
                          const std::atomic<bool>* cancel, std::atomic<std::uint64_t>* done) {
    try {
        TraceCsvWriter csv(path, runs.empty() ? std::string() : runs.front().label);
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
