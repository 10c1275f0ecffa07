// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/jobs/run_mailbox.h"

#include <chrono>

namespace la {

void Mailbox::post(WorkerMessage message) {
    {
        const std::lock_guard lock(m_mutex);
        m_messages.push_back(std::move(message));
    }
    if (m_onPost)
        m_onPost();
}

void Mailbox::postEvents(int run, std::span<const Event> events, const std::atomic<bool>& cancel) {
    if (events.empty())
        return;
    std::unique_lock lock(m_mutex);
    // Polled rather than notified on cancel: the GUI sets the flag without this mutex.
    while (m_pendingEvents >= m_maxPending && !cancel.load(std::memory_order_relaxed))
        m_drained.wait_for(lock, std::chrono::milliseconds(10));
    m_pendingEvents += events.size();
    if (std::vector<Event>* room = roomFor(run, events.size())) {
        room->insert(room->end(), events.begin(), events.end()); // within its capacity: a copy only
        lock.unlock();
        if (m_onPost)
            m_onPost();
        return;
    }
    // A new message, filled before it is queued: its vector is taken, sized and written unlocked.
    WorkerMessage message;
    message.kind = WorkerMessage::Kind::Events;
    message.run = run;
    if (!m_spares.empty()) {
        message.events = std::move(m_spares.back());
        m_spares.pop_back();
    }
    lock.unlock();
    message.events.reserve(std::max(m_messageEvents, events.size()));
    message.events.assign(events.begin(), events.end());
    lock.lock();
    m_messages.push_back(std::move(message));
    lock.unlock();
    if (m_onPost)
        m_onPost();
}

std::vector<Event>* Mailbox::roomFor(int run, std::size_t count) {
    if (m_messages.empty())
        return nullptr;
    WorkerMessage& last = m_messages.back();
    if (last.kind != WorkerMessage::Kind::Events || last.run != run)
        return nullptr;
    if (last.events.size() + count > last.events.capacity() || last.events.size() + count > m_messageEvents)
        return nullptr;
    return &last.events;
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

std::deque<WorkerMessage> Mailbox::take(WorkerProgress& progress, std::size_t maxEvents, Take which) {
    std::deque<WorkerMessage> messages;
    {
        const std::lock_guard lock(m_mutex);
        std::size_t taken = 0;
        while (!m_messages.empty() && taken < maxEvents) {
            WorkerMessage& front = m_messages.front();
            const bool events = front.kind == WorkerMessage::Kind::Events;
            if ((which == Take::Events && !events) || (which == Take::Others && events))
                break;
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

Mailbox::Front Mailbox::front() const {
    const std::lock_guard lock(m_mutex);
    if (m_messages.empty())
        return Front::None;
    return m_messages.front().kind == WorkerMessage::Kind::Events ? Front::Events : Front::Other;
}

bool Mailbox::backlog() const {
    const std::lock_guard lock(m_mutex);
    return m_backlog;
}

void Mailbox::recycle(std::vector<Event>&& events) {
    // Kept only if it is a message's size (parts of a message are smaller); a few are enough for the
    // worker to refill while the GUI holds the rest.
    constexpr std::size_t kSpares = 4;
    if (events.capacity() < m_messageEvents)
        return;
    events.clear();
    const std::lock_guard lock(m_mutex);
    if (m_spares.size() < kSpares)
        m_spares.push_back(std::move(events));
}

bool Mailbox::finished() const {
    const std::lock_guard lock(m_mutex);
    return m_finished;
}

} // namespace la
