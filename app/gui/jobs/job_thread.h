// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>

class QObject;
class QThread;

namespace la {

// The worker thread of a background job (a CSV export, a trace import, a session, a sweep), so that
// the window stays responsive: it runs the work with a cancel flag, ticks on the owner's (GUI) thread
// ten times a second while it runs, and once the worker is joined calls `done` there. Destroying it
// cancels and joins, so declare it after every member the work touches: members are destroyed in
// reverse order, and the worker must be gone before they are.
class JobThread {
public:
    JobThread(QObject* owner, QString name);
    ~JobThread();
    JobThread(const JobThread&) = delete;
    JobThread& operator=(const JobThread&) = delete;

    // `work` on the worker; `tick` and then `done` on the owner's thread.
    void start(std::function<void()> work, std::function<void()> tick, std::function<void()> done);
    void cancel() { m_cancel = true; }
    // For the work to poll (RunCallbacks::cancel and the like).
    const std::atomic<bool>* cancelFlag() const { return &m_cancel; }
    bool running() const { return m_running; }

private:
    QObject* m_owner;
    QString m_name;
    QTimer m_timer;
    std::unique_ptr<QThread> m_thread;
    std::atomic<bool> m_cancel{false};
    bool m_running = false;
};

} // namespace la
