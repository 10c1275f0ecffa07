// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_spool.h"

#include "io_backend.h"
#include "message_text.h"
#include "scan_file.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace la {

namespace {

constexpr std::size_t kBufferEvents = std::size_t(1) << 15; // 1 MiB: one write per many batches
// Left free on the file system: a long run's events (32 bytes each, ~4 per block) must never fill
// the user's disk; the spool stops first and the export says why.
constexpr std::uint64_t kSpareBytes = 1ULL << 30;

} // namespace

EventSpool::EventSpool(const std::string& dir) : m_dir(dir) {
    if (const int error = m_file.create(dir, "run-events.spool", 0600, O_RDWR); error != 0)
        fail(std::strerror(error));
    m_buffer.reserve(kBufferEvents);
}

void EventSpool::onEvents(std::span<const Event> batch) {
    if (!m_broken.empty())
        return;
    while (!batch.empty()) {
        const std::size_t room = kBufferEvents - m_buffer.size();
        const std::size_t take = std::min(room, batch.size());
        m_buffer.insert(m_buffer.end(), batch.begin(), batch.begin() + static_cast<std::ptrdiff_t>(take));
        batch = batch.subspan(take);
        if (m_buffer.size() == kBufferEvents)
            flush();
    }
}

void EventSpool::finish() {
    if (m_broken.empty())
        flush();
}

void EventSpool::flush() {
    struct statvfs fs {};
    if (::fstatvfs(m_file.fd(), &fs) == 0 && static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize <
                                                 kSpareBytes + m_buffer.size() * sizeof(Event)) {
        fail(std::string("less than ")
                 .append(byteSize(kSpareBytes))
                 .append(" would be left free on its file system"));
        return;
    }
    if (const int error = writeFully(m_file.fd(), reinterpret_cast<const std::byte*>(m_buffer.data()),
                                     m_buffer.size() * sizeof(Event), m_events * sizeof(Event));
        error != 0) {
        fail(std::strerror(error));
        return;
    }
    m_events += m_buffer.size();
    m_buffer.clear();
}

void EventSpool::fail(const std::string& why) {
    // The run goes on without it; the space is given back at once.
    m_broken = "the run's events could not be kept in '";
    m_broken += m_dir;
    m_broken += "': ";
    m_broken += why;
    m_file.close();
    m_buffer = {};
}

bool EventSpool::replay(EventSink& sink, const std::atomic<bool>* cancel,
                        const std::function<void(std::uint64_t, std::uint64_t)>& progress) const {
    if (!m_broken.empty())
        throw IoError(m_broken);
    std::vector<Event> batch(kBufferEvents);
    std::uint64_t done = 0;
    while (done < m_events) {
        if (cancel && cancel->load())
            return false;
        const std::size_t want =
            static_cast<std::size_t>(std::min<std::uint64_t>(kBufferEvents, m_events - done));
        auto* data = reinterpret_cast<char*>(batch.data());
        std::size_t got = 0;
        while (got < want * sizeof(Event)) {
            const ssize_t n = ::pread(m_file.fd(), data + got, want * sizeof(Event) - got,
                                      static_cast<off_t>(done * sizeof(Event) + got));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                throw IoError("cannot read back the run's events from '" + m_dir +
                              "': " + (n < 0 ? std::strerror(errno) : "the file is shorter than written"));
            got += static_cast<std::size_t>(n);
        }
        sink.onEvents(std::span<const Event>(batch.data(), want));
        done += want;
        if (progress)
            progress(done, m_events);
    }
    return true;
}

} // namespace la
