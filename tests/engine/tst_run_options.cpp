// SPDX-License-Identifier: GPL-3.0-or-later
// The option table is the one place options are defined: every option reads back what it was set
// to, the checks before a run are the command line's, and the stream's derived settings follow
// the run's (shared_buffers back to "auto" leaves no stale value).
#include "input_error.h"
#include "prewarm.h"
#include "run.h"
#include "run_options.h"

#include <QTest>

#include <set>

using namespace la;

class TestRunOptions : public QObject {
    Q_OBJECT
private slots:
    void namesAndKeysAreUnique();
    void everyOptionRoundTrips();
    void outOfRangeIsRefusedEverywhere();
    void derivedStreamSettingsFollowTheRun();
    void helpSaysTheDefaultRunsValues();
};

void TestRunOptions::namesAndKeysAreUnique() {
    std::set<std::string_view> names, settings, json;
    for (const RunOption& o : runOptions()) {
        QVERIFY2(names.insert(o.name).second, o.name.data());
        QVERIFY2(settings.insert(o.settingsKey).second, o.settingsKey.data());
        QVERIFY2(json.insert(o.jsonKey).second, o.jsonKey.data());
        QVERIFY2(!o.help.empty(), o.name.data());
    }
    QCOMPARE(names.size(), runOptions().size());
}

// The help's defaults are the default run's values, whatever RunConfig's defaults become.
void TestRunOptions::helpSaysTheDefaultRunsValues() {
    for (const RunOption& o : runOptions())
        QVERIFY2(o.help.find("{default}") == std::string::npos, o.name.data());
    const RunConfig defaults = defaultRunConfig();
    QVERIFY(findRunOption("eic")->help.find("(default " +
                                            std::to_string(defaults.stream.effectiveIoConcurrency) + ")") !=
            std::string::npos);
    QVERIFY(findRunOption("collapse-window")
                ->help.find("(default " + std::to_string(defaults.collapseWindow) + ")") !=
            std::string::npos);
    QVERIFY(findRunOption("policy")->help.find("(default " + defaults.policy + ")") != std::string::npos);
    QVERIFY(runOptionHelp("Read stream")
                .find("effective_io_concurrency (default " +
                      std::to_string(defaults.stream.effectiveIoConcurrency) + ")") != std::string::npos);
}

void TestRunOptions::everyOptionRoundTrips() {
    for (const RunOption& o : runOptions()) {
        std::string value;
        switch (o.kind) {
        case OptionKind::Flag:
            value = "true";
            break;
        case OptionKind::Whole:
            value = std::to_string(o.maxWhole);
            break;
        case OptionKind::Real:
            value = "0.5";
            break;
        case OptionKind::Text:
            // --miss-spacing, the index batches and the stream flags check their forms (runs:L, ring:N,
            // a list of flags) without a list of choices.
            value = o.name == "miss-spacing"            ? "runs:4"
                    : o.name.ends_with("index-batches") ? "ring:16"
                    : o.name == "stream-flags"          ? "full,batching"
                    : o.choices.empty()                 ? "some-value"
                                                        : std::string(o.choices.back());
            break;
        }
        RunConfig config;
        setRunOption(config, o, value);
        QCOMPARE(QString::fromStdString(o.get(config)), QString::fromStdString(value));
    }
}

void TestRunOptions::outOfRangeIsRefusedEverywhere() {
    RunConfig config;
    try {
        setRunOption(config, *findRunOption("eic"), "5000");
        QFAIL("eic 5000 accepted");
    } catch (const InputError& error) {
        QCOMPARE(QString::fromUtf8(error.what()),
                 QStringLiteral("--eic '5000': expected a whole number 0..1000"));
    }
    try {
        setRunOption(config, *findRunOption("miss-spacing"), "runs:0");
        QFAIL("runs:0 accepted");
    } catch (const InputError& error) {
        QCOMPARE(QString::fromUtf8(error.what()),
                 QStringLiteral(
                     "--miss-spacing 'runs:0': expected even, runs:L (L = 1..1000000) or random[:SEED]"));
    }
    // The two miss options compose one cache state, in either order.
    RunConfig misses;
    setRunOption(misses, *findRunOption("miss-spacing"), "runs:8");
    setRunOption(misses, *findRunOption("miss-fraction"), "12.5");
    QCOMPARE(QString::fromStdString(misses.prewarm), QStringLiteral("misses:12.5:runs:8"));
    // 25 % in runs of 4: every fourth run of four blocks is missing, the first at blocks 12-15.
    const PrewarmSpec runs = PrewarmSpec::parse("misses:25:runs:4");
    std::string layout;
    for (std::uint32_t b = 0; b < 32; ++b)
        layout += runs.contains(b) ? '.' : 'M';
    QCOMPARE(QString::fromStdString(layout), QStringLiteral("............MMMM............MMMM"));
    const PrewarmSpec even = PrewarmSpec::parse("misses:10:even");
    std::uint32_t cached = 0;
    for (std::uint32_t b = 0; b < 1000; ++b)
        cached += even.contains(b) ? 1 : 0;
    QCOMPARE(cached, 900U);
    QVERIFY_THROWS_EXCEPTION(InputError, PrewarmSpec::parse("misses:101:even"));
    QVERIFY_THROWS_EXCEPTION(InputError, PrewarmSpec::parse("misses:5:sparse"));
    // Built in code, not parsed: the same check before the run.
    RunConfig tooMuchConcurrency;
    tooMuchConcurrency.stream.effectiveIoConcurrency = 5000;
    QVERIFY_THROWS_EXCEPTION(InputError, validateRunConfig(tooMuchConcurrency));
    RunConfig tooMuchJitter;
    tooMuchJitter.device.jitter = 2.0;
    QVERIFY_THROWS_EXCEPTION(InputError, validateRunConfig(tooMuchJitter));
    validateRunConfig(config);
    // One spelling, the earlier one still understood.
    setRunOption(config, *findRunOption("io"), "uring");
    QCOMPARE(QString::fromStdString(findRunOption("io")->get(config)), QStringLiteral("io_uring"));
}

void TestRunOptions::derivedStreamSettingsFollowTheRun() {
    RunConfig config;
    config.poolBlocks = 4096;
    QCOMPARE(streamConfigFor(config).sharedBuffers, std::uint64_t{4096});
    config.poolBlocks = 0; // "auto" again
    QCOMPARE(streamConfigFor(config).sharedBuffers, StreamConfig{}.sharedBuffers);
    QCOMPARE(streamConfigFor(config).directIo, false); // the simulated device: buffered
    config.io = IoMode::Worker;
    QCOMPARE(streamConfigFor(config).directIo, true); // real I/O: O_DIRECT
    QCOMPARE(streamConfigFor(config).ioMethod, IoMethod::Worker);
    config.directIo = false;
    QCOMPARE(streamConfigFor(config).directIo, false);
}

QTEST_GUILESS_MAIN(TestRunOptions)
#include "tst_run_options.moc"
