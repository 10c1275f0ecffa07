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

std::deque<WorkerMessage> Mailbox::take(WorkerProgress& progress, std::size_t maxEvents) {
    std::deque<WorkerMessage> messages;
    {
        const std::lock_guard lock(m_mutex);
        std::size_t taken = 0;
        while (!m_messages.empty() && taken < maxEvents) {
            WorkerMessage& front = m_messages.front();
            const std::size_t left = front.events.size() - m_frontTaken;
            const std::size_t count = std::min(left, maxEvents - taken);
            taken += count;
            if (count == front.events.size()) { // the whole message, as it is
                messages.push_back(std::move(front));
                m_messages.pop_front();
                continue;
            }
            // Part of a batch, copied out: the rest stays first in line, unmoved (erasing the front
            // of a batch of 128 k events for each part cost more than the parts).
            WorkerMessage part;
            part.kind = front.kind;
            part.run = front.run;
            const auto first = front.events.begin() + static_cast<std::ptrdiff_t>(m_frontTaken);
            part.events.assign(first, first + static_cast<std::ptrdiff_t>(count));
            messages.push_back(std::move(part));
            m_frontTaken += count;
            if (m_frontTaken == front.events.size()) {
                m_messages.pop_front();
                m_frontTaken = 0;
            }
        }
        progress = m_progress;
        m_pendingEvents -= std::min(m_pendingEvents, taken);
        m_backlog = !m_messages.empty();
    }
    m_drained.notify_all();
    return messages;
}

bool Mailbox::backlog() const {
    const std::lock_guard lock(m_mutex);
    return m_backlog;
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
