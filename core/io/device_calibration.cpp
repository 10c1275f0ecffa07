// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/device_calibration.h"

#include "block_size.h"
#include "files/input_file.h"
#include "files/temp_file.h"
#include "input_error.h"
#include "io/backend_factory.h"
#include "io/dataset_file.h"
#include "io/scan_file.h"
#include "io/uring_queue.h"
#include "io_backend.h"
#include "message_text.h"
#include "splitmix64.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

namespace la {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kAlignment = 4096; // O_DIRECT buffers and offsets
constexpr std::uint64_t kScratchChunk = 1ULL << 20;
constexpr std::size_t kMaxSamples = 1ULL << 22; // latencies kept per phase: 32 MiB at most
constexpr double kRampFraction = 0.1;           // of each phase, run but not recorded (queues filling)
constexpr double kLastChanceSeconds = 2.0;      // at least, past a phase's end, for its one reading

double nsSince(Clock::time_point start, Clock::time_point end) {
    return std::chrono::duration<double, std::nano>(end - start).count();
}

bool cancelled(const CalibrationCallbacks& callbacks) {
    return callbacks.cancel != nullptr && callbacks.cancel->load(std::memory_order_relaxed);
}

struct AlignedFree {
    void operator()(std::byte* p) const { std::free(p); }
};
using AlignedBuffer = std::unique_ptr<std::byte, AlignedFree>;

AlignedBuffer alignedBuffer(std::size_t bytes) {
    void* p = nullptr;
    if (::posix_memalign(&p, kAlignment, bytes) != 0)
        throw std::bad_alloc();
    std::memset(p, 0, bytes);
    return AlignedBuffer(static_cast<std::byte*>(p));
}

// The file being read: a descriptor, its size and how to name it in messages.
struct Target {
    UniqueFd fd;
    TempFile scratch; // holds the scratch file's descriptor instead of `fd`
    std::uint64_t bytes = 0;
    std::string name;
    bool direct = true;
    int get() const { return fd.get() >= 0 ? fd.get() : scratch.fd(); }
};

// One measured stretch: reads of `bytes`, `depth` under way, at random offsets or in file order.
struct Phase {
    int depth = 1;
    std::uint32_t bytes = DeviceProfile::kRandomReadBytes;
    bool sequential = false;
    double seconds = 0.0;
    std::string stage;
};

// Where each read of a phase goes: random aligned offsets, or one after the other, wrapping at the end.
class Offsets {
public:
    Offsets(const Phase& phase, std::uint64_t fileBytes, std::uint64_t seed)
        : m_bytes(phase.bytes), m_slots(fileBytes / phase.bytes), m_sequential(phase.sequential),
          m_rng(seed) {}
    std::uint64_t next() {
        if (!m_sequential)
            return m_rng.below(m_slots) * m_bytes;
        const std::uint64_t offset = m_cursor * m_bytes;
        m_cursor = (m_cursor + 1) % m_slots;
        return offset;
    }

private:
    std::uint64_t m_bytes;
    std::uint64_t m_slots;
    bool m_sequential;
    SplitMix64 m_rng;
    std::uint64_t m_cursor = 0;
};

// The latencies of one phase's reads that completed inside its recorded window.
struct Samples {
    std::vector<double> latenciesNs;
    double recordedSeconds = 0.0;
    Clock::time_point lastKept{}; // the latest completion kept
};

[[noreturn]] void readFailed(const Target& target, int error) {
    throw IoError(joined({"calibrating: reading '", target.name, "' failed: ", std::strerror(error)}));
}

[[noreturn]] void shortRead(const Target& target) {
    throw IoError(joined({"calibrating: reading '", target.name, "' returned fewer bytes than asked; ",
                          "was the file truncated during the measurement?"}));
}

// The window of a phase: reads complete throughout, only those after the ramp are recorded.
struct Window {
    Clock::time_point start, recordFrom, end, lastChance;
    explicit Window(const Phase& phase) : start(Clock::now()) {
        const auto length = std::chrono::duration<double>(phase.seconds);
        recordFrom = start + std::chrono::duration_cast<Clock::duration>(length * kRampFraction);
        end = start + std::chrono::duration_cast<Clock::duration>(length);
        // A device that completed nothing in the window (it stalled, a short --seconds on a busy
        // machine) is given this long past its end for one reading.
        lastChance = end + std::chrono::duration_cast<Clock::duration>(
                               std::max(length, std::chrono::duration<double>(kLastChanceSeconds)));
    }
    double fraction(Clock::time_point now) const {
        return std::min(1.0, nsSince(start, now) / nsSince(start, end));
    }
    // Whether reading goes on at `now`, with `recorded` readings so far.
    bool open(Clock::time_point now, bool recorded) const {
        return now < end || (!recorded && now < lastChance);
    }
};

// Keeps a completion's latency if it is in the window, or is the first one late; returns whether it kept it.
bool keep(Samples& samples, const Window& window, Clock::time_point submitted, Clock::time_point completed,
          bool anyRecorded) {
    const bool inWindow = completed >= window.recordFrom &&
                          (completed < window.end || (!anyRecorded && completed < window.lastChance));
    if (!inWindow || samples.latenciesNs.size() >= kMaxSamples)
        return false;
    samples.latenciesNs.push_back(nsSince(submitted, completed));
    samples.lastKept = std::max(samples.lastKept, completed);
    return true;
}

// The seconds the recorded readings span: the window, or up to the late reading that ended it.
double recordedSeconds(const Window& window, const Samples& samples) {
    return nsSince(window.recordFrom, std::max(window.end, samples.lastKept)) / 1e9;
}

// Reads through one io_uring ring, `depth` always submitted, as fio's io_uring engine does.
Samples measureUring(UringRing& ring, const Target& target, const Phase& phase, std::uint64_t seed,
                     const CalibrationCallbacks& callbacks, const std::function<void(double)>& progress) {
    const std::size_t depth = std::size_t(phase.depth);
    const AlignedBuffer buffers = alignedBuffer(depth * phase.bytes);
    std::vector<Clock::time_point> submitted(depth);
    Offsets offsets(phase, target.bytes, seed);
    Samples samples;
    const Window window(phase);
    std::size_t inKernel = 0;
    const auto prepare = [&](std::size_t slot) {
        io_uring_sqe* sqe = io_uring_get_sqe(&ring.ring);
        io_uring_prep_read(sqe, target.get(), buffers.get() + slot * phase.bytes, phase.bytes,
                           offsets.next());
        io_uring_sqe_set_data64(sqe, slot);
        submitted[slot] = Clock::now();
    };
    const auto submit = [&](unsigned count) {
        while (count > 0) {
            const int rc = io_uring_submit(&ring.ring);
            if (rc == -EINTR || rc == -EAGAIN)
                continue;
            if (rc < 0)
                readFailed(target, -rc);
            count -= unsigned(rc);
            inKernel += unsigned(rc);
        }
    };
    for (std::size_t slot = 0; slot < depth; ++slot)
        prepare(slot);
    submit(unsigned(depth));
    bool stopping = false;
    while (inKernel > 0) {
        io_uring_cqe* cqe = nullptr;
        const int rc = io_uring_wait_cqe(&ring.ring, &cqe);
        if (rc == -EINTR)
            continue;
        if (rc < 0)
            readFailed(target, -rc);
        const Clock::time_point now = Clock::now();
        const std::size_t slot = std::size_t(io_uring_cqe_get_data64(cqe));
        const int result = cqe->res;
        io_uring_cqe_seen(&ring.ring, cqe);
        --inKernel;
        if (result < 0)
            readFailed(target, -result);
        if (std::uint32_t(result) != phase.bytes)
            shortRead(target);
        keep(samples, window, submitted[slot], now, !samples.latenciesNs.empty());
        stopping = stopping || !window.open(now, !samples.latenciesNs.empty()) || cancelled(callbacks);
        if (!stopping) {
            prepare(slot);
            submit(1);
            progress(window.fraction(now));
        }
    }
    samples.recordedSeconds = recordedSeconds(window, samples);
    return samples;
}

// Where io_uring is refused: `depth` threads, each with one blocking pread under way.
Samples measureThreads(const Target& target, const Phase& phase, std::uint64_t seed,
                       const CalibrationCallbacks& callbacks, const std::function<void(double)>& progress) {
    Samples samples;
    const Window window(phase);
    std::mutex lock;
    int firstError = 0;
    bool truncated = false;
    std::vector<std::thread> threads;
    std::atomic<std::uint64_t> cursor{0};
    std::atomic<bool> recorded{false}; // by any reader
    const std::uint64_t slots = target.bytes / phase.bytes;
    threads.reserve(static_cast<std::size_t>(phase.depth));
    for (int t = 0; t < phase.depth; ++t)
        threads.emplace_back([&, t] {
            const AlignedBuffer buffer = alignedBuffer(phase.bytes);
            SplitMix64 rng(seed + std::uint64_t(t) * 0x9E3779B97F4A7C15ULL);
            Samples mine;
            int error = 0;
            bool shortened = false;
            while (window.open(Clock::now(), recorded.load(std::memory_order_relaxed)) &&
                   !cancelled(callbacks) && error == 0 && !shortened) {
                const std::uint64_t offset =
                    (phase.sequential ? cursor.fetch_add(1, std::memory_order_relaxed) % slots
                                      : rng.below(slots)) *
                    phase.bytes;
                const Clock::time_point start = Clock::now();
                const std::int64_t got = readFully(target.get(), buffer.get(), phase.bytes, offset);
                if (keep(mine, window, start, Clock::now(), recorded.load(std::memory_order_relaxed)))
                    recorded.store(true, std::memory_order_relaxed);
                error = got < 0 ? int(-got) : 0;
                shortened = got >= 0 && std::uint64_t(got) != phase.bytes;
            }
            const std::scoped_lock guard(lock);
            firstError = firstError != 0 ? firstError : error;
            truncated = truncated || shortened;
            samples.latenciesNs.insert(samples.latenciesNs.end(), mine.latenciesNs.begin(),
                                       mine.latenciesNs.end());
            samples.lastKept = std::max(samples.lastKept, mine.lastKept);
        });
    // The readers stop by themselves at the window's end or on cancel; meanwhile this thread reports.
    for (Clock::time_point now = Clock::now();
         window.open(now, recorded.load(std::memory_order_relaxed)) && !cancelled(callbacks);
         now = Clock::now()) {
        progress(window.fraction(now));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (std::thread& thread : threads)
        thread.join();
    if (firstError != 0)
        readFailed(target, firstError);
    if (truncated)
        shortRead(target);
    samples.recordedSeconds = recordedSeconds(window, samples);
    return samples;
}

void openUserFile(const std::string& path, Target& target, const CalibrationCallbacks& callbacks) {
    const ScanFile file = inspectScanFile(path);
    target.name = path;
    if (file.bytes < kMinCalibrationFileBytes)
        throw InputError(
            joined({"calibrate: '", path, "' is ", byteSize(file.bytes), "; measuring needs at least ",
                    byteSize(kMinCalibrationFileBytes),
                    std::string(" to read from (give a larger file, or leave --file out to measure "
                                "with a scratch file in the dataset cache directory)")}));
    int fd = openRegularFile(path, "calibrate: file", O_DIRECT);
    if (fd == -EINVAL) {
        target.direct = false;
        fd = openRegularFile(path, "calibrate: file");
    }
    if (fd < 0)
        throw InputError(joined({"calibrate: cannot open '", path, "' for reading: ", std::strerror(-fd)}));
    target.fd.reset(fd);
    // The path may have been swapped since it was inspected (openRegularFile checked that what is
    // open is a regular file): its size is the open file's.
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw InputError(joined({"calibrate: '", path, "' changed while it was opened; try again"}));
    target.bytes = std::uint64_t(st.st_size);
    if (target.bytes < kMinCalibrationFileBytes)
        throw InputError(joined({"calibrate: '", path, "' shrank while it was opened; try again"}));
    if (!target.direct && callbacks.notice)
        callbacks.notice(joined({"the file system of '", path,
                                 "' refuses O_DIRECT: the reads go through the page cache, so the profile "
                                 "measures memory rather than the device"}));
}

void checkScratchSpace(const std::string& dir, std::uint64_t bytes) {
    struct statvfs fs {};
    if (::statvfs(dir.c_str(), &fs) != 0)
        throw InputError(
            joined({"calibrate: cannot check free space in '", dir, "': ", std::strerror(errno)}));
    const std::uint64_t available = std::uint64_t{fs.f_bavail} * fs.f_frsize;
    // Twice the file: the measurement never fills a disk to its last bytes.
    if (available / 2 < bytes)
        throw InputError(
            joined({"calibrate: '", dir, "' has ", byteSize(available), " free; the scratch file needs ",
                    byteSize(bytes), " and as much to spare (choose --cache-dir or give --file)"}));
}

// Writes the scratch file: data that is not zeros (a virtual disk may keep zeros without storing
// them), synced, then dropped from the page cache and reopened for O_DIRECT reads.
bool writeScratch(const CalibrationSettings& settings, Target& target,
                  const CalibrationCallbacks& callbacks) {
    preparePrivateDir(settings.scratchDir);
    checkScratchSpace(settings.scratchDir, settings.scratchBytes);
    target.name = settings.scratchDir + "/(calibration scratch file)";
    if (const int error = target.scratch.create(settings.scratchDir, "calibration.scratch", 0600, O_RDWR);
        error != 0)
        throw InputError(joined({"calibrate: cannot create a scratch file in '", settings.scratchDir,
                                 "': ", std::strerror(error)}));
    const AlignedBuffer chunk = alignedBuffer(kScratchChunk);
    SplitMix64 rng(settings.seed);
    for (std::uint64_t done = 0; done < settings.scratchBytes; done += kScratchChunk) {
        if (cancelled(callbacks))
            return false;
        for (std::size_t i = 0; i + 8 <= kScratchChunk; i += 8) {
            const std::uint64_t word = rng.next();
            std::memcpy(chunk.get() + i, &word, 8);
        }
        const std::uint64_t length = std::min(kScratchChunk, settings.scratchBytes - done);
        if (const int error = writeFully(target.scratch.fd(), chunk.get(), length, done); error != 0)
            throw IoError(joined({"calibrate: writing the scratch file in '", settings.scratchDir,
                                  "' failed: ", std::strerror(error)}));
        if (callbacks.progress)
            callbacks.progress("writing the scratch file", 0.0);
    }
    if (::fdatasync(target.scratch.fd()) != 0)
        throw IoError(joined({"calibrate: syncing the scratch file in '", settings.scratchDir,
                              "' failed: ", std::strerror(errno)}));
    ::posix_fadvise(target.scratch.fd(), 0, 0, POSIX_FADV_DONTNEED);
    target.bytes = settings.scratchBytes;
    const int flags = ::fcntl(target.scratch.fd(), F_GETFL);
    target.direct = flags >= 0 && ::fcntl(target.scratch.fd(), F_SETFL, flags | O_DIRECT) == 0;
    if (!target.direct && callbacks.notice)
        callbacks.notice(joined({"the file system of '", settings.scratchDir,
                                 "' refuses O_DIRECT: the reads go through the page cache, so the profile "
                                 "measures memory rather than the device"}));
    return true;
}

std::vector<Phase> phasesOf(const CalibrationSettings& settings) {
    std::vector<Phase> phases;
    for (const int depth : settings.depths)
        phases.push_back({depth, DeviceProfile::kRandomReadBytes, false, 0.0,
                          "8 kB random reads, depth " + std::to_string(depth)});
    for (const int depth : settings.sequentialDepths)
        phases.push_back({depth, settings.sequentialBytes, true, 0.0,
                          std::to_string(settings.sequentialBytes / 1024) + " kB sequential reads, depth " +
                              std::to_string(depth)});
    for (Phase& phase : phases)
        phase.seconds = std::max(0.02, settings.seconds / double(phases.size()));
    return phases;
}

void checkSettings(const CalibrationSettings& settings) {
    if (!(settings.seconds > 0.0) || settings.seconds > 3600.0)
        throw InputError("calibrate: --seconds must be more than 0 and at most 3600");
    for (const int depth : settings.depths)
        if (depth < 1 || depth > 256)
            throw InputError("calibrate: queue depths must be 1..256");
    if (settings.sequentialBytes % DeviceProfile::kRandomReadBytes != 0 || settings.sequentialBytes < 16384 ||
        settings.sequentialBytes > (1u << 20))
        throw InputError("calibrate: the sequential read size must be 16 kB..1 MiB in whole 8 kB blocks");
    if (settings.file.empty() && settings.scratchBytes < kMinCalibrationFileBytes)
        throw InputError("calibrate: the scratch file must be at least " +
                         byteSize(kMinCalibrationFileBytes));
}

} // namespace

DeviceCalibration calibrateDevice(const CalibrationSettings& settings,
                                  const CalibrationCallbacks& callbacks) {
    checkSettings(settings);
    DeviceCalibration result;
    Target target;
    if (!settings.file.empty()) {
        openUserFile(settings.file, target, callbacks);
        result.file = settings.file;
    } else {
        result.scratchFile = true;
        result.file = settings.scratchDir;
        if (!writeScratch(settings, target, callbacks)) {
            result.cancelled = true;
            return result;
        }
    }
    result.fileBytes = target.bytes;
    result.direct = target.direct;

    const std::vector<Phase> phases = phasesOf(settings);
    int maxDepth = 1;
    for (const Phase& phase : phases)
        maxDepth = std::max(maxDepth, phase.depth);
    std::unique_ptr<UringRing> ring;
    if (uringDisabledByEnvironment()) {
        if (callbacks.notice)
            callbacks.notice(
                "io_uring disabled by LOOKAHEAD_DISABLE_IO_URING; measuring with a thread per read");
    } else {
        int error = 0;
        ring = UringRing::create(unsigned(std::bit_ceil(unsigned(maxDepth))), error);
        if (!ring && callbacks.notice)
            callbacks.notice(joined({"io_uring is not available (", std::strerror(error),
                                     "); measuring with a thread per read (blocking pread)"}));
    }
    result.engine = ring ? "io_uring" : "threads";

    const Clock::time_point began = Clock::now();
    DeviceProfile& profile = result.profile;
    profile.sequentialBytes = settings.sequentialBytes;
    for (std::size_t p = 0; p < phases.size(); ++p) {
        const Phase& phase = phases[p];
        Clock::time_point reported{};
        const auto progress = [&](double within) {
            // A few times a second: this runs once a read.
            const Clock::time_point now = Clock::now();
            if (!callbacks.progress || now - reported < std::chrono::milliseconds(100))
                return;
            reported = now;
            callbacks.progress(phase.stage, (double(p) + within) / double(phases.size()));
        };
        progress(0.0);
        const std::uint64_t seed = settings.seed + p;
        Samples samples = ring ? measureUring(*ring, target, phase, seed, callbacks, progress)
                               : measureThreads(target, phase, seed, callbacks, progress);
        if (cancelled(callbacks)) {
            result.cancelled = true;
            result.profile = {};
            return result;
        }
        if (samples.latenciesNs.empty())
            throw IoError(joined({"calibrate: no read of '", target.name, "' completed during ", phase.stage,
                                  "; give more --seconds"}));
        LatencyFigures figures = latencyFigures(phase.depth, samples.latenciesNs, samples.recordedSeconds);
        (phase.sequential ? profile.sequential : profile.random).push_back(figures);
    }
    result.seconds = nsSince(began, Clock::now()) / 1e9;
    profile.parallelism = effectiveParallelism(profile.random);
    profile.finish();
    return result;
}

} // namespace la
