// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QSize>
#include <QString>
#include <QStringList>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace la {

// What File → Export plots as PNG asks: the whole dashboard or one plot, size, scale and file.
struct PngExportRequest {
    int plotIndex = -1; // -1 = every plot
    QSize size{1600, 1000};
    double scale = 1.0;
    QString path;
};

// Opened with open() (no nested event loop); emits requested() when the user confirms.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    ExportDialog(const QStringList& plotTitles, const PngExportRequest& initial, QWidget* parent = nullptr);
    PngExportRequest request() const;

signals:
    void requested(const PngExportRequest& request);

private:
    void browse();

    QComboBox* m_what;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QDoubleSpinBox* m_scale;
    QLineEdit* m_path;
};

} // namespace la
