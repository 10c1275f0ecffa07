// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/pg_index_dialog.h"

#include "input_error.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace la {

namespace {

// The fields, in the order a user fills them; files and directories get a Browse button.
const char* const kFields[][2] = {
    {"pg-datadir", "Data directory (optional)"},
    {"pg-index", "Index file"},
    {"pg-heap", "Table file"},
    {"pg-key", "Key type"},
    {"pg-key-range", "Key range LO:HI"},
    {"index-batches", "Batches"},
    {"compare-index-batches", "Batches of run B (Compare)"},
    {"stream-start-after", "Stream starts after"},
    {"pg-checksums", "Checksums"},
};

} // namespace

PgIndexDialog::PgIndexDialog(const RunConfig& current, QWidget* parent)
    : QDialog(parent), m_current(current) {
    setWindowTitle(tr("Open PostgreSQL index"));
    auto* form = new QFormLayout(this);
    auto* hint =
        new QLabel(tr("Read-only, no server needed. Give the files, or a data directory and the paths\n"
                      "SELECT pg_relation_filepath('t'), pg_relation_filepath('idx') prints.\n"
                      "The direction is the panel's (backward: ORDER BY … DESC)."),
                   this);
    form->addRow(hint);
    for (const auto& [name, label] : kFields) {
        const RunOption& option = *findRunOption(name);
        m_editors.push_back(std::make_unique<OptionEditor>(option, this));
        m_editors.back()->show(current);
        QWidget* field = m_editors.back()->widget();
        if (auto* edit = qobject_cast<QLineEdit*>(field);
            edit && (option.valueName == "FILE" || option.valueName == "DIR")) {
            auto* row = new QHBoxLayout;
            row->addWidget(edit, 1);
            auto* browse = new QPushButton(tr("Browse…"), this);
            const bool dir = option.valueName == "DIR";
            connect(browse, &QPushButton::clicked, this, [this, edit, dir] {
                auto* chooser =
                    new QFileDialog(this, dir ? tr("Data directory") : tr("Relation file"), edit->text());
                chooser->setAttribute(Qt::WA_DeleteOnClose);
                chooser->setFileMode(dir ? QFileDialog::Directory : QFileDialog::ExistingFile);
                connect(chooser, &QFileDialog::fileSelected, edit, &QLineEdit::setText);
                chooser->open();
            });
            row->addWidget(browse);
            form->addRow(tr(label), row);
        } else {
            form->addRow(tr(label), field);
        }
    }
    auto* error = new QLabel(this);
    error->setWordWrap(true);
    error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    form->addRow(error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this, error] {
        try {
            const RunConfig config = apply(m_current);
            if (!config.pg.active())
                throw InputError("give the index file and the table file");
            emit chosen(config);
            accept();
        } catch (const InputError& refused) {
            error->setText(QString::fromUtf8(refused.what()));
        }
    });
}

PgIndexDialog::~PgIndexDialog() = default;

RunConfig PgIndexDialog::apply(RunConfig config) const {
    for (const auto& editor : m_editors)
        editor->apply(config);
    return config;
}

} // namespace la
