// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/query_check.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace la {

namespace {

const QString kOnlyReads = QStringLiteral(
    "record runs only a query that reads (a SELECT, VALUES, TABLE or WITH … SELECT, without INSERT, "
    "UPDATE, DELETE, MERGE, CREATE TABLE AS, SELECT INTO, FOR UPDATE/SHARE or a data-modifying WITH)");

// The server's refusals that mean "not a query that only reads": not a cursor's query (a syntax
// error at INSERT, CREATE; SELECT INTO), a data-modifying WITH, a row lock in a read-only transaction.
bool refusedAsWriting(const QString& sqlState) {
    return sqlState == QLatin1String("42601") || sqlState == QLatin1String("0A000") ||
           sqlState == QLatin1String("25006");
}

QString writingNodeOf(const QJsonObject& node) {
    const QString type = node.value(QStringLiteral("Node Type")).toString();
    if (node.contains(QStringLiteral("Operation")))
        return QStringLiteral("%1 (%2)").arg(type, node.value(QStringLiteral("Operation")).toString());
    if (type == QLatin1String("ModifyTable") || type == QLatin1String("LockRows"))
        return type;
    for (const QJsonValue& child : node.value(QStringLiteral("Plans")).toArray())
        if (const QString found = writingNodeOf(child.toObject()); !found.isEmpty())
            return found;
    return {};
}

} // namespace

QString writingNode(const QByteArray& planJson) {
    const QJsonDocument doc = QJsonDocument::fromJson(planJson);
    for (const QJsonValue& statement : doc.array())
        if (const QString found =
                writingNodeOf(statement.toObject().value(QStringLiteral("Plan")).toObject());
            !found.isEmpty())
            return found;
    return {};
}

QString requireReadOnlyQuery(PgSession& session, const QString& sql, const QString& what) {
    try {
        session.query(QStringLiteral("DECLARE lookahead_check NO SCROLL CURSOR FOR ") + sql);
        session.query(QStringLiteral("CLOSE lookahead_check"));
    } catch (const RecordError& error) {
        if (!refusedAsWriting(error.sqlState()))
            throw RecordError(QStringLiteral("%1 failed: %2").arg(what, error.message()), error.sqlState());
        throw RecordError(QStringLiteral("%1 is refused: %2; the server did not take it as one: %3")
                              .arg(what, kOnlyReads, error.message()),
                          error.sqlState());
    }
    const QString plan = session.value(QStringLiteral("EXPLAIN (VERBOSE, FORMAT JSON) ") + sql, {}, what);
    if (const QString node = writingNode(plan.toUtf8()); !node.isEmpty())
        throw RecordError(QStringLiteral("%1 is refused: it writes (its plan has a %2 node); %3")
                              .arg(what, node, kOnlyReads));
    return plan;
}

ReadOnlyTransaction::ReadOnlyTransaction(PgSession& session) : m_session(session) {
    m_session.query(QStringLiteral("BEGIN TRANSACTION READ ONLY"));
}

ReadOnlyTransaction::~ReadOnlyTransaction() {
    try {
        m_session.query(QStringLiteral("ROLLBACK"));
    } catch (const RecordError&) {
        // Cancelled or the connection lost: closing the session rolls the transaction back.
    }
}

QString withoutTrailingSemicolons(QString query) {
    query = query.trimmed();
    while (query.endsWith(QLatin1Char(';')))
        query = query.chopped(1).trimmed();
    return query;
}

} // namespace la
