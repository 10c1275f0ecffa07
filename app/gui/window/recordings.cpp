// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/recordings.h"

#include "gui/dialogs/record_dialog.h"
#include "gui/window/window_dialogs.h"
#include "input_error.h"

#include <QMenu>
#include <QTemporaryDir>

namespace la {

Recordings::Recordings(WindowDialogs& dialogs, QObject* parent) : QObject(parent), m_dialogs(dialogs) {}

Recordings::~Recordings() = default;

void Recordings::addFileActions(QMenu* file) {
    QAction* record = file->addAction(tr("&Record a query on a server…"), this, &Recordings::openDialog);
    record->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    record->setToolTip(tr("Run a query on a live PostgreSQL server, trace its reads and show them beside "
                          "the model of the same visits"));
}

void Recordings::openDialog() {
    if (m_dialog) {
        m_dialog->raise();
        return;
    }
    m_directory = std::make_unique<QTemporaryDir>();
    if (!m_directory->isValid()) {
        m_dialogs.showError(tr("Cannot record a query"),
                            tr("No temporary directory for the trace: %1").arg(m_directory->errorString()));
        return;
    }
    auto* dialog = new RecordDialog(m_directory->path(), m_dialogs.window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RecordDialog::recorded, this, &Recordings::onRecorded);
    m_dialog = dialog;
    dialog->open();
}

void Recordings::onRecorded(const Recording& recording) {
    std::vector<std::string> args;
    for (const QString& arg : recording.replayArgs)
        args.push_back(arg.toStdString());
    args.emplace_back("--run");
    CliOptions options;
    try {
        options = parseCommandLine(args);
    } catch (const InputError& error) {
        m_dialogs.showError(tr("Cannot replay the recording"), QString::fromStdString(error.what()));
        return;
    }
    m_shown = std::move(m_directory);
    m_recorded = recording.recorded;
    m_tracePath = QString::fromStdString(options.importTrace);
    m_key.clear();
    options.recorded = m_recorded;
    m_dialogs.showStatus(tr("Recorded on PostgreSQL %1: %2")
                             .arg(m_recorded.value(QStringLiteral("server_version")).toString(),
                                  m_recorded.value(QStringLiteral("query")).toString().simplified()),
                         30000);
    emit replay(options);
}

QString recordedNote(const QJsonObject& recorded) {
    if (recorded.isEmpty())
        return {};
    const QJsonObject overhead = recorded.value(QStringLiteral("tracing_overhead")).toObject();
    const QString cost = overhead.contains(QStringLiteral("ratio"))
                             ? Recordings::tr("tracing cost %1×")
                                   .arg(overhead.value(QStringLiteral("ratio")).toDouble(), 0, 'f', 2)
                             : Recordings::tr("tracing cost not measured");
    return Recordings::tr("Recorded on PostgreSQL %1 with %2%3; %4")
        .arg(recorded.value(QStringLiteral("server_version")).toString().section(QLatin1Char(' '), 0, 0),
             recorded.value(QStringLiteral("tracer")).toString(),
             recorded.value(QStringLiteral("cold")).toBool() ? Recordings::tr(", cold") : QString(), cost);
}

QString recordedDetails(const QJsonObject& recorded) {
    if (recorded.isEmpty())
        return {};
    const QJsonObject overhead = recorded.value(QStringLiteral("tracing_overhead")).toObject();
    const QString cost = overhead.contains(QStringLiteral("ratio"))
                             ? Recordings::tr("The query ran %1 ms traced, %2 ms untraced.")
                                   .arg(overhead.value(QStringLiteral("traced_ms")).toDouble(), 0, 'f', 1)
                                   .arg(overhead.value(QStringLiteral("untraced_ms")).toDouble(), 0, 'f', 1)
                             : Recordings::tr("It ran once, traced: %1.")
                                   .arg(overhead.value(QStringLiteral("why")).toString());
    return QStringLiteral("%1\n%2\n%3")
        .arg(recorded.value(QStringLiteral("connection")).toString(),
             recorded.value(QStringLiteral("query")).toString(), cost);
}

QJsonObject Recordings::recordedFor(const QString& tracePath) const {
    return !m_tracePath.isEmpty() && tracePath == m_tracePath ? m_recorded : QJsonObject();
}

void Recordings::attach(Experiment& experiment, std::string (*keyOf)(const Experiment&)) const {
    if (m_recorded.isEmpty() || experiment.runs.empty())
        return;
    const RunVariant& first = experiment.runs.front();
    const bool same = first.observed
                          ? !m_tracePath.isEmpty() && QString::fromStdString(first.tracePath) == m_tracePath
                          : m_tracePath.isEmpty() && !m_key.empty() && keyOf(experiment) == m_key;
    if (same)
        experiment.recorded = m_recorded;
}

} // namespace la
