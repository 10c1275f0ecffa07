// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/settings_store.h"

#include "input_error.h"
#include "run_options.h"

#include <QSettings>

namespace la {

namespace {

QString key(const RunOption& option) {
    return QStringLiteral("run/") +
           QString::fromUtf8(option.settingsKey.data(), qsizetype(option.settingsKey.size()));
}

} // namespace

void saveRunConfig(QSettings& s, const RunConfig& c) {
    for (const RunOption& option : runOptions())
        s.setValue(key(option), QString::fromStdString(option.get(c)));
}

RunConfig loadRunConfig(const QSettings& s, const RunConfig& defaults) {
    RunConfig c = defaults;
    for (const RunOption& option : runOptions()) {
        const QVariant saved = s.value(key(option));
        const std::string value = saved.toString().toStdString();
        if (!saved.isValid() || (value.empty() && option.kind != OptionKind::Text))
            continue; // not saved, or saved unset: the default is unset too
        try {
            setRunOption(c, option, value);
        } catch (const InputError&) {
            // Saved by another version, or edited by hand: the default stands.
        }
    }
    return c;
}

RunConfig firstLaunchConfig() {
    RunConfig c = defaultRunConfig();
    c.comparePolicy = "pg19";
    // The app scans real files with real reads (the engine falls back to the worker pool where
    // io_uring is blocked); the command line keeps the simulator as its default.
    c.io = IoMode::IoUring;
    return c;
}

} // namespace la
