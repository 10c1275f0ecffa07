// SPDX-License-Identifier: GPL-3.0-or-later
#include "record/cache_snapshot.h"

#include "input_error.h"
#include "io/os_cache.h"
#include "io_backend.h"
#include "pg/relation_files.h"
#include "record/buffer_cache.h"
#include "record/recording_log.h"
#include "record/server_facts.h"
#include "record/work_file.h"

#include <QDir>
#include <QFile>

#include <algorithm>

namespace la {

namespace {

// At most this much of a snapshot's ranges in "recorded": a session's meta entry holds 64 KiB.
constexpr qsizetype kMaxRangesChars = 16 * 1024;

// "0-299,512,600-700": ascending blocks as ranges.
QString blockRanges(const std::vector<std::uint32_t>& blocks) {
    QString text;
    for (std::size_t i = 0; i < blocks.size();) {
        std::size_t end = i;
        while (end + 1 < blocks.size() && blocks[end + 1] == blocks[end] + 1)
            ++end;
        if (!text.isEmpty())
            text += QLatin1Char(',');
        text +=
            end == i ? QString::number(blocks[i]) : QStringLiteral("%1-%2").arg(blocks[i]).arg(blocks[end]);
        if (text.size() > kMaxRangesChars)
            break;
        i = end + 1;
    }
    return text;
}

QByteArray blockLines(const std::vector<std::uint32_t>& blocks) {
    QByteArray text;
    for (const std::uint32_t block : blocks)
        text += QByteArray::number(block) + '\n';
    return text;
}

} // namespace

QStringList segmentFilesOf(const QString& dataDirectory,
                           const std::vector<const RecordedRelation*>& relations, RecordingLog& log) {
    QStringList files;
    for (const RecordedRelation* relation : relations) {
        try {
            const pg::SegmentedRelation segments(
                QDir(dataDirectory).filePath(relation->filePath).toStdString(), relation->name.toStdString());
            for (const pg::Segment& segment : segments.segments())
                files << QString::fromStdString(segment.path);
        } catch (const InputError& error) {
            log.note(QString::fromStdString(error.what()));
        }
    }
    return files;
}

void emptyOsCache(const QStringList& files, RecordingLog& log) {
    for (const QString& file : files) {
        try {
            evictFromOsCache(QFile::encodeName(file).toStdString());
        } catch (const IoError& error) {
            log.note(QStringLiteral("--cold: ") + QString::fromLocal8Bit(error.what()));
        }
    }
}

void emptyCaches(BufferCache& buffers, const std::vector<const RecordedRelation*>& relations,
                 const QStringList& files, const ServerFacts& facts, RecordingLog& log) {
    log.step(QStringLiteral("emptying the relation's caches"));
    for (const RecordedRelation* relation : relations) {
        QString why;
        if (!buffers.available() || buffers.evict(relation->oid, {}, why))
            continue;
        if (const std::size_t stay = buffers.residentBlocks(relation->oid).size(); stay > 0)
            log.note(QStringLiteral("--cold: %1; %2 of %3's blocks stay in shared buffers")
                         .arg(why)
                         .arg(stay)
                         .arg(relation->name));
    }
    emptyOsCache(files, log);
    if (!facts.local)
        log.note(QStringLiteral(
            "--cold: the OS cache of a server on another machine cannot be emptied from here"));
}

CacheSnapshot takeSnapshot(BufferCache& buffers, const std::vector<const RecordedRelation*>& relations) {
    CacheSnapshot snapshot{relations, std::vector<std::vector<std::uint32_t>>(relations.size())};
    if (buffers.available())
        for (std::size_t i = 0; i < relations.size(); ++i)
            snapshot.blocks[i] = buffers.residentBlocks(relations[i]->oid);
    return snapshot;
}

bool restoreSnapshot(BufferCache& buffers, const CacheSnapshot& snapshot, QString& why) {
    bool same = true;
    for (std::size_t i = 0; i < snapshot.relations.size() && same; ++i) {
        const QString& oid = snapshot.relations[i]->oid;
        QString refused;
        if (buffers.residentBlocks(oid) != snapshot.blocks[i] &&
            !buffers.evict(oid, snapshot.blocks[i], refused))
            why = refused;
        same = buffers.residentBlocks(oid) == snapshot.blocks[i];
    }
    return same;
}

const std::vector<std::uint32_t>& CacheSnapshot::blocksOf(const RecordedRelation& relation) const {
    static const std::vector<std::uint32_t> none;
    for (std::size_t i = 0; i < relations.size() && i < blocks.size(); ++i)
        if (relations[i]->oid == relation.oid)
            return blocks[i];
    return none;
}

QJsonObject cachedAtStartJson(const CacheSnapshot& snapshot, const RecordedRelation& relation,
                              bool buffersRead, bool observed) {
    if (!buffersRead)
        return {{QStringLiteral("source"), observed ? QStringLiteral("trace") : QStringLiteral("unknown")}};
    const std::vector<std::uint32_t>& table = snapshot.blocksOf(relation);
    QJsonObject cached{{QStringLiteral("source"), QStringLiteral("pg_buffercache")},
                       {QStringLiteral("blocks"), qint64(table.size())}};
    // The snapshot itself, so that a session holds it after the work files are gone.
    if (const QString ranges = blockRanges(table); ranges.size() <= kMaxRangesChars)
        cached[QStringLiteral("ranges")] = ranges;
    else
        cached[QStringLiteral("ranges_left_out")] = true;
    return cached;
}

QString prewarmSpec(const CacheSnapshot& snapshot, const RecordedRelation& relation,
                    const HeldDirectory& work) {
    const std::vector<std::uint32_t>& table = snapshot.blocksOf(relation);
    if (table.empty())
        return QStringLiteral("none");
    return QStringLiteral("list:") + writeWorkFile(work, "cached-at-start.txt",
                                                   QStringLiteral("the cache snapshot"), blockLines(table));
}

QString planPrewarmSpec(const CacheSnapshot& snapshot,
                        const std::vector<std::pair<const RecordedRelation*, std::uint64_t>>& relations,
                        const HeldDirectory& work) {
    std::vector<std::uint32_t> blocks;
    for (std::size_t i = 0; i < relations.size(); ++i) {
        const auto& [relation, first] = relations[i];
        // A table read by two streams (a self-join) is one table of the space: its blocks once.
        bool seen = false;
        for (std::size_t j = 0; j < i; ++j)
            seen = seen || relations[j].first->oid == relation->oid;
        if (seen)
            continue;
        for (const std::uint32_t block : snapshot.blocksOf(*relation))
            blocks.push_back(static_cast<std::uint32_t>(first + block));
    }
    if (blocks.empty())
        return QStringLiteral("none");
    std::sort(blocks.begin(), blocks.end());
    return QStringLiteral("list:") + writeWorkFile(work, "plan-cached-at-start.txt",
                                                   QStringLiteral("the plan's cache snapshot"),
                                                   blockLines(blocks));
}

} // namespace la
