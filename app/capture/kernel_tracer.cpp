// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_tracer.h"

#include "block_device.h"
#include "checked_math.h"
#include "input_error.h"
#include "io_backend.h"
#include "observed/kernel_capture.h"
#include "traced_tasks.h"
#include "tracefs.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <span>

namespace la {

namespace {

// Writes each of a tracefs instance's controls in turn (file, value); the first error, or empty.
QString writeControls(std::span<const std::pair<QString, QByteArray>> controls) {
    for (const auto& [path, value] : controls)
        if (const QString error = tracefs::writeControl(path, value); !error.isEmpty())
            return error;
    return {};
}

// Per CPU. Room for some 100,000 events between two reads of the pipe.
constexpr const char* kBufferKb = "8192";
// The calls' instance, per CPU: a read served by the page cache takes a microsecond and makes three
// events (entry, page-cache lookup, exit), faster than tracefs prints them for the reader. 150 short
// processes' 307,200 such reads in 1.7 s lost 382,788 of their 921,600 events in 8 MB per CPU, none
// in 32 MB. 256 MB in all at most, 8 MB per CPU at least.
QByteArray callBufferKb() {
    const long cpus = std::max(1L, ::sysconf(_SC_NPROCESSORS_CONF));
    return QByteArray::number(std::clamp(256L * 1024 / cpus, 8L * 1024, 32L * 1024));
}
// The reader empties the pipes this often. It does not wait for a pipe to be readable: a poll on
// the all-CPU trace_pipe wakes at every event, a context switch per block request that the traced
// scan paid for (a synchronous O_DIRECT scan ran some 20 % slower). A buffered scan at 2 GB/s fills
// some 50,000 pages in this time, well within the buffer.
constexpr int kDrainMs = 100;
constexpr std::uint64_t kSectorBytes = 512;
// How long a marker written to learn a task's pid may take to come back on the pipe.
constexpr int kMarkerWaitMs = 5000;
// The read calls, and the events inside them that name the file they read (device and inode): the
// page-cache lookup of a buffered read. Without these no call can be told to its file.
constexpr const char* kCallEvents[] = {
    "syscalls/sys_enter_read",   "syscalls/sys_exit_read",      "syscalls/sys_enter_readv",
    "syscalls/sys_exit_readv",   "syscalls/sys_enter_pread64",  "syscalls/sys_exit_pread64",
    "syscalls/sys_enter_preadv", "syscalls/sys_exit_preadv",    "syscalls/sys_enter_preadv2",
    "syscalls/sys_exit_preadv2", "filemap/mm_filemap_get_pages"};
constexpr const char* kGetPages = "filemap/mm_filemap_get_pages";
// Where the kernel has them: a direct read's start (which file, at which byte), and lseek, which
// puts a read or readv at a byte inside the page the lookup names.
constexpr const char* kDirectRead = "iomap/iomap_dio_rw_begin";
constexpr const char* kSeekEvents[] = {"syscalls/sys_enter_lseek", "syscalls/sys_exit_lseek"};

// An event's directory under `dir` (tracefs' root or an instance).
QString eventDir(const QString& dir, const char* event) {
    return dir + QStringLiteral("/events/") + QLatin1String(event);
}

bool offered(const char* event) {
    return QFile::exists(eventDir(tracefs::root(), event) + QStringLiteral("/enable"));
}

// Creates the tracefs instance `base`, or `base-N` if that exists (a pid reused since).
QString createInstance(const QString& base, QString& created) {
    for (int n = 1; created.isEmpty(); ++n) {
        const QString name = n == 1 ? base : base + QLatin1Char('-') + QString::number(n);
        if (::mkdir(name.toLocal8Bit().constData(), 0700) == 0)
            created = name;
        else if (errno != EEXIST || n >= 100)
            return QStringLiteral("cannot create the tracefs instance %1: %2")
                .arg(name, QString::fromLocal8Bit(std::strerror(errno)));
    }
    return {};
}

UniqueFd openPipe(const QString& instance) {
    return UniqueFd(::open((instance + QStringLiteral("/trace_pipe")).toLocal8Bit().constData(),
                           O_RDONLY | O_NONBLOCK | O_CLOEXEC));
}

QString removeInstanceDir(const QString& instance) {
    if (!instance.isEmpty() && ::rmdir(instance.toLocal8Bit().constData()) != 0 && errno != ENOENT)
        return QStringLiteral("cannot remove the tracefs instance %1: %2")
            .arg(instance, QString::fromLocal8Bit(std::strerror(errno)));
    return {};
}

QString deviceFilter(const char* field, const std::vector<std::uint32_t>& devices) {
    QStringList terms;
    for (const std::uint32_t device : devices)
        terms << QStringLiteral("%1 == %2").arg(QLatin1String(field)).arg(device);
    return terms.join(QStringLiteral(" || "));
}

void addUnique(std::vector<std::uint32_t>& list, std::uint32_t value) {
    if (std::find(list.begin(), list.end(), value) == list.end())
        list.push_back(value);
}

} // namespace

KernelTracer::KernelTracer() = default;

KernelTracer::~KernelTracer() {
    abandon();
}

QString KernelTracer::unavailable(const CaptureTargets& targets) const {
    if (const QString problem = tracefs::accessProblem(tracefs::probeAccess()); !problem.isEmpty())
        return problem;
    if (targets.files.isEmpty())
        return QStringLiteral("the kernel tracer maps the device's reads to files and needs the files of "
                              "interest (--files)");
    for (const QString& file : targets.files) {
        FileExtents extents;
        if (const std::string error = readFileExtents(file.toStdString(), extents); !error.empty())
            return QString::fromStdString(error);
        RequestDevice device;
        if (const QString why = requestDeviceOf(extents.major, extents.minor, device); !why.isEmpty())
            return file + QStringLiteral(": ") + why + QStringLiteral("; use --tracer strace");
    }
    return {};
}

QString KernelTracer::start(const CaptureTargets& targets, std::unique_ptr<OutputFile> output) {
    abandon();
    if (const QString why = unavailable(targets); !why.isEmpty())
        return why;
    m_output = std::move(output);
    m_writeError.clear();
    if (const QString error = setUp(targets); !error.isEmpty()) {
        abandon();
        return error;
    }
    std::vector<std::string> notes{
        "tracepoints block:block_rq_issue, block:block_rq_complete, filemap:mm_filemap_add_to_page_cache" +
        std::string(m_callInstance.isEmpty()
                        ? ""
                        : ", syscalls:sys_enter/exit of read, readv, pread64, preadv, preadv2 and lseek, "
                          "filemap:mm_filemap_get_pages and iomap:iomap_dio_rw_begin (the traced "
                          "processes and their tasks)") +
        "; times in ns of CLOCK_MONOTONIC, to the microsecond"};
    if (!m_callsNote.empty())
        notes.push_back(m_callsNote);
    for (std::size_t i = 0; i < m_paths.size(); ++i)
        notes.push_back("file " + m_paths[i] + ": " + std::to_string(m_before[i].extents.size()) +
                        " extent(s) on device " + std::to_string(m_before[i].major) + ":" +
                        std::to_string(m_before[i].minor) +
                        (m_before[i].unplaced > 0
                             ? ", " + std::to_string(m_before[i].unplaced) + " bytes without a device address"
                             : std::string()));
    m_capture->begin(notes);
    m_reader = std::thread([this] { readEvents(); });
    return {};
}

QString KernelTracer::setUp(const CaptureTargets& targets) {
    // The files' extents, placed on the devices their requests reach.
    std::vector<CapturedFile> files;
    ExtentMap map;
    std::vector<std::uint32_t> diskDevices, fsDevices;
    m_paths.clear();
    m_before.clear();
    for (const QString& file : targets.files) {
        const std::string path = QFileInfo(file).absoluteFilePath().toStdString();
        FileExtents extents;
        if (const std::string error = readFileExtents(path, extents); !error.empty())
            return QString::fromStdString(error);
        RequestDevice device;
        if (const QString why = requestDeviceOf(extents.major, extents.minor, device); !why.isEmpty())
            return file + QStringLiteral(": ") + why;
        std::uint64_t base = 0;
        if (!checkedMul(device.startSector, kSectorBytes, base))
            return file + QStringLiteral(": its partition starts past 2^64 bytes");
        std::vector<FileExtent> placed = extents.extents;
        for (FileExtent& e : placed)
            if (!checkedAdd(e.physical, base, e.physical))
                return file + QStringLiteral(": an extent lies past 2^64 bytes");
        const auto index = static_cast<std::uint32_t>(files.size());
        const std::uint32_t disk = kernelDevice(device.major, device.minor);
        if (!map.add(disk, index, placed))
            return file + QStringLiteral(": an extent lies past 2^64 bytes");
        files.push_back({path, kernelDevice(extents.major, extents.minor), extents.inode});
        addUnique(diskDevices, disk);
        addUnique(fsDevices, kernelDevice(extents.major, extents.minor));
        m_paths.push_back(path);
        m_before.push_back(std::move(extents));
    }
    m_capture = std::make_unique<KernelCapture>(std::move(files), std::move(map),
                                                [this](std::string_view bytes) { writeOutput(bytes); });

    if (const QString error = tracefs::mountIfNeeded(); !error.isEmpty())
        return error;
    if (const QString error =
            createInstance(tracefs::root() + QStringLiteral("/instances/") +
                               QLatin1String(tracefs::kInstancePrefix) + QString::number(::getpid()),
                           m_instance);
        !error.isEmpty())
        return error;
    const QString blockFilter =
        QStringLiteral("(%1) && rwbs ~ \"*R*\"").arg(deviceFilter("dev", diskDevices));
    const QString events = m_instance + QStringLiteral("/events/");
    const std::pair<QString, QByteArray> controls[] = {
        {m_instance + QStringLiteral("/trace_clock"), "mono"},
        {m_instance + QStringLiteral("/buffer_size_kb"), kBufferKb},
        {events + QStringLiteral("block/block_rq_issue/filter"), blockFilter.toUtf8()},
        {events + QStringLiteral("block/block_rq_complete/filter"), blockFilter.toUtf8()},
        {events + QStringLiteral("filemap/mm_filemap_add_to_page_cache/filter"),
         deviceFilter("s_dev", fsDevices).toUtf8()},
        {events + QStringLiteral("block/block_rq_issue/enable"), "1"},
        {events + QStringLiteral("block/block_rq_complete/enable"), "1"},
        {events + QStringLiteral("filemap/mm_filemap_add_to_page_cache/enable"), "1"},
    };
    if (const QString error = writeControls(controls); !error.isEmpty())
        return error;
    m_pipe = openPipe(m_instance);
    m_stop.reset(::eventfd(0, EFD_CLOEXEC));
    if (!m_pipe.valid() || !m_stop.valid())
        return QStringLiteral("cannot read the tracefs instance's events: %1")
            .arg(QString::fromLocal8Bit(std::strerror(errno)));
    m_callsNote.clear();
    if (const QString why = setUpCalls(targets, fsDevices); !why.isEmpty()) {
        // The device's reads are still worth having: the capture says why the calls are not there.
        m_callsNote = "read calls not recorded: " + why.toStdString();
        m_callPipe.reset();
        removeInstanceDir(std::exchange(m_callInstance, QString()));
    }
    return {};
}

QString KernelTracer::setUpCalls(const CaptureTargets& targets, const std::vector<std::uint32_t>& fsDevices) {
    if (!targets.readCalls)
        return QStringLiteral("--no-calls");
    if (targets.pids.empty())
        return QStringLiteral("no process was named (--pid or a command), and every process's calls would be "
                              "too many");
    for (const char* event : kCallEvents)
        if (!offered(event))
            return QStringLiteral("the kernel offers no tracepoint %1 (%2)")
                .arg(QLatin1String(event),
                     QLatin1String(event == std::string_view(kGetPages)
                                       ? "newer kernels have it; it tells which file a read call read"
                                       : "it needs CONFIG_FTRACE_SYSCALLS"));
    if (const QString error = createInstance(m_instance + QStringLiteral("-calls"), m_callInstance);
        !error.isEmpty())
        return error;
    const std::pair<QString, QByteArray> controls[] = {
        {m_callInstance + QStringLiteral("/trace_clock"), "mono"},
        {m_callInstance + QStringLiteral("/buffer_size_kb"), callBufferKb()},
        // Readable as soon as something is there, not when the buffer is half full: the markers.
        {m_callInstance + QStringLiteral("/buffer_percent"), "0"},
        // Each event's process beside its task: a descriptor's position is the process's.
        {m_callInstance + QStringLiteral("/options/record-tgid"), "1"},
        {m_callInstance + QStringLiteral("/options/event-fork"), "1"},
    };
    if (const QString error = writeControls(controls); !error.isEmpty())
        return error;
    m_callPipe = openPipe(m_callInstance);
    if (!m_callPipe.valid())
        return QStringLiteral("cannot read the calls' tracefs instance: %1")
            .arg(QString::fromLocal8Bit(std::strerror(errno)));
    std::vector<qint64> tasks;
    if (const QString error = kernelPids(targets, tasks); !error.isEmpty())
        return error;
    QByteArray list;
    for (const qint64 task : tasks)
        list += QByteArray::number(task) + ' ';
    if (const QString error =
            tracefs::writeControl(m_callInstance + QStringLiteral("/set_event_pid"), list.trimmed());
        !error.isEmpty())
        return error;
    // The lookups and direct reads of the files' file systems only: a call on another file makes
    // none, and is left out as a read of no file of interest.
    std::vector<std::pair<QString, QByteArray>> enable{
        {eventDir(m_callInstance, kGetPages) + QStringLiteral("/filter"),
         deviceFilter("s_dev", fsDevices).toUtf8()}};
    if (offered(kDirectRead))
        enable.emplace_back(eventDir(m_callInstance, kDirectRead) + QStringLiteral("/filter"),
                            deviceFilter("dev", fsDevices).toUtf8());
    QStringList missing;
    for (const char* event : kCallEvents)
        enable.emplace_back(eventDir(m_callInstance, event) + QStringLiteral("/enable"), "1");
    for (const char* event : {kDirectRead, kSeekEvents[0], kSeekEvents[1]}) {
        if (offered(event))
            enable.emplace_back(eventDir(m_callInstance, event) + QStringLiteral("/enable"), "1");
        else
            missing << QLatin1String(event);
    }
    for (const auto& [path, value] : enable)
        if (const QString error = tracefs::writeControl(path, value); !error.isEmpty())
            return error;
    if (!missing.isEmpty())
        m_callsNote = "the kernel offers no tracepoint " + missing.join(QStringLiteral(", ")).toStdString() +
                      ": direct (O_DIRECT) read calls are not told to their file without "
                      "iomap_dio_rw_begin, and a read or readv after an lseek is placed at the start "
                      "of its first page without lseek";
    return {};
}

std::uint32_t KernelTracer::markedTask(const QByteArray& text, const std::function<bool()>& write) {
    if (!write())
        return 0;
    std::string partial;
    std::vector<char> buffer(1 << 16);
    FtraceEvent event;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kMarkerWaitMs);
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        pollfd fd{m_callPipe.get(), POLLIN, 0};
        if (left.count() <= 0 || ::poll(&fd, 1, int(left.count())) <= 0)
            return 0;
        const ssize_t n = ::read(m_callPipe.get(), buffer.data(), buffer.size());
        if (n <= 0)
            continue;
        partial.append(buffer.data(), std::size_t(n));
        for (std::size_t nl = partial.find('\n'); nl != std::string::npos; nl = partial.find('\n')) {
            const std::string line = partial.substr(0, nl);
            partial.erase(0, nl + 1);
            if (parseFtraceLine(line, event) && event.kind == FtraceEventKind::Marker &&
                event.text == std::string_view(text.constData(), std::size_t(text.size())))
                return event.pid;
        }
    }
}

// tracefs filters tasks by the kernel's pids, those of the first PID namespace, while ours are those
// of the namespace we run in. A marker this thread writes comes back with its task id as the kernel
// knows it: the same as ours, and the targets' pids are the kernel's too; else we run in a namespace
// of our own, and only a command we started can be asked to say its pid the same way.
QString KernelTracer::kernelPids(const CaptureTargets& targets, std::vector<qint64>& tasks) {
    const QString marker = m_callInstance + QStringLiteral("/trace_marker");
    const auto writeMarker = [&](const QByteArray& text) {
        return tracefs::writeControl(marker, text).isEmpty();
    };
    const QByteArray probe = "lookahead capture " + QByteArray::number(::getpid());
    const std::uint32_t self = markedTask(probe, [&] { return writeMarker(probe); });
    if (self == 0)
        return QStringLiteral("the tracefs marker of %1 did not come back: which pid the kernel knows this "
                              "process by cannot be learnt")
            .arg(m_callInstance);
    if (self == std::uint32_t(::gettid())) {
        tasks = tracedTasks(targets.pids, targets.followChildren);
        return {};
    }
    for (const qint64 pid : targets.pids) {
        if (pid != targets.heldCommand || !targets.announce)
            return QStringLiteral(
                       "Lookahead runs in a PID namespace of its own (its task is %1 here, %2 to the "
                       "kernel), and tracefs knows processes by their pids outside it, which "
                       "cannot be learnt here for process %3: capture from outside the namespace, "
                       "or start the command under the capture (-- COMMAND)")
                .arg(::gettid())
                .arg(self)
                .arg(pid);
        const QByteArray text = "lookahead held command " + QByteArray::number(pid);
        const std::uint32_t task = markedTask(text, [&] { return targets.announce(marker, text); });
        if (task == 0)
            return QStringLiteral("the command did not say its pid through the tracefs marker of %1")
                .arg(m_callInstance);
        tasks.push_back(task); // it was held from its start: no threads or children yet
    }
    return {};
}

void KernelTracer::writeOutput(std::string_view bytes) {
    if (!m_writeError.empty())
        return;
    try {
        m_output->write(bytes);
    } catch (const IoError& error) {
        m_writeError = error.what();
    }
}

void KernelTracer::readEvents() {
    std::vector<char> buffer(1 << 16);
    std::string blockPartial, callPartial; // each pipe's line cut by the end of one read
    FtraceEvent event;
    const auto consume = [&](std::string& partial, const char* data, std::size_t size) {
        partial.append(data, size);
        std::size_t from = 0;
        for (std::size_t nl = partial.find('\n'); nl != std::string::npos; nl = partial.find('\n', from)) {
            if (parseFtraceLine(std::string_view(partial).substr(from, nl - from), event))
                m_capture->add(event);
            from = nl + 1;
        }
        partial.erase(0, from);
    };
    const auto drain = [&](const UniqueFd& pipe, std::string& partial) {
        while (pipe.valid()) {
            const ssize_t n = ::read(pipe.get(), buffer.data(), buffer.size());
            if (n > 0) {
                consume(partial, buffer.data(), std::size_t(n));
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            break;
        }
    };
    for (bool stopping = false; !stopping;) {
        pollfd stop{m_stop.get(), POLLIN, 0};
        if (::poll(&stop, 1, kDrainMs) < 0 && errno != EINTR)
            stopping = true;
        if (stop.revents & POLLIN)
            stopping = true;
        // Empties what is there; once stopping, until nothing is left.
        drain(m_pipe, blockPartial);
        drain(m_callPipe, callPartial);
    }
}

QString KernelTracer::removeInstance() {
    if (m_instance.isEmpty())
        return {};
    m_pipe.reset(); // an instance with an open pipe cannot be removed
    m_callPipe.reset();
    const QString calls = removeInstanceDir(std::exchange(m_callInstance, QString()));
    const QString blocks = removeInstanceDir(std::exchange(m_instance, QString()));
    return blocks.isEmpty() ? calls : blocks;
}

QString KernelTracer::endReader() {
    if (!m_reader.joinable())
        return {};
    // Stop recording first, so that the drain ends.
    for (const QString& instance : {m_instance, m_callInstance})
        if (!instance.isEmpty())
            tracefs::writeControl(instance + QStringLiteral("/tracing_on"), "0");
    const std::uint64_t one = 1;
    QString error;
    if (::write(m_stop.get(), &one, sizeof one) != sizeof one)
        error = QStringLiteral("cannot stop the kernel tracer's reader");
    m_reader.join();
    return error;
}

void KernelTracer::abandon() {
    endReader();
    removeInstance();
    m_capture.reset();
    m_output.reset();
    m_stop.reset();
}

QString KernelTracer::stop() {
    if (!m_capture || !m_output)
        return {};
    QString error = endReader();
    const QString removed = removeInstance();
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < m_paths.size(); ++i) {
        FileExtents after;
        const std::string checkError = readFileExtents(m_paths[i], after);
        if (!checkError.empty())
            lines.push_back("extents not re-checked after the capture: " + checkError);
        else if (after.extents != m_before[i].extents || after.inode != m_before[i].inode)
            lines.push_back("extents of " + m_paths[i] +
                            " changed during the capture: its reads are mapped with the extents taken at the "
                            "start");
    }
    lines.insert(lines.end(), notes().begin(), notes().end());
    m_capture->end(lines);
    if (const std::uint64_t lost = m_capture->counts().lostEvents; lost > 0)
        warn("the kernel dropped " + std::to_string(lost) +
             " of the capture's events (its ring buffer filled faster than it was read): reads are missing "
             "from the capture; capture again with --no-calls, or a shorter command");
    try {
        if (!m_writeError.empty())
            throw IoError(m_writeError);
        m_output->commit();
    } catch (const IoError& e) {
        error = QString::fromStdString(e.what());
    }
    abandon();
    return error.isEmpty() ? removed : error;
}

} // namespace la
