// SPDX-License-Identifier: GPL-3.0-or-later
#include "output_file.h"

#include "held_directory.h"
#include "input_error.h"
#include "io_backend.h"
#include "protected_symlinks.h"
#include "stop_request.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace la {

namespace {

constexpr std::size_t kBufferBytes = 1 << 20;

int writeFully(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        // A FIFO's stalled reader may block us forever: a signal then ends the write, whether it
        // cut the call short (EINTR) or after part of the bytes went out.
        if (n < 0 && retryAfter(errno))
            continue;
        if (n <= 0)
            return n < 0 ? errno : EIO;
        if (static_cast<std::size_t>(n) < bytes.size() && stopRequested().load(std::memory_order_relaxed))
            return EINTR;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

} // namespace

OutputFile::OutputFile(std::string path, std::string what, mode_t newFileMode)
    : m_path(std::move(path)), m_target(m_path), m_what(std::move(what)) {
    const auto refuse = [&](const std::string& why) {
        return InputError("cannot write " + m_what + " '" + m_path + "': " + why);
    };
    if (m_path.empty())
        throw InputError(m_what + " needs a file name");
    if (const std::string planted = foreignSymlink(m_path); !planted.empty())
        throw refuse(planted);
    struct stat st {};
    if (::stat(m_path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            throw refuse("it is a directory; give a file name");
        if (!S_ISREG(st.st_mode)) {
            // O_NONBLOCK: a FIFO nobody reads is an error now rather than a hang.
            const int fd = ::open(m_path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
            if (fd < 0)
                throw refuse(std::strerror(errno));
            m_direct.reset(fd);
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            return;
        }
        // A symlink's target is the file the user means; it is replaced, not the link.
        std::error_code error;
        const auto resolved = std::filesystem::canonical(m_path, error);
        if (!error)
            m_target = resolved.string();
    }
    std::filesystem::path target(m_target);
    const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
    const mode_t mode = ::stat(m_target.c_str(), &st) == 0 ? (st.st_mode & 07777) : newFileMode;
    if (const int error = m_temp.create(dir, target.filename().string(), mode); error != 0)
        throw refuse(std::strerror(error) + std::string(" (in directory '") + dir + "')");
    // O_TMPFILE applies the umask: an existing file keeps its own mode, and a new one asked for
    // with another mode than 0666 gets just that.
    if (mode != 0666)
        ::fchmod(m_temp.fd(), mode);
    m_buffer.reserve(kBufferBytes);
}

OutputFile::OutputFile(const HeldDirectory& dir, const std::string& name, std::string what)
    : m_path(dir.filePath(name)), m_target(name), m_what(std::move(what)) {
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
        throw InputError("cannot write " + m_what + " '" + m_path + "': not a plain file name");
    if (const int error = m_temp.createAt(dir.fd(), dir.path(), name, 0600); error != 0)
        throw InputError("cannot write " + m_what + " '" + m_path + "': " + std::strerror(error));
    m_buffer.reserve(kBufferBytes);
}

void OutputFile::fail(int error) const {
    throw IoError("cannot write " + m_what + " '" + m_path + "': " + std::strerror(error));
}

void OutputFile::write(std::string_view bytes) {
    if (m_error != 0)
        fail(m_error);
    if (m_buffer.size() + bytes.size() > kBufferBytes)
        flush();
    if (bytes.size() >= kBufferBytes) {
        if (const int error = writeFully(m_direct.valid() ? m_direct.get() : m_temp.fd(), bytes))
            fail(m_error = error);
        return;
    }
    m_buffer.append(bytes);
}

void OutputFile::flush() {
    if (m_error != 0)
        fail(m_error);
    if (m_buffer.empty())
        return;
    const int error = writeFully(m_direct.valid() ? m_direct.get() : m_temp.fd(), m_buffer);
    m_buffer.clear();
    if (error != 0)
        fail(m_error = error);
}

void OutputFile::commit() {
    if (m_committed)
        return;
    flush();
    if (m_direct.valid()) {
        const int fd = m_direct.get();
        m_direct.release();
        if (::close(fd) != 0)
            fail(errno);
        m_committed = true;
        return;
    }
    // fsync before the rename, so a crash leaves the old file or the whole new one.
    if (::fsync(m_temp.fd()) != 0)
        fail(errno);
    if (const int error = m_temp.publish(m_target))
        fail(error);
    m_committed = true;
}

std::string writeOutputFile(const std::string& path, const std::string& what, std::string_view bytes) {
    try {
        OutputFile file(path, what);
        file.write(bytes);
        file.commit();
    } catch (const std::exception& error) {
        return error.what();
    }
    return {};
}

} // namespace la
