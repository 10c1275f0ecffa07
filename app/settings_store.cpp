// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings_store.h"

#include "cli_options.h"

#include <QSettings>

namespace la {

namespace {

QString key(const char* name) {
    return QStringLiteral("run/") + QLatin1String(name);
}

template <typename T> void load(const QSettings& settings, const char* name, T& value) {
    const QVariant v = settings.value(key(name));
    if (v.isValid() && v.canConvert<T>())
        value = v.value<T>();
}

void loadString(const QSettings& settings, const char* name, std::string& value) {
    const QVariant v = settings.value(key(name));
    if (v.isValid())
        value = v.toString().toStdString();
}

} // namespace

void saveRunConfig(QSettings& s, const RunConfig& c) {
    s.setValue(key("dataset"), QString::fromStdString(c.dataset.name));
    s.setValue(key("scale"), c.dataset.scale);
    s.setValue(key("patternBlocks"), static_cast<qulonglong>(c.dataset.blocks));
    s.setValue(key("backward"), c.dataset.direction == Direction::Backward);
    s.setValue(key("blockList"), QString::fromStdString(c.blockList));
    s.setValue(key("file"), QString::fromStdString(c.file));
    s.setValue(key("policy"), QString::fromStdString(c.policy));
    s.setValue(key("comparePolicy"), QString::fromStdString(c.comparePolicy));
    s.setValue(key("io"), QString::fromStdString(c.io));
    s.setValue(key("simIoMethod"), static_cast<int>(c.stream.ioMethod));
    s.setValue(key("directIo"), c.directIo);
    s.setValue(key("eic"), c.stream.effectiveIoConcurrency);
    s.setValue(key("ioCombineLimit"), c.stream.ioCombineLimit);
    s.setValue(key("sharedBuffers"), static_cast<qulonglong>(c.poolBlocks));
    s.setValue(key("prewarm"), QString::fromStdString(c.prewarm));
    s.setValue(key("consumerNs"), static_cast<qlonglong>(c.consumerNs));
    s.setValue(key("resetEvery"), static_cast<qulonglong>(c.resetEvery));
    s.setValue(key("restoreAfterReset"), c.stream.restoreAfterReset);
    s.setValue(key("backwardCombining"), c.stream.backwardCombining);
}

RunConfig loadRunConfig(const QSettings& s, const RunConfig& defaults) {
    RunConfig c = defaults;
    loadString(s, "dataset", c.dataset.name);
    load(s, "scale", c.dataset.scale);
    qulonglong patternBlocks = c.dataset.blocks;
    load(s, "patternBlocks", patternBlocks);
    c.dataset.blocks = patternBlocks;
    bool backward = c.dataset.direction == Direction::Backward;
    load(s, "backward", backward);
    c.dataset.direction = backward ? Direction::Backward : Direction::Forward;
    loadString(s, "blockList", c.blockList);
    loadString(s, "file", c.file);
    loadString(s, "policy", c.policy);
    loadString(s, "comparePolicy", c.comparePolicy);
    loadString(s, "io", c.io);
    int simIoMethod = static_cast<int>(c.stream.ioMethod);
    load(s, "simIoMethod", simIoMethod);
    if (simIoMethod >= 0 && simIoMethod <= static_cast<int>(IoMethod::IoUring))
        c.stream.ioMethod = static_cast<IoMethod>(simIoMethod);
    load(s, "directIo", c.directIo);
    load(s, "eic", c.stream.effectiveIoConcurrency);
    load(s, "ioCombineLimit", c.stream.ioCombineLimit);
    qulonglong pool = c.poolBlocks;
    load(s, "sharedBuffers", pool);
    c.poolBlocks = pool;
    if (c.poolBlocks > 0)
        c.stream.sharedBuffers = c.poolBlocks;
    loadString(s, "prewarm", c.prewarm);
    qlonglong consumer = c.consumerNs;
    load(s, "consumerNs", consumer);
    c.consumerNs = consumer;
    qulonglong resetEvery = c.resetEvery;
    load(s, "resetEvery", resetEvery);
    c.resetEvery = resetEvery;
    load(s, "restoreAfterReset", c.stream.restoreAfterReset);
    load(s, "backwardCombining", c.stream.backwardCombining);
    return c;
}

RunConfig firstLaunchConfig() {
    RunConfig c = parseCommandLine({}).run;
    c.comparePolicy = "pg19";
    // The app scans real files with real reads (the engine falls back to the worker pool where
    // io_uring is blocked); the command line keeps the simulator as its default.
    c.io = "uring";
    return c;
}

} // namespace la
