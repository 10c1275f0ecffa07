// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace la {

// The dataset part of the run setup: every preset grouped as docs/datasets.md §0 recommends (with its
// one-line description and size), a pattern's parameter and size, the scale, the scan direction, and
// the user's own file or block list.
class DatasetPicker : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPicker(QWidget* parent = nullptr);

    // Fills the dataset fields of `config`.
    void apply(RunConfig& config) const;
    // Shows `config`'s dataset; returns an error message (and keeps the current one) if its name is unknown.
    [[nodiscard]] QString show(const RunConfig& config);
    void setBlockList(const QString& path);
    void setFile(const QString& path);
    QString datasetName() const;
    // The cache state a run starts from when prewarm is left empty, in words: the dataset's own, or
    // none for a block list.
    QString defaultPrewarm() const;

signals:
    // What the run would scan changed: a dataset, its parameters, the file or the block list.
    void changed();
    void openFileRequested();
    void openBlockListRequested();

private:
    void fillCatalog();
    void selectionChanged();
    void updateDescription();
    // Keeps `path` in `kept` and shows its name in `label` (`none` where it is empty), with `clear`.
    void showPath(QString& kept, QLabel* label, QToolButton* clear, const QString& path, const QString& none);
    QString catalogKey() const;

    QComboBox* m_dataset;
    QLabel* m_description;
    QSpinBox* m_parameter;
    QSpinBox* m_patternBlocks;
    QDoubleSpinBox* m_scale;
    QComboBox* m_direction;
    QLabel* m_fileLabel;
    QLabel* m_blockListLabel;
    QToolButton* m_clearFile;
    QToolButton* m_clearBlockList;
    QString m_file;
    QString m_blockList;
};

} // namespace la
