// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Waiting for a signal as the event it is: QSignalSpy::wait runs the event loop until the next one
// arrives, where QTRY_COMPARE polls its condition, sleeping 10 ms between turns.

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEvent>
#include <QSignalSpy>

namespace la::test {

// Waits until `spy` has caught `count` signals, each wait woken by a signal; returns how many it caught
// (more than `count` if more had come, fewer if the rest did not come within `timeoutMs`).
// Not for the `destroyed` of an object deleted later while no event loop ran (a dialog closed by the
// test): Qt deletes it back at that level, never inside the spy's nested loop; wait for what closed it
// (QDialog::finished), after which this deletes it.
// The events already queued when the last one came are handled before it returns, objects deleted
// later among them (a finished job): a user's next action comes after that turn of the event loop.
inline qsizetype caught(QSignalSpy& spy, qsizetype count, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    while (spy.count() < count && !deadline.hasExpired())
        spy.wait(static_cast<int>(deadline.remainingTime()));
    QCoreApplication::processEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return spy.count();
}

// Waits until `done` holds, checking it again each time `spy` catches the signal that can change it
// (no polling: a condition that no signal changes would only time out). Says whether it holds.
template <typename Done> bool until(QSignalSpy& spy, Done done, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs);
    while (!done())
        if (deadline.hasExpired() || !spy.wait(static_cast<int>(deadline.remainingTime())))
            return done();
    return true;
}

} // namespace la::test
