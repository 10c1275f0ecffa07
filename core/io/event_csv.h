// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"
#include "files/output_file.h"

#include <optional>
#include <string>
#include <string_view>

namespace la {

// Streams the trace to a CSV file as it is produced (one row per event, with a header), so a
// 10 M-block trace never has to fit in memory. Rows are only ever written whole, and the file
// replaces an existing one only on commit(): a run that fails leaves the old file as it was.
class EventCsvWriter final : public EventSink {
public:
    // Throws InputError if the file cannot be created.
    EventCsvWriter(const std::string& path, const std::string& runLabel);

    // Throws IoError if the file cannot be written (that ends the run, with the error).
    void onEvents(std::span<const Event> batch) override;
    void setRunLabel(const std::string& label) { m_label = label; }
    // Puts the file in place; throws IoError.
    void commit() { m_file.commit(); }

private:
    OutputFile m_file;
    std::string m_label;
    std::string m_rows;
};

// The event column's names: "requested", "hit", "read_started", ...
const char* eventKindName(EventKind kind);
std::optional<EventKind> eventKindNamed(std::string_view name);

} // namespace la
