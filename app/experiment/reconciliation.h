// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiment/experiment.h"
#include "summary.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace la {

// The blocks a modelled run missed (its Consumed events flagged as misses), in the order it missed
// them, for reconcileRun(). Keeps at most `limit` (4 bytes each): past that it stops keeping them,
// and the reconciliation names no blocks.
class MissedBlocks final : public EventSink {
public:
    explicit MissedBlocks(std::size_t limit = 64u << 20) : m_limit(limit) {}
    void onEvents(std::span<const Event> batch) override;
    // The blocks, or null once more than the limit were missed.
    const std::vector<std::uint32_t>* blocks() const { return m_overflowed ? nullptr : &m_blocks; }

private:
    std::size_t m_limit;
    bool m_overflowed = false;
    std::vector<std::uint32_t> m_blocks;
};

// Whether the model run `run` of `experiment` is one whose figures are reconciled with the server's
// and the trace's (docs/trace-import.md §9): the model of an observed run, or a recorded query's
// model run alone (no trace: PostgreSQL's EXPLAIN is all there is to compare with).
bool reconciles(const Experiment& experiment, std::size_t run);

// The reconciliation of the model run `model` (the experiment's run `run`) with PostgreSQL's own
// count of the scan's reads and the trace's reads of the relation (docs/trace-import.md §9), as the
// compact JSON RunSummary::reconciliation keeps: the three figures, how much of their difference is
// explained and how, the likely cause of the rest, and the first blocks on which model and trace
// differ. `observed` is the observed run's summary (its blocks, PostgreSQL's EXPLAIN), null for a
// model alone; `missed` the model's missed blocks, if kept. A recorded model alone takes the
// recorded plan's figures for the scan into `model.serverExplain`.
std::string reconcileRun(const Experiment& experiment, std::size_t run, const RunSummary* observed,
                         RunSummary& model, const std::vector<std::uint32_t>* missed);

// A reconciliation (as RunSummary::reconciliation keeps it, compact JSON; untrusted when read from a
// session) as an object; empty where there is none or it is not JSON.
QJsonObject reconciliationObject(const std::string& reconciliation);

// A reconciliation in one line: how the figures compare and, where they do not agree, the counts, the
// first blocks that differ and the likely cause; "FIGURES DISAGREE: …" or "FIGURES CANNOT AGREE: …"
// opens such a line. Every front end shows it before the verdict (the window as a banner where the
// figures do not agree). Empty where nothing was compared.
struct ReconciliationLine {
    QString text;
    bool disagrees = false; // the banner's case; false for none
};
ReconciliationLine reconciliationLine(const std::string& reconciliation);

} // namespace la
