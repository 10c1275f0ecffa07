// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <stdexcept>
#include <vector>

struct pg_conn;

namespace la {

// A recording could not go on: the server refused, a query failed, the user cancelled. The message
// names what failed and what to do, and never holds a password. `sqlState` is the server's error
// code where the server refused a statement ("42601"), else empty.
class RecordError : public std::runtime_error {
public:
    explicit RecordError(const QString& what, QString sqlState = {})
        : std::runtime_error(what.toStdString()), m_sqlState(std::move(sqlState)) {}
    QString message() const { return QString::fromStdString(what()); }
    const QString& sqlState() const { return m_sqlState; }

private:
    QString m_sqlState;
};

// One libpq connection, opened as psql opens one: a conninfo string or URI, and the PG* environment
// variables for what it leaves out. Queries run asynchronously so that `cancel` is seen within a
// tenth of a second, and a cancelled query is cancelled on the server too.
class PgSession {
public:
    using Rows = std::vector<QStringList>;

    // Throws RecordError: the server is unreachable, refuses, or the conninfo is malformed (the
    // message quotes it with its password masked, app/record/conninfo_mask.h).
    // `password`, if not empty, is used over any the conninfo or environment give (the window asks
    // for it in a field of its own).
    PgSession(const QString& conninfo, const QString& password, const std::atomic<bool>* cancel);
    ~PgSession();
    PgSession(const PgSession&) = delete;
    PgSession& operator=(const PgSession&) = delete;

    // Runs one statement with $1… parameters (text); its rows, NULL as an empty string. Throws
    // RecordError naming `what` (e.g. "the query") with the server's message, or on cancel.
    Rows query(const QString& sql, const QStringList& params = {}, const QString& what = {});
    // The first column of the first row, or empty.
    QString value(const QString& sql, const QStringList& params = {}, const QString& what = {});

    // The flag later queries watch; null: none (a session that cleans up must finish even after a
    // cancel).
    void setCancel(const std::atomic<bool>* cancel) { m_cancel = cancel; }
    // The flag it watches is set: a RecordError thrown meanwhile is the cancel's.
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    int backendPid() const;
    // "host=/tmp port=5432 dbname=postgres user=me": where it connected, without a password.
    QString description() const;
    // Where the server's notices (RAISE NOTICE, WARNING) go; without one they are dropped (libpq
    // would print them on stderr as they are, terminal escapes and all).
    void setNoticeHandler(std::function<void(const QString& notice)> handler) {
        m_notice = std::move(handler);
    }

private:
    static void receiveNotice(void* session, const char* message);
    void waitForResult();
    QString errorMessage() const;
    pg_conn* m_conn = nullptr;
    const std::atomic<bool>* m_cancel = nullptr;
    std::function<void(const QString&)> m_notice;
};

// `session` watches `cancel` for the life of this object, and no flag after it: a long query of the
// control session (a scan's visits) stops with the recording, its clean-up afterwards still runs.
class CancelScope {
public:
    CancelScope(PgSession& session, const std::atomic<bool>* cancel) : m_session(session) {
        m_session.setCancel(cancel);
    }
    ~CancelScope() { m_session.setCancel(nullptr); }
    CancelScope(const CancelScope&) = delete;
    CancelScope& operator=(const CancelScope&) = delete;

private:
    PgSession& m_session;
};

} // namespace la
