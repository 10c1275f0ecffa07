// SPDX-License-Identifier: GPL-3.0-or-later
#include "read_stream.h"

#include "input_error.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace la {

namespace {
// Out of line and cold: the message's strings would otherwise make getBlock() save and restore
// every callee-saved register on each of its calls, a few per block.
[[noreturn, gnu::cold, gnu::noinline]] void throwPastTheEnd(std::uint32_t block,
                                                            std::uint64_t relationBlocks) {
    throw InputError("block " + std::to_string(block) + " is past the end of the relation (" +
                     std::to_string(relationBlocks) + " blocks)");
}
} // namespace

ReadStream::ReadStream(const StreamConfig& config, DistancePolicy& policy, const Mechanics& mechanics,
                       BufferPool& pool, IoBackend& io, BlockSource& source, Tracer& tracer,
                       SummaryBuilder* summary)
    : m_config(config), m_policy(policy), m_mech(mechanics), m_pool(pool), m_io(io),
      m_sim(dynamic_cast<SimDevice*>(&io)), m_source(source), m_tracer(tracer),
      m_summary(summary != nullptr ? summary : &m_ownSummary), m_limits(computeLimits(config, mechanics)),
      m_policyObserves(policy.observesWorkload()) {
    // Room for every pinned buffer plus a pending read that PG19 may grow past a small distance.
    const auto slots =
        std::bit_ceil(static_cast<std::uint64_t>(m_limits.maxPinned) + 2 * m_limits.ioCombineLimit + 4);
    m_queue.resize(slots);
    m_queueMask = slots - 1;
    m_ios.resize(std::bit_ceil(static_cast<std::size_t>(m_limits.maxIos)));
    m_iosMask = m_ios.size() - 1;
    if (mechanics.backward == BackwardRule::ReversedRanges) {
        // A range holds two blocks at least, and the queue holds every pinned one.
        m_ranges.resize(std::bit_ceil(slots / 2 + 1));
        m_rangesMask = m_ranges.size() - 1;
    }
    m_relationBlocks = source.relationBlocks();
    // READ_STREAM_USE_BATCHING: what one look-ahead starts reaches the I/O method together. The real
    // backends' io_uring queue submits that way in any case, their worker pool read by read.
    if (m_sim != nullptr && config.batchingFlag)
        m_sim->submitInBatches();
    // The budget is the limit less max(8, the other pins + the stream's + the consumer's + a
    // forwarded one), plus the forwarded one: it can only fall short of a read once the stream's pins
    // and the read reach the limit less max(8, the other pins). Below that the check is skipped.
    setOtherPins(config.otherPins);
    m_nextIoId = 1u + config.streamIndex;
    m_ioIdStep = std::max<std::uint32_t>(1, config.streams);
    m_now = io.now();
    m_policy.start(m_d, m_limits, config.fullFlag);
    emit(EventKind::DistanceChanged);
}

void ReadStream::setOtherPins(int pins) {
    m_config.otherPins = pins;
    m_budgetCheckFrom = m_limits.backendPinLimit > 0
                            ? m_limits.backendPinLimit - std::max(kRefCountArrayEntries, pins)
                            : std::numeric_limits<int>::max();
}

void ReadStream::noteDistance(const Distances& before) {
    if (before.readahead != m_d.readahead || before.combine != m_d.combine)
        emit(EventKind::DistanceChanged);
}

bool ReadStream::getBlock(std::uint32_t& block) {
    // The stream has ended where its source asked for a reset: as PostgreSQL calls no callback
    // between the end and read_stream_reset(), nothing past the marker is taken before the reset.
    if (m_resetRequested)
        return false;
    if (m_hasUngot) {
        m_hasUngot = false;
        block = m_ungot;
        return true;
    }
    const SourceItem item = m_source.next();
    if (item.step == SourceStep::Block) {
        if (item.block >= m_relationBlocks)
            throwPastTheEnd(item.block, m_source.relationBlocks());
        block = item.block;
        m_pool.prefetch(block); // pinned a little later, when its read is started
        emit(EventKind::Requested, block);
        return true;
    }
    if (item.step == SourceStep::Reset)
        m_resetRequested = true;
    return false;
}

void ReadStream::endOfStream() {
    // Remember how far we were looking (the 2024/2025 restore-after-reset proposals save it here).
    m_saved.readahead = std::max(m_saved.readahead, m_d.readahead);
    m_saved.combine = std::max(m_saved.combine, m_d.combine);
    m_d.readahead = 0;
    if (m_mech.separateCombineDistance)
        m_d.combine = 0;
    emit(EventKind::EndOfStream);
}

std::uint32_t ReadStream::pendingBlockAt(int i) const {
    // Only the what-if starts a descending run in callback order; CF 7035 reads it upward.
    return m_pendingOrder == PendingOrder::Descending
               ? m_pendingStart + static_cast<std::uint32_t>(m_pendingLen - 1 - i)
               : m_pendingStart + static_cast<std::uint32_t>(i);
}

bool ReadStream::tryMerge(std::uint32_t block) {
    if (m_pendingLen == 0)
        return false;
    if (m_pendingOrder == PendingOrder::Ascending &&
        block == m_pendingStart + static_cast<std::uint32_t>(m_pendingLen)) {
        ++m_pendingLen;
        return true;
    }
    return m_pendingStart > 0 && block == m_pendingStart - 1 && tryMergeBelow(block);
}

bool ReadStream::tryMergeBelow(std::uint32_t block) {
    const bool lone = m_pendingLen == 1 && m_pendingOrder == PendingOrder::Ascending;
    if (m_mech.backward == BackwardRule::ReversedRanges) {
        // A forwarded pin is the pending read's first block, so the read cannot start lower
        // (docs/read-stream-model.md §15.1).
        if (m_hasForwarded || !(lone || m_pendingOrder == PendingOrder::Reversed))
            return false;
        m_pendingOrder = PendingOrder::Reversed;
    } else if (m_config.backwardCombining && (lone || m_pendingOrder == PendingOrder::Descending)) {
        m_pendingOrder = PendingOrder::Descending;
    } else {
        return false;
    }
    m_pendingStart = block;
    ++m_pendingLen;
    return true;
}

void ReadStream::pushEntry(std::uint32_t block, std::uint32_t frame, std::uint8_t flags) {
    m_queue[m_tail & m_queueMask] = Entry{block, frame, flags};
    ++m_tail;
    ++m_pinned;
}

void ReadStream::startOp(Op& op) {
    ++m_iosCount; // `op` is the ring's next slot already (newOp)
    if (op.device) {
        ReadRequest request;
        request.ioId = op.ioId;
        request.firstBlock = op.firstMiss;
        request.nblocks = op.lastMiss - op.firstMiss + 1;
        request.advice = op.advice;
        request.synchronous = op.synchronous;
        ioStart(request);
    }
    // read_stream_count_io: after the read joined the ones in progress.
    m_explainIo->countIo(static_cast<int>(op.missBlocks), static_cast<int>(m_iosCount));
    emit(EventKind::ReadStarted, op.lowBlock, op.ioId, op.missBlocks);
    if (m_policyObserves)
        m_policy.onReadStarted(static_cast<int>(op.missBlocks));
}

bool ReadStream::adviseRead(std::uint32_t low, bool suppressAdvice) {
    if (!m_limits.adviceEnabled)
        return false;
    const bool continues = static_cast<std::int64_t>(low) == m_seqBlock;
    if (m_mech.advice == AdviceRule::NonSequential)
        return !suppressAdvice && !continues;
    if (continues)
        return m_seqUntilProcessed >= 0; // keep advising until the preadvs catch up (7ea8cd1566)
    m_seqUntilProcessed = low;
    return m_pinned > 0; // with nothing pinned the preadv follows at once
}

BufferPool::Pinned ReadStream::pinHead(std::uint32_t block) {
    if (!m_hasForwarded)
        return m_pool.pin(block);
    m_hasForwarded = false;
    return m_forwardedPin;
}

void ReadStream::dropPending(int n) {
    if (m_pendingOrder != PendingOrder::Descending)
        m_pendingStart += static_cast<std::uint32_t>(n);
    m_pendingLen -= n;
    // What is left of a what-if run is one block; a reversed range is whole once nothing is left.
    if (m_pendingLen == 0 || (m_pendingLen == 1 && m_pendingOrder == PendingOrder::Descending))
        m_pendingOrder = PendingOrder::Ascending;
}

void ReadStream::startHitCall(std::uint32_t block, std::uint32_t frame) {
    // A hit is always a 1-block call with no I/O, whatever follows it.
    pushEntry(block, frame, 0);
    emit(EventKind::Hit, block);
    dropPending(1);
    const Distances before = m_d;
    m_policy.onNoIo(m_d, m_limits, iosInProgress());
    noteDistance(before);
}

ReadStream::Op& ReadStream::newOp(bool synchronous) {
    Op& op = iosAt(m_iosCount);
    op = Op{};
    op.ioId = m_nextIoId;
    m_nextIoId += m_ioIdStep;
    op.headSeq = m_tail;
    op.synchronous = synchronous;
    return op;
}

void ReadStream::addMiss(Op& op, std::uint32_t block, const BufferPool::Pinned& pinned) {
    // A block an earlier read of this stream is still reading: the call joins that read (PG17's
    // WaitReadBuffers, PG19's foreign I/O) and is still an I/O of the stream, but PostgreSQL counts
    // the block as a hit (TrackBufferHit; docs/mechanics.md, inProgressHeadIsHit).
    const bool joins = pinned.result == PinResult::InProgress;
    pushEntry(block, pinned.frame, joins ? std::uint8_t{0} : event_flag::miss);
    ++op.missBlocks;
    ++op.nentries;
    if (pinned.result == PinResult::Allocated) {
        op.firstMiss = op.device ? std::min(op.firstMiss, block) : block;
        op.lastMiss = op.device ? std::max(op.lastMiss, block) : block;
        op.device = true;
    }
    emit(joins ? EventKind::Hit : EventKind::Miss, block, op.ioId);
}

void ReadStream::extendRead(Op& op, int nblocks) {
    for (int i = 1; i < nblocks; ++i) {
        const std::uint32_t block = pendingBlockAt(i);
        const BufferPool::Pinned pinned = m_pool.pin(block);
        if (pinned.result == PinResult::Allocated) {
            addMiss(op, block, pinned);
            continue;
        }
        // A block an earlier read is still reading ends this read before it, so that no device read
        // covers it twice (docs/mechanics.md); so does a hit, where the version splits before hits.
        if (pinned.result == PinResult::InProgress || m_mech.splitBeforeHit) {
            m_hasForwarded = true; // the next call starts with this pin
            m_forwardedPin = pinned;
        } else {
            // The read ends at the hit and keeps it, with no distance decrement for it.
            pushEntry(block, pinned.frame, 0);
            ++op.nentries;
            emit(EventKind::Hit, block);
        }
        return;
    }
}

int ReadStream::pinBudget(int wanted) {
    const bool completing = m_pendingOrder == PendingOrder::Completing;
    // GetAdditionalPinLimit(): the backend's limit less what it holds (the other pins, the stream's,
    // the consumer's buffer, a forwarded one), counted as the private array's 8 at least; the
    // forwarded pin is added back.
    const int forwarded = m_hasForwarded ? 1 : 0;
    const int held = m_config.otherPins + m_pinned + (m_holdingConsumed ? 1 : 0) + forwarded;
    int budget = std::max(0, m_limits.backendPinLimit - std::max(kRefCountArrayEntries, held)) + forwarded;
    // Progress is guaranteed with nothing to hand out, and for a reversed range under way, whose
    // pinned part cannot be handed out before the rest (docs/read-stream-model.md §15.3).
    if (budget == 0 && (m_pinned == 0 || completing))
        budget = 1;
    if (budget >= wanted)
        return wanted;
    // No more look-ahead until buffers are released; a short read only if nothing is pinned or the
    // read continues a range.
    const Distances before = m_d;
    m_d.readahead = std::min(m_d.readahead, m_pinned + budget);
    noteDistance(before);
    return m_pinned > 0 && !completing ? 0 : budget;
}

void ReadStream::recordRange() {
    // The range covers the whole run, however many calls it takes to start it.
    m_ranges[(m_rangesHead + m_rangesCount) & m_rangesMask] =
        ReversedRange{m_tail, static_cast<std::uint32_t>(m_pendingLen)};
    ++m_rangesCount;
    m_summary->countReversedRange();
    m_pendingOrder = PendingOrder::Completing;
}

bool ReadStream::startPending(bool suppressAdvice) {
    const std::uint32_t first = pendingBlockAt(0);
    const bool advice =
        adviseRead(m_pendingOrder == PendingOrder::Descending ? m_pendingStart : first, suppressAdvice);
    // A reversed range must be pinned whole before the consumer reaches it: a read of it is
    // started even with max_ios in flight, once the oldest of them is waited for.
    if (m_pendingOrder == PendingOrder::Completing && iosInProgress() == m_limits.maxIos)
        retireOldestIo();
    int nblocks = m_pendingLen;
    if (m_pinned + nblocks >= m_budgetCheckFrom) {
        nblocks = pinBudget(nblocks);
        if (nblocks == 0)
            return false;
    }
    if (m_pendingOrder == PendingOrder::Reversed)
        recordRange();
    const BufferPool::Pinned head = pinHead(first);
    const bool inProgressHit = head.result == PinResult::InProgress && m_mech.inProgressHeadIsHit;
    if (head.result == PinResult::Hit || inProgressHit) {
        startHitCall(first, head.frame);
        return true;
    }
    Op& op = newOp(m_limits.synchronous);
    op.advice = advice;
    addMiss(op, first, head);
    extendRead(op, nblocks);
    const auto taken = static_cast<int>(op.nentries);
    op.lowBlock = m_pendingOrder == PendingOrder::Descending
                      ? m_pendingStart + static_cast<std::uint32_t>(m_pendingLen - taken)
                      : first;
    dropPending(taken);
    m_seqBlock = static_cast<std::int64_t>(op.lowBlock) + taken;
    startOp(op);
    return true;
}

bool ReadStream::shouldLookAhead() const {
    if (m_d.readahead == 0 || iosInProgress() >= m_limits.maxIos)
        return false;
    // A lone pending read may grow to the combine distance even past the read-ahead distance.
    if (m_pendingLen > 0 && m_pinned == 0 && m_pendingLen < m_d.combine)
        return true;
    return m_pinned + m_pendingLen < m_d.readahead;
}

bool ReadStream::shouldIssueNow() const {
    if (m_pendingLen == 0 || iosInProgress() >= m_limits.maxIos)
        return false;
    if (m_d.readahead == 0 || m_pendingLen >= m_d.combine)
        return true;
    return m_pinned == 0 && !shouldLookAhead();
}

bool ReadStream::keepLooking() const {
    if (m_mech.loop == LookAheadLoop::CombineDistance)
        return shouldLookAhead();
    return iosInProgress() < m_limits.maxIos && m_pinned + m_pendingLen < m_d.readahead;
}

bool ReadStream::pendingReadFull() const {
    return m_mech.loop == LookAheadLoop::CombineDistance ? shouldIssueNow()
                                                         : m_pendingLen == m_limits.ioCombineLimit;
}

bool ReadStream::issueAfterLooking() const {
    if (m_mech.loop == LookAheadLoop::CombineDistance)
        return shouldIssueNow();
    const bool reachedDistance = m_mech.loop == LookAheadLoop::ExactDistance ? m_pendingLen == m_d.readahead
                                                                             : m_pendingLen >= m_d.readahead;
    return m_pendingLen > 0 && iosInProgress() < m_limits.maxIos &&
           (m_pendingLen == m_limits.ioCombineLimit || (reachedDistance && m_pinned == 0) ||
            m_d.readahead == 0);
}

void ReadStream::lookAhead(bool suppressAdvice) {
    while (keepLooking()) {
        if (pendingReadFull()) {
            startPending(suppressAdvice);
            suppressAdvice = false;
            continue;
        }
        std::uint32_t block = 0;
        if (!getBlock(block)) {
            endOfStream();
            break;
        }
        if (tryMerge(block))
            continue;
        while (m_pendingLen > 0) {
            const bool started = startPending(suppressAdvice);
            suppressAdvice = false;
            // The rest of a reversed range is started whatever is in flight.
            if (!started ||
                (iosInProgress() == m_limits.maxIos && m_pendingOrder != PendingOrder::Completing)) {
                m_hasUngot = true;
                m_ungot = block;
                emit(EventKind::Unget, block);
                return;
            }
        }
        m_pendingStart = block;
        m_pendingLen = 1;
        m_pendingOrder = PendingOrder::Ascending;
    }
    // The pending read is held back so it can still grow, unless it is full, the stream has ended,
    // or it has reached the distance with nothing else pinned.
    if (issueAfterLooking())
        startPending(suppressAdvice);
    // Whichever start began a reversed range, the consumer must find all of it pinned.
    if (m_pendingOrder == PendingOrder::Completing)
        finishRange();
}

void ReadStream::finishRange() {
    while (m_pendingOrder == PendingOrder::Completing)
        startPending(false);
}

const ReadStream::Op& ReadStream::finishOldestIo(ReadOutcome& outcome, std::uint64_t waiterSeq) {
    const Op& op = iosAt(0);
    m_iosHead = (m_iosHead + 1) & m_iosMask;
    --m_iosCount;
    outcome = op.outcome;
    if (!op.alreadyWaited && op.device) {
        outcome = ioWait(op.ioId);
        m_now = ioNow();
        if (outcome.blocked) {
            emit(EventKind::Waited, op.lowBlock, op.ioId, op.missBlocks, 0, m_now - outcome.waitNs);
        }
    }
    for (std::uint64_t seq = op.headSeq; seq < op.headSeq + op.nentries; ++seq) {
        const Entry& entry = m_queue[seq & m_queueMask];
        if (entry.flags & event_flag::miss)
            m_pool.markValid(entry.frame);
    }
    if (outcome.blocked)
        m_queue[waiterSeq & m_queueMask].flags |= event_flag::waited;
    emit(EventKind::ReadCompleted, op.lowBlock, op.ioId, op.missBlocks);
    if (outcome.blocked || op.synchronous) // read_stream_count_wait: a synchronous read counts as a wait
        m_explainIo->countWait();
    if (static_cast<std::int64_t>(op.lowBlock) == m_seqUntilProcessed)
        m_seqUntilProcessed = -1;
    return op;
}

std::int64_t ReadStream::completeOldestIo(std::uint64_t waiterSeq) {
    ReadOutcome outcome;
    const Op& op = finishOldestIo(outcome, waiterSeq);
    const Distances before = m_d;
    CompletedRead read;
    read.neededWait = outcome.blocked || op.synchronous;
    read.advice = op.advice;
    read.nblocks = static_cast<int>(op.missBlocks);
    read.latencyNs = outcome.latencyNs;
    m_policy.onCompleted(m_d, m_limits, read);
    noteDistance(before);
    return op.alreadyWaited ? 0 : outcome.waitNs;
}

void ReadStream::retireOldestIo() {
    // Waited for here, in look-ahead, and not again when the consumer reaches its buffers; the
    // distances keep still, only their decay is held off (read_stream_wait_oldest_io).
    ReadOutcome outcome;
    finishOldestIo(outcome, iosAt(0).headSeq);
    m_policy.onReadRetiredEarly(m_d, m_limits);
}

void ReadStream::releaseConsumed() {
    if (m_holdingConsumed) {
        m_pool.unpin(m_consumedFrame);
        m_holdingConsumed = false;
    }
}

void ReadStream::handOut(std::uint32_t& block, std::int64_t waitNs, bool fastPath) {
    const Entry entry = m_queue[m_head & m_queueMask];
    block = entry.block;
    // read_stream_count_prefetch, with the buffer handed out still pinned; a reset's drain counts
    // too, as PostgreSQL drains through read_stream_next_buffer(). The fast path holds the next
    // block's pin, one in PostgreSQL's books, and at the end of the stream it samples nothing.
    if (!fastPath)
        m_explainIo->countPrefetch(m_pinned);
    else if (m_pinned > 1)
        m_explainIo->countPrefetch(m_pinned - 1);
    if (m_draining) {
        ++m_head;
        --m_pinned;
        m_pool.unpin(entry.frame);
        return;
    }
    // Sampled as PostgreSQL's EXPLAIN IO samples it: with the buffer being handed out still pinned.
    emit(EventKind::Consumed, block, 0, 0, entry.flags);
    ++m_head;
    --m_pinned;
    ++m_position;
    m_holdingConsumed = true;
    m_consumedFrame = entry.frame;
    if (m_policyObserves)
        m_policy.onConsumed(m_now, waitNs);
}

void ReadStream::waitAtOnce(Op& op) {
    op.outcome = ioWait(op.ioId);
    m_now = ioNow();
    op.alreadyWaited = true;
    if (op.outcome.blocked) {
        emit(EventKind::Waited, op.lowBlock, op.ioId, op.missBlocks, 0, m_now - op.outcome.waitNs);
        m_queue[(m_tail - 1) & m_queueMask].flags |= event_flag::waited;
    }
}

void ReadStream::fastPathMiss(std::uint32_t block, const BufferPool::Pinned& pinned) {
    // At distance 1 a background worker could not beat a read performed right away.
    Op& op = newOp(m_limits.synchronous || m_mech.fastPathReadsAtOnce);
    op.advice = m_limits.adviceEnabled;
    op.lowBlock = block;
    addMiss(op, block, pinned);
    m_seqBlock = static_cast<std::int64_t>(block) + 1;
    startOp(op);
    if (m_mech.fastPathReadsAtOnce && op.device)
        waitAtOnce(op);
}

bool ReadStream::fastPathNext(std::uint32_t& block) {
    // All-cached fast path: one pinned buffer, swapped for the next block on every call.
    m_detour = Detour::None;
    std::uint32_t next = 0;
    if (!getBlock(next)) {
        endOfStream();
    } else if (const BufferPool::Pinned pinned = m_pool.pin(next); pinned.result == PinResult::Hit) {
        emit(EventKind::Hit, next);
        pushEntry(next, pinned.frame, 0);
        m_detour = Detour::FastPath;
    } else {
        fastPathMiss(next, pinned);
    }
    handOut(block, 0, true);
    return true;
}

void ReadStream::maybeEnterFastPath() {
    if (m_config.perBufferData || m_iosCount > 0 || m_hasForwarded || m_pinned != 1 || m_d.readahead != 1 ||
        m_pendingLen != 0 || m_rangesCount != 0)
        return;
    if (m_mech.separateCombineDistance && m_d.combine != 1)
        return;
    m_detour = Detour::FastPath;
}

void ReadStream::beginReversed() {
    const ReversedRange range = m_ranges[m_rangesHead];
    m_rangesHead = (m_rangesHead + 1) & m_rangesMask;
    --m_rangesCount;
    // Every read of the range completes first, in order; the consumer waits for its highest block,
    // which comes out first.
    const std::uint64_t firstOut = m_head + range.nblocks - 1;
    std::int64_t waitNs = 0;
    for (std::uint64_t seq = m_head; seq <= firstOut; ++seq)
        if (m_iosCount > 0 && iosAt(0).headSeq == seq)
            waitNs += completeOldestIo(firstOut);
    m_reverseLeft = m_reverseSize = range.nblocks;
    m_reverseWaitNs = waitNs;
    m_detour = Detour::Reversed;
}

bool ReadStream::nextReversed(std::uint32_t& block) {
    --m_reverseLeft;
    const Entry entry = m_queue[(m_head + m_reverseLeft) & m_queueMask];
    block = entry.block;
    // The range's pins count as the stream's until its last buffer is out (EXPLAIN samples them).
    m_explainIo->countPrefetch(m_pinned);
    if (m_draining) {
        m_pool.unpin(entry.frame);
    } else {
        emit(EventKind::Consumed, block, 0, 0, entry.flags);
        ++m_position;
        m_holdingConsumed = true;
        m_consumedFrame = entry.frame;
        if (m_policyObserves)
            m_policy.onConsumed(m_now, m_reverseWaitNs);
        m_reverseWaitNs = 0;
    }
    // No look-ahead while a range is handed back: its queue entries are still taken.
    if (m_reverseLeft == 0) {
        m_detour = Detour::None;
        m_head += m_reverseSize;
        m_pinned -= static_cast<int>(m_reverseSize);
        lookAhead(false);
    }
    return true;
}

// Flattened: everything the stream does for one buffer becomes one function, instead of a dozen
// calls per block that each save and restore registers and reload the stream's state. A reversed
// range's steps stay out of line (noinline), off the forward path.
[[gnu::flatten]] bool ReadStream::nextBuffer(std::uint32_t& block) {
    releaseConsumed();
    m_now = ioNow();
    if (m_detour != Detour::None)
        return m_detour == Detour::FastPath ? fastPathNext(block) : nextReversed(block);
    if (m_pinned == 0) {
        if (m_d.readahead == 0)
            return false;
        lookAhead(true);
        if (m_pinned == 0)
            return false;
    }
    if (m_rangesCount > 0 && m_ranges[m_rangesHead].headSeq == m_head) [[unlikely]] {
        beginReversed();
        return nextReversed(block);
    }
    std::int64_t waitNs = 0;
    if (m_iosCount > 0 && iosAt(0).headSeq == m_head)
        waitNs = completeOldestIo(m_head);
    handOut(block, waitNs);
    lookAhead(false);
    maybeEnterFastPath();
    return true;
}

void ReadStream::reset() {
    m_now = ioNow();
    Distances keep = m_saved;
    keep.readahead = std::max(keep.readahead, m_d.readahead);
    keep.combine = std::max(keep.combine, m_d.combine);
    m_d.readahead = 0;
    m_hasUngot = false;
    m_detour = Detour::None; // never mid-range: the consumer resets a stream that has ended
    // Drain: everything still pinned or in flight is waited for and released, as PostgreSQL does.
    m_draining = true;
    std::uint32_t discarded = 0;
    while (nextBuffer(discarded)) {
    }
    m_draining = false;
    if (m_hasForwarded)
        m_pool.unpin(m_forwardedPin.frame);
    m_hasForwarded = false;
    m_pendingLen = 0;
    m_pendingOrder = PendingOrder::Ascending;
    m_resetRequested = false;

    m_policy.start(m_d, m_limits, false);
    if (m_config.restoreAfterReset && keep.readahead > 0) {
        m_d.readahead = keep.readahead;
        m_d.combine = std::max(m_d.combine, std::min(keep.combine, m_limits.ioCombineLimit));
    }
    m_saved = Distances{0, 0, 0};
    emit(EventKind::Reset);
}

void ReadStream::pause() {
    m_paused = m_d;
    m_d.readahead = 0;
    m_d.combine = 0;
    if (m_detour == Detour::FastPath) // a range being handed back goes on
        m_detour = Detour::None;
    emit(EventKind::DistanceChanged);
}

void ReadStream::resume() {
    m_d.readahead = m_paused.readahead;
    m_d.combine = m_paused.combine;
    emit(EventKind::DistanceChanged);
}

} // namespace la
