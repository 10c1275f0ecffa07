// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/visit_blocks.h"

#include "files/held_directory.h"
#include "record/work_file.h"

#include <QRegularExpression>

#include <algorithm>
#include <optional>

namespace la {

namespace {

// At most this many visits a recording holds: 2^32 blocks is PostgreSQL's own limit per relation,
// but a list of visits is held in memory.
constexpr std::size_t kMaxVisits = 200'000'000;

// How many rows are fetched at a time: what is held in memory of the answer.
constexpr int kVisitsBatch = 100'000;

// The block of one row: a ctid "(12,3)" or a block number. `row` counts from 1.
std::uint64_t visitedBlock(const QString& cell, std::uint64_t row, const RecordedRelation& relation,
                           const QString& what) {
    static const QRegularExpression ctid(QStringLiteral(R"(^\((\d+),\d+\)$)"));
    const QRegularExpressionMatch match = ctid.match(cell);
    bool ok = false;
    const qulonglong block = (match.hasMatch() ? match.captured(1) : cell).toULongLong(&ok);
    if (!ok || block > 0xFFFFFFFEULL)
        throw RecordError(
            QStringLiteral("%1 returned \"%2\" in row %3: give a ctid or a block number per row, "
                           "in the scan's visit order")
                .arg(what, cell.left(40))
                .arg(row));
    if (block >= relation.blocks)
        throw RecordError(
            QStringLiteral("%1 returned block %2 in row %3, past the end of %4 (%5 blocks): give "
                           "the visits of the scan's own relation")
                .arg(what)
                .arg(block)
                .arg(row)
                .arg(relation.name)
                .arg(relation.blocks));
    return block;
}

} // namespace

WrittenVisits writeVisitBlocks(PgSession& control, const QString& sql, const RecordedRelation& relation,
                               const QString& what, const HeldDirectory& work,
                               const std::function<bool(std::uint64_t block)>& reaches) {
    return asRecordError([&] {
        OutputFile out(work, "visits.txt", "the visits");
        control.query(QStringLiteral("DECLARE lookahead_visits NO SCROLL CURSOR FOR ") + sql, {}, what);
        const QString fetch = QStringLiteral("FETCH FORWARD %1 FROM lookahead_visits").arg(kVisitsBatch);
        WrittenVisits written;
        std::optional<std::uint64_t> previous;
        for (;;) {
            const PgSession::Rows rows = control.query(fetch, {}, what);
            if (rows.empty())
                break;
            if (written.rows + rows.size() > kMaxVisits)
                throw RecordError(QStringLiteral("%1 returned more than the %2 visits a recording holds")
                                      .arg(what)
                                      .arg(kMaxVisits));
            std::string lines;
            for (const QStringList& row : rows) {
                const std::uint64_t block =
                    visitedBlock(row.value(0).trimmed(), ++written.rows, relation, what);
                // The next row on the page of the one before is no new visit: the page is still pinned.
                if (reaches && !reaches(block))
                    continue;
                ++written.reached;
                if (previous == block)
                    continue;
                previous = block;
                lines += std::to_string(block);
                lines += '\n';
                ++written.visits;
            }
            out.write(lines);
        }
        control.query(QStringLiteral("CLOSE lookahead_visits"), {}, what);
        out.commit();
        return written;
    });
}

QStringList visitBlocksArgs(const HeldDirectory& work, const RecordedRelation& relation, bool local) {
    QStringList args{QStringLiteral("--blocks"), QString::fromStdString(work.filePath("visits.txt"))};
    if (!local)
        args << QStringLiteral("--relation-blocks")
             << QString::number(std::max<qint64>(1, qint64(relation.blocks)));
    return args;
}

} // namespace la
