// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "run.h"

#include <QByteArray>
#include <QImage>
#include <QString>

#include <vector>

namespace la {

// The experiment's settings in two lines (A's settings; B differs as its label says), printed on top
// of every exported PNG. A recording's runs are said to be of its modelled node, not of the block
// list or trace its recording wrote in a directory of its own.
QString runCaption(const Experiment& experiment);

// Writes `image` as PNG with provenance in text chunks: Title, Software, Description (the caption,
// whole: the drawn one may end in "…") and lookahead.summary (`summary`, the compact summary JSON),
// each made safe (export_text.h), atomically (output_file.h). Returns an error message naming the
// file and the cause, empty on success.
[[nodiscard]] QString writePng(const QString& path, QImage image, const QString& caption,
                               const QByteArray& summary);

} // namespace la
