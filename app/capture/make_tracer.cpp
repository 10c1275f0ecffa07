// SPDX-License-Identifier: GPL-3.0-or-later
#include "make_tracer.h"

#include "kernel_tracer.h"
#include "strace_tracer.h"

namespace la {

std::unique_ptr<Tracer> makeTracer(TracerKind kind) {
    switch (kind) {
    case TracerKind::Strace:
        return std::make_unique<StraceTracer>();
    case TracerKind::Kernel:
        return std::make_unique<KernelTracer>();
    }
    return nullptr;
}

} // namespace la
