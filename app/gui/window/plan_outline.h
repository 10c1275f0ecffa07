// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A recorded query's plan as the window's plan tree shows it (docs/recording.md, "Plans"): every
// node as EXPLAIN nests them, each scan node with EXPLAIN's figures beside the model's and whether
// they agree. Built from what a recording keeps in the summary JSON's and the session's "recorded"
// (untrusted when read from a session) and from the runs' summaries.

#include "experiment/experiment.h"
#include "summary.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace la {

// How a node's figures compare: the model's misses against EXPLAIN's shared read of the node.
enum class PlanMark { None, Agrees, Differs, NotModelled };

// One run's figures of the modelled node.
struct PlanRunFigures {
    QString run; // "A: pg15 model"
    bool observed = false;
    std::uint64_t hits = 0, misses = 0, ios = 0, resets = 0;
    double meanIoBlocks = 0.0;
};

struct PlanRow {
    std::int64_t nodeId = -1; // place in the plan, pre-order from 0
    int depth = 0;
    QString type, relation, index;
    bool scan = false; // reads a relation: one of the recording's nodes
    bool modelled = false;
    // EXPLAIN's own figures of the node (its children's buffers taken off), where it printed them.
    std::optional<double> sharedHit, sharedRead, loops, resets, actualRows;
    // PostgreSQL 19's read-stream lines of the node (docs/explain-io.md).
    std::optional<double> ioCount, ioSize, prefetchAvg;
    QString serverStream;             // what the server's version reads the node through
    QString whyNotModelled;           // a scan node's, as the recording said it
    std::vector<PlanRunFigures> runs; // the modelled node's, one per run
    PlanMark mark = PlanMark::None;
    QString markText; // the mark in words, with the figures it compares
};

struct PlanOutline {
    std::vector<PlanRow> rows; // in plan order, parents before children
    // What the outline lacks and why (the session kept only the scan nodes), empty if nothing.
    QString note;
    int modelledRow = -1;
    bool empty() const { return rows.empty(); }
};

// The plan of `recorded` with the figures of `experiment`'s runs (`summaries`, in run order; fewer
// while runs are still to finish). Empty for an experiment that recorded no plan.
PlanOutline planOutline(const Experiment& experiment, const std::vector<RunSummary>& summaries);

// "A: pg18", "B: pg19": how the window names run `run` of `experiment`.
QString runName(const Experiment& experiment, std::size_t run);

} // namespace la
