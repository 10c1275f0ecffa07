// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_tracer.h"

#include "block_device.h"
#include "checked_math.h"
#include "input_error.h"
#include "io_backend.h"
#include "observed/kernel_capture.h"
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
    m_capture = std::make_unique<KernelCapture>(std::move(files), std::move(map));

    if (const QString error = tracefs::mountIfNeeded(); !error.isEmpty())
        return error;
    tracefs::removeStaleInstances();
    const QString base =
        tracefs::root() + QStringLiteral("/instances/lookahead-") + QString::number(::getpid());
    for (int n = 1; m_instance.isEmpty(); ++n) {
        const QString name = n == 1 ? base : base + QLatin1Char('-') + QString::number(n);
        if (::mkdir(name.toLocal8Bit().constData(), 0700) == 0)
            m_instance = name;
        else if (errno != EEXIST || n >= 100)
            return QStringLiteral("cannot create the tracefs instance %1: %2")
                .arg(name, QString::fromLocal8Bit(std::strerror(errno)));
    }
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
    m_pipe.reset(::open((m_instance + QStringLiteral("/trace_pipe")).toLocal8Bit().constData(),
                        O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    m_stop.reset(::eventfd(0, EFD_CLOEXEC));
    if (!m_pipe.valid() || !m_stop.valid())
        return QStringLiteral("cannot read the tracefs instance's events: %1")
            .arg(QString::fromLocal8Bit(std::strerror(errno)));
    return {};
}

void KernelTracer::readEvents() {
    std::vector<char> buffer(1 << 16);
    std::string partial; // a line cut by the end of one read
    FtraceEvent event;
    const auto consume = [&](const char* data, std::size_t size) {
        partial.append(data, size);
        std::size_t from = 0;
        for (std::size_t nl = partial.find('\n'); nl != std::string::npos; nl = partial.find('\n', from)) {
            if (parseFtraceLine(std::string_view(partial).substr(from, nl - from), event))
                m_capture->add(event);
            from = nl + 1;
        }
        partial.erase(0, from);
    };
    bool stopping = false;
    for (;;) {
        pollfd stop{m_stop.get(), POLLIN, 0};
        if (::poll(&stop, 1, kDrainMs) < 0 && errno != EINTR)
            stopping = true;
        if (stop.revents & POLLIN)
            stopping = true;
        // Empties what is there; once stopping, until nothing is left.
        for (;;) {
            const ssize_t n = ::read(m_pipe.get(), buffer.data(), buffer.size());
            if (n > 0) {
                consume(buffer.data(), std::size_t(n));
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            break;
        }
        if (stopping)
            return;
    }
}

QString KernelTracer::removeInstance() {
    if (m_instance.isEmpty())
        return {};
    const QString instance = std::exchange(m_instance, QString());
    m_pipe.reset(); // an instance with an open pipe cannot be removed
    if (::rmdir(instance.toLocal8Bit().constData()) != 0 && errno != ENOENT)
        return QStringLiteral("cannot remove the tracefs instance %1: %2")
            .arg(instance, QString::fromLocal8Bit(std::strerror(errno)));
    return {};
}

QString KernelTracer::stop() {
    if (!m_capture)
        return {};
    QString error;
    if (m_reader.joinable()) {
        // Stop recording first, so that the drain ends.
        if (!m_instance.isEmpty())
            tracefs::writeControl(m_instance + QStringLiteral("/tracing_on"), "0");
        const std::uint64_t one = 1;
        if (::write(m_stop.get(), &one, sizeof one) != sizeof one)
            error = QStringLiteral("cannot stop the kernel tracer's reader");
        m_reader.join();
    }
    const QString removed = removeInstance();
    std::vector<std::string> lines{
        "tracepoints block:block_rq_issue, block:block_rq_complete, filemap:mm_filemap_add_to_page_cache; "
        "times in ns of CLOCK_MONOTONIC, to the microsecond"};
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
    m_output.reset();
    m_stop.reset();
    return error.isEmpty() ? removed : error;
}

} // namespace la
