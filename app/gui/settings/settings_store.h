// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run.h"

#include <QMap>
#include <QString>

class QSettings;

namespace la {

// The run setup as the user left it, kept in QSettings between sessions.
void saveRunConfig(QSettings& settings, const RunConfig& config);
// Fields missing from `settings` keep their value in `defaults`.
RunConfig loadRunConfig(const QSettings& settings, const RunConfig& defaults);

// What was typed in the PostgreSQL index dialog (option name → text as typed), kept per data
// directory ("" when the files were given without one), and the data directory typed last.
using TypedFields = QMap<QString, QString>;
void savePgIndexFields(QSettings& settings, const QString& dataDir, const TypedFields& fields);
TypedFields loadPgIndexFields(const QSettings& settings, const QString& dataDir);
QString lastPgDataDir(const QSettings& settings);

// The configuration the window opens with the first time: PostgreSQL 18's defaults and real I/O on a
// dataset that shows the distance collapse, with PG19 as B, so one click on Run shows it.
RunConfig firstLaunchConfig();

} // namespace la
