// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The tracers by kind: apart from tracer.h, which each tracer includes, so no tracer's file and the
// interface they implement include each other.

#include "tracer.h"

#include <memory>

namespace la {

std::unique_ptr<Tracer> makeTracer(TracerKind kind);

} // namespace la
