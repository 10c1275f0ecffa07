// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/recorded_scan.h"

#include <QRegularExpression>

#include <limits>

namespace la {

namespace {

RecordedRelation relationNamed(PgSession& session, const QString& schema, const QString& name) {
    const PgSession::Rows rows = session.query(
        QStringLiteral(
            "SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname), c.oid, "
            "pg_relation_filepath(c.oid), pg_relation_size(c.oid) / current_setting('block_size')::int "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relname = $2 AND ($1 = '' OR n.nspname = $1) "
            "ORDER BY n.nspname = ANY (current_schemas(true)) DESC LIMIT 1"),
        {schema, name}, QStringLiteral("finding the relation ") + name);
    if (rows.empty() || rows.front().size() < 4)
        throw RecordError(
            QStringLiteral("the plan scans %1, which the server's catalog does not list").arg(name));
    const QStringList& row = rows.front();
    return {row[0], row[1], row[2], row[3].toULongLong()};
}

// "smallint" → "int2" and so on; empty for a type the btree reader cannot compare.
QString integerKeyType(const QString& sqlType) {
    if (sqlType == QLatin1String("smallint"))
        return QStringLiteral("int2");
    if (sqlType == QLatin1String("integer"))
        return QStringLiteral("int4");
    if (sqlType == QLatin1String("bigint"))
        return QStringLiteral("int8");
    return {};
}

qint64 typeLimit(const QString& keyType, bool upper) {
    if (keyType == QLatin1String("int2"))
        return upper ? std::numeric_limits<qint16>::max() : std::numeric_limits<qint16>::min();
    if (keyType == QLatin1String("int4"))
        return upper ? std::numeric_limits<qint32>::max() : std::numeric_limits<qint32>::min();
    return upper ? std::numeric_limits<qint64>::max() : std::numeric_limits<qint64>::min();
}

} // namespace

std::optional<KeyCondition> keyRangeOf(const QString& condition, const QString& column,
                                       const QString& keyType, QString& why) {
    KeyCondition range{keyType, typeLimit(keyType, false), typeLimit(keyType, true)};
    // One comparison: optional qualifier, the column, an operator, an integer (perhaps quoted and cast).
    static const QRegularExpression comparison(QStringLiteral(
        R"re(^\(*\s*(?:[\w"]+\.)?"?(\w+)"?\s*(<=|>=|=|<|>)\s*\(?'?(-?\d+)'?\)?(?:::[\w ]+)?\s*\)*$)re"));
    const QStringList parts = condition.split(QStringLiteral(" AND "));
    for (const QString& part : parts) {
        const QRegularExpressionMatch match = comparison.match(part.trimmed());
        bool ok = false;
        const qint64 value = match.hasMatch() ? match.captured(3).toLongLong(&ok) : 0;
        if (!match.hasMatch() || !ok || match.captured(1) != column) {
            why =
                QStringLiteral("its index condition %1 is not a range on the key %2").arg(condition, column);
            return std::nullopt;
        }
        const QString op = match.captured(2);
        if (op == QLatin1String("=") || op == QLatin1String(">="))
            range.lo = std::max(range.lo, value);
        if (op == QLatin1String("=") || op == QLatin1String("<="))
            range.hi = std::min(range.hi, value);
        if (op == QLatin1String(">") && value < std::numeric_limits<qint64>::max())
            range.lo = std::max(range.lo, value + 1);
        if (op == QLatin1String("<") && value > std::numeric_limits<qint64>::min())
            range.hi = std::min(range.hi, value - 1);
    }
    if (range.lo > range.hi) {
        why = QStringLiteral("its index condition %1 selects no key").arg(condition);
        return std::nullopt;
    }
    return range;
}

RecordedScan recordedScanOf(const ExplainNode& node, const ExplainNode& heapNode, PgSession& session) {
    RecordedScan recorded;
    recorded.node = node;
    recorded.heap = relationNamed(session, heapNode.schema, heapNode.relation);
    if (node.index.isEmpty())
        return recorded;
    // An index lives in its table's schema.
    recorded.index = relationNamed(session, heapNode.schema, node.index);
    if (node.nodeType != QLatin1String("Index Scan")) {
        recorded.whyNoKeyRange = QStringLiteral("it is an %1, not an Index Scan").arg(node.nodeType);
        return recorded;
    }
    const PgSession::Rows key = session.query(
        QStringLiteral(
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod), am.amname, i.indnatts FROM pg_index i "
            "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] "
            "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam "
            "WHERE i.indexrelid = $1::oid"),
        {recorded.index->oid}, QStringLiteral("reading the index's key"));
    if (key.empty() || key.front().size() < 4) {
        recorded.whyNoKeyRange = QStringLiteral("its index's leading column is an expression");
        return recorded;
    }
    const QString keyType = integerKeyType(key.front()[1]);
    if (key.front()[2] != QLatin1String("btree"))
        recorded.whyNoKeyRange = QStringLiteral("its index is not a btree");
    else if (key.front()[3] != QLatin1String("1"))
        recorded.whyNoKeyRange = QStringLiteral("its index has %1 columns").arg(key.front()[3]);
    else if (keyType.isEmpty())
        recorded.whyNoKeyRange =
            QStringLiteral("its index's leading key is %1, not int2, int4 or int8").arg(key.front()[1]);
    else
        recorded.keyRange = keyRangeOf(node.indexCondition, key.front()[0], keyType, recorded.whyNoKeyRange);
    return recorded;
}

} // namespace la
