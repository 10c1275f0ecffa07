// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "run.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace la {

class DatasetCacheView;
class DatasetPicker;
class ElidingComboBox;
class OptionEditor;

// The run setup side panel: dataset, policies A and B, stream settings (PostgreSQL 18's defaults),
// I/O method, Run / Stop and the progress of the run.
class RunSetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunSetupPanel(QWidget* parent = nullptr);
    ~RunSetupPanel() override;

    // The settings shown. A value the option table refuses (typed into a line edit) is left out and
    // named by configError().
    RunConfig config() const;
    QString configError() const;
    // Shows `config`; returns an error message if part of it cannot be shown (e.g. an unknown dataset).
    [[nodiscard]] QString setConfig(const RunConfig& config);
    // What run B changes (with Comparison::Policy, config().comparePolicy is B's policy).
    Comparison comparison() const;
    void setComparison(Comparison comparison);
    DatasetPicker* datasetPicker() const { return m_dataset; }
    DatasetCacheView* cacheView() const { return m_cacheView; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* calibrateButton() const { return m_calibrate; }
    // Policy B's field: B's policy, or (disabled) what B is when it changes something else.
    QComboBox* policyBField() const { return m_policyB; }
    // Whether the panel shows A as a policy (else as the imported trace).
    bool showsPolicyA() const;

    // An imported trace is set: the Trace group shows `description` and the relations it read
    // (the chosen one current), and Compare offers "B: model this trace". An empty list clears it.
    void setTrace(const QString& description, const QStringList& relations, int current);
    bool hasTrace() const;
    // What the model of an imported trace visits: the scan the panel sets up (a PostgreSQL index
    // scan, a block list or the dataset's pattern over the traced relation), or else the blocks
    // the trace read.
    bool visitsFromScan() const;
    void setVisitsFromScan(bool fromScan);
    // The traced query's EXPLAIN output, whose figures the observed run takes; empty: none.
    QString explainPath() const;
    void setExplainPath(const QString& path);
    // What a recording of this trace says of itself (File → Record a query); empty: none.
    void setRecordedNote(const QString& text, const QString& details);
    // The process that ran the traced scan (0: the only one that read the relation).
    std::uint32_t backendPid() const;
    void setBackendPid(std::uint32_t pid);
    // A PostgreSQL index scan is set (its facts shown in place of the dataset's); empty clears it.
    void setPgScan(const QString& facts);

    void setRunning(bool running);
    // `fraction` < 0 shows a busy bar.
    void showProgress(const QString& text, double fraction);

signals:
    void runRequested();
    void relationChosen(const QString& relation);
    void closeTraceRequested();
    void closePgScanRequested();
    void stopRequested();

private:
    QWidget* buildPolicyGroup();
    QWidget* buildStreamGroup();
    QWidget* buildIoGroup();
    QWidget* buildAdvancedGroup();
    QWidget* profileRow(QLineEdit* path);
    QWidget* buildTraceGroup();
    QWidget* buildPgGroup();
    void ioMethodChanged();
    void comparisonChanged();
    void describeB();
    void visitsChanged();
    void describePrewarm();

    // Fields the panel does not show (seed, simulated latency, ...) keep what setConfig() was given.
    RunConfig m_base;
    DatasetPicker* m_dataset;
    QFormLayout* m_policies = nullptr;
    QComboBox* m_policyA;
    QLabel* m_traceA = nullptr;
    QComboBox* m_compare;
    QComboBox* m_policyB;
    QString m_keptPolicyB; // policy B, while B is something else (direction, backward combining, …)
    QSpinBox* m_eic;
    QSpinBox* m_ioCombineLimit;
    QSpinBox* m_sharedBuffers;
    QComboBox* m_prewarm;
    QSpinBox* m_consumerNs;
    QSpinBox* m_resetEvery;
    QCheckBox* m_restoreAfterReset;
    QCheckBox* m_backwardCombining;
    QComboBox* m_ioMethod;
    QComboBox* m_simBehaviour;
    QCheckBox* m_directIo;
    QCheckBox* m_coldOsCache;
    DatasetCacheView* m_cacheView;
    QWidget* m_traceGroup = nullptr;
    QLabel* m_traceText = nullptr;
    QLabel* m_recordedNote = nullptr;
    QLineEdit* m_explain = nullptr;
    QSpinBox* m_backend = nullptr;
    ElidingComboBox* m_relation = nullptr;
    QComboBox* m_visits = nullptr;
    QWidget* m_pgGroup = nullptr;
    QLabel* m_pgFacts = nullptr;
    std::vector<std::unique_ptr<OptionEditor>> m_advanced;
    QPushButton* m_calibrate = nullptr;
    QPushButton* m_run;
    QPushButton* m_stop;
    QProgressBar* m_progress;
    QLabel* m_status;
};

} // namespace la
