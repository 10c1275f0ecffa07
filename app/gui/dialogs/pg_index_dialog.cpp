// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/dialogs/pg_index_dialog.h"

#include "gui/settings/setting_words.h"
#include "gui/settings/settings_store.h"
#include "input_error.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>

namespace la {

namespace {

// The error's lines in view; a longer one scrolls.
constexpr int kErrorLines = 5;

// The fields, in the order a user fills them; files and directories get a Browse button.
const char* const kFields[][2] = {
    {"pg-datadir", "Data directory (optional)"},
    {"pg-index", "Index file"},
    {"pg-heap", "Table file"},
    {"pg-key", "Key type"},
    {"pg-key-range", "Key range LO:HI"},
    {"pg-collation", "Text collation"},
    {"index-batches", "Batches"},
    {"compare-index-batches", "Batches of run B (Compare)"},
    {"stream-start-after", "Stream starts after"},
    {"pg-checksums", "Checksums"},
};

QString nameOf(const OptionEditor& editor) {
    return QString::fromUtf8(editor.option().name.data(), qsizetype(editor.option().name.size()));
}

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
        auto* edit = qobject_cast<QLineEdit*>(field);
        if (!edit || (option.valueName != "FILE" && option.valueName != "DIR")) {
            form->addRow(tr(label), field);
            continue;
        }
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        auto* browse = new QPushButton(tr("Browse…"), this);
        const bool dir = option.valueName == "DIR";
        connect(browse, &QPushButton::clicked, this, [this, edit, dir] {
            auto* chooser =
                new QFileDialog(this, dir ? tr("Data directory") : tr("Relation file"), edit->text());
            chooser->setAttribute(Qt::WA_DeleteOnClose);
            chooser->setFileMode(dir ? QFileDialog::Directory : QFileDialog::ExistingFile);
            connect(chooser, &QFileDialog::fileSelected, edit, [this, edit, dir](const QString& path) {
                edit->setText(path);
                if (dir)
                    showTyped(path);
            });
            chooser->open();
        });
        // Another data directory brings back what was typed for it.
        if (dir)
            connect(edit, &QLineEdit::editingFinished, this,
                    [this, edit] { showTyped(edit->text().trimmed()); });
        row->addWidget(browse);
        form->addRow(tr(label), row);
    }
    if (!current.pg.active())
        showTyped(lastPgDataDir(QSettings()));
    m_error = new QPlainTextEdit(this);
    m_error->setReadOnly(true);
    m_error->setFrameShape(QFrame::NoFrame);
    m_error->viewport()->setAutoFillBackground(false);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b; background: transparent;"));
    m_error->setFixedHeight(kErrorLines * m_error->fontMetrics().lineSpacing() +
                            2 * static_cast<int>(m_error->document()->documentMargin()) + 2);
    m_error->setVisible(false);
    form->addRow(m_error);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::rejected, this, [this] {
        keepTyped();
        reject();
    });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &PgIndexDialog::submit);
}

PgIndexDialog::~PgIndexDialog() = default;

RunConfig PgIndexDialog::apply(RunConfig config) const {
    for (const auto& editor : m_editors)
        editor->apply(config);
    return config;
}

// Checks the fields and hands them on; the dialog closes once the index has been read (checked()).
void PgIndexDialog::submit() {
    keepTyped();
    try {
        const RunConfig config = apply(m_current);
        if (!config.pg.active())
            throw InputError("give the index file and the table file");
        say(tr("Reading the index…"));
        m_buttons->button(QDialogButtonBox::Open)->setEnabled(false);
        emit chosen(config);
    } catch (const InputError& refused) {
        say(windowWording(QString::fromUtf8(refused.what())));
    }
}

void PgIndexDialog::checked(const QString& error) {
    if (error.isEmpty()) {
        accept();
        return;
    }
    say(windowWording(error));
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(true);
}

QString PgIndexDialog::error() const {
    return m_error->toPlainText();
}

void PgIndexDialog::say(const QString& text) {
    m_error->setPlainText(text);
    m_error->setVisible(!text.isEmpty());
}

OptionEditor* PgIndexDialog::editor(std::string_view name) const {
    for (const auto& editor : m_editors)
        if (editor->option().name == name)
            return editor.get();
    return nullptr;
}

// What was typed for `dataDir` last time, if anything was.
void PgIndexDialog::showTyped(const QString& dataDir) {
    const TypedFields typed = loadPgIndexFields(QSettings(), dataDir);
    if (typed.isEmpty())
        return;
    for (const auto& editor : m_editors) {
        if (const auto it = typed.find(nameOf(*editor)); it != typed.end())
            editor->setValue(it.value());
    }
}

void PgIndexDialog::keepTyped() const {
    TypedFields typed;
    for (const auto& editor : m_editors)
        typed.insert(nameOf(*editor), editor->value());
    QSettings settings;
    savePgIndexFields(settings, editor("pg-datadir")->value(), typed);
}

} // namespace la
