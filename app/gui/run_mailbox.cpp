// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/run_mailbox.h"

#include <chrono>

namespace la {

void Mailbox::post(WorkerMessage message) {
    const std::lock_guard lock(m_mutex);
    m_messages.push_back(std::move(message));
}

void Mailbox::postEvents(int run, std::span<const Event> events, const std::atomic<bool>& cancel) {
    std::unique_lock lock(m_mutex);
    // Polled rather than notified on cancel: the GUI sets the flag without this mutex.
    while (m_pendingEvents >= m_maxPending && !cancel.load(std::memory_order_relaxed))
        m_drained.wait_for(lock, std::chrono::milliseconds(10));
    if (m_messages.empty() || m_messages.back().kind != WorkerMessage::Kind::Events ||
        m_messages.back().run != run) {
        WorkerMessage message;
        message.kind = WorkerMessage::Kind::Events;
        message.run = run;
        message.events.swap(m_spare);
        m_messages.push_back(std::move(message));
    }
    std::vector<Event>& pending = m_messages.back().events;
    pending.insert(pending.end(), events.begin(), events.end());
    m_pendingEvents += events.size();
}

void Mailbox::setProgress(int run, std::uint64_t done, std::uint64_t total) {
    const std::lock_guard lock(m_mutex);
    m_progress.run = run;
    m_progress.done = done;
    m_progress.total = total;
    m_progress.stage.clear();
}

void Mailbox::setPreparing(const std::string& stage, std::uint64_t done, std::uint64_t total) {
    const std::lock_guard lock(m_mutex);
    m_progress.stage = stage;
    m_progress.stageDone = done;
    m_progress.stageTotal = total;
}

void Mailbox::markFinished() {
    const std::lock_guard lock(m_mutex);
    m_finished = true;
}

std::deque<WorkerMessage> Mailbox::take(WorkerProgress& progress) {
    std::deque<WorkerMessage> messages;
    {
        const std::lock_guard lock(m_mutex);
        messages.swap(m_messages);
        progress = m_progress;
        m_pendingEvents = 0;
    }
    m_drained.notify_all();
    return messages;
}

void Mailbox::recycle(std::vector<Event>&& events) {
    events.clear();
    const std::lock_guard lock(m_mutex);
    if (events.capacity() > m_spare.capacity())
        m_spare.swap(events);
}

bool Mailbox::finished() const {
    const std::lock_guard lock(m_mutex);
    return m_finished;
}

} // namespace la
