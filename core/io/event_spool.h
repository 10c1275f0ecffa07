// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"
#include "files/temp_file.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace la {

// Every event of one run, kept in an unnamed temporary file as the run produces them, so an export
// writes exactly the run on screen: running it again would give another run with real I/O. The
// writer never fails the run: if the disk fills up, the spool stops and says why in broken().
// Written by one thread; replayed only after finish(), by any thread.
class EventSpool final : public EventSink {
public:
    // Creates the file in `dir` (a private directory). A spool that cannot be created is broken.
    explicit EventSpool(const std::string& dir);
    // A spool that keeps nothing, because there is no directory for it.
    struct Unavailable {
        std::string why;
    };
    explicit EventSpool(const Unavailable& reason) : m_broken(reason.why) {}

    void onEvents(std::span<const Event> batch) override;
    // Flushes what is buffered; the spool then holds the whole run.
    void finish();

    // Why the spool does not hold the whole run, or empty.
    const std::string& broken() const { return m_broken; }
    std::uint64_t events() const { return m_events; }

    // Hands the events back in order, in batches, to `sink`. Returns false if `cancel` stopped it.
    // Throws IoError if the file cannot be read.
    bool replay(EventSink& sink, const std::atomic<bool>* cancel,
                const std::function<void(std::uint64_t done, std::uint64_t total)>& progress) const;

private:
    void flush();
    void fail(const std::string& why);

    std::string m_dir;
    TempFile m_file;
    std::vector<Event> m_buffer;
    std::uint64_t m_events = 0; // events in the file
    std::string m_broken;
};

} // namespace la
