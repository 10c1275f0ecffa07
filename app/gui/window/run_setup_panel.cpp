// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/window/run_setup_panel.h"

#include "gui/controls/dataset_cache_view.h"
#include "gui/controls/eliding_combo.h"
#include "gui/controls/option_editor.h"
#include "gui/dialogs/calibrate_dialog.h"
#include "gui/dialogs/dataset_picker.h"
#include "gui/settings/setting_words.h"
#include "input_error.h"
#include "pg/index_batches.h"
#include "registry.h"
#include "run_options.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <string_view>
#include <utility>

namespace la {

namespace {

QComboBox* editableCombo(QWidget* parent, const QStringList& items, const QString& placeholder = {}) {
    auto* combo = new QComboBox(parent);
    combo->setEditable(true);
    combo->addItems(items);
    combo->setInsertPolicy(QComboBox::NoInsert);
    if (!placeholder.isEmpty())
        combo->lineEdit()->setPlaceholderText(placeholder);
    return combo;
}

// The policies the registry lists, each by a name that runs as it stands.
QStringList policyNames() {
    QStringList names;
    for (const PolicyEntry& entry : policyRegistry())
        names << QString::fromUtf8(entry.example);
    return names;
}

QString policyTooltip() {
    QString text;
    for (const PolicyEntry& entry : policyRegistry())
        text += QStringLiteral("%1%2: %3")
                    .arg(text.isEmpty() ? QString() : QStringLiteral("\n"), QString::fromUtf8(entry.name),
                         QString::fromUtf8(entry.description));
    return text;
}

QSpinBox* spin(QWidget* parent, int lo, int hi, const QString& special = {}, const QString& suffix = {}) {
    auto* box = new QSpinBox(parent);
    box->setRange(lo, hi);
    box->setSpecialValueText(special);
    box->setSuffix(suffix);
    box->setGroupSeparatorShown(true);
    return box;
}

// A spin box with the option's range and help (run_options.h); `special` names 0 ("auto", "never").
QSpinBox* spinFor(QWidget* parent, std::string_view option, const QString& special = {},
                  const QString& suffix = {}) {
    const RunOption& o = *findRunOption(option);
    constexpr std::uint64_t kIntMax = 2'000'000'000; // a QSpinBox holds an int
    QSpinBox* box = spin(parent, special.isEmpty() ? int(std::min(o.minWhole, kIntMax)) : 0,
                         int(std::min(o.maxWhole, kIntMax)), special, suffix);
    box->setToolTip(QString::fromUtf8(o.help.data(), qsizetype(o.help.size()))
                        .replace(QLatin1Char('\n'), QLatin1Char(' ')));
    return box;
}

QGroupBox* group(QWidget* parent, const QString& title, QLayout* layout) {
    auto* box = new QGroupBox(title, parent);
    box->setLayout(layout);
    return box;
}

std::string text(const QComboBox* combo) {
    return combo->currentText().trimmed().toStdString();
}

// What a user tunes less often, in the window as on the command line: the simulated device, the
// worker pool, the seed, the stream's pin limit, the buffer strategy and the collapse rule. Each is one
// option of the table, labelled as the window words it (setting_words.h).
constexpr std::string_view kAdvancedOptions[] = {
    "latency-us",
    "device-parallelism",
    "jitter",
    "device-profile",
    "io-workers",
    "io-min-workers",
    "io-max-workers",
    "io-worker-launch-interval",
    "io-worker-idle-timeout",
    "seed",
    "max-pinned",
    "strategy",
    "relation-blocks",
    "stream-flags",
    "maintenance-io-concurrency",
    "other-pins",
    "collapse-window",
    "shown-stream",
};

// The window's label of an option of the table.
QString labelOf(std::string_view option) {
    return settingLabel(QString::fromLatin1(option.data(), qsizetype(option.size())));
}

const char* const kIoMethods[][2] = {
    {"io_uring", "io_uring (real I/O)"},
    {"worker", "worker pool (real I/O)"},
    {"sync", "sync (real I/O)"},
    {"sim", "simulated device"},
};

} // namespace

RunSetupPanel::RunSetupPanel(QWidget* parent)
    : QWidget(parent), m_dataset(new DatasetPicker(this)), m_policyA(editableCombo(this, policyNames())),
      m_policyB(editableCombo(this, QStringList{QString()} + policyNames(), tr("none (no comparison)"))),
      m_eic(spinFor(this, "eic")), m_ioCombineLimit(spinFor(this, "io-combine-limit", {}, tr(" blocks"))),
      m_sharedBuffers(spinFor(this, "shared-buffers", tr("auto"), tr(" blocks"))),
      m_prewarm(editableCombo(this, {QString(), QStringLiteral("none"), QStringLiteral("all"),
                                     QStringLiteral("every:2"), QStringLiteral("except-every:16"),
                                     QStringLiteral("fraction:0.5:1")})),
      m_consumerNs(spinFor(this, "consumer-ns", {}, tr(" ns/block"))),
      m_resetEvery(spinFor(this, "reset-every", tr("never"))),
      m_restoreAfterReset(new QCheckBox(tr("Restore distance after reset"), this)),
      m_backwardCombining(new QCheckBox(tr("Backward combining (what if)"), this)),
      m_ioMethod(new QComboBox(this)), m_simBehaviour(new QComboBox(this)),
      m_directIo(new QCheckBox(tr("Direct I/O (O_DIRECT)"), this)),
      m_coldOsCache(new QCheckBox(tr("Evict the file from the OS cache first"), this)),
      m_cacheView(new DatasetCacheView(this)), m_run(new QPushButton(tr("Run"), this)),
      m_stop(new QPushButton(tr("Stop"), this)), m_progress(new QProgressBar(this)),
      m_status(new QLabel(this)) {
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run, 1);
    buttons->addWidget(m_stop, 1);
    m_run->setToolTip(tr("Run (Ctrl+R)"));
    m_stop->setToolTip(tr("Stop (Esc)"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    // An empty bar looks like a text field: hidden until a run shows progress, its space kept.
    QSizePolicy keepSpace = m_progress->sizePolicy();
    keepSpace.setRetainSizeWhenHidden(true);
    m_progress->setSizePolicy(keepSpace);
    m_progress->setVisible(false);
    m_status->setWordWrap(true);

    auto* datasetLayout = new QVBoxLayout;
    datasetLayout->addWidget(m_dataset);
    // Run, Stop and the progress first: they are what a user looks for during a run.
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buildTraceGroup());
    layout->addWidget(buildPgGroup());
    layout->addWidget(group(this, tr("Dataset"), datasetLayout));
    layout->addWidget(buildPolicyGroup());
    layout->addWidget(buildStreamGroup());
    layout->addWidget(buildIoGroup());
    layout->addWidget(buildAdvancedGroup());
    layout->addStretch(1);

    connect(m_run, &QPushButton::clicked, this, &RunSetupPanel::runRequested);
    connect(m_stop, &QPushButton::clicked, this, &RunSetupPanel::stopRequested);
    connect(m_ioMethod, &QComboBox::currentIndexChanged, this, &RunSetupPanel::ioMethodChanged);
    connect(m_compare, &QComboBox::currentIndexChanged, this, &RunSetupPanel::comparisonChanged);
    // B's description follows what it is made of: A's policy, the direction, backward combining.
    connect(m_policyA, &QComboBox::currentTextChanged, this, &RunSetupPanel::describeB);
    connect(m_backwardCombining, &QCheckBox::toggled, this, &RunSetupPanel::describeB);
    for (QComboBox* choice : m_dataset->findChildren<QComboBox*>())
        connect(choice, &QComboBox::currentIndexChanged, this, &RunSetupPanel::describeB);
    // An empty prewarm names the cache state it stands for, which the dataset or a block list decides.
    m_prewarm->setObjectName(QStringLiteral("prewarm"));
    connect(m_prewarm, &QComboBox::currentTextChanged, this, &RunSetupPanel::describePrewarm);
    const auto nameDefaultPrewarm = [this] {
        m_prewarm->lineEdit()->setPlaceholderText(m_dataset->defaultPrewarm());
    };
    connect(m_dataset, &DatasetPicker::changed, this, nameDefaultPrewarm);
    nameDefaultPrewarm();
    setComparison(Comparison::Policy);
    setRunning(false);
}

QWidget* RunSetupPanel::buildPolicyGroup() {
    m_compare = new QComboBox(this);
    m_compare->addItem(tr("no comparison"), static_cast<int>(Comparison::None));
    m_compare->addItem(tr("B: another policy"), static_cast<int>(Comparison::Policy));
    m_compare->addItem(tr("B: the other direction"), static_cast<int>(Comparison::Direction));
    m_compare->addItem(tr("B: backward combining toggled"), static_cast<int>(Comparison::BackwardCombining));
    m_compare->addItem(tr("B: other index batching"), static_cast<int>(Comparison::IndexBatches));
    m_compare->addItem(tr("B: distance restored after reset toggled"),
                       static_cast<int>(Comparison::RestoreAfterReset));
    m_compare->setToolTip(
        tr("B runs after A on the same dataset and cache state, shown with identical axes"));
    m_policies = new QFormLayout;
    // With an imported trace A is what the server did, not a policy: the row says so instead.
    m_traceA = new QLabel(tr("the imported trace (what the server did)"), this);
    m_traceA->setWordWrap(true);
    m_policies->addRow(labelOf("policy"), m_policyA);
    m_policies->addRow(tr("A"), m_traceA);
    m_policies->addRow(tr("Compare"), m_compare);
    m_policies->addRow(labelOf("compare-policy"), m_policyB);
    m_policies->setRowVisible(m_traceA, false);
    m_policyA->setToolTip(policyTooltip());
    return group(this, tr("Policies"), m_policies);
}

QWidget* RunSetupPanel::buildStreamGroup() {
    auto* form = new QFormLayout;
    for (const auto& [option, field] : {std::pair<std::string_view, QWidget*>{"eic", m_eic},
                                        {"io-combine-limit", m_ioCombineLimit},
                                        {"shared-buffers", m_sharedBuffers},
                                        {"prewarm", m_prewarm},
                                        {"consumer-ns", m_consumerNs},
                                        {"reset-every", m_resetEvery}})
        form->addRow(labelOf(option), field);
    form->addRow(m_restoreAfterReset);
    form->addRow(m_backwardCombining);
    m_resetEvery->setSuffix(tr(" blocks"));
    return group(this, tr("Read stream"), form);
}

QWidget* RunSetupPanel::buildIoGroup() {
    for (const auto& [key, label] : kIoMethods)
        m_ioMethod->addItem(tr(label), QString::fromLatin1(key));
    m_simBehaviour->addItem(tr("like io_method=worker"), static_cast<int>(IoMethod::Worker));
    m_simBehaviour->addItem(tr("like io_method=io_uring"), static_cast<int>(IoMethod::IoUring));
    m_simBehaviour->addItem(tr("like io_method=sync"), static_cast<int>(IoMethod::Sync));
    auto* form = new QFormLayout;
    form->addRow(labelOf("io"), m_ioMethod);
    form->addRow(labelOf("sim-io-method"), m_simBehaviour);
    form->addRow(m_directIo);
    form->addRow(m_coldOsCache);
    form->addRow(m_cacheView);
    return group(this, tr("I/O"), form);
}

RunSetupPanel::~RunSetupPanel() = default;

QWidget* RunSetupPanel::buildTraceGroup() {
    m_traceText = new QLabel(this);
    m_traceText->setWordWrap(true);
    m_relation =
        new ElidingComboBox(tr("The file whose reads are shown and modelled; the trace is read again"), this);
    // Relation paths are long: the combo must not widen the panel beyond its dock.
    m_relation->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_relation->setMinimumContentsLength(16);
    m_visits = new QComboBox(this);
    m_visits->addItem(tr("the blocks the trace read"), false);
    m_visits->addItem(tr("the scan set up below"), true);
    m_visits->setToolTip(
        tr("What the model visits, in order. The scan set up below: the PostgreSQL index scan (File → Open "
           "PostgreSQL index), else the block list, else the dataset's pattern over the traced relation; "
           "the blocks the trace read are then misses and the others hits. The blocks the trace read: "
           "only the server's reads, every one a miss."));
    m_backend = new QSpinBox(this);
    m_backend->setRange(0, std::numeric_limits<int>::max());
    m_backend->setSpecialValueText(tr("the only reader"));
    m_backend->setToolTip(
        tr("The process that ran the scan: its own reads are its waits. With I/O workers "
           "reading too, give the backend's pid (SELECT pg_backend_pid()); the trace is read "
           "again"));
    m_explain = new QLineEdit(this);
    m_explain->setPlaceholderText(tr("none"));
    m_explain->setToolTip(
        tr("The query's EXPLAIN (ANALYZE, BUFFERS[, IO]) output, text or JSON: the server's "
           "own figures for the scan beside the model's, and on PostgreSQL 19 its waits"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("EXPLAIN output"), m_explain->text(),
                                                          tr("EXPLAIN output (*.txt *.json);;Any file (*)"));
        if (!file.isEmpty())
            m_explain->setText(file);
    });
    auto* explainRow = new QHBoxLayout;
    explainRow->addWidget(m_explain, 1);
    explainRow->addWidget(browse);
    auto* close = new QPushButton(tr("Close trace"), this);
    m_recordedNote = new QLabel(this);
    m_recordedNote->setWordWrap(true);
    m_recordedNote->setVisible(false);
    auto* form = new QFormLayout;
    form->addRow(m_traceText);
    form->addRow(m_recordedNote);
    form->addRow(labelOf("trace-relation"), m_relation);
    form->addRow(tr("Model visits"), m_visits);
    form->addRow(labelOf("trace-backend"), m_backend);
    form->addRow(labelOf("explain"), explainRow);
    form->addRow(close);
    m_traceGroup = group(this, tr("Imported trace"), form);
    m_traceGroup->setVisible(false);
    connect(m_relation, &QComboBox::activated, this,
            [this](int index) { emit relationChosen(m_relation->itemData(index).toString()); });
    connect(close, &QPushButton::clicked, this, &RunSetupPanel::closeTraceRequested);
    connect(m_visits, &QComboBox::currentIndexChanged, this, &RunSetupPanel::visitsChanged);
    connect(m_backend, &QSpinBox::editingFinished, this, [this] {
        if (m_relation->count() > 0)
            emit relationChosen(m_relation->currentData().toString());
    });
    return m_traceGroup;
}

QString RunSetupPanel::explainPath() const {
    return m_explain->text().trimmed();
}

void RunSetupPanel::setExplainPath(const QString& path) {
    m_explain->setText(path);
}

void RunSetupPanel::setRecordedNote(const QString& text, const QString& details) {
    m_recordedNote->setText(text);
    m_recordedNote->setToolTip(details);
    m_recordedNote->setVisible(!text.isEmpty());
}

std::uint32_t RunSetupPanel::backendPid() const {
    return static_cast<std::uint32_t>(m_backend->value());
}

void RunSetupPanel::setBackendPid(std::uint32_t pid) {
    m_backend->setValue(static_cast<int>(std::min<std::uint32_t>(pid, std::numeric_limits<int>::max())));
}

void RunSetupPanel::setTrace(const QString& description, const QStringList& relations, int current) {
    const int observed = m_compare->findData(static_cast<int>(Comparison::Observed));
    m_relation->clear();
    if (relations.isEmpty()) {
        m_dataset->setEnabled(true);
        m_traceGroup->setVisible(false);
        if (observed >= 0) {
            m_compare->removeItem(observed);
            setComparison(Comparison::Policy);
        }
        return;
    }
    m_traceText->setText(description);
    m_traceText->setToolTip(description);
    for (const QString& relation : relations)
        m_relation->addItem(relation.section(QLatin1Char('\t'), 0, 0),
                            relation.section(QLatin1Char('\t'), 1, 1));
    m_relation->setCurrentIndex(current);
    m_traceGroup->setVisible(true);
    visitsChanged();
    if (observed < 0)
        m_compare->addItem(tr("B: model this trace with policy B"), static_cast<int>(Comparison::Observed));
    setComparison(Comparison::Observed);
}

QWidget* RunSetupPanel::buildPgGroup() {
    m_pgFacts = new QLabel(this);
    m_pgFacts->setWordWrap(true);
    auto* close = new QPushButton(tr("Back to datasets"), this);
    auto* form = new QFormLayout;
    form->addRow(m_pgFacts);
    form->addRow(close);
    m_pgGroup = group(this, tr("PostgreSQL index scan"), form);
    m_pgGroup->setVisible(false);
    connect(close, &QPushButton::clicked, this, &RunSetupPanel::closePgScanRequested);
    return m_pgGroup;
}

void RunSetupPanel::setPgScan(const QString& facts) {
    m_pgFacts->setText(facts);
    m_pgGroup->setVisible(!facts.isEmpty());
}

bool RunSetupPanel::hasTrace() const {
    return m_relation->count() > 0;
}

bool RunSetupPanel::visitsFromScan() const {
    return m_visits->currentData().toBool();
}

void RunSetupPanel::setVisitsFromScan(bool fromScan) {
    m_visits->setCurrentIndex(fromScan ? 1 : 0);
    visitsChanged();
}

// The dataset is what the model visits only when the trace's reads are not; a modelled trace gives
// the cache state, so the panel's own is not used.
void RunSetupPanel::visitsChanged() {
    m_dataset->setEnabled(!hasTrace() || visitsFromScan());
    const bool traceGivesCache = hasTrace() && comparison() == Comparison::Observed;
    m_prewarm->setEnabled(!traceGivesCache);
    describePrewarm();
}

// The field is narrower than a list's path: the tooltip holds the whole of what it says.
void RunSetupPanel::describePrewarm() {
    const bool traceGivesCache = !m_prewarm->isEnabled();
    const QString value = m_prewarm->currentText();
    m_prewarm->setToolTip(
        traceGivesCache
            ? tr("Given by the imported trace: a visited block it read was not cached, every other one was")
            : tr("none, all, every:K, except-every:K, fraction:P:SEED, misses:PCT:SPACING or list:FILE") +
                  (value.isEmpty() ? QString() : tr("\nNow: %1").arg(value)));
}

// Folded away by default: a first-time user sees what PostgreSQL users tune.
QWidget* RunSetupPanel::buildAdvancedGroup() {
    auto* form = new QFormLayout;
    for (const std::string_view name : kAdvancedOptions) {
        m_advanced.push_back(std::make_unique<OptionEditor>(*findRunOption(name), this));
        if (name == "device-profile") {
            // A path needs the panel's whole width: its label above it.
            form->addRow(new QLabel(labelOf(name), this));
            form->addRow(profileRow(static_cast<QLineEdit*>(m_advanced.back()->widget())));
        } else {
            form->addRow(labelOf(name), m_advanced.back()->widget());
        }
    }
    auto* body = new QWidget(this);
    body->setLayout(form);
    body->setVisible(false);
    auto* toggle = new QToolButton(this);
    toggle->setText(tr("Advanced settings"));
    toggle->setCheckable(true);
    toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle->setArrowType(Qt::RightArrow);
    toggle->setAutoRaise(true);
    connect(toggle, &QToolButton::toggled, body, [toggle, body](bool open) {
        toggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        body->setVisible(open);
    });
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(toggle);
    layout->addWidget(body);
    return box;
}

// The device profile's file, a Browse button, and "Calibrate this disk…", which measures the disk in
// the background (calibrate_dialog.h) and, if the user wants, puts the new profile in the field.
QWidget* RunSetupPanel::profileRow(QLineEdit* path) {
    auto* browse = new QPushButton(tr("Browse…"), this);
    m_calibrate = new QPushButton(tr("Calibrate this disk…"), this);
    m_calibrate->setToolTip(tr("Measure the disk of the dataset cache directory and write a device profile"));
    connect(browse, &QPushButton::clicked, this, [this, path] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Device profile"), path->text(),
                                                          tr("Device profiles (*.json)"));
        if (!file.isEmpty())
            path->setText(file);
    });
    connect(m_calibrate, &QPushButton::clicked, this, [this, path] {
        auto* dialog = new CalibrateDialog(config().cacheDir, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, path, [dialog, path] { path->setText(dialog->profilePath()); });
        dialog->open();
    });
    path->setPlaceholderText(tr("none: the latency above"));
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(browse);
    buttons->addWidget(m_calibrate);
    buttons->addStretch(1);
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(path);
    layout->addLayout(buttons);
    return box;
}

void RunSetupPanel::ioMethodChanged() {
    const bool sim = m_ioMethod->currentData().toString() == QLatin1String("sim");
    m_simBehaviour->setEnabled(sim);
    m_coldOsCache->setEnabled(!sim);
}

bool RunSetupPanel::showsPolicyA() const {
    return m_policies->isRowVisible(m_policyA);
}

Comparison RunSetupPanel::comparison() const {
    return static_cast<Comparison>(m_compare->currentData().toInt());
}

void RunSetupPanel::setComparison(Comparison comparison) {
    m_compare->setCurrentIndex(std::max(0, m_compare->findData(static_cast<int>(comparison))));
    comparisonChanged();
}

void RunSetupPanel::comparisonChanged() {
    const bool observed = comparison() == Comparison::Observed;
    const bool policyB = comparison() == Comparison::Policy || observed;
    m_policyB->setEnabled(policyB);
    // While B is not another policy its field says what B is, the policy typed kept for later.
    if (!policyB && !text(m_policyB).empty()) {
        m_keptPolicyB = m_policyB->currentText().trimmed();
        m_policyB->setCurrentText(QString());
    } else if (policyB && text(m_policyB).empty() && !m_keptPolicyB.isEmpty()) {
        m_policyB->setCurrentText(m_keptPolicyB);
    }
    if (policyB)
        m_keptPolicyB.clear();
    m_policies->setRowVisible(m_policyA, !observed);
    m_policies->setRowVisible(m_traceA, observed);
    // "B: another policy" with no policy B (a reopened one-run session) would compare nothing: offer
    // the newest version's, or the one before if A is it.
    if (comparison() == Comparison::Policy && text(m_policyB).empty())
        m_policyB->setCurrentText(text(m_policyA) == "pg19" ? QStringLiteral("pg18")
                                                            : QStringLiteral("pg19"));
    // The model of a trace runs policy B, which the row then names rather than leaving it to A's.
    if (observed && text(m_policyB).empty())
        m_policyB->setCurrentText(m_policyA->currentText());
    describeB();
    visitsChanged();
}

// What B is when the comparison is not another policy: A's policy with the one thing changed, named
// in the (disabled) Policy B field, rather than "none" while B runs.
void RunSetupPanel::describeB() {
    QString description = tr("none (no comparison)");
    const Comparison compared = comparison();
    if (compared == Comparison::Direction || compared == Comparison::BackwardCombining ||
        compared == Comparison::IndexBatches || compared == Comparison::RestoreAfterReset) {
        const Experiment experiment = makeExperiment(config(), compared);
        const RunConfig& b = experiment.runs.back().config;
        const QString policy = QString::fromStdString(experiment.runs.back().policy);
        if (compared == Comparison::Direction)
            description = tr("%1, %2").arg(policy, QLatin1String(directionName(b.dataset.direction)));
        else if (compared == Comparison::BackwardCombining)
            description = tr("%1 with backward combining %2")
                              .arg(policy, b.stream.backwardCombining ? tr("on") : tr("off"));
        else if (compared == Comparison::RestoreAfterReset)
            description = tr("%1 with the distance %2 after a reset")
                              .arg(policy, b.stream.restoreAfterReset ? tr("restored") : tr("back to 1"));
        else
            description = tr("%1 with index batches %2")
                              .arg(policy, QString::fromStdString(pg::indexBatchingText(b.pg.batching)));
    }
    m_policyB->lineEdit()->setPlaceholderText(description);
    m_policyB->setToolTip(compared == Comparison::Policy || compared == Comparison::Observed
                              ? tr("A second policy run on the same dataset and cache state (A/B)")
                              : tr("B: %1").arg(description));
}

RunConfig RunSetupPanel::config() const {
    RunConfig c = m_base;
    m_dataset->apply(c);
    c.policy = text(m_policyA);
    c.comparePolicy = text(m_policyB).empty() ? m_keptPolicyB.toStdString() : text(m_policyB);
    c.stream.effectiveIoConcurrency = m_eic->value();
    c.stream.ioCombineLimit = m_ioCombineLimit->value();
    c.poolBlocks = static_cast<std::uint64_t>(m_sharedBuffers->value());
    c.prewarm = text(m_prewarm);
    c.consumerNs = m_consumerNs->value();
    c.resetEvery = static_cast<std::uint64_t>(m_resetEvery->value());
    c.stream.restoreAfterReset = m_restoreAfterReset->isChecked();
    c.stream.backwardCombining = m_backwardCombining->isChecked();
    c.io = ioModeNamed(m_ioMethod->currentData().toString().toStdString()).value_or(IoMode::Sim);
    c.stream.ioMethod = static_cast<IoMethod>(m_simBehaviour->currentData().toInt());
    c.directIo = m_directIo->isChecked();
    c.osCacheCold = m_coldOsCache->isChecked();
    for (const auto& editor : m_advanced) {
        try {
            editor->apply(c);
        } catch (const InputError&) {
            // configError() says which; the run is refused with it.
        }
    }
    return c;
}

QString RunSetupPanel::configError() const {
    RunConfig c = m_base;
    for (const auto& editor : m_advanced) {
        try {
            editor->apply(c);
        } catch (const InputError& error) {
            return QString::fromUtf8(error.what());
        }
    }
    return {};
}

QString RunSetupPanel::setConfig(const RunConfig& c) {
    m_base = c;
    const QString error = m_dataset->show(c);
    m_policyA->setCurrentText(QString::fromStdString(c.policy));
    m_keptPolicyB.clear();
    m_policyB->setCurrentText(QString::fromStdString(c.comparePolicy));
    m_eic->setValue(c.stream.effectiveIoConcurrency);
    m_ioCombineLimit->setValue(c.stream.ioCombineLimit);
    m_sharedBuffers->setValue(static_cast<int>(std::min<std::uint64_t>(c.poolBlocks, 2'000'000'000)));
    m_prewarm->setCurrentText(QString::fromStdString(c.prewarm));
    m_consumerNs->setValue(static_cast<int>(std::clamp<std::int64_t>(c.consumerNs, 0, 1'000'000'000)));
    m_resetEvery->setValue(static_cast<int>(std::min<std::uint64_t>(c.resetEvery, 2'000'000'000)));
    m_restoreAfterReset->setChecked(c.stream.restoreAfterReset);
    m_backwardCombining->setChecked(c.stream.backwardCombining);
    m_ioMethod->setCurrentIndex(std::max(0, m_ioMethod->findData(QString::fromLatin1(ioModeName(c.io)))));
    m_simBehaviour->setCurrentIndex(
        std::max(0, m_simBehaviour->findData(static_cast<int>(c.stream.ioMethod))));
    m_directIo->setChecked(c.directIo.value_or(c.io != IoMode::Sim));
    m_coldOsCache->setChecked(c.osCacheCold);
    for (const auto& editor : m_advanced)
        editor->show(c);
    ioMethodChanged();
    comparisonChanged(); // B's field as the comparison shows it
    return error;
}

void RunSetupPanel::setRunning(bool running) {
    m_cacheView->setRunning(running);
    m_run->setEnabled(!running);
    m_stop->setEnabled(running);
    if (!running)
        m_progress->setRange(0, 1000);
}

void RunSetupPanel::showProgress(const QString& status, double fraction) {
    m_progress->setVisible(true);
    if (fraction < 0.0) {
        m_progress->setRange(0, 0);
    } else {
        m_progress->setRange(0, 1000);
        m_progress->setValue(static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 1000.0));
    }
    m_status->setText(status);
}

} // namespace la
