// SPDX-License-Identifier: GPL-3.0-or-later
#include "observed_fields.h"

namespace la {

namespace {

template <auto Member>
constexpr ObservedField observed(std::string_view name, std::string_view unit, FieldFormat format,
                                 std::uint16_t flags) {
    return {name,
            unit,
            format,
            flags,
            [](const ObservedSummary& s) -> ObservedView { return &(s.*Member); },
            [](ObservedSummary& s) -> ObservedSlot { return &(s.*Member); }};
}

constexpr FieldFormat kText{FieldFormat::Text};
constexpr FieldFormat kOwn{FieldFormat::Own};

// In the import summary's order (app/experiment/import_summary.cpp).
constexpr ObservedField kObservedFields[] = {
    observed<&ObservedSummary::source>("source", "", kText, kInImport),
    observed<&ObservedSummary::relation>("relation", "", kText, kInImport),
    // The reads' own sizes over their count: the run's mean_read_blocks counts its events', whose
    // sizes stop at 255 blocks.
    observed<&ObservedSummary::meanReadBlocks>("mean_read_blocks", "blocks", {FieldFormat::Fixed, 2},
                                               kInImport),
    observed<&ObservedSummary::megabytesPerSecond>("mb_per_s", "MB/s", {FieldFormat::Fixed, 1}, kInImport),
    observed<&ObservedSummary::deviceTimeNs>("device_time_ns", "s", {FieldFormat::Fixed, 3, 1e9}, kInImport),
    observed<&ObservedSummary::readsByProcess>("processes", "", kOwn, kInImport),
    observed<&ObservedSummary::combinable>("combinable_descending_runs", "", kOwn, kInImport),
};

} // namespace

std::span<const ObservedField> observedFieldTable() {
    return kObservedFields;
}

const ObservedField* observedFieldNamed(std::string_view name) {
    for (const ObservedField& field : kObservedFields)
        if (field.name == name)
            return &field;
    return nullptr;
}

} // namespace la
