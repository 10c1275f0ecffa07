// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "summary.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace la {

// The one table of a run's summary figures (summary_fields.cpp). The summary JSON, the session's
// `summary` table, the command line's text, the summary panel and the exports, the import summary and
// sweeps all read a figure through its entry here: a new figure is one entry (and its computation in
// SummaryBuilder or the engine). What only a trace has is its sibling, core/observed/observed_fields.h.

// Where a figure is kept, under its name: the summary JSON's run objects, a session's `summary`
// table, both, or neither (a figure computed from the others where it is shown).
enum class FieldStore : std::uint8_t { Both, Json, Session, Derived };

// How a figure's number reads for people. The printing itself is Qt's (widgets/model/figure_text.h),
// whose rounding of halves is what the text and the panel have always shown.
struct FieldFormat {
    enum Kind : std::uint8_t {
        Text,    // as it is
        Count,   // a whole number, or a list's length, with thousands separators: 12,345
        Whole,   // a whole number as it is: 94
        Fixed,   // the value over `divisor` with `decimals` decimals: 0.053 (ns as seconds)
        Percent, // a fraction as a percentage with `decimals` decimals: 12.5
        Pairs,   // a histogram as " size:count" items
        Own,     // printed by the text's and the panel's own code (EXPLAIN's lines, flags)
    };
    Kind kind = Text;
    int decimals = 0;
    double divisor = 1.0;
};

enum FieldFlag : std::uint16_t {
    kNotInTrace = 1,  // an observed trace cannot give it: it has reads, not the stream's state
    kJsonWhenSet = 2, // the JSON leaves it out when empty or absent (scripts test for the key)
    kPgIndex = 4,     // an index scan's fact: kept only for a run that has RunSummary::pgIndex
    kNewerField = 8,  // added after format 1's first sessions: one without it reads as 0, not damaged
    // Varies from one repeat of a real-I/O run to the next: the JSON keeps each repeat's value and
    // their spread, the panel shows the spread (docs/repeats.md).
    kVaries = 16,
    // The outputs that show it, itself or through a figure computed from it (tests/engine/tst_summary_fields
    // checks each against what the output prints): the exports' summary table, which is the window's
    // summary panel (widgets/model/summary_rows.cpp), and the import summary the command line prints
    // of an imported trace (app/experiment/import_summary.cpp).
    kInExport = 32,
    kInImport = 64,
    // One of EXPLAIN (ANALYZE, IO)'s figures as explain.c prints them, computed from the explain.*
    // counters: the JSON's explain_io object holds each under its name after "explain_", null where
    // the run does not know it (NaN).
    kInExplainIo = 128,
    // One of an index scan's facts as the JSON's pg_index object holds them, under its name after
    // "pg.": its counts, and its steps as shares of the steps between its visits.
    kInPgIndex = 256,
};

// A stored figure in a summary: a pointer to it, of its type; for reading (FieldView) and for
// writing (FieldSlot).
template <class... T> struct FieldTypes {
    using View = std::variant<const T*...>;
    using Slot = std::variant<T*...>;
};
using SummaryFieldTypes = FieldTypes<std::string, std::uint64_t, std::int64_t, int, double, bool,
                                     std::optional<double>, std::map<int, std::uint64_t>,
                                     std::vector<CollapseInterval>, ExplainIo, std::optional<pg::IndexFacts>>;
using FieldView = SummaryFieldTypes::View;
using FieldSlot = SummaryFieldTypes::Slot;

struct SummaryField {
    std::string_view name; // the key in the JSON's runs and the session, and what layouts call it
    FieldStore store;
    std::string_view label; // what people call it; empty for the counters behind other figures
    std::string_view unit;  // what the printed number counts ("ms", "blocks"); empty for none
    FieldFormat format;
    std::uint16_t flags;
    FieldView (*view)(const RunSummary&); // a stored figure's place; null for a derived one
    FieldSlot (*slot)(RunSummary&);
    double (*derive)(const RunSummary&); // a derived figure's value; null for a stored one

    bool inJson() const { return store == FieldStore::Both || store == FieldStore::Json; }
    bool inSession() const { return store == FieldStore::Both || store == FieldStore::Session; }
    bool has(FieldFlag flag) const { return (flags & flag) != 0; }
};

// Every figure, in the order a session stores them.
std::span<const SummaryField> summaryFieldTable();
// The figure called `name`; throws std::logic_error for a name the table does not have (a layout's
// typo, which its tests find).
const SummaryField& summaryFieldNamed(std::string_view name);

// A figure as a number: a whole number or a real, a flag as 0 or 1, a list's length, a derived
// figure's value; NaN where there is none (text, an absent fraction, a figure with no run time).
double figureNumber(const SummaryField& field, const RunSummary& summary);

// A figure a sweep keeps of each run (app/sweep/sweep_results.h), in the order of the sweep's CSV. A
// mapped one is drawn as a map, shown in the sweep window's cell and written among the CSV's metrics;
// the others (counts that make a row's figures checkable) follow the CSV's noise column.
struct SweepFigure {
    std::string_view field;  // the summary figure's name in the table above
    std::string_view column; // the CSV's column and the maps' file names
    std::string_view title;  // the maps' colour scale
    double scale;            // the column's number per unit of the figure (1e-6: ns as ms)
    bool mapped;
};
// A sweep keeps this many figures of each run, in a fixed array: a grid of millions of runs.
inline constexpr std::size_t kSweepFigureCount = 8;
std::span<const SweepFigure, kSweepFigureCount> sweepFigureTable();

} // namespace la
