// SPDX-License-Identifier: GPL-3.0-or-later
// Device profiles (docs/simulated-device.md, "Calibrated profiles"): the file as untrusted input, the
// sampling of service times, the simulated device that uses them, and `lookahead calibrate`.

#include "cli_process.h"
#include "device_profile.h"
#include "experiment/device_profile_json.h"
#include "figure_limits.h"
#include "input_error.h"
#include "run.h"
#include "run_options.h"
#include "sim_device.h"
#include "splitmix64.h"
#include "test_files.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <functional>
#include <vector>

using namespace la;
using la::test::runLookahead;

namespace {

// One depth's figures: latencies (µs) from `lowUs` up, each quantile `stepUs` above the last.
QJsonObject figures(int depth, double lowUs, double stepUs) {
    QJsonObject latency;
    double at = lowUs;
    for (const std::string_view name : kProfileLevelNames) {
        latency[QString::fromLatin1(name.data(), qsizetype(name.size()))] = at;
        at += stepUs;
    }
    QJsonObject f;
    f[QStringLiteral("depth")] = depth;
    f[QStringLiteral("iops")] = depth * 1e6 / (lowUs + 5.5 * stepUs);
    f[QStringLiteral("mean_us")] = lowUs + 5.5 * stepUs;
    f[QStringLiteral("latency_us")] = latency;
    return f;
}

// A valid profile whose latencies are `scale` times those of a device taking ~100 µs per read.
QJsonObject profileJson(double scale = 1.0) {
    QJsonObject root;
    root[QStringLiteral("schema")] = QStringLiteral("lookahead.device-profile/1");
    root[QStringLiteral("parallelism")] = 4;
    root[QStringLiteral("random_reads")] =
        QJsonArray{figures(1, 50 * scale, 10 * scale), figures(2, 60 * scale, 12 * scale),
                   figures(4, 80 * scale, 16 * scale), figures(8, 160 * scale, 30 * scale)};
    QJsonObject sequential;
    sequential[QStringLiteral("read_bytes")] = 131072;
    sequential[QStringLiteral("depths")] = QJsonArray{figures(1, 150 * scale, 20 * scale)};
    root[QStringLiteral("sequential_reads")] = sequential;
    return root;
}

QByteArray bytesOf(const QJsonObject& object) {
    return QJsonDocument(object).toJson();
}

// The error parsing `json` gives, or "" if it parses.
QString parseError(const QByteArray& json) {
    try {
        parseDeviceProfile(json);
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

// `json` with its first "iops" number replaced by `text` (what JSON itself cannot hold).
QByteArray withNumberText(QByteArray json, const char* text) {
    const qsizetype at = json.indexOf("\"iops\": ") + 8;
    const qsizetype end = json.indexOf(',', at);
    return json.replace(at, end - at, text);
}

// `root` with member `key` of `random_reads[index]` (or of its latency_us) replaced.
QJsonObject withRandom(QJsonObject root, int index, const QString& key, const QJsonValue& value,
                       bool latency = false) {
    QJsonArray random = root[QStringLiteral("random_reads")].toArray();
    QJsonObject entry = random[index].toObject();
    if (latency) {
        QJsonObject l = entry[QStringLiteral("latency_us")].toObject();
        l[key] = value;
        entry[QStringLiteral("latency_us")] = l;
    } else {
        entry[key] = value;
    }
    random[index] = entry;
    root[QStringLiteral("random_reads")] = random;
    return root;
}

// A seq scan of 16384 blocks, every 64th missing, run by pg19 as io_uring reads on the simulated
// device: a device of ~100 µs keeps up with the consumer, one ten times slower does not.
RunConfig sparseMissScan() {
    RunConfig config = defaultRunConfig();
    const auto set = [&config](const char* name, const char* value) {
        setRunOption(config, *findRunOption(name), value);
    };
    set("dataset", "seq");
    set("pattern-blocks", "16384");
    set("prewarm", "except-every:64");
    set("policy", "pg19");
    set("sim-io-method", "io_uring");
    set("direct", "true");
    set("stream-flags", "sequential");
    return config;
}

RunSummary runWith(std::shared_ptr<const DeviceProfile> profile, std::uint64_t seed = 1) {
    RunConfig config = sparseMissScan();
    config.device.seed = seed;
    useDeviceProfile(config.device, std::move(profile));
    return runScan(config, config.policy, {});
}

std::shared_ptr<const DeviceProfile> profileOf(const QJsonObject& json) {
    return std::make_shared<const DeviceProfile>(parseDeviceProfile(bytesOf(json)));
}

} // namespace

class TestDeviceProfile : public QObject {
    Q_OBJECT

private slots:
    void submissionCostMovesTheConsumersClock() {
        // --submit-ns: each asynchronous read started costs the consumer that much; a synchronous
        // read (io_method=sync) pays nothing more. The device answers at once, so no wait hides it.
        const auto run = [](const char* method, const char* submit) {
            RunConfig config = defaultRunConfig();
            for (const auto& [name, value] : {std::pair{"dataset", "random"},
                                              {"pattern-blocks", "2000"},
                                              {"sim-io-method", method},
                                              {"submit-ns", submit},
                                              {"policy", "fixed:4"},
                                              {"latency-us", "0"}})
                setRunOption(config, *findRunOption(name), value);
            return runScan(config, config.policy, {});
        };
        for (const char* method : {"io_uring", "sync"}) {
            const RunSummary free = run(method, "0");
            const RunSummary costly = run(method, "100000");
            QCOMPARE(costly.ios, free.ios);
            const std::int64_t extra = costly.runtimeNs - free.runtimeNs;
            if (QByteArray(method) == "sync")
                QCOMPARE(extra, std::int64_t(0));
            else // a device that never keeps the consumer waiting: 100 µs more per read started
                QVERIFY2(std::abs(extra - std::int64_t(costly.ios) * 100'000) <= std::int64_t(costly.ios),
                         qPrintable(QStringLiteral("%1 for %2 reads").arg(extra).arg(costly.ios)));
        }
    }

    void parsesAValidProfile() {
        const DeviceProfile profile = parseDeviceProfile(bytesOf(profileJson()));
        QCOMPARE(profile.parallelism, 4);
        QCOMPARE(profile.random.size(), std::size_t(4));
        QCOMPARE(profile.random[2].depth, 4);
        QCOMPARE(profile.random[0].quantileNs.front(), 50'000.0);
        QCOMPARE(profile.random[0].quantileNs.back(), 160'000.0);
        QCOMPARE(profile.sequentialBytes, 131072u);
        // 128 kB at depth 1 take 1 / iops = their mean, 260 µs; an 8 kB read 105 µs: 155 µs more over
        // 15 further blocks.
        QVERIFY(std::abs(profile.extraBlockNs(1) - 155'000.0 / 15.0) < 1.0);
    }

    void refusesHostileProfiles_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        const QJsonObject good = profileJson();
        QJsonObject noParallelism = good;
        noParallelism.remove(QStringLiteral("parallelism"));
        QJsonObject wrongSchema = good;
        wrongSchema[QStringLiteral("schema")] = QStringLiteral("lookahead.device-profile/9");
        QJsonObject hugeParallelism = good;
        hugeParallelism[QStringLiteral("parallelism")] = 1e300;
        QJsonObject hugeReads = good;
        QJsonObject sequential = hugeReads[QStringLiteral("sequential_reads")].toObject();
        sequential[QStringLiteral("read_bytes")] = 1e15;
        hugeReads[QStringLiteral("sequential_reads")] = sequential;
        QJsonObject manyDepths = good;
        QJsonArray many;
        for (int d = 1; d <= 33; ++d)
            many.append(figures(d, 50, 10));
        manyDepths[QStringLiteral("random_reads")] = many;
        QJsonObject noRandom = good;
        noRandom[QStringLiteral("random_reads")] = QJsonArray{};

        QTest::newRow("not JSON") << QByteArray("{\"schema\": ") << "not valid JSON";
        QTest::newRow("NaN") << withNumberText(bytesOf(good), "NaN") << "not valid JSON";
        QTest::newRow("infinite") << withNumberText(bytesOf(good), "1e999") << "not valid JSON";
        QTest::newRow("not an object") << QByteArray("[1, 2]") << "expected a JSON object";
        QTest::newRow("wrong schema") << bytesOf(wrongSchema) << "is not lookahead.device-profile/1";
        QTest::newRow("missing field") << bytesOf(noParallelism) << "\"parallelism\" is missing";
        QTest::newRow("missing latency")
            << bytesOf(withRandom(good, 1, QStringLiteral("latency_us"), QJsonValue()))
            << "random_reads[1]: \"latency_us\" must be an object";
        QTest::newRow("text for a number")
            << bytesOf(withRandom(good, 0, QStringLiteral("iops"), QStringLiteral("fast")))
            << "random_reads[0]: \"iops\" must be a number";
        QTest::newRow("negative rate") << bytesOf(withRandom(good, 2, QStringLiteral("iops"), -5))
                                       << "depth 4: iops -5 is outside 0.0666667..1e+09";
        // Rates no device has (issue 42 defect 9): 1e-300 made a read take 1 ns (the service time's
        // overflow), 1e-9 pushed the clock to 2^63 ns. At depth D a read would take D / iops seconds.
        QTest::newRow("iops 1e-300")
            << bytesOf(withRandom(good, 0, QStringLiteral("iops"), 1e-300))
            << "8 kB random reads at depth 1: iops 1e-300 is outside 0.0166667..1e+09 (reads a second; fewer "
               "at this depth would make a read take over a minute)";
        QJsonObject slowSequential = good;
        QJsonObject seq = slowSequential[QStringLiteral("sequential_reads")].toObject();
        QJsonObject depth1 = seq[QStringLiteral("depths")].toArray()[0].toObject();
        depth1[QStringLiteral("iops")] = 1e-9;
        seq[QStringLiteral("depths")] = QJsonArray{depth1};
        slowSequential[QStringLiteral("sequential_reads")] = seq;
        QTest::newRow("iops 1e-9") << bytesOf(slowSequential)
                                   << "sequential reads at depth 1: iops 1e-09 is outside 0.0166667..1e+09";
        QTest::newRow("negative latency") << bytesOf(withRandom(good, 0, QStringLiteral("min"), -1, true))
                                          << "latency min -1 us is not a time";
        QTest::newRow("non-monotone quantiles")
            << bytesOf(withRandom(good, 1, QStringLiteral("p50"), 61, true))
            << "latency p50 (61 us) is below p25 (108 us); quantiles must not decrease";
        QTest::newRow("hour-long read")
            << bytesOf(withRandom(good, 3, QStringLiteral("max"), 4e9, true)) << "up to a minute";
        QTest::newRow("mean outside") << bytesOf(withRandom(good, 0, QStringLiteral("mean_us"), 1e6))
                                      << "mean latency 1e+06 us is not between min and max";
        QTest::newRow("depth not whole") << bytesOf(withRandom(good, 0, QStringLiteral("depth"), 1.5))
                                         << "\"depth\" must be a whole number 1..1024";
        QTest::newRow("huge depth") << bytesOf(withRandom(good, 0, QStringLiteral("depth"), 1e12))
                                    << "\"depth\" must be a whole number 1..1024";
        QTest::newRow("depths out of order")
            << bytesOf(withRandom(good, 2, QStringLiteral("depth"), 2)) << "depths must ascend";
        QTest::newRow("huge parallelism")
            << bytesOf(hugeParallelism) << "\"parallelism\" must be a whole number";
        QTest::newRow("huge read size")
            << bytesOf(hugeReads) << "\"read_bytes\" must be a whole number 16384..";
        QTest::newRow("too many depths") << bytesOf(manyDepths) << "at most 32 depths";
        QTest::newRow("no depths") << bytesOf(noRandom) << "8 kB random reads: no figures";
    }

    void refusesHostileProfiles() {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        const QString got = parseError(json);
        QVERIFY2(got.contains(error), qPrintable(got));
    }

    void refusesHostileFilesNamingThem() {
        QTemporaryDir dir;
        const QString huge = la::test::writeFile(dir.filePath(QStringLiteral("huge.json")),
                                                 QByteArray(2 << 20, ' ') + bytesOf(profileJson()));
        const QString bad = la::test::writeFile(dir.filePath(QStringLiteral("bad.json")), "{}");
        for (const auto& [path, error] :
             {std::pair{huge, QStringLiteral("larger than")}, std::pair{bad, QStringLiteral("schema")},
              std::pair{dir.path(), QStringLiteral("is a directory")}}) {
            try {
                loadDeviceProfile(path.toStdString());
                QFAIL("a bad profile file was accepted");
            } catch (const InputError& e) {
                const QString message = QString::fromUtf8(e.what());
                QVERIFY2(message.contains(path) && message.contains(error), qPrintable(message));
            }
        }
    }

    // Drawn service times follow the profile: over 100k seeded draws, the empirical quantiles are
    // the profile's, at a measured depth and between two.
    void samplingFollowsTheDistribution() {
        const DeviceProfile profile = parseDeviceProfile(bytesOf(profileJson()));
        for (const int depth : {1, 3, 4}) {
            SplitMix64 rng(42);
            std::vector<double> drawn;
            for (int i = 0; i < 100'000; ++i)
                drawn.push_back(double(profile.serviceNs(depth, 1, rng.uniform())));
            std::sort(drawn.begin(), drawn.end());
            for (std::size_t level = 1; level + 1 < kProfileLevels.size(); ++level) {
                const double expected =
                    depth == 3
                        ? (profile.random[1].quantileNs[level] + profile.random[2].quantileNs[level]) / 2
                        : profile.random[depth == 1 ? 0 : 2].quantileNs[level];
                const double got = drawn[std::size_t(kProfileLevels[level] * double(drawn.size() - 1))];
                QVERIFY2(std::abs(got - expected) <= 0.02 * expected + 2.0,
                         qPrintable(QStringLiteral("depth %1 %2: drawn %3 ns, profile %4 ns")
                                        .arg(depth)
                                        .arg(QString::fromLatin1(kProfileLevelNames[level].data()))
                                        .arg(got)
                                        .arg(expected)));
            }
        }
        // Deeper than the device's parallelism, reads only queue: the service time stays the
        // parallelism's.
        QCOMPARE(profile.serviceNs(64, 1, 0.5), profile.serviceNs(4, 1, 0.5));
        // A larger read adds the sequential figure's time per further block.
        QCOMPARE(profile.serviceNs(1, 16, 0.5) - profile.serviceNs(1, 1, 0.5),
                 std::int64_t(std::llround(15 * profile.extraBlockNs(1))));
    }

    // A slower device makes pg19 wait more (and so grow its distance further); a profile run is
    // deterministic for its seed and differs from the default device.
    void simulatedDeviceFollowsTheProfile() {
        const RunSummary fast = runWith(profileOf(profileJson(1.0)));
        const RunSummary slow = runWith(profileOf(profileJson(10.0)));
        const RunSummary plain = runWith(nullptr);
        QVERIFY2(slow.explainIo.waitCount > fast.explainIo.waitCount,
                 qPrintable(QStringLiteral("waits: slow %1, fast %2")
                                .arg(slow.explainIo.waitCount)
                                .arg(fast.explainIo.waitCount)));
        QVERIFY(slow.explainIo.waitCount > plain.explainIo.waitCount);
        QVERIFY(slow.explainIo.prefetchAvg() > fast.explainIo.prefetchAvg());
        QVERIFY(slow.runtimeNs > fast.runtimeNs);
        const RunSummary again = runWith(profileOf(profileJson(10.0)));
        QCOMPARE(again.explainIo.waitCount, slow.explainIo.waitCount);
        QCOMPARE(again.runtimeNs, slow.runtimeNs);
        // Parallelism comes from the profile.
        RunConfig config = sparseMissScan();
        useDeviceProfile(config.device, profileOf(profileJson()));
        QCOMPARE(config.device.parallelism, 4);
    }

    // io_method=sync is deterministic whatever the device: on pg19-calibration's six cache states
    // (real PostgreSQL 19, ../shared/fixtures) its Prefetch avg, max and waits come out exactly, on
    // the default device and on one ten times slower.
    void syncMatchesPostgresWhateverTheDevice() {
        const QString fixture = QStringLiteral(LOOKAHEAD_SHARED_FIXTURES "/pg19-calibration");
        const QByteArray medians = la::test::readFile(fixture + QStringLiteral("/summary-median.csv"));
        if (medians.isEmpty())
            QSKIP("the pg19-calibration fixture is not beside the clone");
        const QList<QByteArray> lines = medians.split('\n');
        const QList<QByteArray> header = lines.front().split(',');
        int rows = 0;
        for (const QByteArray& line : lines) {
            const QList<QByteArray> cells = line.split(',');
            if (cells.size() != header.size() || cells[header.indexOf("method")] != "sync")
                continue;
            const auto cell = [&](const char* name) { return cells[header.indexOf(name)]; };
            RunConfig config = defaultRunConfig();
            const auto set = [&config](const char* name, const std::string& value) {
                setRunOption(config, *findRunOption(name), value);
            };
            set("dataset", "seq");
            set("pattern-blocks", "16384");
            set("prewarm", "list:" + (fixture + QLatin1Char('/') + QString::fromLatin1(cell("case")) +
                                      QStringLiteral("/sync/r1/cached.txt"))
                                         .toStdString());
            set("sim-io-method", "sync");
            set("shared-buffers", "131072");
            set("direct", "true");
            set("policy", "pg19");
            set("stream-flags", "sequential");
            for (const double scale : {0.0, 10.0}) {
                useDeviceProfile(config.device, scale > 0 ? profileOf(profileJson(scale)) : nullptr);
                const ExplainIo io = runScan(config, config.policy, {}).explainIo;
                QCOMPARE(QString::number(io.prefetchAvg(), 'f', 2),
                         QString::fromLatin1(cell("prefetch_avg")));
                QCOMPARE(QByteArray::number(io.distanceMax), cell("prefetch_max"));
                QCOMPARE(QByteArray::number(qulonglong(io.waitCount)), cell("io_waits"));
            }
            ++rows;
        }
        QCOMPARE(rows, 6);
    }

    // The window's and the command line's path: runExperiment() loads the profile a run names.
    void commandLineRunsWithAProfile() {
        QTemporaryDir dir;
        const QString slow =
            la::test::writeFile(dir.filePath(QStringLiteral("slow.json")), bytesOf(profileJson(10)));
        const QString bad = la::test::writeFile(dir.filePath(QStringLiteral("bad.json")), "{\"schema\": 1}");
        const QStringList scan{
            QStringLiteral("--headless"),       QStringLiteral("--dataset"), QStringLiteral("seq"),
            QStringLiteral("--pattern-blocks"), QStringLiteral("4096"),      QStringLiteral("--prewarm"),
            QStringLiteral("except-every:8"),   QStringLiteral("--policy"),  QStringLiteral("pg19")};
        const auto plain = runLookahead(scan, 60'000);
        const auto profiled =
            runLookahead(scan + QStringList{QStringLiteral("--device-profile"), slow}, 60'000);
        QCOMPARE(plain.exitCode, 0);
        QCOMPARE(profiled.exitCode, 0);
        QVERIFY(plain.out != profiled.out);
        const auto refused =
            runLookahead(scan + QStringList{QStringLiteral("--device-profile"), bad}, 60'000);
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(bad) && refused.err.contains(QStringLiteral("schema")),
                 qPrintable(refused.err));
        // A rate no device has is refused, naming the file, the figure and its range (issue 42
        // defect 9): 1e-300 IOPS ran, as 1 ns a block.
        for (const double iops : {1e-300, 1e-9}) {
            QJsonObject json = profileJson();
            QJsonObject sequential = json[QStringLiteral("sequential_reads")].toObject();
            QJsonObject depth1 = sequential[QStringLiteral("depths")].toArray()[0].toObject();
            depth1[QStringLiteral("iops")] = iops;
            sequential[QStringLiteral("depths")] = QJsonArray{depth1};
            json[QStringLiteral("sequential_reads")] = sequential;
            const QString absurd =
                la::test::writeFile(dir.filePath(QStringLiteral("absurd.json")), bytesOf(json));
            const auto r =
                runLookahead(scan + QStringList{QStringLiteral("--device-profile"), absurd}, 60'000);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(
                r.err.contains(
                    QStringLiteral("device profile '%1': sequential reads at depth 1: iops ").arg(absurd)) &&
                    r.err.contains(QStringLiteral(" is outside 0.0166667..1e+09")),
                qPrintable(r.err));
        }
        // The simulated device's own figures would be dropped beside a profile, and a real device
        // ignores it: each is refused, naming both (issue 42 defect 11).
        for (const QStringList& beside :
             {QStringList{QStringLiteral("--latency-us"), QStringLiteral("5")},
              QStringList{QStringLiteral("--jitter"), QStringLiteral("0.2")},
              QStringList{QStringLiteral("--device-parallelism"), QStringLiteral("8")},
              QStringList{QStringLiteral("--io"), QStringLiteral("sync")}}) {
            const auto r =
                runLookahead(scan + QStringList{QStringLiteral("--device-profile"), slow} + beside, 60'000);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(beside.first()) && r.err.contains(QStringLiteral("--device-profile")) &&
                         r.err.count(QLatin1Char('\n')) == 1,
                     qPrintable(r.err));
        }
    }

    // A clock that would pass any run's length stops the run with an error, before it overflows: the
    // bounded figures keep a read's time to minutes, but a long run of them could still get there.
    void simulatedClockStopsBeforeOverflow() {
        SimDevice device(SimDeviceConfig{});
        device.consume(kMaxRunTimeNs);
        QVERIFY_THROWS_EXCEPTION(IoError, device.consume(1));
        SimDevice reading(SimDeviceConfig{});
        reading.consume(kMaxRunTimeNs - 1000);
        ReadRequest request;
        request.ioId = 1;
        request.nblocks = 1;
        QVERIFY_THROWS_EXCEPTION(IoError, reading.start(request));
    }

    // `lookahead calibrate` on a small real file, briefly: a profile --device-profile takes. Its
    // input is never written, not even when named as the output.
    void calibrateWritesAProfileRunsAccept() {
        QTemporaryDir dir;
        const QString input =
            la::test::writeFile(dir.filePath(QStringLiteral("input.bin")), QByteArray(8 << 20, 'x'));
        const QString out = dir.filePath(QStringLiteral("profile.json"));
        const auto calibrated =
            runLookahead({QStringLiteral("calibrate"), QStringLiteral("--file"), input,
                          QStringLiteral("--out"), out, QStringLiteral("--seconds"), QStringLiteral("0.5")},
                         120'000);
        QVERIFY2(calibrated.exitCode == 0, qPrintable(calibrated.err));
        QVERIFY(calibrated.err.contains(QStringLiteral("8 kB random reads, depth 64")));
        const std::shared_ptr<const DeviceProfile> profile = loadDeviceProfile(out.toStdString());
        QCOMPARE(profile->random.size(), std::size_t(7));
        QCOMPARE(profile->random.back().depth, 64);
        QCOMPARE(profile->sequential.size(), std::size_t(2));
        const QJsonObject written = la::test::readJson(out);
        QCOMPARE(written[QStringLiteral("file")].toString(), input);
        QVERIFY(written[QStringLiteral("machine")].toObject().contains(QStringLiteral("kernel")));
        const auto run = runLookahead({QStringLiteral("--headless"), QStringLiteral("--dataset"),
                                       QStringLiteral("seq"), QStringLiteral("--pattern-blocks"),
                                       QStringLiteral("2048"), QStringLiteral("--device-profile"), out},
                                      60'000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));

        const QByteArray before = la::test::readFile(input);
        const auto overInput =
            runLookahead({QStringLiteral("calibrate"), QStringLiteral("--file"), input,
                          QStringLiteral("--out"), input, QStringLiteral("--seconds"), QStringLiteral("0.2")},
                         60'000);
        QCOMPARE(overInput.exitCode, 2);
        QVERIFY2(overInput.err.contains(QStringLiteral("--out")), qPrintable(overInput.err));
        QVERIFY(la::test::readFile(input) == before);
    }

    void calibrateRefusesWhatItCannotMeasure() {
        QTemporaryDir dir;
        const QString small =
            la::test::writeFile(dir.filePath(QStringLiteral("small.bin")), QByteArray(65536, 'x'));
        const QString out = dir.filePath(QStringLiteral("profile.json"));
        const auto tooSmall = runLookahead(
            {QStringLiteral("calibrate"), QStringLiteral("--file"), small, QStringLiteral("--out"), out},
            60'000);
        QCOMPARE(tooSmall.exitCode, 2);
        QVERIFY2(tooSmall.err.contains(QStringLiteral("needs at least 8.0 MiB")), qPrintable(tooSmall.err));
        QVERIFY(!QFile::exists(out));
        const auto noOut = runLookahead({QStringLiteral("calibrate")}, 60'000);
        QCOMPARE(noOut.exitCode, 2);
        QVERIFY(noOut.err.contains(QStringLiteral("--out")));
    }

    // Without --file, a scratch file in the cache directory is measured and gone afterwards.
    void calibrateLeavesNoScratchFile() {
        QTemporaryDir dir;
        const QString cache = dir.filePath(QStringLiteral("cache"));
        const QString out = dir.filePath(QStringLiteral("profile.json"));
        const auto calibrated =
            runLookahead({QStringLiteral("calibrate"), QStringLiteral("--cache-dir"), cache,
                          QStringLiteral("--scratch-mib"), QStringLiteral("8"), QStringLiteral("--out"), out,
                          QStringLiteral("--seconds"), QStringLiteral("0.3")},
                         120'000);
        QVERIFY2(calibrated.exitCode == 0, qPrintable(calibrated.err));
        QVERIFY(la::test::readJson(out)[QStringLiteral("scratch_file")].toBool());
        QVERIFY(QDir(cache).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDeviceProfile)
#include "tst_device_profile.moc"
