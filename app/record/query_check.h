// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/pg_session.h"

#include <QString>

namespace la {

// Refuses `sql` unless it is a query that only reads (docs/recording.md, "What record runs on the
// server"), asking the server twice: it must take it as a cursor's query (DECLARE takes a SELECT,
// VALUES, TABLE or WITH … SELECT only, and no data-modifying WITH), and its plan must hold no node
// that writes (ModifyTable, which carries an "Operation": INSERT, UPDATE, DELETE, MERGE; LockRows:
// FOR UPDATE/SHARE). Run inside a read-only transaction, the last guard: that transaction is
// rolled back. Returns the plan, EXPLAIN (VERBOSE, FORMAT JSON) of it. Throws RecordError naming
// `what` ("--query").
QString requireReadOnlyQuery(PgSession& session, const QString& sql, const QString& what);

// The node of an EXPLAIN (FORMAT JSON) plan that writes, as "ModifyTable (Insert)", or empty.
QString writingNode(const QByteArray& planJson);

// A read-only transaction on `session` for the life of this object, rolled back at its end: whatever
// a statement inside it did is undone. A session cancelled meanwhile is closed instead, which rolls
// it back all the same.
class ReadOnlyTransaction {
public:
    explicit ReadOnlyTransaction(PgSession& session);
    ~ReadOnlyTransaction();
    ReadOnlyTransaction(const ReadOnlyTransaction&) = delete;
    ReadOnlyTransaction& operator=(const ReadOnlyTransaction&) = delete;

private:
    PgSession& m_session;
};

// The query as the server takes it: trimmed, without its trailing semicolons.
QString withoutTrailingSemicolons(QString query);

} // namespace la
