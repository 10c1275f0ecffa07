// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/explain_parser.h"

#include "input_error.h"
#include "message_text.h"

#include <QRegularExpression>

#include <cmath>

namespace la {

namespace {

// A plan of more nodes than any real query has is someone's attempt at exhausting memory.
constexpr std::size_t kMaxNodes = 100'000;
constexpr int kMaxDepth = 256;

// psql's header, rule and row count, and the command tags ("SET", "BEGIN") of statements run
// before the EXPLAIN in the same script.
bool isDecoration(const QString& trimmed) {
    static const QRegularExpression rows(QStringLiteral("^\\(\\d+ rows?\\)$"));
    static const QRegularExpression rule(QStringLiteral("^[-+]+$"));
    static const QRegularExpression tag(QStringLiteral("^[A-Z]+$"));
    return trimmed == QLatin1String("QUERY PLAN") || rule.match(trimmed).hasMatch() ||
           rows.match(trimmed).hasMatch() || tag.match(trimmed).hasMatch();
}

} // namespace

void ExplainParser::fail(const QString& what) const {
    const QString where = m_line > 0 ? QStringLiteral(" line %1").arg(m_line) : QString();
    throw InputError(QStringLiteral("EXPLAIN output %1%2: %3 (give the output of EXPLAIN (ANALYZE, BUFFERS) "
                                    "as psql prints it, in text or FORMAT JSON)")
                         .arg(QString::fromStdString(excerpt(m_fileName.toStdString())), where, what)
                         .toStdString());
}

std::uint64_t ExplainParser::whole(const QString& text, const QString& name) const {
    bool ok = false;
    const qulonglong value = text.toULongLong(&ok);
    if (!ok)
        fail(QStringLiteral("%1=%2 is not a whole number").arg(name, shown(text)));
    if (value > kMaxFigureCount)
        fail(outOfRange(name, shown(text), double(kMaxFigureCount)));
    return value;
}

double ExplainParser::decimal(const QString& text, const QString& name, double most) const {
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value) || value < 0)
        fail(QStringLiteral("%1=%2 is not a number of at least 0").arg(name, shown(text)));
    if (value > most)
        fail(outOfRange(name, shown(text), most));
    return value;
}

QString ExplainParser::outOfRange(const QString& name, const QString& value, double most) {
    return QStringLiteral("%1=%2 is out of its range 0..%3%4")
        .arg(name, value, QString::number(most, 'g', 16),
             most == kMaxExplainMs ? QStringLiteral(" ms (36 years)") : QString());
}

ExplainNode& ExplainParser::addNode(ExplainOutput& out, int depth) {
    if (out.nodes.size() >= kMaxNodes)
        fail(QStringLiteral("more than %1 plan nodes").arg(kMaxNodes));
    if (depth > kMaxDepth)
        fail(QStringLiteral("plan nested deeper than %1 levels").arg(kMaxDepth));
    out.nodes.emplace_back();
    out.nodes.back().depth = depth;
    return out.nodes.back();
}

QString ExplainParser::shown(const QString& text) {
    return QString::fromStdString(excerpt(text.toStdString()));
}

QStringList planLines(const QByteArray& bytes) {
    QStringList lines;
    for (QString line : QString::fromUtf8(bytes).split(QLatin1Char('\n'))) {
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.endsWith(QLatin1Char('+')))
            line.chop(1);
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        lines << (isDecoration(line.trimmed()) ? QString() : line);
    }
    return lines;
}

} // namespace la
