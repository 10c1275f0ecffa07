// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/option_editor.h"

#include <QDialog>

#include <memory>
#include <vector>

namespace la {

// File → Open PostgreSQL index: the btree and its table (files, or a data directory plus the paths
// pg_relation_filepath() prints), the key type and range, the batches mode and when the stream
// starts. Every field is an option of the table (run_options.h), as on the command line.
class PgIndexDialog : public QDialog {
    Q_OBJECT
public:
    PgIndexDialog(const RunConfig& current, QWidget* parent = nullptr);
    ~PgIndexDialog() override;

    // The configuration with the dialog's fields; throws InputError for a value the table refuses.
    RunConfig apply(RunConfig config) const;

signals:
    void chosen(const RunConfig& config);

private:
    std::vector<std::unique_ptr<OptionEditor>> m_editors;
    RunConfig m_current;
};

} // namespace la
