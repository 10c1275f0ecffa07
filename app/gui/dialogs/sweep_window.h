// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "files/held_directory.h"
#include "gui/jobs/job_thread.h"
#include "sweep/sweep_results.h"

#include <QMainWindow>

#include <atomic>
#include <map>
#include <optional>

class QComboBox;
class QLabel;
class QLayout;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace la {

class SweepMapView;
struct SweepCell;

// The Sweep view: runs a sweep spec (a preset or a JSON file) on a worker thread, with progress, an
// ETA and Cancel, and draws one heat map per policy for the metric chosen. Hovering a cell shows its
// figures; clicking it asks the main window to run that cell (its policy as A, its baseline as B).
class SweepWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit SweepWindow(QWidget* parent = nullptr);
    ~SweepWindow() override;

    // Loads a spec (a preset name or a file) and shows its size; false (with a dialog) if it is bad.
    bool loadSpec(const QString& specOrPreset);
    // Loads the spec that sweeps `config` (sweepSpecOfRun()), named "this run: `title`" in the spec
    // box; false (with a dialog) if it cannot run.
    bool sweepRun(const RunConfig& config, const QString& title);
    void startSweep();
    void cancelSweep();
    bool running() const { return m_job.running(); }
    const std::optional<SweepResults>& results() const { return m_results; }
    const std::optional<SweepSpec>& spec() const { return m_spec; }
    SweepMapView* mapView() const { return m_map; }
    // The figures a cell's tooltip gives.
    QString cellText(const SweepCell& cell) const;
    // Files written from the window, without dialogs (tests and the menu's actions use them).
    [[nodiscard]] QString exportMaps(const QString& path) const;
    [[nodiscard]] QString exportCsv(const QString& path) const;

signals:
    // A cell was clicked: run it in the main window.
    void runCell(const la::RunConfig& config);
    // The sweep finished (or was cancelled, or failed to start).
    void sweepFinished(bool cancelled);

private:
    void buildUi();
    // The parts of the window: the bar that picks and runs a spec, the bar that picks what the maps
    // show, the maps, the menu.
    QLayout* buildRunBar(QWidget* central);
    QLayout* buildMapBar(QWidget* central);
    SweepMapView* buildMap(QWidget* central);
    void buildMenu();
    void showMetric();
    void pollProgress();
    void finished();
    void chooseSpec();
    void chooseExport(bool csv);
    std::uint64_t cellOf(const SweepCell& cell) const;

    std::optional<SweepSpec> m_spec;
    std::map<QString, QByteArray> m_runSpecs;    // the spec box's "this run: …" entries and their JSON
    std::map<QString, HeldDirectory> m_runLists; // the lists those specs name, while the window lives
    std::optional<SweepResults> m_results;
    SweepResults m_pending; // the worker's, read after it is joined
    std::string m_error;    // likewise: why the set-up failed
    std::atomic<bool> m_settingUp{false};
    std::atomic<std::uint64_t> m_done{0};
    std::atomic<std::uint64_t> m_total{0};
    std::atomic<double> m_elapsed{0.0};

    QComboBox* m_specBox = nullptr;
    QSpinBox* m_jobs = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QComboBox* m_metric = nullptr;
    QComboBox* m_slice = nullptr;
    SweepMapView* m_map = nullptr;
    JobThread m_job; // last: it joins the worker before the members above go
};

} // namespace la
