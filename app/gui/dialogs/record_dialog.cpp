// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/dialogs/record_dialog.h"

#include "registry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMutexLocker>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

namespace la {

namespace {

const QString kServerOwn = QStringLiteral("the server's own");

// An error as rich text: PostgreSQL's "LINE n: …" and the line under it with a caret at the error's
// column are set in a fixed-pitch font, so that the caret stands under the character it points at.
// Everything else wraps as plain text.
QString errorHtml(const QString& message) {
    const QStringList lines = message.split(QLatin1Char('\n'));
    const QString fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont).family().toHtmlEscaped();
    QStringList parts;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const bool context = lines[i].startsWith(QLatin1String("LINE ")) && i + 1 < lines.size() &&
                             lines[i + 1].trimmed() == QLatin1String("^");
        if (!context) {
            parts << lines[i].toHtmlEscaped();
            continue;
        }
        parts << QStringLiteral("<pre style=\"font-family: '%1'; margin: 0\">%2\n%3</pre>")
                     .arg(fixed, lines[i].toHtmlEscaped(), lines[i + 1].toHtmlEscaped());
        ++i;
    }
    return parts.join(QStringLiteral("<br>"));
}

} // namespace

RecordDialog::RecordDialog(QString workDirectory, QWidget* parent)
    : QDialog(parent), m_workDirectory(std::move(workDirectory)), m_job(this, QStringLiteral("record")) {
    setWindowTitle(tr("Record a query"));
    const QSettings settings;
    m_conninfo = new QLineEdit(settings.value(QStringLiteral("record/conninfo")).toString(), this);
    m_conninfo->setPlaceholderText(
        tr("host=/var/run/postgresql dbname=mydb user=me (empty: the PG* variables)"));
    m_conninfo->setToolTip(
        tr("A connection string or URI, as psql takes it. A password typed here is used but "
           "never kept; better give it in the field below or in ~/.pgpass."));
    m_password = new QLineEdit(this);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("if the server asks for one (never saved)"));
    m_query = new QPlainTextEdit(settings.value(QStringLiteral("record/query")).toString(), this);
    m_query->setPlaceholderText(tr("SELECT * FROM t WHERE a <= 20000 ORDER BY a DESC"));
    m_query->setMinimumHeight(80);
    m_settings = new QLineEdit(settings.value(QStringLiteral("record/settings")).toString(), this);
    m_settings->setPlaceholderText(tr("enable_bitmapscan=off, enable_seqscan=off"));
    m_settings->setToolTip(
        tr("Settings for the query's session, NAME=VALUE separated by commas: the plan to record"));
    m_visitsQuery = new QLineEdit(settings.value(QStringLiteral("record/visits")).toString(), this);
    m_visitsQuery->setPlaceholderText(tr("optional: SQL giving the scan's ctids in visit order"));
    m_policy = new QComboBox(this);
    m_policy->addItem(kServerOwn);
    for (const PolicyEntry& entry : policyRegistry())
        m_policy->addItem(QString::fromLatin1(entry.example));
    m_cold = new QCheckBox(
        tr("Empty the relation's caches first (shared buffers from PostgreSQL 17, OS cache)"), this);
    m_cold->setChecked(settings.value(QStringLiteral("record/cold"), false).toBool());

    auto* form = new QFormLayout;
    form->addRow(tr("&Connection:"), m_conninfo);
    form->addRow(tr("&Password:"), m_password);
    form->addRow(tr("&Query:"), m_query);
    form->addRow(tr("&Settings:"), m_settings);
    form->addRow(tr("&Visits query:"), m_visitsQuery);
    form->addRow(tr("&Model:"), m_policy);
    form->addRow(QString(), m_cold);
    m_step =
        new QLabel(tr("The query runs twice: traced (every read, from the backend and its I/O workers) and "
                      "untraced (PostgreSQL's own figures). Tracing needs root or the server's OS user."),
                   this);
    m_step->setWordWrap(true);
    m_step->setTextFormat(Qt::PlainText);
    m_step->setObjectName(QStringLiteral("status"));
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0);
    m_busy->hide();
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_buttons->addButton(tr("&Record"), QDialogButtonBox::AcceptRole);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &RecordDialog::startRecording);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &RecordDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_step);
    layout->addWidget(m_busy);
    layout->addWidget(m_notes);
    layout->addWidget(m_buttons);
    resize(720, sizeHint().height());
}

RecordDialog::~RecordDialog() = default;

QString RecordDialog::status() const {
    return m_step->textFormat() == Qt::RichText
               ? QTextDocumentFragment::fromHtml(m_step->text()).toPlainText()
               : m_step->text();
}

void RecordDialog::setStatus(const QString& status, Qt::TextFormat format) {
    if (status == m_step->text() && format == m_step->textFormat())
        return;
    m_step->setTextFormat(format);
    m_step->setText(status);
    emit statusChanged();
}

RecordRequest RecordDialog::request() const {
    RecordRequest request;
    request.conninfo = m_conninfo->text().trimmed();
    request.password = m_password->text();
    request.query = m_query->toPlainText();
    for (const QString& setting : m_settings->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!setting.trimmed().isEmpty())
            request.settings << setting.trimmed();
    request.visitsQuery = m_visitsQuery->text().trimmed();
    if (m_policy->currentText() != kServerOwn)
        request.comparePolicy = m_policy->currentText();
    request.cold = m_cold->isChecked();
    request.workDirectory = m_workDirectory;
    return request;
}

void RecordDialog::startRecording() {
    if (m_job.running())
        return;
    QSettings settings;
    settings.setValue(QStringLiteral("record/conninfo"), m_conninfo->text());
    settings.setValue(QStringLiteral("record/query"), m_query->toPlainText());
    settings.setValue(QStringLiteral("record/settings"), m_settings->text());
    settings.setValue(QStringLiteral("record/visits"), m_visitsQuery->text());
    settings.setValue(QStringLiteral("record/cold"), m_cold->isChecked());
    for (QWidget* field : std::initializer_list<QWidget*>{m_conninfo, m_password, m_query, m_settings,
                                                          m_visitsQuery, m_policy, m_cold})
        field->setEnabled(false);
    m_buttons->button(QDialogButtonBox::Cancel)->setEnabled(true);
    for (QAbstractButton* button : m_buttons->buttons())
        if (m_buttons->buttonRole(button) == QDialogButtonBox::AcceptRole)
            button->setEnabled(false);
    m_busy->show();
    m_noted.clear();
    m_error.clear();
    m_currentStep = tr("starting");
    showProgress();
    const RecordRequest job = request();
    m_job.start(
        [this, job] {
            RecordCallbacks callbacks;
            callbacks.step = [this](const QString& step) {
                const QMutexLocker lock(&m_mutex);
                m_currentStep = step;
            };
            callbacks.note = [this](const QString& note) {
                const QMutexLocker lock(&m_mutex);
                m_noted << note;
            };
            callbacks.cancel = m_job.cancelFlag();
            try {
                Recording recording = recordQuery(job, callbacks);
                const QMutexLocker lock(&m_mutex);
                m_recording = std::move(recording);
            } catch (const RecordError& error) {
                const QMutexLocker lock(&m_mutex);
                m_error = error.message();
            }
        },
        [this] { showProgress(); }, [this] { finishRecording(); });
}

void RecordDialog::showProgress() {
    QString step;
    {
        const QMutexLocker lock(&m_mutex);
        step = m_currentStep;
        m_notes->setText(m_noted.join(QLatin1Char('\n')));
    }
    setStatus(tr("Recording: %1…").arg(step)); // not under the lock: it signals
}

void RecordDialog::finishRecording() {
    showProgress();
    m_busy->hide();
    const bool cancelled = m_job.cancelFlag()->load();
    for (QWidget* field : std::initializer_list<QWidget*>{m_conninfo, m_password, m_query, m_settings,
                                                          m_visitsQuery, m_policy, m_cold})
        field->setEnabled(true);
    for (QAbstractButton* button : m_buttons->buttons())
        button->setEnabled(true);
    if (cancelled) {
        setStatus(tr("Cancelled: the query was stopped, the tracer detached and the server left as it was."));
        return;
    }
    if (!m_error.isEmpty()) {
        setStatus(errorHtml(tr("Could not record: %1").arg(m_error)), Qt::RichText);
        return;
    }
    setStatus(tr("Recorded."));
    emit recorded(m_recording);
    accept();
}

void RecordDialog::reject() {
    // Cancel while recording stops the recording; the dialog stays to say how it ended.
    if (m_job.running()) {
        m_job.cancel();
        setStatus(tr("Cancelling: stopping the query and detaching the tracer…"));
        return;
    }
    QDialog::reject();
}

} // namespace la
