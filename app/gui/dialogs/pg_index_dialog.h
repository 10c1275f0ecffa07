// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/controls/option_editor.h"

#include <QDialog>

#include <memory>
#include <vector>

class QDialogButtonBox;
class QPlainTextEdit;

namespace la {

// File → Open PostgreSQL index: the btree and its table (files, or a data directory plus the paths
// pg_relation_filepath() prints), the key type and range, the batches mode and when the stream
// starts. Every field is an option of the table (run_options.h), as on the command line.
// It stays open until the index has been read: an index that cannot be read is said in the dialog,
// with what was typed kept. What was typed is also kept per data directory (settings_store.h) for
// the next opening.
class PgIndexDialog : public QDialog {
    Q_OBJECT
public:
    // Shows `current`'s index scan if it has one, else what was typed last time.
    PgIndexDialog(const RunConfig& current, QWidget* parent = nullptr);
    ~PgIndexDialog() override;

    // The configuration with the dialog's fields; throws InputError for a value the table refuses.
    RunConfig apply(RunConfig config) const;
    // The index chosen has been read: closes the dialog, or shows why it cannot be scanned.
    void checked(const QString& error);
    // The error shown in the dialog, if any.
    QString error() const;

signals:
    void chosen(const RunConfig& config);

private:
    void submit();
    // The error (or the reading under way) under the fields, in a few lines that scroll: a long one
    // never grows the dialog past the screen, which pushed its header out of view.
    void say(const QString& text);
    void showTyped(const QString& dataDir);
    void keepTyped() const;
    OptionEditor* editor(std::string_view name) const;

    std::vector<std::unique_ptr<OptionEditor>> m_editors;
    RunConfig m_current;
    QPlainTextEdit* m_error = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace la
