// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/jobs/job_thread.h"

#include "gui/jobs/tsan_annotations.h"

#include <QThread>

namespace la {

JobThread::JobThread(QObject* owner, QString name) : m_owner(owner), m_name(std::move(name)) {
    m_timer.setInterval(100);
}

JobThread::~JobThread() {
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
    }
}

void JobThread::start(std::function<void()> work, std::function<void()> tick, std::function<void()> done) {
    m_cancel = false;
    m_running = true;
    m_thread.reset(QThread::create([this, work = std::move(work)] {
        work();
        LA_TSAN_RELEASE(this);
    }));
    m_thread->setObjectName(m_name);
    m_timer.disconnect();
    QObject::connect(&m_timer, &QTimer::timeout, m_owner, tick);
    QObject::connect(m_thread.get(), &QThread::finished, m_owner, [this, done = std::move(done)] {
        m_thread->wait();
        LA_TSAN_ACQUIRE(this);
        m_timer.stop();
        m_running = false;
        done();
    });
    m_timer.start();
    m_thread->start();
}

} // namespace la
