// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "event.h"

#include <cstdio>
#include <string>

namespace la {

// Streams the trace to a CSV file as it is produced (one row per event, with a header), so a
// 10 M-block trace never has to fit in memory.
class TraceCsvWriter final : public EventSink {
public:
    // Throws InputError if the file cannot be created.
    TraceCsvWriter(const std::string& path, const std::string& runLabel);
    ~TraceCsvWriter() override;
    TraceCsvWriter(const TraceCsvWriter&) = delete;
    TraceCsvWriter& operator=(const TraceCsvWriter&) = delete;

    void onEvents(std::span<const Event> batch) override;
    void setRunLabel(const std::string& label) { m_label = label; }

private:
    std::FILE* m_file = nullptr;
    std::string m_label;
};

const char* eventKindName(EventKind kind);

} // namespace la
