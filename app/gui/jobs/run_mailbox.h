// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"
#include "io/event_spool.h"
#include "summary.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace la {

// One thing the worker tells the GUI thread, in order.
struct WorkerMessage {
    enum class Kind : std::uint8_t { RunStarted, Events, RunFinished, Notice, Error, Done };
    Kind kind = Kind::Done;
    int run = 0;
    // RunStarted of a repeat (docs/repeats.md): which (0-based) of how many; -1 for the run itself
    // (a run that goes once, or a repeated run's median repeat handed on).
    int repeat = -1;
    int repeats = 1;
    std::string text;                  // Notice, Error
    std::vector<Event> events;         // Events
    RunSummary summary;                // RunFinished
    std::shared_ptr<EventSpool> spool; // RunFinished: every event of the run, if it was kept
};

// The latest progress; only the newest value matters, so it is overwritten rather than queued.
struct WorkerProgress {
    int run = -1;
    std::uint64_t done = 0;
    std::uint64_t total = 0;
    std::string stage; // non-empty while preparing (e.g. writing a dataset file)
    std::uint64_t stageDone = 0;
    std::uint64_t stageTotal = 0;
};

// The only link between a worker and the GUI thread: a queue under a std::mutex (visible to TSan),
// filled by the worker and emptied by the GUI timer. Event batches of the same run are merged into
// messages of at most `messageEvents` events, each in a vector sized for it before the lock is
// taken: the worker never grows a vector, nor allocates, while the GUI may be waiting on the lock
// (a worker preempted mid-copy by a build beside had kept the GUI waiting 50 ms and more). If the GUI
// falls far behind, postEvents() waits (back-pressure) so memory stays bounded; a cancelled worker
// never waits.
class Mailbox {
public:
    // 128 k events (4 MB): the GUI drains that many in a few milliseconds, and at 30 drains a second
    // that lets through four million events a second. A message holds 8 k, what one drain takes.
    explicit Mailbox(std::size_t maxPendingEvents = std::size_t(1) << 17,
                     std::size_t messageEvents = std::size_t(1) << 13)
        : m_maxPending(maxPendingEvents), m_messageEvents(std::max<std::size_t>(1, messageEvents)) {}

    // Called on the worker after each post, outside the lock: the mailbox has something new.
    void setOnPost(std::function<void()> onPost) { m_onPost = std::move(onPost); }

    // Worker side.
    void post(WorkerMessage message);
    void postEvents(int run, std::span<const Event> events, const std::atomic<bool>& cancel);
    void setProgress(int run, std::uint64_t done, std::uint64_t total);
    void setPreparing(const std::string& stage, std::uint64_t done, std::uint64_t total);
    // The worker's last act: nothing follows.
    void markFinished();

    // Which messages take() hands out: all of them, or only from the front while they are events (the
    // model thread feeds those to the traces), or only while they are not (the GUI thread acts on
    // those). Either stops at the first message of the other kind, so the order holds.
    enum class Take { All, Events, Others };
    // Messages in order, with at most `maxEvents` events (a batch may be split): whoever takes them in
    // stays short however far the worker is ahead.
    std::deque<WorkerMessage> take(WorkerProgress& progress,
                                   std::size_t maxEvents = std::numeric_limits<std::size_t>::max(),
                                   Take which = Take::All);
    // What the first message waiting is: an events batch, another message, or none.
    enum class Front { None, Events, Other };
    Front front() const;
    // The last take() left messages behind.
    bool backlog() const;
    // Hands a drained batch back for reuse, so the worker does not fault in fresh pages every time.
    void recycle(std::vector<Event>&& events);
    bool finished() const;

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_drained;
    // An events message of `run` with room for `count` more events, or null.
    std::vector<Event>* roomFor(int run, std::size_t count);

    std::deque<WorkerMessage> m_messages;
    std::vector<std::vector<Event>> m_spares; // drained vectors handed back, for the worker to reuse
    WorkerProgress m_progress;
    std::size_t m_pendingEvents = 0;
    std::size_t m_maxPending;
    std::size_t m_messageEvents;
    bool m_finished = false;
    bool m_backlog = false;
    std::size_t m_frontTaken = 0;   // events of the first message already taken
    std::function<void()> m_onPost; // set before the worker starts
};

} // namespace la
