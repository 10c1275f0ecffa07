// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/capture_command.h"

#include "cli/argument_list.h"

#include "capture/make_tracer.h"
#include "capture/tracefs.h"
#include "experiment/signal_cancel.h"
#include "files/input_file.h"
#include "files/output_file.h"
#include "files/output_guard.h"
#include "input_error.h"
#include "io/os_cache.h"
#include "io_backend.h"
#include "message_text.h"
#include "text_parse.h"

#include <QFile>

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

namespace la {

namespace {

struct CaptureArgs {
    std::string tracer = "auto";
    std::string out;
    std::vector<qint64> pids;
    std::vector<std::string> files;
    std::vector<std::string> command;
    bool measureOverhead = false;
    bool readCalls = true;
    bool clean = false;
    bool help = false;
};

// Whether process `pid` exists (ours to see): a pid that names nothing would end the capture at once.
bool processExists(qint64 pid) {
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

CaptureArgs parseArgs(const std::vector<std::string>& args) {
    CaptureArgs parsed;
    ArgumentList list("capture", args);
    while (const std::string* next = list.next()) {
        const std::string& arg = *next;
        if (arg == "--") {
            parsed.command = list.rest();
            if (parsed.command.empty())
                throw InputError("capture: -- must be followed by the command to run");
            break;
        }
        if (arg == "--help" || arg == "-h") {
            parsed.help = true;
        } else if (arg == "--tracer") {
            parsed.tracer = list.value();
            if (parsed.tracer != "kernel" && parsed.tracer != "strace" && parsed.tracer != "auto")
                throw InputError(joined(
                    {"capture: --tracer '", excerpt(parsed.tracer), "': choose kernel, strace or auto"}));
        } else if (arg == "--clean") {
            parsed.clean = true;
        } else if (arg == "--measure-overhead") {
            parsed.measureOverhead = true;
        } else if (arg == "--no-calls") {
            parsed.readCalls = false;
        } else if (arg == "--out") {
            parsed.out = list.value();
        } else if (arg == "--pid") {
            const std::string& text = list.value();
            std::uint64_t pid = 0;
            if (!parseUnsigned(text, pid) || pid == 0 || pid > INT32_MAX)
                throw InputError(joined({"capture: --pid '", excerpt(text), "': expected a process id"}));
            if (!processExists(qint64(pid)))
                throw InputError(joined({"capture: --pid ", std::to_string(pid),
                                         ": no such process (it has ended, or never ran)"}));
            parsed.pids.push_back(qint64(pid));
        } else if (arg == "--files") {
            parsed.files.push_back(list.value());
            // Every path up to the next option.
            while (const std::string* file = list.moreValue())
                parsed.files.push_back(*file);
        } else {
            throw InputError(
                joined({"capture: unknown argument '", excerpt(arg), "' (see lookahead capture --help)"}));
        }
    }
    if (parsed.help)
        return parsed;
    if (parsed.clean) {
        if (!parsed.out.empty() || !parsed.pids.empty() || !parsed.command.empty() || !parsed.files.empty())
            throw InputError("capture: --clean cleans up and captures nothing: give it alone");
        return parsed;
    }
    if (parsed.out.empty())
        throw InputError("capture: give --out FILE (where the capture goes)");
    if (!parsed.pids.empty() && !parsed.command.empty())
        throw InputError("capture: give either --pid or -- COMMAND, not both");
    if (parsed.measureOverhead && parsed.command.empty())
        throw InputError(
            "capture: --measure-overhead needs -- COMMAND (it is run once untraced, then traced)");
    return parsed;
}

// Every line on stderr is printable(): a path, a command or a tracer's message may hold escapes.
void say(const std::string& text) {
    std::fprintf(stderr, "capture: %s\n", printable(text).c_str());
}

// What a capture killed before it could clean up left behind, removed now, and said; how many.
std::size_t removeLeftovers() {
    const QStringList removed = tracefs::removeStaleInstances();
    for (const QString& instance : removed)
        say("removed the tracefs instance " + instance.toStdString() +
            ", left behind by a capture that was killed: it went on tracing until now");
    return std::size_t(removed.size());
}

// The tracer --tracer names; `auto` takes the kernel's where it can run, saying why not otherwise.
std::unique_ptr<Tracer> chooseTracer(const CaptureArgs& parsed, const CaptureTargets& targets) {
    const TracerKind kind = parsed.tracer == "strace" ? TracerKind::Strace : TracerKind::Kernel;
    std::unique_ptr<Tracer> tracer = makeTracer(kind);
    const QString why = tracer->unavailable(targets);
    if (why.isEmpty())
        return tracer;
    if (parsed.tracer != "auto")
        throw InputError("capture: " + why.toStdString());
    say("the kernel tracer cannot be used (" + why.toStdString() + "); using strace");
    tracer = makeTracer(TracerKind::Strace);
    if (const QString straceWhy = tracer->unavailable(targets); !straceWhy.isEmpty())
        throw InputError("capture: strace cannot be used either: " + straceWhy.toStdString());
    return tracer;
}

// A child that runs `command` once released: forked first so that the tracer can attach to it
// before it does anything. Until then it takes orders on its gate: 'M' PATH '\0' TEXT '\0' writes
// TEXT to the file PATH (a tracefs marker, where the kernel names it by its real pid), 'G' runs the
// command. Whether the command ran is told by a second pipe, closed by a successful exec.
class HeldCommand {
public:
    explicit HeldCommand(const std::vector<std::string>& command) : m_name(command.front()) {
        int gate[2], status[2];
        if (::pipe2(gate, O_CLOEXEC) != 0 || ::pipe2(status, O_CLOEXEC) != 0)
            throw IoError(std::string("capture: cannot start the command: ") + std::strerror(errno));
        std::vector<char*> argv;
        for (const std::string& word : command)
            argv.push_back(const_cast<char*>(word.c_str()));
        argv.push_back(nullptr);
        m_pid = ::fork();
        if (m_pid < 0)
            throw IoError(std::string("capture: cannot start the command: ") + std::strerror(errno));
        if (m_pid == 0) {
            ::close(gate[1]);
            ::close(status[0]);
            if (!awaitRelease(gate[0]))
                ::_exit(127);
            ::execvp(argv[0], argv.data());
            const int error = errno;
            [[maybe_unused]] const ssize_t n = ::write(status[1], &error, sizeof error);
            ::_exit(127);
        }
        ::close(gate[0]);
        ::close(status[1]);
        m_gate = gate[1];
        m_status = status[0];
    }
    ~HeldCommand() {
        if (m_gate >= 0)
            ::close(m_gate);
        if (m_status >= 0)
            ::close(m_status);
        if (m_pid > 0 && !m_reaped) {
            ::kill(m_pid, SIGTERM);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    HeldCommand(const HeldCommand&) = delete;
    HeldCommand& operator=(const HeldCommand&) = delete;

    pid_t pid() const { return m_pid; }
    // Has it write `text` to `path` while it waits.
    bool announce(const QString& path, const QByteArray& text) {
        QByteArray order(1, 'M');
        order.append(QFile::encodeName(path)).append('\0').append(text).append('\0');
        return order.size() < 2 * PATH_MAX &&
               ::write(m_gate, order.constData(), std::size_t(order.size())) == ssize_t(order.size());
    }
    // Lets it run the command; throws InputError naming the command and why if it could not be run.
    void release() {
        const char go = 'G';
        [[maybe_unused]] const ssize_t n = ::write(m_gate, &go, 1);
        ::close(m_gate);
        m_gate = -1;
        int error = 0;
        ssize_t got = 0;
        while ((got = ::read(m_status, &error, sizeof error)) < 0 && errno == EINTR) {
        }
        ::close(m_status);
        m_status = -1;
        if (got == sizeof error)
            throw InputError(joined({"capture: cannot run '", m_name, "': ", std::strerror(error)}));
    }
    // Its exit status as a shell shows it.
    int reap() {
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
        m_reaped = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    void terminate() { ::kill(m_pid, SIGTERM); }

private:
    // The child's side of the gate: only async-signal-safe calls (the parent may have threads).
    static bool awaitRelease(int gate) {
        static char order[2 * PATH_MAX];
        for (;;) {
            char what = 0;
            if (::read(gate, &what, 1) != 1)
                return false;
            if (what == 'G')
                return true;
            if (what != 'M')
                return false;
            std::size_t length = 0, nuls = 0;
            while (nuls < 2 && length < sizeof order && ::read(gate, order + length, 1) == 1)
                nuls += order[length++] == '\0' ? 1 : 0;
            if (nuls < 2)
                return false;
            const char* path = order;
            const char* text = order + std::strlen(order) + 1;
            const int marker = ::open(path, O_WRONLY | O_CLOEXEC);
            if (marker >= 0) {
                [[maybe_unused]] const ssize_t n = ::write(marker, text, std::strlen(text));
                ::close(marker);
            }
        }
    }

    std::string m_name;
    pid_t m_pid = -1;
    int m_gate = -1;
    int m_status = -1;
    bool m_reaped = false;
};

// Waits until every process in `pids` has ended, or a signal came; false for the signal.
bool waitForEnd(const std::vector<qint64>& pids) {
    std::vector<pollfd> fds{{SignalCancel::notifyFd(), POLLIN, 0}};
    for (const qint64 pid : pids) {
        const int fd = int(::syscall(SYS_pidfd_open, pid_t(pid), 0));
        if (fd >= 0)
            fds.push_back({fd, POLLIN, 0});
    }
    std::size_t running = fds.size() - 1;
    bool signalled = false;
    while (running > 0 || pids.empty()) {
        if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
            break;
        if (SignalCancel::exitCode() != 0 || (fds[0].revents & POLLIN)) {
            signalled = true;
            break;
        }
        for (std::size_t i = 1; i < fds.size(); ++i)
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP))) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --running;
            }
    }
    for (std::size_t i = 1; i < fds.size(); ++i)
        if (fds[i].fd >= 0)
            ::close(fds[i].fd);
    return !signalled;
}

std::string secondsText(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f s", seconds);
    return text;
}

// Both runs of --measure-overhead start with the files of interest out of the OS cache, so that the
// traced run does not find there what the untraced one read.
void evictFiles(const std::vector<std::string>& files) {
    try {
        for (const std::string& file : files)
            evictFromOsCache(file);
    } catch (const IoError& error) {
        throw IoError(std::string("capture: ") + error.what());
    }
}

// The wall time of one untraced run of `command`, or nothing if a signal ended it (the command is
// then sent SIGTERM). A command that fails untraced gives no time to compare with.
std::optional<double> runUntraced(const std::vector<std::string>& command) {
    HeldCommand held(command);
    const auto began = std::chrono::steady_clock::now();
    held.release();
    const bool ended = waitForEnd({qint64(held.pid())});
    if (!ended)
        held.terminate();
    const int status = held.reap();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (!ended)
        return std::nullopt;
    if (status != 0)
        throw IoError("capture: the command failed when run untraced (exit status " + std::to_string(status) +
                      "), so there is no time to compare with: nothing was captured");
    return seconds;
}

// What the capture says about its cost (on stderr and as a `#` line of the file).
std::string overheadNote(const CaptureArgs& parsed, const char* tracer, double traced,
                         std::optional<double> untraced, bool ended) {
    const std::string by = std::string(" (") + tracer + " tracer)";
    if (parsed.command.empty())
        return "captured for " + secondsText(traced) + by +
               "; the tracer's overhead on processes already running cannot be measured: capture their work "
               "as -- COMMAND with --measure-overhead";
    if (!ended)
        return "interrupted after " + secondsText(traced) + by + "; no overhead is stated";
    if (!untraced)
        return "the command took " + secondsText(traced) + " traced" + by +
               "; the tracer's overhead was not measured: add --measure-overhead to run the command once "
               "untraced first and state it";
    char ratio[64];
    std::snprintf(ratio, sizeof ratio, "ratio %.3f (%+.1f %%)", traced / *untraced,
                  (traced / *untraced - 1.0) * 100.0);
    return "overhead: the command took " + secondsText(*untraced) + " untraced, " + secondsText(traced) +
           " traced" + by + ": " + ratio;
}

} // namespace

std::string captureUsageText() {
    return "Usage: lookahead capture [--tracer kernel|strace|auto] --out FILE [--pid PID ...]\n"
           "                         [--files PATH ...] [--no-calls] [--measure-overhead] [-- COMMAND ...]\n"
           "       lookahead capture --clean\n"
           "\n"
           "Records what processes read into a file that --import-trace reads (docs/trace-import.md):\n"
           "the processes --pid names until they end, or COMMAND, started here, until it exits;\n"
           "Ctrl+C ends the capture sooner (what was captured is written).\n"
           "\n"
           "  --tracer T     kernel: the processes' read calls and the kernel's block tracepoints,\n"
           "                 mapped to --files through their extents; sees io_uring's reads and\n"
           "                 costs the scan little (root only);\n"
           "                 strace: the read calls of the processes (slower, blind to io_uring);\n"
           "                 auto (default): kernel where it can run, else strace, saying why\n"
           "  --out FILE     the capture; written whole or not at all, never over an input\n"
           "  --pid PID      a process to capture (repeat for several)\n"
           "  --files PATH   the files of interest (several may follow): the kernel tracer maps the\n"
           "                 device's reads to these; without --pid or COMMAND it captures until Ctrl+C\n"
           "  --no-calls     kernel tracer: the device's reads and the page cache only, not the read\n"
           "                 calls (cheaper still for a scan that makes many calls)\n"
           "  --measure-overhead  runs COMMAND once untraced first, then traced, and states the ratio\n"
           "                 of their wall times (the --files are emptied from the OS cache before\n"
           "                 each run; anything else the command depends on must start alike)\n"
           "  --clean        removes what a capture killed before it could clean up left behind (its\n"
           "                 tracefs instances, which go on tracing), and says what; every capture\n"
           "                 does this first\n";
}

int runCaptureCommand(const std::vector<std::string>& args) {
    try {
        const CaptureArgs parsed = parseArgs(args);
        if (parsed.help) {
            std::fputs(captureUsageText().c_str(), stdout);
            return 0;
        }
        const std::size_t cleaned = removeLeftovers();
        if (parsed.clean) {
            if (cleaned == 0)
                say("nothing to clean up: no tracefs instance of a capture that has ended is left");
            return 0;
        }
        std::vector<NamedPath> inputs;
        for (const std::string& file : parsed.files) {
            openInputFile(file, "capture: --files", "name the regular files the processes read");
            inputs.push_back({"--files", file});
        }
        checkOutputsApart(inputs, {{"--out", parsed.out}});
        CaptureTargets targets;
        targets.pids = parsed.pids;
        targets.readCalls = parsed.readCalls;
        for (const std::string& file : parsed.files)
            targets.files << QString::fromStdString(file);
        if (parsed.command.empty() && parsed.pids.empty() && parsed.tracer == "strace")
            throw InputError("capture: strace needs --pid or -- COMMAND");
        std::unique_ptr<HeldCommand> command;
        if (!parsed.command.empty()) {
            command = std::make_unique<HeldCommand>(parsed.command);
            targets.pids = {command->pid()};
            targets.followChildren = {command->pid()};
            targets.heldCommand = command->pid();
            targets.announce = [held = command.get()](const QString& path, const QByteArray& text) {
                return held->announce(path, text);
            };
        }
        std::unique_ptr<Tracer> tracer = chooseTracer(parsed, targets);
        // Refused now if it cannot be written, before anything runs; published when the capture ends.
        // Only for its owner: strace shows the first bytes each call read.
        auto output = std::make_unique<OutputFile>(parsed.out, "capture", 0600);
        const char* name = tracer->kind() == TracerKind::Kernel ? "kernel" : "strace";
        std::optional<double> untraced;
        if (parsed.measureOverhead) {
            say(parsed.files.empty()
                    ? "running the command once untraced; without --files nothing is emptied from the OS "
                      "cache "
                      "between the runs, so the traced run may find there what the untraced one read"
                    : "running the command once untraced; the --files are emptied from the OS cache before "
                      "each run");
            evictFiles(parsed.files);
            untraced = runUntraced(parsed.command);
            if (!untraced) {
                say("interrupted before the traced run: nothing was captured");
                return SignalCancel::exitCodeOr(130);
            }
            say("untraced: " + secondsText(*untraced));
            evictFiles(parsed.files);
        }
        if (const QString error = tracer->start(targets, std::move(output)); !error.isEmpty())
            throw IoError("capture: " + error.toStdString());
        say(std::string("capturing with the ") + name + " tracer" +
            (parsed.command.empty() && parsed.pids.empty() ? " until Ctrl+C" : ""));
        const auto began = std::chrono::steady_clock::now();
        int commandStatus = 0;
        bool ended = false;
        if (command) {
            // A command that cannot run ends the capture with nothing written: --out stays as it was.
            command->release();
            ended = waitForEnd(targets.pids);
            if (!ended)
                command->terminate();
            commandStatus = command->reap();
        } else {
            ended = waitForEnd(targets.pids);
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        const std::string cost = overheadNote(parsed, name, seconds, untraced, ended);
        tracer->addNote(cost);
        if (const QString error = tracer->stop(); !error.isEmpty())
            throw IoError("capture: " + error.toStdString());
        say(std::string(ended ? "" : "interrupted; ") + "capture written to " + parsed.out);
        for (const std::string& warning : tracer->warnings())
            say("warning: " + warning);
        say(cost);
        if (command && commandStatus != 0)
            say("the command exited with status " + std::to_string(commandStatus));
        if (!ended)
            return SignalCancel::exitCodeOr(130);
        return 0;
    } catch (const InputError& error) {
        std::fprintf(stderr, "%s\n", printable(error.what()).c_str());
        return 2;
    } catch (const IoError& error) {
        std::fprintf(stderr, "%s\n", printable(error.what()).c_str());
        return 1;
    }
}

} // namespace la
