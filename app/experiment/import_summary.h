// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed/observed_summary.h"
#include "summary.h"

#include <QString>

#include <string>

namespace la {

// "observed 49,969 reads (49,969 of 8 kB); pg18 model 49,969 reads (49,969 of 8 kB)".
QString observedVerdict(const ObservedSummary& observed, const RunSummary& model);

// The observed run as the headless run prints it.
std::string describeObserved(const ObservedSummary& observed);

} // namespace la
