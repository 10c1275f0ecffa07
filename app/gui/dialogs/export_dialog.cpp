// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/dialogs/export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace la {

ExportDialog::ExportDialog(const QStringList& plotTitles, const PlotExportRequest& initial, QWidget* parent)
    : QDialog(parent), m_what(new QComboBox(this)), m_format(new QComboBox(this)),
      m_width(new QSpinBox(this)), m_height(new QSpinBox(this)), m_scale(new QDoubleSpinBox(this)),
      m_path(new QLineEdit(this)) {
    setWindowTitle(tr("Export plots"));
    for (const PlotFormat format : {PlotFormat::Png, PlotFormat::Svg, PlotFormat::Pdf})
        m_format->addItem(plotFormatName(format), static_cast<int>(format));
    m_format->setCurrentIndex(std::max(0, m_format->findData(static_cast<int>(initial.format))));
    m_format->setToolTip(tr("PNG: a picture at any scale. SVG and PDF: vector drawings for papers and slides "
                            "(the hit/miss and request rasters stay images)"));
    m_what->addItem(tr("All plots (dashboard)"), -1);
    for (int i = 0; i < plotTitles.size(); ++i)
        m_what->addItem(plotTitles[i], i);
    m_what->setCurrentIndex(std::max(0, m_what->findData(initial.plotIndex)));
    for (QSpinBox* side : {m_width, m_height}) {
        side->setRange(200, 8000);
        side->setSuffix(tr(" px"));
    }
    m_width->setValue(initial.size.width());
    m_height->setValue(initial.size.height());
    m_scale->setRange(0.5, 4.0);
    m_scale->setSingleStep(0.5);
    m_scale->setValue(initial.scale);
    m_scale->setSuffix(QStringLiteral("×"));
    m_scale->setToolTip(tr("Scales lines and text too (2× for HiDPI or print)"));
    m_path->setText(initial.path);
    auto* browseButton = new QPushButton(tr("Browse…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browseButton);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);

    auto* form = new QFormLayout(this);
    form->addRow(tr("Export"), m_what);
    form->addRow(tr("Format"), m_format);
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    form->addRow(tr("Scale"), m_scale);
    form->addRow(tr("File"), pathRow);
    form->addRow(buttons);

    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChanged);
    // A typed suffix picks the format, as a file manager would.
    connect(m_path, &QLineEdit::textEdited, this, [this](const QString& path) {
        if (path.contains(QLatin1Char('.')))
            m_format->setCurrentIndex(m_format->findData(static_cast<int>(plotFormatOf(path))));
    });
    m_scale->setEnabled(initial.format == PlotFormat::Png);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_path->text().trimmed().isEmpty()) {
            browse();
            return;
        }
        emit requested(request());
        accept();
    });
}

PlotExportRequest ExportDialog::request() const {
    PlotExportRequest r;
    r.plotIndex = m_what->currentData().toInt();
    r.format = static_cast<PlotFormat>(m_format->currentData().toInt());
    r.size = QSize(m_width->value(), m_height->value());
    r.scale = m_scale->value();
    r.path = m_path->text().trimmed();
    return r;
}

// The scale only makes a PNG sharper; the file's suffix follows the format.
void ExportDialog::formatChanged() {
    const auto format = static_cast<PlotFormat>(m_format->currentData().toInt());
    m_scale->setEnabled(format == PlotFormat::Png);
    QString path = m_path->text().trimmed();
    if (path.isEmpty() || plotFormatOf(path) == format)
        return;
    const int dot = path.lastIndexOf(QLatin1Char('.'));
    if (dot > path.lastIndexOf(QLatin1Char('/')))
        path.truncate(dot);
    m_path->setText(path + QLatin1Char('.') + plotFormatName(format).toLower());
}

void ExportDialog::browse() {
    const auto format = static_cast<PlotFormat>(m_format->currentData().toInt());
    auto* dialog = new QFileDialog(this, tr("Export plots"), m_path->text(), plotFileFilter(format));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(plotFormatName(format).toLower());
    connect(dialog, &QFileDialog::fileSelected, m_path, &QLineEdit::setText);
    dialog->open();
}

} // namespace la
