// SPDX-License-Identifier: GPL-3.0-or-later
// EXPLAIN's text format, as psql prints it (docs/explain-output.md).
#include "experiment/explain_parser.h"

#include <QRegularExpression>

#include <span>

namespace la {

namespace {

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

// A figure of a text property's "key=value" list, and the node's field it fills: a count, or a
// number of at most `most`.
struct TextFigure {
    const char* key;
    std::optional<std::uint64_t> ExplainNode::*count = nullptr;
    std::optional<double> ExplainNode::*number = nullptr;
    double most = double(kMaxFigureCount);
};

constexpr TextFigure kSharedBuffers[] = {{"hit", &ExplainNode::sharedHit},
                                         {"read", &ExplainNode::sharedRead},
                                         {"dirtied", &ExplainNode::sharedDirtied},
                                         {"written", &ExplainNode::sharedWritten}};
constexpr TextFigure kIoTimings[] = {{"read", nullptr, &ExplainNode::sharedReadMs, kMaxExplainMs}};
constexpr TextFigure kPrefetch[] = {{"avg", nullptr, &ExplainNode::prefetchAvg},
                                    {"max", &ExplainNode::prefetchMax},
                                    {"capacity", &ExplainNode::prefetchCapacity}};
constexpr TextFigure kIo[] = {{"count", &ExplainNode::ioCount},
                              {"waits", &ExplainNode::ioWaits},
                              {"size", nullptr, &ExplainNode::ioSize},
                              {"in-progress", nullptr, &ExplainNode::ioInProgress}};
constexpr TextFigure kActual[] = {{"rows", nullptr, &ExplainNode::actualRows},
                                  {"loops", &ExplainNode::loops}};

// The `figures` of "key=value key=value" in `text` into `node`, each named "`prefix` key" in an error.
void takeFigures(const ExplainParser& p, const QString& text, const QString& prefix,
                 std::span<const TextFigure> figures, ExplainNode& node) {
    keyValues(text, [&](const QString& k, const QString& v) {
        for (const TextFigure& figure : figures) {
            if (k != QLatin1String(figure.key))
                continue;
            const QString name = prefix + QLatin1Char(' ') + k;
            if (figure.count)
                node.*figure.count = p.whole(v, name);
            else
                node.*figure.number = p.decimal(v, name, figure.most);
        }
    });
}

// A property line's figures: its groups ("shared hit=1 read=2, local …") where it has them.
void parseProperty(const ExplainParser& p, const QString& key, const QString& value, ExplainNode& node) {
    if (key == QLatin1String("Buffers") || key == QLatin1String("I/O Timings")) {
        const bool buffers = key == QLatin1String("Buffers");
        for (const QString& group : value.split(QLatin1Char(','))) {
            const QString g = group.trimmed();
            const qsizetype space = g.indexOf(QLatin1Char(' '));
            const QString groupName = g.left(space);
            if (buffers && groupName == QLatin1String("shared"))
                takeFigures(p, g.mid(space + 1), QStringLiteral("shared"), kSharedBuffers, node);
            else if (!buffers &&
                     (groupName == QLatin1String("shared") || groupName == QLatin1String("shared/local")))
                takeFigures(p, g.mid(space + 1), QStringLiteral("I/O Timings"), kIoTimings, node);
        }
    } else if (key == QLatin1String("Prefetch")) {
        takeFigures(p, value, QStringLiteral("Prefetch"), kPrefetch, node);
    } else if (key == QLatin1String("I/O")) {
        takeFigures(p, value, QStringLiteral("I/O"), kIo, node);
    }
}

// "(actual time=0.01..5.2 rows=10.00 loops=1)" or "(actual rows=10 loops=1)".
void parseActual(const ExplainParser& p, const QString& text, ExplainNode& node) {
    const qsizetype at = text.indexOf(QLatin1String("(actual "));
    if (at < 0)
        return;
    const qsizetype end = text.indexOf(QLatin1Char(')'), at);
    takeFigures(p, text.mid(at + 8, end < 0 ? -1 : end - at - 8), QStringLiteral("actual"), kActual, node);
}

std::optional<double> milliseconds(const ExplainParser& p, const QString& value, const QString& name) {
    QString number = value.trimmed();
    if (number.endsWith(QLatin1String(" ms")))
        number.chop(3);
    return p.decimal(number, name, kMaxExplainMs);
}

int indentOf(const QString& line) {
    int i = 0;
    while (i < line.size() && line[i] == QLatin1Char(' '))
        ++i;
    return i;
}

} // namespace

ExplainOutput parseExplainText(ExplainParser& p, const QStringList& lines) {
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

} // namespace la
