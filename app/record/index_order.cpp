// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/index_order.h"

namespace la {

IndexOrder indexOrder(PgSession& control, const QString& indexOid, const QString& indexName, bool backward) {
    const PgSession::Rows keys = control.query(
        QStringLiteral(
            "SELECT am.amname, pg_get_indexdef(i.indexrelid, k, true), i.indoption[k - 1], "
            "(SELECT quote_ident(n.nspname) || '.' || quote_ident(c.collname) FROM pg_collation c "
            "JOIN pg_namespace n ON n.oid = c.collnamespace WHERE c.oid = i.indcollation[k - 1]) "
            "FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam, "
            "generate_series(1, i.indnkeyatts) k WHERE i.indexrelid = $1::oid ORDER BY k"),
        {indexOid}, QStringLiteral("reading the index's key columns"));
    if (keys.empty() || keys.front().size() < 4)
        throw RecordError(
            QStringLiteral("the server's catalog lists no key column of the index %1").arg(indexName));
    IndexOrder order{keys.front()[0], {}};
    if (order.accessMethod != QLatin1String("btree"))
        return order;
    for (const QStringList& key : keys) {
        const int option = key[2].toInt();
        const bool descending = ((option & 1) != 0) != backward;
        const bool nullsFirst = ((option & 2) != 0) != backward;
        order.keys << QStringLiteral("%1%2 %3 NULLS %4")
                          .arg(key[1], key[3].isEmpty() ? QString() : QStringLiteral(" COLLATE ") + key[3],
                               descending ? QStringLiteral("DESC") : QStringLiteral("ASC"),
                               nullsFirst ? QStringLiteral("FIRST") : QStringLiteral("LAST"));
    }
    return order;
}

QString quotedIdentifier(const QString& name) {
    QString quoted = name;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace la
