// SPDX-License-Identifier: GPL-3.0-or-later
// Every enum's names, as files, options and messages spell them: one table each, read both ways.
#include "enum_names.h"

#include "buffer_strategy.h"
#include "direction.h"
#include "input_error.h"
#include "io/event_csv.h"
#include "io_mode.h"
#include "message_text.h"
#include "observed/trace_format.h"
#include "pg/checksum_mode.h"
#include "pg/index_batches.h"

namespace la {

namespace {

constexpr EnumName<EventKind> kEventKindNames[] = {
    {EventKind::Requested, "requested"},
    {EventKind::Hit, "hit"},
    {EventKind::Miss, "miss"},
    {EventKind::ReadStarted, "read_started"},
    {EventKind::ReadCompleted, "read_completed"},
    {EventKind::Waited, "waited"},
    {EventKind::Consumed, "consumed"},
    {EventKind::DistanceChanged, "distance"},
    {EventKind::Reset, "reset"},
    {EventKind::Unget, "unget"},
    {EventKind::EndOfStream, "end_of_stream"},
    {EventKind::DeviceReadStarted, "device_read_started"},
    {EventKind::DeviceReadCompleted, "device_read_completed"},
};
static_assert(namesEvery(kEventKindNames, EventKind::DeviceReadCompleted));

constexpr EnumName<TraceFormat> kTraceFormatNames[] = {
    {TraceFormat::Auto, "auto"},     {TraceFormat::Strace, "strace"},
    {TraceFormat::Perf, "perf"},     {TraceFormat::LookaheadCsv, "lookahead-csv"},
    {TraceFormat::Kernel, "kernel"},
};
static_assert(namesEvery(kTraceFormatNames, TraceFormat::Kernel));

constexpr EnumName<IoMethod> kIoMethodNames[] = {
    {IoMethod::Sync, "sync"},
    {IoMethod::Worker, "worker"},
    {IoMethod::IoUring, "io_uring"},
    {IoMethod::IoUring, "uring"}, // the spelling of earlier versions
};
static_assert(namesEvery(kIoMethodNames, IoMethod::IoUring));

constexpr EnumName<pg::ChecksumMode> kChecksumModeNames[] = {
    {pg::ChecksumMode::Auto, "auto"},
    {pg::ChecksumMode::On, "on"},
    {pg::ChecksumMode::Off, "off"},
};
static_assert(namesEvery(kChecksumModeNames, pg::ChecksumMode::Off));

constexpr EnumName<Direction> kDirectionNames[] = {
    {Direction::Forward, "forward"},
    {Direction::Backward, "backward"},
};
static_assert(namesEvery(kDirectionNames, Direction::Backward));

constexpr EnumName<pg::IndexBatches> kIndexBatchesNames[] = {
    {pg::IndexBatches::Continue, "continue"},
    {pg::IndexBatches::Reset, "reset"},
    {pg::IndexBatches::Ring, "ring"},
};
static_assert(namesEvery(kIndexBatchesNames, pg::IndexBatches::Ring));

constexpr EnumName<StrategyChoice> kStrategyChoiceNames[] = {
    {StrategyChoice::Auto, "auto"},
    {StrategyChoice::None, "none"},
    {StrategyChoice::BulkRead, "bulkread"},
};
static_assert(namesEvery(kStrategyChoiceNames, StrategyChoice::BulkRead));

} // namespace

const char* eventKindName(EventKind kind) {
    return nameIn(kEventKindNames, kind, "unknown");
}

std::optional<EventKind> eventKindNamed(std::string_view name) {
    return valueNamed(kEventKindNames, name);
}

const char* traceFormatName(TraceFormat format) {
    return nameIn(kTraceFormatNames, format, "auto");
}

std::optional<TraceFormat> traceFormatIfNamed(std::string_view name) {
    return valueNamed(kTraceFormatNames, name);
}

TraceFormat traceFormatNamed(std::string_view name) {
    if (const std::optional<TraceFormat> format = traceFormatIfNamed(name))
        return *format;
    throw InputError("--trace-format '" + excerpt(name) + "': choose auto, " + traceFormatChoices());
}

const char* ioMethodName(IoMethod method) {
    return nameIn(kIoMethodNames, method, "worker");
}

std::optional<IoMethod> ioMethodNamed(std::string_view name) {
    return valueNamed(kIoMethodNames, name);
}

pg::ChecksumMode pg::checksumModeNamed(const std::string& name) {
    return valueNamed(kChecksumModeNames, name).value_or(ChecksumMode::Auto);
}

const char* directionName(Direction direction) {
    return nameIn(kDirectionNames, direction, "forward");
}

std::optional<Direction> directionNamed(std::string_view name) {
    return valueNamed(kDirectionNames, name);
}

const char* pg::indexBatchesName(IndexBatches batches) {
    return nameIn(kIndexBatchesNames, batches, "continue");
}

std::optional<pg::IndexBatches> pg::indexBatchesNamed(std::string_view name) {
    return valueNamed(kIndexBatchesNames, name);
}

const char* strategyChoiceName(StrategyChoice choice) {
    return nameIn(kStrategyChoiceNames, choice, "auto");
}

std::optional<StrategyChoice> strategyChoiceNamed(std::string_view name) {
    return valueNamed(kStrategyChoiceNames, name);
}

} // namespace la
