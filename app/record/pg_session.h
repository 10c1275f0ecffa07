// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <atomic>
#include <stdexcept>
#include <vector>

struct pg_conn;

namespace la {

// A recording could not go on: the server refused, a query failed, the user cancelled. The message
// names what failed and what to do, and never holds a password.
class RecordError : public std::runtime_error {
public:
    explicit RecordError(const QString& what) : std::runtime_error(what.toStdString()) {}
    QString message() const { return QString::fromStdString(what()); }
};

// One libpq connection, opened as psql opens one: a conninfo string or URI, and the PG* environment
// variables for what it leaves out. Queries run asynchronously so that `cancel` is seen within a
// tenth of a second, and a cancelled query is cancelled on the server too.
class PgSession {
public:
    using Rows = std::vector<QStringList>;

    // Throws RecordError: the server is unreachable, refuses, or the conninfo is malformed.
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
    int backendPid() const;
    // "host=/tmp port=5432 dbname=postgres user=me": where it connected, without a password.
    QString description() const;
    // libpq's message with any password of the conninfo or PGPASSWORD masked.
    QString scrubbed(const QString& message) const;

private:
    void waitForResult();
    pg_conn* m_conn = nullptr;
    const std::atomic<bool>* m_cancel = nullptr;
    QStringList m_secrets;
};

} // namespace la
