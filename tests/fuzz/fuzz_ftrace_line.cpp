// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: tracefs lines as the kernel tracer reads them from its instances' trace_pipe
// (parseFtraceLine, core/observed/ftrace_line.h), each event fed to a KernelCapture that writes its
// records as a capture does (core/observed/kernel_capture.h). The events' names and texts point into
// their line.
#include "fuzz_lines.h"
#include "observed/kernel_capture.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace la;
    ExtentMap extents;
    extents.add(kernelDevice(8, 0), 0, {{0, 1 << 20, 1 << 20}});
    std::size_t written = 0;
    KernelCapture capture({{"/data/base/5/16390", kernelDevice(8, 1), 12}}, std::move(extents),
                          [&](std::string_view bytes) { written += bytes.size(); });
    capture.begin({"a note"});
    std::string_view rest = fuzz::bytesAsText(data, size);
    FtraceEvent event;
    while (!rest.empty()) {
        const std::size_t end = rest.find('\n');
        const std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
        if (!parseFtraceLine(line, event))
            continue;
        for (const std::string_view field : {event.comm, event.rwbs, event.text})
            fuzz::checkView(line, field);
        capture.add(event);
    }
    capture.end({"the end"});
    if (written == 0) // the header and the counts are always written
        std::abort();
    return 0;
}
