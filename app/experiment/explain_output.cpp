// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/explain_output.h"

#include "experiment/document_file.h"
#include "figure_limits.h"
#include "input_error.h"
#include "message_text.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace la {

namespace {

// A plan of more nodes than any real query has is someone's attempt at exhausting memory.
constexpr std::size_t kMaxNodes = 100'000;
// A time in the plan, in milliseconds: at most a run's (figure_limits.h), which its nanoseconds hold.
constexpr double kMaxExplainMs = double(kMaxRunTimeNs) / 1e6;
constexpr int kMaxDepth = 256;

class Parser {
public:
    explicit Parser(const QString& fileName) : m_fileName(fileName) {}

    [[noreturn]] void fail(const QString& what) const {
        const QString where = m_line > 0 ? QStringLiteral(" line %1").arg(m_line) : QString();
        throw InputError(
            QStringLiteral("EXPLAIN output %1%2: %3 (give the output of EXPLAIN (ANALYZE, BUFFERS) "
                           "as psql prints it, in text or FORMAT JSON)")
                .arg(QString::fromStdString(excerpt(m_fileName.toStdString())), where, what)
                .toStdString());
    }

    // A count (blocks, reads, waits, loops): a whole number in 0..kMaxFigureCount.
    std::uint64_t whole(const QString& text, const QString& name) const {
        bool ok = false;
        const qulonglong value = text.toULongLong(&ok);
        if (!ok)
            fail(QStringLiteral("%1=%2 is not a whole number").arg(name, shown(text)));
        if (value > kMaxFigureCount)
            fail(outOfRange(name, shown(text), double(kMaxFigureCount)));
        return value;
    }

    // A number in 0..`most`: kMaxExplainMs for a time, kMaxFigureCount for the rest.
    double decimal(const QString& text, const QString& name, double most = double(kMaxFigureCount)) const {
        bool ok = false;
        const double value = text.toDouble(&ok);
        if (!ok || !std::isfinite(value) || value < 0)
            fail(QStringLiteral("%1=%2 is not a number of at least 0").arg(name, shown(text)));
        if (value > most)
            fail(outOfRange(name, shown(text), most));
        return value;
    }

    static QString outOfRange(const QString& name, const QString& value, double most) {
        return QStringLiteral("%1=%2 is out of its range 0..%3%4")
            .arg(name, value, QString::number(most, 'g', 16),
                 most == kMaxExplainMs ? QStringLiteral(" ms (36 years)") : QString());
    }

    ExplainNode& addNode(ExplainOutput& out, int depth) {
        if (out.nodes.size() >= kMaxNodes)
            fail(QStringLiteral("more than %1 plan nodes").arg(kMaxNodes));
        if (depth > kMaxDepth)
            fail(QStringLiteral("plan nested deeper than %1 levels").arg(kMaxDepth));
        out.nodes.emplace_back();
        out.nodes.back().depth = depth;
        return out.nodes.back();
    }

    static QString shown(const QString& text) { return QString::fromStdString(excerpt(text.toStdString())); }

    int m_line = 0;

private:
    QString m_fileName;
};

// "Index Scan Backward using idx on public.t t1": the type, direction, index and relation.
void parseNodeName(QString name, ExplainNode& node) {
    if (name.startsWith(QLatin1String("Parallel ")))
        name.remove(0, 9);
    static const QRegularExpression pattern(QStringLiteral(
        "^(.*?)( Backward)?(?: using (\\S+|\"[^\"]*\"))?(?: on (\\S+|\"[^\"]*\")(?: \\S+)?)?$"));
    const QRegularExpressionMatch match = pattern.match(name);
    node.nodeType = match.captured(1);
    node.backward = match.hasCaptured(2) && !match.captured(2).isEmpty();
    node.index = match.captured(3);
    const QString on = match.captured(4);
    // A Bitmap Index Scan is "on" its index.
    if (node.nodeType == QLatin1String("Bitmap Index Scan"))
        node.index = on;
    else
        node.relation = on;
}

// "key=value key=value" after a group name ("shared hit=1 read=2"), each handed to `take`.
template <typename Take> void keyValues(const QString& text, Take&& take) {
    for (const QString& token : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const qsizetype equals = token.indexOf(QLatin1Char('='));
        if (equals > 0)
            take(token.left(equals), token.mid(equals + 1));
    }
}

void parseProperty(const Parser& p, const QString& key, const QString& value, ExplainNode& node) {
    if (key == QLatin1String("Buffers")) {
        for (const QString& group : value.split(QLatin1Char(','))) {
            const QString g = group.trimmed();
            if (!g.startsWith(QLatin1String("shared ")))
                continue;
            keyValues(g.mid(7), [&](const QString& k, const QString& v) {
                const QString name = QStringLiteral("shared ") + k;
                if (k == QLatin1String("hit"))
                    node.sharedHit = p.whole(v, name);
                else if (k == QLatin1String("read"))
                    node.sharedRead = p.whole(v, name);
                else if (k == QLatin1String("dirtied"))
                    node.sharedDirtied = p.whole(v, name);
                else if (k == QLatin1String("written"))
                    node.sharedWritten = p.whole(v, name);
            });
        }
    } else if (key == QLatin1String("I/O Timings")) {
        for (const QString& group : value.split(QLatin1Char(','))) {
            const QString g = group.trimmed();
            const qsizetype space = g.indexOf(QLatin1Char(' '));
            const QString groupName = g.left(space);
            if (groupName != QLatin1String("shared") && groupName != QLatin1String("shared/local"))
                continue;
            keyValues(g.mid(space + 1), [&](const QString& k, const QString& v) {
                if (k == QLatin1String("read"))
                    node.sharedReadMs = p.decimal(v, QStringLiteral("I/O Timings read"), kMaxExplainMs);
            });
        }
    } else if (key == QLatin1String("Prefetch")) {
        keyValues(value, [&](const QString& k, const QString& v) {
            if (k == QLatin1String("avg"))
                node.prefetchAvg = p.decimal(v, QStringLiteral("Prefetch avg"));
            else if (k == QLatin1String("max"))
                node.prefetchMax = p.whole(v, QStringLiteral("Prefetch max"));
            else if (k == QLatin1String("capacity"))
                node.prefetchCapacity = p.whole(v, QStringLiteral("Prefetch capacity"));
        });
    } else if (key == QLatin1String("I/O")) {
        keyValues(value, [&](const QString& k, const QString& v) {
            if (k == QLatin1String("count"))
                node.ioCount = p.whole(v, QStringLiteral("I/O count"));
            else if (k == QLatin1String("waits"))
                node.ioWaits = p.whole(v, QStringLiteral("I/O waits"));
            else if (k == QLatin1String("size"))
                node.ioSize = p.decimal(v, QStringLiteral("I/O size"));
            else if (k == QLatin1String("in-progress"))
                node.ioInProgress = p.decimal(v, QStringLiteral("I/O in-progress"));
        });
    }
}

// "(actual time=0.01..5.2 rows=10.00 loops=1)" or "(actual rows=10 loops=1)".
void parseActual(const Parser& p, const QString& text, ExplainNode& node) {
    const qsizetype at = text.indexOf(QLatin1String("(actual "));
    if (at < 0)
        return;
    const qsizetype end = text.indexOf(QLatin1Char(')'), at);
    keyValues(text.mid(at + 8, end < 0 ? -1 : end - at - 8), [&](const QString& k, const QString& v) {
        if (k == QLatin1String("rows"))
            node.actualRows = p.decimal(v, QStringLiteral("actual rows"));
        else if (k == QLatin1String("loops"))
            node.loops = p.whole(v, QStringLiteral("actual loops"));
    });
}

std::optional<double> milliseconds(const Parser& p, const QString& value, const QString& name) {
    QString number = value.trimmed();
    if (number.endsWith(QLatin1String(" ms")))
        number.chop(3);
    return p.decimal(number, name, kMaxExplainMs);
}

// psql's header, rule and row count, and the command tags ("SET", "BEGIN") of statements run
// before the EXPLAIN in the same script.
bool isDecoration(const QString& trimmed) {
    static const QRegularExpression rows(QStringLiteral("^\\(\\d+ rows?\\)$"));
    static const QRegularExpression rule(QStringLiteral("^[-+]+$"));
    static const QRegularExpression tag(QStringLiteral("^[A-Z]+$"));
    return trimmed == QLatin1String("QUERY PLAN") || rule.match(trimmed).hasMatch() ||
           rows.match(trimmed).hasMatch() || tag.match(trimmed).hasMatch();
}

// The lines of the plan without psql's header, rule, footer and continuation marks.
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

int indentOf(const QString& line) {
    int i = 0;
    while (i < line.size() && line[i] == QLatin1Char(' '))
        ++i;
    return i;
}

ExplainOutput parseText(Parser& p, const QStringList& lines) {
    ExplainOutput out;
    out.format = ExplainOutput::Format::Text;
    std::vector<std::pair<int, std::size_t>> open; // indentation and index of each open node
    int topIndent = -1;
    bool inPlanning = false; // the lines under "Planning:" are the planner's, not a node's
    for (int i = 0; i < lines.size(); ++i) {
        p.m_line = i + 1;
        const QString& line = lines[i];
        const QString text = line.trimmed();
        if (text.isEmpty())
            continue;
        const int indent = indentOf(line);
        if (topIndent >= 0 && indent <= topIndent) {
            // Lines of the plan itself: the planner's and executor's totals.
            inPlanning = text == QLatin1String("Planning:");
            const qsizetype colon = text.indexOf(QLatin1String(": "));
            if (colon > 0 && text.left(colon) == QLatin1String("Planning Time"))
                out.planningMs = milliseconds(p, text.mid(colon + 2), QStringLiteral("Planning Time"));
            else if (colon > 0 && text.left(colon) == QLatin1String("Execution Time"))
                out.executionMs = milliseconds(p, text.mid(colon + 2), QStringLiteral("Execution Time"));
            continue;
        }
        if (inPlanning)
            continue;
        const bool child = text.startsWith(QLatin1String("->"));
        if (child || topIndent < 0) {
            const int nodeIndent = child ? indent + 2 : indent;
            while (!open.empty() && open.back().first >= nodeIndent)
                open.pop_back();
            if (!child)
                topIndent = indent;
            ExplainNode& node = p.addNode(out, static_cast<int>(open.size()));
            const QString described = child ? text.mid(2).trimmed() : text;
            const qsizetype paren = described.indexOf(QLatin1String(" ("));
            parseNodeName((paren < 0 ? described : described.left(paren)).trimmed(), node);
            parseActual(p, described, node);
            open.emplace_back(nodeIndent, out.nodes.size() - 1);
            continue;
        }
        while (!open.empty() && open.back().first >= indent)
            open.pop_back();
        const qsizetype colon = text.indexOf(QLatin1String(": "));
        if (open.empty() || colon <= 0)
            continue;
        parseProperty(p, text.left(colon), text.mid(colon + 2), out.nodes[open.back().second]);
    }
    p.m_line = 0;
    if (out.nodes.empty())
        p.fail(QStringLiteral("no plan in it"));
    return out;
}

// FORMAT JSON: a node object and its "Plans".
void jsonNode(Parser& p, const QJsonObject& o, int depth, ExplainOutput& out) {
    ExplainNode& node = p.addNode(out, depth);
    const auto text = [&](const char* key) { return o.value(QLatin1String(key)).toString(); };
    node.nodeType = text("Node Type");
    node.relation = text("Relation Name");
    node.index = text("Index Name");
    node.schema = text("Schema");
    node.indexCondition = text("Index Cond");
    node.backward = text("Scan Direction") == QLatin1String("Backward");
    const auto number = [&](const char* key, double most = double(kMaxFigureCount)) -> std::optional<double> {
        const QJsonValue value = o.value(QLatin1String(key));
        if (value.isUndefined() || value.isNull())
            return std::nullopt;
        if (!value.isDouble() || !std::isfinite(value.toDouble()) || value.toDouble() < 0)
            p.fail(QStringLiteral("\"%1\" is not a number of at least 0").arg(QLatin1String(key)));
        if (value.toDouble() > most)
            p.fail(Parser::outOfRange(QStringLiteral("\"%1\"").arg(QLatin1String(key)),
                                      QString::number(value.toDouble(), 'g', 17), most));
        return value.toDouble();
    };
    const auto count = [&](const char* key) -> std::optional<std::uint64_t> {
        const std::optional<double> value = number(key);
        if (!value)
            return std::nullopt;
        if (*value != std::floor(*value))
            p.fail(QStringLiteral("\"%1\" is not a whole number").arg(QLatin1String(key)));
        return static_cast<std::uint64_t>(*value);
    };
    node.sharedHit = count("Shared Hit Blocks");
    node.sharedRead = count("Shared Read Blocks");
    node.sharedDirtied = count("Shared Dirtied Blocks");
    node.sharedWritten = count("Shared Written Blocks");
    // PostgreSQL 17 split "I/O Read Time" into shared, local and temp.
    node.sharedReadMs = number("Shared I/O Read Time", kMaxExplainMs);
    if (!node.sharedReadMs)
        node.sharedReadMs = number("I/O Read Time", kMaxExplainMs);
    node.actualRows = number("Actual Rows");
    node.loops = count("Actual Loops");
    node.prefetchAvg = number("Average Prefetch Distance");
    node.prefetchMax = count("Max Prefetch Distance");
    node.prefetchCapacity = count("Prefetch Capacity");
    node.ioCount = count("I/O Count");
    node.ioWaits = count("I/O Waits");
    node.ioSize = number("Average I/O Size");
    node.ioInProgress = number("Average I/Os In Progress");
    const QJsonValue plans = o.value(QLatin1String("Plans"));
    if (plans.isUndefined())
        return;
    if (!plans.isArray())
        p.fail(QStringLiteral("\"Plans\" is not a list"));
    for (const QJsonValue& child : plans.toArray()) {
        if (!child.isObject())
            p.fail(QStringLiteral("a plan node is not an object"));
        jsonNode(p, child.toObject(), depth + 1, out);
    }
}

ExplainOutput parseJson(Parser& p, const QStringList& lines) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(lines.join(QLatin1Char('\n')).toUtf8(), &error);
    if (document.isNull())
        p.fail(QStringLiteral("not JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    // psql prints a list of one query's object; accept the object alone too.
    const QJsonObject query = document.isArray() ? document.array().at(0).toObject() : document.object();
    const QJsonValue plan = query.value(QLatin1String("Plan"));
    if (!plan.isObject())
        p.fail(QStringLiteral("no \"Plan\" object in it"));
    ExplainOutput out;
    out.format = ExplainOutput::Format::Json;
    jsonNode(p, plan.toObject(), 0, out);
    for (const auto& [key, figure] :
         {std::pair{"Planning Time", &out.planningMs}, {"Execution Time", &out.executionMs}}) {
        const QJsonValue value = query.value(QLatin1String(key));
        if (value.isUndefined())
            continue;
        if (!value.isDouble() || !std::isfinite(value.toDouble()) || value.toDouble() < 0)
            p.fail(QStringLiteral("\"%1\" is not a number of at least 0").arg(QLatin1String(key)));
        if (value.toDouble() > kMaxExplainMs)
            p.fail(Parser::outOfRange(QStringLiteral("\"%1\"").arg(QLatin1String(key)),
                                      QString::number(value.toDouble(), 'g', 17), kMaxExplainMs));
        *figure = value.toDouble();
    }
    return out;
}

bool isScan(const ExplainNode& node) {
    return node.nodeType.endsWith(QLatin1String(" Scan")) &&
           node.nodeType != QLatin1String("Bitmap Index Scan") && !node.relation.isEmpty();
}

QString unqualified(const QString& name) {
    return name.mid(name.lastIndexOf(QLatin1Char('.')) + 1);
}

} // namespace

const ExplainNode* ExplainOutput::scanOf(const QString& relation) const {
    const ExplainNode* found = nullptr;
    for (const ExplainNode& node : nodes) {
        if (!isScan(node) || (!relation.isEmpty() && unqualified(node.relation) != unqualified(relation)))
            continue;
        if (found != nullptr)
            return nullptr; // ambiguous: the caller must name it
        found = &node;
    }
    return found;
}

ExplainOutput parseExplainOutput(const QByteArray& bytes, const QString& fileName) {
    Parser parser(fileName);
    if (bytes.size() > kMaxExplainBytes)
        parser.fail(QStringLiteral("larger than %1 MiB").arg(kMaxExplainBytes >> 20));
    const QStringList lines = planLines(bytes);
    for (const QString& line : lines) {
        const QString text = line.trimmed();
        if (text.isEmpty())
            continue;
        return text.startsWith(QLatin1Char('[')) || text.startsWith(QLatin1Char('{'))
                   ? parseJson(parser, lines)
                   : parseText(parser, lines);
    }
    parser.fail(QStringLiteral("it is empty"));
}

const ExplainNode& observedScanOf(const ExplainOutput& plan, const QString& fileName) {
    if (const ExplainNode* scan = plan.scanOf(QString()))
        return *scan;
    QStringList scans;
    for (const ExplainNode& node : plan.nodes)
        if (isScan(node))
            scans << node.nodeType + QStringLiteral(" on ") + node.relation;
    const QString name = QString::fromStdString(excerpt(fileName.toStdString()));
    if (scans.isEmpty())
        throw InputError(
            QStringLiteral("EXPLAIN output %1: no scan of a table in the plan (give the EXPLAIN of the "
                           "traced query)")
                .arg(name)
                .toStdString());
    throw InputError(
        QStringLiteral("EXPLAIN output %1: the plan scans %2 tables (%3); an observed run compares "
                       "one scan: explain a query with one")
            .arg(name)
            .arg(scans.size())
            .arg(QString::fromStdString(excerpt(scans.join(QStringLiteral(", ")).toStdString())))
            .toStdString());
}

QJsonObject serverExplainJson(const ExplainOutput& plan, const ExplainNode& scan) {
    QJsonObject o;
    const auto put = [&o](const char* key, const auto& figure) {
        o[QLatin1String(key)] = figure ? QJsonValue(static_cast<double>(*figure)) : QJsonValue();
    };
    o[QStringLiteral("node")] = scan.nodeType;
    o[QStringLiteral("relation")] = scan.relation;
    o[QStringLiteral("index")] = scan.index;
    o[QStringLiteral("backward")] = scan.backward;
    o[QStringLiteral("format")] =
        plan.format == ExplainOutput::Format::Json ? QStringLiteral("json") : QStringLiteral("text");
    put("shared_hit", scan.sharedHit);
    put("shared_read", scan.sharedRead);
    put("shared_read_ms", scan.sharedReadMs);
    put("prefetch_avg", scan.prefetchAvg);
    put("prefetch_max", scan.prefetchMax);
    put("prefetch_capacity", scan.prefetchCapacity);
    put("io_count", scan.ioCount);
    put("io_waits", scan.ioWaits);
    put("io_size_avg", scan.ioSize);
    put("io_inprogress_avg", scan.ioInProgress);
    put("execution_ms", plan.executionMs);
    // A Bitmap Heap Scan's buffers count its Bitmap Index Scans' (the plan's nodes below it): their
    // own figures tell the index's pages apart (docs/explain-output.md).
    if (scan.nodeType == QLatin1String("Bitmap Heap Scan")) {
        const auto at = std::find_if(plan.nodes.begin(), plan.nodes.end(),
                                     [&scan](const ExplainNode& node) { return &node == &scan; });
        std::optional<std::uint64_t> read, hit;
        QStringList indexes;
        for (auto node = at == plan.nodes.end() ? at : at + 1;
             node != plan.nodes.end() && node->depth > scan.depth; ++node) {
            if (node->nodeType != QLatin1String("Bitmap Index Scan"))
                continue;
            indexes << node->index;
            if (node->sharedRead || node->sharedHit)
                read = read.value_or(0) + node->sharedRead.value_or(0);
            if (node->sharedHit)
                hit = hit.value_or(0) + *node->sharedHit;
        }
        if (!indexes.isEmpty()) {
            o[QStringLiteral("bitmap_index")] = indexes.join(QStringLiteral(", "));
            put("index_shared_read", read);
            put("index_shared_hit", hit);
        }
    }
    return o;
}

QString describeServerExplain(const QJsonObject& explain) {
    const auto text = [&](const char* key) {
        const QJsonValue figure = explain.value(QLatin1String(key));
        return figure.isDouble() ? QString::number(figure.toDouble(), 'g', 15) : QStringLiteral("-");
    };
    const QString node = explain.value(QStringLiteral("node")).toString();
    const QString relation = explain.value(QStringLiteral("relation")).toString();
    const QString on = relation.isEmpty() ? QString() : QStringLiteral(" on ") + relation;
    const QString shown = QString::fromStdString(excerpt(QString(node + on).toStdString()));
    const auto has = [&](const char* key) { return explain.value(QLatin1String(key)).isDouble(); };
    // What the server measured; what it did not is left out, and why said once.
    QStringList figures;
    QString unmeasured;
    if (has("shared_hit") || has("shared_read"))
        // Text output leaves a zero out: "shared hit=5" read nothing.
        figures << QStringLiteral("Buffers shared hit=%1 read=%2")
                       .arg(has("shared_hit") ? text("shared_hit") : QStringLiteral("0"),
                            has("shared_read") ? text("shared_read") : QStringLiteral("0"));
    else
        unmeasured = QStringLiteral("no Buffers: it ran without BUFFERS");
    if (has("shared_read_ms"))
        figures << QStringLiteral("I/O Timings shared read=%1 ms").arg(text("shared_read_ms"));
    else if (explain.value(QStringLiteral("shared_read")).toDouble() > 0)
        unmeasured = QStringLiteral("no I/O Timings: the server's track_io_timing was off");
    if (has("execution_ms"))
        figures << QStringLiteral("Execution Time %1 ms").arg(text("execution_ms"));
    QString lines = QStringLiteral("  PostgreSQL's EXPLAIN (%1%2): %3%4\n")
                        .arg(shown,
                             explain.value(QStringLiteral("backward")).toBool() ? QStringLiteral(", backward")
                                                                                : QString(),
                             figures.join(QStringLiteral(", ")),
                             unmeasured.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unmeasured));
    if (explain.value(QStringLiteral("prefetch_avg")).isDouble())
        lines += QStringLiteral("  PostgreSQL's Prefetch: avg=%1 max=%2 capacity=%3\n")
                     .arg(text("prefetch_avg"), text("prefetch_max"), text("prefetch_capacity"));
    if (explain.value(QStringLiteral("io_count")).isDouble())
        lines += QStringLiteral("  PostgreSQL's I/O: count=%1 waits=%2 size=%3 in-progress=%4\n")
                     .arg(text("io_count"), text("io_waits"), text("io_size_avg"), text("io_inprogress_avg"));
    return lines;
}

ExplainOutput readExplainOutput(const QString& path) {
    const std::string text =
        readDocumentFile(path.toStdString(), "EXPLAIN output", std::uint64_t(kMaxExplainBytes),
                         "give the EXPLAIN (ANALYZE, BUFFERS) output of the traced query, saved to a file");
    return parseExplainOutput(QByteArray::fromStdString(text), path);
}

bool takeServerWaits(const ExplainNode& scan, RunSummary& observed) {
    if (!scan.ioWaits)
        return false;
    observed.waits = *scan.ioWaits;
    observed.waitsUnknown = false;
    observed.waitTimeUnknown = !scan.sharedReadMs;
    observed.waitNs = scan.sharedReadMs ? static_cast<std::int64_t>(*scan.sharedReadMs * 1e6) : 0;
    observed.waitsScope =
        scan.sharedReadMs
            ? "PostgreSQL's own count (EXPLAIN's I/O waits=), their time its I/O Timings shared read"
            : "PostgreSQL's own count (EXPLAIN's I/O waits=); their time is not in its output";
    return true;
}

void takeServerExplain(const QString& path, RunSummary& observed) {
    const ExplainOutput plan = readExplainOutput(path);
    const ExplainNode& scan = observedScanOf(plan, path);
    takeServerWaits(scan, observed);
    observed.serverExplain =
        QJsonDocument(serverExplainJson(plan, scan)).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace la
