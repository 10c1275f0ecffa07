// SPDX-License-Identifier: GPL-3.0-or-later
#include "export_dialog.h"

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

ExportDialog::ExportDialog(const QStringList& plotTitles, const PngExportRequest& initial, QWidget* parent)
    : QDialog(parent), m_what(new QComboBox(this)), m_width(new QSpinBox(this)), m_height(new QSpinBox(this)),
      m_scale(new QDoubleSpinBox(this)), m_path(new QLineEdit(this)) {
    setWindowTitle(tr("Export plots as PNG"));
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
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    form->addRow(tr("Scale"), m_scale);
    form->addRow(tr("File"), pathRow);
    form->addRow(buttons);

    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
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

PngExportRequest ExportDialog::request() const {
    PngExportRequest r;
    r.plotIndex = m_what->currentData().toInt();
    r.size = QSize(m_width->value(), m_height->value());
    r.scale = m_scale->value();
    r.path = m_path->text().trimmed();
    return r;
}

void ExportDialog::browse() {
    auto* dialog = new QFileDialog(this, tr("Export PNG"), m_path->text(), tr("PNG images (*.png)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("png"));
    connect(dialog, &QFileDialog::fileSelected, m_path, &QLineEdit::setText);
    dialog->open();
}

} // namespace la
