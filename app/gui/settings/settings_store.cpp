// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/settings/settings_store.h"

#include "input_error.h"
#include "run_options.h"

#include <QSettings>

namespace la {

namespace {

QString key(const RunOption& option) {
    return QStringLiteral("run/") +
           QString::fromUtf8(option.settingsKey.data(), qsizetype(option.settingsKey.size()));
}

// A data directory as one key component: its path has slashes, which QSettings takes for groups.
QString pgIndexGroup(const QString& dataDir) {
    return QStringLiteral("pgIndex/dir-") + QString::fromLatin1(dataDir.toUtf8().toHex());
}

} // namespace

void savePgIndexFields(QSettings& s, const QString& dataDir, const TypedFields& fields) {
    QVariantMap saved;
    for (auto it = fields.begin(); it != fields.end(); ++it)
        saved.insert(it.key(), it.value());
    s.setValue(pgIndexGroup(dataDir), saved);
    s.setValue(QStringLiteral("pgIndex/lastDataDir"), dataDir);
}

TypedFields loadPgIndexFields(const QSettings& s, const QString& dataDir) {
    TypedFields fields;
    const QVariantMap saved = s.value(pgIndexGroup(dataDir)).toMap();
    for (auto it = saved.begin(); it != saved.end(); ++it)
        fields.insert(it.key(), it.value().toString());
    return fields;
}

QString lastPgDataDir(const QSettings& s) {
    return s.value(QStringLiteral("pgIndex/lastDataDir")).toString();
}

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
