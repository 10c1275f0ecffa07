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

namespace la {

namespace {

// Per CPU. Room for some 100,000 events between two reads of the pipe.
constexpr const char* kBufferKb = "8192";
// The reader empties the pipe this often. It does not wait for the pipe to be readable: a poll on
// the all-CPU trace_pipe wakes at every event, a context switch per block request that the traced
// scan paid for (a synchronous O_DIRECT scan ran some 20 % slower). A buffered scan at 2 GB/s fills
// some 50,000 pages in this time, well within the buffer.
constexpr int kDrainMs = 100;
constexpr std::uint64_t kSectorBytes = 512;
// Calls are read when they come, at most this often: the descriptor of a call is told from /proc,
// which must happen before the task ends or closes it; the pause keeps the reader's wake-ups (and
// what they cost the traced scan) to a hundred a second.
constexpr int kCallBatchMs = 10;
// How long after a task last used a descriptor not seen before calls are still read as they come.
// A scan opens its files at its start: after that, reading every 10 ms only cost it time (a worker
// pool's scan some 7 %).
constexpr std::chrono::milliseconds kPromptCallsFor{250};
// The read calls, and what closes a descriptor: a call is told by a lookup of its descriptor only if
// the descriptor was not closed (its number perhaps another file's) between the call and the lookup.
constexpr const char* kCallEvents[] = {"sys_enter_pread64", "sys_exit_pread64",  "sys_enter_preadv",
                                       "sys_exit_preadv",   "sys_enter_preadv2", "sys_exit_preadv2",
                                       "sys_enter_close"};
// Where the architecture has them (arm64 has no dup2).
constexpr const char* kOptionalCloseEvents[] = {"sys_enter_close_range", "sys_enter_dup2", "sys_enter_dup3"};

// A system call's tracepoint under `dir` (tracefs' root or an instance).
QString syscallEvent(const QString& dir, const char* event) {
    return dir + QStringLiteral("/events/syscalls/") + QLatin1String(event);
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
    stop();
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

QString KernelTracer::start(const CaptureTargets& targets, const QString& outPath) {
    stop();
    if (const QString why = unavailable(targets); !why.isEmpty())
        return why;
    try {
        m_output = std::make_unique<OutputFile>(outPath.toStdString(), "kernel capture");
    } catch (const InputError& error) {
        return QString::fromStdString(error.what());
    }
    if (const QString error = setUp(targets); !error.isEmpty()) {
        removeInstance();
        m_pipe.reset();
        m_output.reset();
        m_capture.reset();
        return error;
    }
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
    m_fdFiles = std::make_unique<FdFiles>(files);
    m_capture = std::make_unique<KernelCapture>(
        std::move(files), std::move(map),
        [fds = m_fdFiles.get()](std::uint32_t pid, std::int64_t fd) { return fds->resolve(pid, fd); });

    if (const QString error = tracefs::mountIfNeeded(); !error.isEmpty())
        return error;
    tracefs::removeStaleInstances();
    if (const QString error = createInstance(tracefs::root() + QStringLiteral("/instances/lookahead-") +
                                                 QString::number(::getpid()),
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
    for (const auto& [path, value] : controls)
        if (const QString error = tracefs::writeControl(path, value); !error.isEmpty())
            return error;
    m_pipe = openPipe(m_instance);
    m_stop.reset(::eventfd(0, EFD_CLOEXEC));
    if (!m_pipe.valid() || !m_stop.valid())
        return QStringLiteral("cannot read the tracefs instance's events: %1")
            .arg(QString::fromLocal8Bit(std::strerror(errno)));
    if (const QString why = setUpCalls(targets); !why.isEmpty()) {
        // The device's reads are still worth having: the capture says why the calls are not there.
        m_callsNote = "read calls not recorded: " + why.toStdString();
        m_callPipe.reset();
        removeInstanceDir(std::exchange(m_callInstance, QString()));
    }
    return {};
}

QString KernelTracer::setUpCalls(const CaptureTargets& targets) {
    m_callsNote.clear();
    if (!targets.readCalls)
        return QStringLiteral("--no-calls");
    if (targets.pids.empty())
        return QStringLiteral("no process was named (--pid or a command), and every process's calls would be "
                              "too many");
    for (const char* event : kCallEvents)
        if (!QFile::exists(syscallEvent(tracefs::root(), event)))
            return QStringLiteral(
                       "the kernel offers no tracepoint syscalls:%1 (it needs CONFIG_FTRACE_SYSCALLS)")
                .arg(QLatin1String(event));
    if (const QString error = createInstance(m_instance + QStringLiteral("-calls"), m_callInstance);
        !error.isEmpty())
        return error;
    QByteArray tasks;
    for (const qint64 task : tracedTasks(targets.pids, targets.followChildren))
        tasks += QByteArray::number(task) + ' ';
    std::vector<std::pair<QString, QByteArray>> controls{
        {m_callInstance + QStringLiteral("/trace_clock"), "mono"},
        {m_callInstance + QStringLiteral("/buffer_size_kb"), kBufferKb},
        // Readable as soon as a call is there, not when the buffer is half full.
        {m_callInstance + QStringLiteral("/buffer_percent"), "0"},
        {m_callInstance + QStringLiteral("/options/event-fork"), "1"},
        {m_callInstance + QStringLiteral("/set_event_pid"), tasks.trimmed()},
    };
    for (const char* event : kCallEvents)
        controls.emplace_back(syscallEvent(m_callInstance, event) + QStringLiteral("/enable"), "1");
    for (const char* event : kOptionalCloseEvents)
        if (QFile::exists(syscallEvent(tracefs::root(), event)))
            controls.emplace_back(syscallEvent(m_callInstance, event) + QStringLiteral("/enable"), "1");
    for (const auto& [path, value] : controls)
        if (const QString error = tracefs::writeControl(path, value); !error.isEmpty())
            return error;
    // Each call's process beside its task: a descriptor is the process's, and a worker thread that
    // made a call may have ended before it is looked up (its process has not). Best effort: without
    // it a call is looked up through its task, as before.
    tracefs::writeControl(m_callInstance + QStringLiteral("/options/record-tgid"), "1");
    m_callPipe = openPipe(m_callInstance);
    if (!m_callPipe.valid())
        return QStringLiteral("cannot read the calls' tracefs instance: %1")
            .arg(QString::fromLocal8Bit(std::strerror(errno)));
    return {};
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
    bool stopping = false;
    std::size_t descriptors = 0;
    auto lastNewDescriptor = std::chrono::steady_clock::now();
    for (;;) {
        // Calls are read as they come until the first descriptor on a file of interest is seen (a
        // command may take long to start) and while new ones appear; then, like the device's events,
        // every kDrainMs.
        const bool prompt =
            descriptors == 0 || std::chrono::steady_clock::now() - lastNewDescriptor < kPromptCallsFor;
        pollfd fds[2] = {{m_stop.get(), POLLIN, 0},
                         {prompt && m_callPipe.valid() ? m_callPipe.get() : -1, POLLIN, 0}};
        if (::poll(fds, 2, kDrainMs) < 0 && errno != EINTR)
            stopping = true;
        if (fds[0].revents & POLLIN)
            stopping = true;
        if (m_fdFiles)
            m_fdFiles->newBatch();
        // Empties what is there; once stopping, until nothing is left.
        drain(m_pipe, blockPartial);
        drain(m_callPipe, callPartial);
        if (stopping)
            return;
        if (m_fdFiles && m_fdFiles->descriptors() != descriptors) {
            descriptors = m_fdFiles->descriptors();
            lastNewDescriptor = std::chrono::steady_clock::now();
        }
        if (fds[1].revents & POLLIN) {
            pollfd stop{m_stop.get(), POLLIN, 0};
            ::poll(&stop, 1, kCallBatchMs);
        }
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

QString KernelTracer::stop() {
    if (!m_capture)
        return {};
    QString error;
    if (m_reader.joinable()) {
        // Stop recording first, so that the drain ends.
        for (const QString& instance : {m_instance, m_callInstance})
            if (!instance.isEmpty())
                tracefs::writeControl(instance + QStringLiteral("/tracing_on"), "0");
        const std::uint64_t one = 1;
        if (::write(m_stop.get(), &one, sizeof one) != sizeof one)
            error = QStringLiteral("cannot stop the kernel tracer's reader");
        m_reader.join();
    }
    const QString removed = removeInstance();
    std::vector<std::string> lines{
        "tracepoints block:block_rq_issue, block:block_rq_complete, filemap:mm_filemap_add_to_page_cache" +
        std::string(m_callsNote.empty()
                        ? ", syscalls:sys_enter/exit of pread64, preadv, preadv2 and the entries "
                          "of close, close_range, dup2, dup3 (the traced processes and their "
                          "tasks)"
                        : "") +
        "; times in ns of CLOCK_MONOTONIC, to the microsecond"};
    if (!m_callsNote.empty())
        lines.push_back(m_callsNote);
    for (std::size_t i = 0; i < m_paths.size(); ++i) {
        FileExtents after;
        const std::string checkError = readFileExtents(m_paths[i], after);
        lines.push_back("file " + m_paths[i] + ": " + std::to_string(m_before[i].extents.size()) +
                        " extent(s) on device " + std::to_string(m_before[i].major) + ":" +
                        std::to_string(m_before[i].minor) +
                        (m_before[i].unplaced > 0
                             ? ", " + std::to_string(m_before[i].unplaced) + " bytes without a device address"
                             : std::string()));
        if (!checkError.empty())
            lines.push_back("extents not re-checked after the capture: " + checkError);
        else if (after.extents != m_before[i].extents || after.inode != m_before[i].inode)
            lines.push_back("extents of " + m_paths[i] +
                            " changed during the capture: its reads are mapped with the extents taken at the "
                            "start");
    }
    lines.insert(lines.end(), notes().begin(), notes().end());
    try {
        m_capture->write(lines, [this](std::string_view bytes) { m_output->write(bytes); });
        m_output->commit();
    } catch (const IoError& e) {
        error = QString::fromStdString(e.what());
    } catch (const InputError& e) {
        error = QString::fromStdString(e.what());
    }
    m_capture.reset();
    m_fdFiles.reset();
    m_output.reset();
    m_stop.reset();
    return error.isEmpty() ? removed : error;
}

} // namespace la
