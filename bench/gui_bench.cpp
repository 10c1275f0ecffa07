// SPDX-License-Identifier: GPL-3.0-or-later
// GUI responsiveness: the longest event-loop stall while a long simulated run is plotted live in the
// window, what the event loop was busy with, the machine's floor (the same meter in an idle event
// loop, before and after), and the time to export that run's dashboard. Prints figures; not a test.
//
//   lookahead-gui-bench [run options]    (default: --dataset alternating --pattern-blocks 10000000
//                                          --policy pg18; offscreen unless QT_QPA_PLATFORM is set)
#include "cli/cli_options.h"
#include "dashboard.h"
#include "gui/jobs/run_controller.h"
#include "gui/window/main_window.h"
#include "gui/window/run_setup_panel.h"
#include "input_error.h"
#include "model_thread.h"
#include "state_buckets.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

double threadCpuMs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// The calling thread's CPU time and context switches: in a stall, CPU time short of the stall's
// length with involuntary switches means the thread was runnable and waited for a CPU (other
// threads, other processes); with voluntary switches, that it blocked (a lock, a page, I/O).
struct ThreadUsage {
    double cpuMs = 0.0;
    long involuntary = 0;
    long voluntary = 0;
    static ThreadUsage now() {
        rusage usage{};
        getrusage(RUSAGE_THREAD, &usage);
        return {threadCpuMs(), usage.ru_nivcsw, usage.ru_nvcsw};
    }
    ThreadUsage operator-(const ThreadUsage& earlier) const {
        return {cpuMs - earlier.cpuMs, involuntary - earlier.involuntary, voluntary - earlier.voluntary};
    }
};

// Gaps between the ticks of a 1 ms timer: each one beyond a tick is time the event loop was busy.
class StallMeter : public QObject {
public:
    StallMeter() {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            const ThreadUsage usage = ThreadUsage::now();
            m_gapsMs.push_back(static_cast<double>(now - m_last) / 1e6);
            m_gapEnds.push_back(now);
            m_gapUsage.push_back(usage - m_lastUsage);
            m_last = now;
            m_lastUsage = usage;
        });
    }
    void start() {
        m_clock.start();
        m_last = 0;
        m_lastUsage = ThreadUsage::now();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    double max() const {
        return m_gapsMs.empty() ? 0.0 : *std::max_element(m_gapsMs.begin(), m_gapsMs.end());
    }
    double percentile(double p) const {
        if (m_gapsMs.empty())
            return 0.0;
        std::vector<double> sorted = m_gapsMs;
        std::sort(sorted.begin(), sorted.end());
        return sorted[static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1))];
    }
    std::size_t over(double ms) const {
        return static_cast<std::size_t>(
            std::count_if(m_gapsMs.begin(), m_gapsMs.end(), [ms](double g) { return g > ms; }));
    }
    // Of the gaps over `ms`, those the GUI thread slept through: it used no CPU and was never
    // preempted, so its 1 ms timer's wake-up came late, which no work of the window's causes.
    std::size_t overAsleep(double ms) const {
        std::size_t asleep = 0;
        for (std::size_t i = 0; i < m_gapsMs.size(); ++i)
            asleep += m_gapsMs[i] > ms && m_gapUsage[i].cpuMs < 1.0 && m_gapUsage[i].involuntary == 0;
        return asleep;
    }
    std::size_t ticks() const { return m_gapsMs.size(); }
    const QElapsedTimer& clock() const { return m_clock; }
    struct Gap {
        qint64 startNs = 0;
        qint64 endNs = 0;
        ThreadUsage usage; // what the GUI thread did in it
    };
    // The `count` longest gaps, longest first.
    std::vector<Gap> longest(std::size_t count) const {
        std::vector<std::size_t> order(m_gapsMs.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        count = std::min(count, order.size());
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end(),
                          [this](std::size_t a, std::size_t b) { return m_gapsMs[a] > m_gapsMs[b]; });
        std::vector<Gap> gaps;
        for (std::size_t i = 0; i < count; ++i) {
            const qint64 end = m_gapEnds[order[i]];
            gaps.push_back({end - static_cast<qint64>(m_gapsMs[order[i]] * 1e6), end, m_gapUsage[order[i]]});
        }
        return gaps;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    std::vector<qint64> m_gapEnds;
    std::vector<ThreadUsage> m_gapUsage;
    qint64 m_last = 0;
    ThreadUsage m_lastUsage;
    std::vector<double> m_gapsMs;
};

// Times each event the event loop delivers, by who received it, so the bench says what kept it busy.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override {
        if (m_depth > 0 || !m_recording)
            return QApplication::notify(receiver, event);
        // Named first: the event may delete its receiver.
        Source& source = m_sources[sourceOf(receiver, event)];
        ++m_depth;
        QElapsedTimer clock;
        clock.start();
        const double cpuBefore = threadCpuMs();
        const bool handled = QApplication::notify(receiver, event);
        const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        --m_depth;
        if (ms >= 0.5 && m_meter)
            m_spans.push_back({m_meter->clock().nsecsElapsed() - clock.nsecsElapsed(), ms,
                               threadCpuMs() - cpuBefore, &source});
        ++source.count;
        source.totalMs += ms;
        source.longest = std::max(source.longest, ms);
        source.over8 += ms > 8.0;
        return handled;
    }
    void setRecording(bool on) { m_recording = on; }
    void setMeter(const StallMeter* meter) { m_meter = meter; }
    // What the event loop did during the longest gaps: the events of 0.5 ms or more within each.
    void reportLongestGaps(const StallMeter& meter) const {
        std::printf(
            "the longest gaps, what the GUI thread did in them (its CPU time and context switches) and "
            "the events of 0.5 ms or more in them (wall, and the GUI thread's CPU time: less means it "
            "waited, for the CPU or for I/O):\n");
        for (const auto& [start, end, usage] : meter.longest(5)) {
            std::printf("  %.1f ms at %.3f s (cpu %.1f, switches %ld involuntary, %ld voluntary):",
                        static_cast<double>(end - start) / 1e6, static_cast<double>(start) / 1e9, usage.cpuMs,
                        usage.involuntary, usage.voluntary);
            for (const Span& span : m_spans) {
                if (span.startNs + static_cast<qint64>(span.ms * 1e6) > start && span.startNs < end)
                    std::printf(" [%.1f (cpu %.1f) %s]", span.ms, span.cpuMs, nameOf(span.source).c_str());
            }
            std::printf("\n");
        }
    }
    // The busiest receivers: what the GUI thread spent its time on while the run was plotted.
    void reportBusiest() const {
        std::vector<std::pair<std::string, Source>> sources(m_sources.begin(), m_sources.end());
        std::sort(sources.begin(), sources.end(),
                  [](const auto& a, const auto& b) { return a.second.totalMs > b.second.totalMs; });
        std::printf("busiest event receivers (events, total, longest, over 8 ms):\n");
        for (std::size_t i = 0; i < std::min<std::size_t>(8, sources.size()); ++i) {
            const Source& source = sources[i].second;
            std::printf("  %7zu %8.0f ms %6.1f ms %5zu  %s\n", source.count, source.totalMs, source.longest,
                        source.over8, sources[i].first.c_str());
        }
    }

private:
    struct Source {
        std::size_t count = 0;
        double totalMs = 0.0;
        double longest = 0.0;
        std::size_t over8 = 0;
    };
    // "QTimer 'plot refresh' (event 1)", "QCustomPlot in la::HitMissPlot (event 43)".
    static std::string sourceOf(const QObject* receiver, const QEvent* event) {
        std::string name = receiver->metaObject()->className();
        if (!receiver->objectName().isEmpty())
            name += " '" + receiver->objectName().toStdString() + "'";
        if (const QObject* parent = receiver->parent())
            name += std::string(" in ") + parent->metaObject()->className();
        return name + " (event " + std::to_string(static_cast<int>(event->type())) + ")";
    }
    struct Span {
        qint64 startNs = 0;
        double ms = 0.0;
        double cpuMs = 0.0;
        const Source* source = nullptr;
    };
    std::string nameOf(const Source* source) const {
        for (const auto& [name, candidate] : m_sources)
            if (&candidate == source)
                return name;
        return "?";
    }
    int m_depth = 0;
    bool m_recording = false;
    const StallMeter* m_meter = nullptr;
    std::map<std::string, Source> m_sources;
    std::vector<Span> m_spans;
};

double peakRssMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// The run options from the command line (the default run without any); nothing, with a message, if
// they are wrong.
std::optional<la::CliOptions> parseOptions(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
        args = {"--dataset", "alternating", "--pattern-blocks", "10000000", "--policy", "pg18"};
    try {
        return la::parseCommandLine(args);
    } catch (const la::InputError& error) {
        std::fprintf(stderr, "lookahead-gui-bench: %s\n", error.what());
        return std::nullopt;
    }
}

void reportRun(la::MainWindow& window, const StallMeter& meter, qint64 runMs, const QElapsedTimer& wall) {
    std::uint64_t blocks = 0, reads = 0;
    {
        const la::ModelThread::Hold hold(&window.controller().modelThread(),
                                         la::ModelThread::Hold::Mode::Wait);
        for (const la::RunTrace* trace : window.controller().traces()) {
            blocks += trace->positions();
            reads += trace->reads();
        }
    }
    const QLocale english(QLocale::English);
    std::printf("run: %s blocks, %s reads plotted live in %.2f s (last redraw done %lld ms later)\n",
                qPrintable(english.toString(static_cast<qulonglong>(blocks))),
                qPrintable(english.toString(static_cast<qulonglong>(reads))),
                static_cast<double>(runMs) / 1000.0, wall.elapsed() - runMs);
    std::printf(
        "event loop: longest stall %.1f ms, p99 %.1f ms, p50 %.2f ms, %zu gaps > 50 ms of %zu ticks\n",
        meter.max(), meter.percentile(0.99), meter.percentile(0.5), meter.over(50.0), meter.ticks());
    constexpr double kFrameMs = 16.0; // one frame at 60 Hz
    std::printf(
        "gaps over one 60 Hz frame (%.0f ms): %zu, of which %zu slept through (the wake-up came late)\n",
        kFrameMs, meter.over(kFrameMs), meter.overAsleep(kFrameMs));
}

void timeExports(la::MainWindow& window) {
    for (const double scale : {1.0, 2.0}) {
        QElapsedTimer exportClock;
        exportClock.start();
        const QImage image = window.dashboard()->renderImage(QSize(1600, 1000), scale, window.caption());
        const qint64 renderMs = exportClock.elapsed();
        image.save(QStringLiteral("/dev/null"), "PNG");
        std::printf("export: dashboard 1600x1000 at %.0fx rendered in %lld ms (%lld ms with PNG encoding)\n",
                    scale, renderMs, exportClock.elapsed());
    }
}

} // namespace

// The state buckets fold on the model thread each time a live run's positions double past their
// capacity (1 M): the time of one fold, the best of five.
void timeStateFold() {
    double best = 0.0;
    for (int round = 0; round < 5; ++round) {
        la::StateBuckets buckets;
        la::StateSample sample;
        constexpr std::uint64_t kCapacity = std::uint64_t(1) << 20; // StateBuckets' default
        for (std::uint64_t p = 0; p < kCapacity; ++p) {
            sample.timeNs = static_cast<std::int64_t>(p);
            sample.values = {static_cast<std::uint16_t>(p % 64), 1, 2, 3};
            sample.miss = p % 2 == 0;
            buckets.add(sample);
        }
        QElapsedTimer fold;
        fold.start();
        buckets.add(sample); // the capacity is full: this one folds
        const double ms = static_cast<double>(fold.nsecsElapsed()) / 1e6;
        best = round == 0 ? ms : std::min(best, ms);
    }
    std::printf("model: folding 1 M state buckets into 512 k took %.2f ms (best of 5)\n", best);
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    const std::optional<la::CliOptions> options = parseOptions(argc, argv);
    if (!options)
        return 2;
    TimedApplication app(argc, argv);
    la::MainWindow window;
    window.resize(1500, 950);
    window.show();
    if (const QString error = window.setupPanel()->setConfig(options->run); !error.isEmpty()) {
        std::fprintf(stderr, "lookahead-gui-bench: %s\n", qPrintable(error));
        return 2;
    }
    window.setupPanel()->setComparison(la::Comparison::Policy);
    // The window's first paint is not part of the run: it is done before the meter starts.
    for (int turn = 0; turn < 3; ++turn)
        QCoreApplication::processEvents();

    // The machine's floor, measured beside whatever else runs on it: the same meter in this event
    // loop while it does nothing, for a few seconds before the run and after it. A run's stalls are
    // read against it (a build beside delays even a thread that only sleeps).
    constexpr int kFloorMs = 3000;
    StallMeter floorBefore;
    StallMeter floorAfter;
    const auto reportFloor = [](const char* when, const StallMeter& floor) {
        std::printf("floor %s: an idle event loop's longest stall %.1f ms, p99 %.1f ms, p50 %.2f ms\n", when,
                    floor.max(), floor.percentile(0.99), floor.percentile(0.5));
    };

    StallMeter meter;
    app.setMeter(&meter);
    QElapsedTimer wall;
    QTimer settled; // polls until the last progressive redraw is done, without a nested event loop
    settled.setInterval(5);
    qint64 runMs = 0;
    qint64 startNs = 0; // Run pressed until startRun() returned
    // LOOKAHEAD_BENCH_SCREENSHOT=FILE.png: the window as the run left it, and FILE-live.png as it was
    // when A had finished and B was going, to look at.
    const QString shot = qEnvironmentVariable("LOOKAHEAD_BENCH_SCREENSHOT");
    QObject::connect(&window.controller(), &la::RunController::runFinished, &app, [&](int run) {
        if (run == 0 && !shot.isEmpty())
            window.grab().save(QString(shot).replace(QStringLiteral(".png"), QStringLiteral("-live.png")));
    });
    QObject::connect(&window.controller(), &la::RunController::finished, &app, [&] {
        runMs = wall.elapsed();
        settled.start();
    });
    QObject::connect(&settled, &QTimer::timeout, &app, [&] {
        if (!window.dashboard()->idle())
            return;
        settled.stop();
        meter.stop();
        app.setRecording(false);
        std::printf("start: Run pressed to the worker started in %.1f ms\n",
                    static_cast<double>(startNs) / 1e6);
        reportRun(window, meter, runMs, wall);
        app.reportBusiest();
        app.reportLongestGaps(meter);
        if (!shot.isEmpty())
            window.grab().save(shot);
        timeExports(window);
        timeStateFold();
        std::printf("peak RSS %.0f MB\n", peakRssMb());
        floorAfter.start();
        QTimer::singleShot(kFloorMs, &app, [&] {
            floorAfter.stop();
            reportFloor("before", floorBefore);
            reportFloor("after", floorAfter);
            QCoreApplication::quit();
        });
    });
    floorBefore.start();
    QTimer::singleShot(kFloorMs, &app, [&] {
        floorBefore.stop();
        meter.start();
        app.setRecording(true);
        wall.start();
        QElapsedTimer start;
        start.start();
        window.startRun();
        startNs = start.nsecsElapsed();
    });
    return QApplication::exec();
}
