// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/cli_options.h"
#include "gui/dialogs/record_dialog.h"
#include "record/recorder.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <memory>
#include <string>

class QMenu;
class QTemporaryDir;

namespace la {

class WindowDialogs;

// File → Record a query: the dialog, the directory its recording's files live in while the window
// uses them, and what was recorded, which the experiments that replay it carry (Experiment::recorded)
// into the summary JSON and the session.
class Recordings : public QObject {
    Q_OBJECT
public:
    Recordings(WindowDialogs& dialogs, QObject* parent = nullptr);
    ~Recordings() override;

    void addFileActions(QMenu* file);
    void openDialog();
    RecordDialog* dialog() const { return m_dialog; }

    // After a replay without a trace is set up: the experiment `key` (as the window keys experiments)
    // is the recording's.
    void rememberReplay(std::string key) { m_key = std::move(key); }
    // A saved recording was opened: the runs that replay it (its trace `tracePath`, or else the key
    // rememberReplay() is given next) carry `recorded` as the recording's own replay does.
    void adopt(QJsonObject recorded, QString tracePath) {
        m_recorded = std::move(recorded);
        m_tracePath = std::move(tracePath);
        m_key.clear();
    }
    // The latest recording, if `tracePath` is its trace; else empty.
    QJsonObject recordedFor(const QString& tracePath) const;
    // Puts the recording in `experiment` if it replays the latest one: the same trace, or the same
    // key (`keyOf` is called only for a replay without a trace).
    void attach(Experiment& experiment, std::string (*keyOf)(const Experiment&)) const;

signals:
    // The window's command line that replays the recording (--import-trace … --run).
    void replay(const CliOptions& options);

private:
    void onRecorded(const Recording& recording);

    WindowDialogs& m_dialogs;
    QPointer<RecordDialog> m_dialog;
    std::unique_ptr<QTemporaryDir> m_directory; // the latest recording's; the next one's while recording
    std::unique_ptr<QTemporaryDir> m_shown;     // the one the window replays
    QJsonObject m_recorded;
    QString m_tracePath;
    std::string m_key;
};

// What a recording says of itself, for the panel: one line (server, tracer, tracing cost), and its
// connection, query and tracing cost in full for the line's tooltip. Empty for no recording.
QString recordedNote(const QJsonObject& recorded);
QString recordedDetails(const QJsonObject& recorded);

} // namespace la
