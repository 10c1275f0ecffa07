// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/pg_session.h"

#include "record/conninfo_mask.h"

#include <libpq-fe.h>
#include <poll.h>

#include <cerrno>

#include <memory>

namespace la {

PgSession::PgSession(const QString& conninfo, const QString& password, const std::atomic<bool>* cancel)
    : m_cancel(cancel) {
    // libpq quotes the text it cannot parse, password and all: the conninfo is first parsed with its
    // passwords masked, and only that parse's message is shown.
    const std::string typed = conninfo.toStdString();
    if (const std::string problem = passwordEscapeProblem(typed); !problem.empty())
        throw RecordError(QStringLiteral("cannot connect: ") + QString::fromStdString(problem));
    for (const std::string& text : {maskedConninfo(typed), typed}) {
        if (!isConnectionString(typed))
            break;
        char* error = nullptr;
        PQconninfoOption* options = PQconninfoParse(text.c_str(), &error);
        const QString why = QString::fromUtf8(error).trimmed();
        PQfreemem(error);
        if (options) {
            PQconninfoFree(options);
            continue;
        }
        if (text != typed)
            throw RecordError(QStringLiteral("cannot connect: ") + why);
        throw RecordError(
            QStringLiteral("cannot connect: the connection string is malformed where its password "
                           "is (libpq's message would show the password): check the quoting or "
                           "%-escapes around it"));
    }
    // The conninfo (or URI, or a database name alone) goes in as dbname with expand_dbname, as psql
    // passes it; a password of its own overrides.
    const QByteArray dbname = conninfo.toUtf8(), secret = password.toUtf8();
    const char* keywords[] = {"dbname", password.isEmpty() ? nullptr : "password", nullptr};
    const char* values[] = {dbname.constData(), secret.constData(), nullptr};
    // Non-blocking connect, polled, so that Cancel is seen while a server does not answer.
    m_conn = PQconnectStartParams(keywords, values, 1);
    if (!m_conn)
        throw RecordError(QStringLiteral("cannot connect: out of memory"));
    PQsetNoticeProcessor(m_conn, &PgSession::receiveNotice, this);
    if (PQstatus(m_conn) == CONNECTION_BAD)
        throw RecordError(QStringLiteral("cannot connect: %1").arg(errorMessage()));
    PostgresPollingStatusType state = PGRES_POLLING_WRITING;
    while (state != PGRES_POLLING_OK && state != PGRES_POLLING_FAILED) {
        pollfd fd{PQsocket(m_conn), short(state == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
        if (m_cancel && m_cancel->load())
            throw RecordError(QStringLiteral("cancelled while connecting"));
        if (::poll(&fd, 1, 100) == 0)
            continue;
        state = PQconnectPoll(m_conn);
    }
    if (PQstatus(m_conn) != CONNECTION_OK)
        throw RecordError(QStringLiteral("cannot connect: %1").arg(errorMessage()));
}

PgSession::~PgSession() {
    PQfinish(m_conn);
}

QString PgSession::errorMessage() const {
    return QString::fromUtf8(PQerrorMessage(m_conn)).trimmed();
}

void PgSession::receiveNotice(void* session, const char* message) {
    const auto* self = static_cast<const PgSession*>(session);
    if (self->m_notice)
        self->m_notice(QString::fromUtf8(message).trimmed());
}

int PgSession::backendPid() const {
    return PQbackendPID(m_conn);
}

QString PgSession::description() const {
    return QStringLiteral("host=%1 port=%2 dbname=%3 user=%4")
        .arg(QString::fromUtf8(PQhost(m_conn)), QString::fromUtf8(PQport(m_conn)),
             QString::fromUtf8(PQdb(m_conn)), QString::fromUtf8(PQuser(m_conn)));
}

void PgSession::waitForResult() {
    // A cancel request that reaches the server before the statement has started is ignored, so it
    // is sent again every second until the statement ends.
    int sinceCancel = -1;
    while (PQisBusy(m_conn)) {
        if (m_cancel && m_cancel->load() && (sinceCancel < 0 || sinceCancel >= 10)) {
            if (PGcancel* handle = PQgetCancel(m_conn)) {
                char error[256];
                PQcancel(handle, error, sizeof error);
                PQfreeCancel(handle);
            }
            sinceCancel = 0;
        }
        pollfd fd{PQsocket(m_conn), POLLIN, 0};
        if (::poll(&fd, 1, 100) < 0 && errno != EINTR)
            throw RecordError(QStringLiteral("lost the connection to the server"));
        if (sinceCancel >= 0)
            ++sinceCancel;
        if (!PQconsumeInput(m_conn))
            throw RecordError(QStringLiteral("lost the connection to the server: %1").arg(errorMessage()));
    }
}

PgSession::Rows PgSession::query(const QString& sql, const QStringList& params, const QString& what) {
    if (m_cancel && m_cancel->load())
        throw RecordError(QStringLiteral("cancelled"));
    std::vector<QByteArray> values;
    std::vector<const char*> pointers;
    for (const QString& param : params)
        values.push_back(param.toUtf8());
    for (const QByteArray& value : values)
        pointers.push_back(value.constData());
    if (!PQsendQueryParams(m_conn, sql.toUtf8().constData(), int(pointers.size()), nullptr, pointers.data(),
                           nullptr, nullptr, 0))
        throw RecordError(QStringLiteral("cannot send %1: %2")
                              .arg(what.isEmpty() ? QStringLiteral("a query") : what, errorMessage()));
    waitForResult();
    Rows rows;
    QString error, state;
    // Every result must be read before the connection takes the next statement.
    while (PGresult* raw = PQgetResult(m_conn)) {
        const std::unique_ptr<PGresult, decltype(&PQclear)> result(raw, &PQclear);
        const ExecStatusType status = PQresultStatus(raw);
        if (status == PGRES_TUPLES_OK) {
            for (int row = 0; row < PQntuples(raw); ++row) {
                QStringList cells;
                for (int column = 0; column < PQnfields(raw); ++column)
                    cells << QString::fromUtf8(PQgetvalue(raw, row, column));
                rows.push_back(std::move(cells));
            }
        } else if (status != PGRES_COMMAND_OK && error.isEmpty()) {
            error = QString::fromUtf8(PQresultErrorMessage(raw)).trimmed();
            state = QString::fromUtf8(PQresultErrorField(raw, PG_DIAG_SQLSTATE));
        }
        waitForResult();
    }
    if (m_cancel && m_cancel->load())
        throw RecordError(QStringLiteral("cancelled"));
    if (!error.isEmpty())
        throw RecordError(what.isEmpty() ? error : QStringLiteral("%1 failed: %2").arg(what, error), state);
    return rows;
}

QString PgSession::value(const QString& sql, const QStringList& params, const QString& what) {
    const Rows rows = query(sql, params, what);
    return rows.empty() || rows.front().isEmpty() ? QString() : rows.front().front();
}

} // namespace la
