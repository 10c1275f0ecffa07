// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observed_summary.h"
#include "summary_fields.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace la {

// What only a trace says of an observed run (ObservedSummary beside its RunSummary), one entry a
// figure, in the terms of the summary fields' table (summary_fields.h), its sibling: the summary
// JSON's observed run and the import summary read each of these figures through its entry here. It
// is not a part of that table because the summaries sit below the traces (docs/architecture.md).
using ObservedFieldTypes = FieldTypes<std::string, std::int64_t, double, CombinableRuns,
                                      std::vector<std::pair<std::uint32_t, std::uint64_t>>>;
using ObservedView = ObservedFieldTypes::View;
using ObservedSlot = ObservedFieldTypes::Slot;

struct ObservedField {
    std::string_view name; // the key in the summary JSON's observed run, and what layouts call it
    std::string_view unit; // what the printed number counts; empty for none
    FieldFormat format;
    std::uint16_t flags; // FieldFlag: the outputs that show it
    ObservedView (*view)(const ObservedSummary&);
    ObservedSlot (*slot)(ObservedSummary&);

    bool has(FieldFlag flag) const { return (flags & flag) != 0; }
};

// Every figure only a trace has.
std::span<const ObservedField> observedFieldTable();
// The figure called `name`, or null for a name the table does not have (a run's figure).
const ObservedField* observedFieldNamed(std::string_view name);

} // namespace la
