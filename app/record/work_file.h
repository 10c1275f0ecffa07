// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "files/output_file.h"
#include "input_error.h"
#include "io_backend.h"
#include "record/pg_session.h"

#include <QByteArray>
#include <QString>

namespace la {

class HeldDirectory;

// Runs `work` on the recording's work files: a file that cannot be made or written (InputError,
// IoError) stops the recording with a RecordError that says why.
template <typename Work> decltype(auto) asRecordError(Work&& work) {
    try {
        return work();
    } catch (const InputError& error) {
        throw RecordError(QString::fromStdString(error.what()));
    } catch (const IoError& error) {
        throw RecordError(QString::fromStdString(error.what()));
    }
}

// Writes `bytes` as `name` in the work directory, relative to its held descriptor; its path.
QString writeWorkFile(const HeldDirectory& work, const char* name, const QString& what,
                      const QByteArray& bytes);

} // namespace la
