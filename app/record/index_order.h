// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "record/pg_session.h"

#include <QString>
#include <QStringList>

namespace la {

// The order in which a scan of an index returns its rows, as ORDER BY says it, from the server's
// catalog: each key column with its collation, its direction and its NULLS, reversed for a backward
// scan. A btree's equal keys come in heap (ctid) order, which the caller adds where it wants them.
struct IndexOrder {
    QString accessMethod; // "btree", "hash", "gist", …
    QStringList keys;     // empty but for a btree: another access method's order ORDER BY cannot say
};

// Throws RecordError where the catalog lists no key column of the index (`indexName`, for the message).
IndexOrder indexOrder(PgSession& control, const QString& indexOid, const QString& indexName, bool backward);

// `name` quoted for SQL as an identifier.
QString quotedIdentifier(const QString& name);

} // namespace la
