// SPDX-License-Identifier: GPL-3.0-or-later
#include "explain_io.h"

#include "message_text.h"

namespace la {

std::string explainPrefetchLine(const ExplainIo& io) {
    if (!io.prefetchKnown || io.prefetchCount == 0)
        return {};
    std::string line = "Prefetch: avg=";
    line += fixedText(io.prefetchAvg(), 2);
    line += " max=";
    line += std::to_string(io.distanceMax);
    line += " capacity=";
    line += std::to_string(io.distanceCapacity);
    return line;
}

std::string explainIoLine(const ExplainIo& io) {
    // explain.c prints the I/O line only under a Prefetch line, and only when a read was counted; an
    // observed run has reads but no Prefetch line.
    if ((io.prefetchKnown && io.prefetchCount == 0) || io.ioCount == 0)
        return {};
    std::string line = "I/O: count=";
    line += std::to_string(io.ioCount);
    line += " waits=";
    line += io.waitsKnown ? std::to_string(io.waitCount) : std::string("?");
    line += " size=";
    line += fixedText(io.ioSizeAvg(), 2);
    line += " in-progress=";
    line += fixedText(io.ioInProgressAvg(), 2);
    return line;
}

std::string explainIoScopeNote(bool indexScan) {
    if (indexScan)
        return "a PostgreSQL 19 index scan prints no such lines: only the index-prefetching patch adds them; "
               "Lookahead computes them for every run";
    return "PostgreSQL 19 prints these lines for Seq Scan, Bitmap Heap Scan and TID Range Scan nodes; "
           "Lookahead computes them for every run";
}

std::string explainIoText(const ExplainIo& io) {
    std::string text;
    for (const std::string& line : {explainPrefetchLine(io), explainIoLine(io)}) {
        if (line.empty())
            continue;
        text += "  ";
        text += line;
        text += '\n';
    }
    return text;
}

} // namespace la
