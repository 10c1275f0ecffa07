// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "render/plot_file.h"

#include <QDialog>
#include <QSize>
#include <QString>
#include <QStringList>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace la {

// What File → Export plots asks: the whole dashboard or one plot, format, size, scale and file.
struct PlotExportRequest {
    int plotIndex = -1; // -1 = every plot
    PlotFormat format = PlotFormat::Png;
    QSize size = kDefaultExportSize;
    double scale = 1.0;
    QString path;
};

// Opened with open() (no nested event loop); emits requested() when the user confirms.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(const QStringList& plotTitles, const PlotExportRequest& initial, QWidget* parent = nullptr);
    PlotExportRequest request() const;

signals:
    void requested(const PlotExportRequest& request);

private:
    void browse();

    void formatChanged();

    QComboBox* m_what;
    QComboBox* m_format;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QDoubleSpinBox* m_scale;
    QLineEdit* m_path;
};

} // namespace la
