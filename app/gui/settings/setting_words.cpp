// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/settings/setting_words.h"

#include <QRegularExpression>

#include <array>
#include <utility>

namespace la {

namespace {

// The label of each setting as the window shows it (run setup panel, menus and dialogs): the panel
// labels its controls from here.
constexpr std::array kLabels = {
    std::pair{"dataset", "Dataset"},
    std::pair{"blocks", "Block list"},
    std::pair{"pattern-blocks", "Pattern size"},
    std::pair{"scale", "Scale"},
    std::pair{"direction", "Direction"},
    std::pair{"seed", "Seed"},
    std::pair{"pg-index", "Index file"},
    std::pair{"pg-heap", "Heap file"},
    std::pair{"pg-datadir", "Data directory"},
    std::pair{"pg-key", "Key type"},
    std::pair{"pg-key-range", "Key range"},
    std::pair{"pg-collation", "Collation"},
    std::pair{"pg-checksums", "Checksums"},
    std::pair{"index-batches", "Index batches"},
    std::pair{"compare-index-batches", "Index batches of run B"},
    std::pair{"stream-start-after", "Stream starts after"},
    std::pair{"policy", "Policy A"},
    std::pair{"compare-policy", "Policy B"},
    std::pair{"mechanics", "Mechanics"},
    std::pair{"eic", "effective_io_concurrency"},
    std::pair{"io-combine-limit", "io_combine_limit"},
    std::pair{"max-pinned", "max_pinned"},
    std::pair{"shared-buffers", "shared_buffers"},
    std::pair{"strategy", "Buffer strategy"},
    std::pair{"relation-blocks", "Block list's relation size"},
    std::pair{"max-connections", "max_connections"},
    std::pair{"prewarm", "Cache state (prewarm)"},
    std::pair{"miss-fraction", "Miss fraction"},
    std::pair{"miss-spacing", "Miss spacing"},
    std::pair{"reset-every", "Reset every"},
    std::pair{"restore-after-reset", "Restore distance after reset"},
    std::pair{"backward-combining", "Backward combining (what if)"},
    std::pair{"stream-flags", "Stream flags"},
    std::pair{"maintenance-io-concurrency", "maintenance_io_concurrency"},
    std::pair{"other-pins", "Other pins of the backend"},
    std::pair{"io", "I/O method"},
    std::pair{"direct", "Direct I/O (O_DIRECT)"},
    std::pair{"buffered", "Direct I/O (O_DIRECT)"},
    std::pair{"file", "File"},
    std::pair{"os-cache", "Evict the file from the OS cache first"},
    std::pair{"io-workers", "io_workers (PG18)"},
    std::pair{"io-min-workers", "io_min_workers (PG19)"},
    std::pair{"io-max-workers", "io_max_workers (PG19)"},
    std::pair{"io-worker-launch-interval", "io_worker_launch_interval (ms, PG19)"},
    std::pair{"io-worker-idle-timeout", "io_worker_idle_timeout (ms, PG19)"},
    std::pair{"cache-dir", "Dataset cache directory"},
    std::pair{"sim-io-method", "Simulated reads"},
    std::pair{"latency-us", "Simulated latency (µs)"},
    std::pair{"device-parallelism", "Device parallelism"},
    std::pair{"jitter", "Latency jitter"},
    std::pair{"device-profile", "Device profile"},
    std::pair{"consumer-ns", "Consumer cost"},
    std::pair{"submit-ns", "Cost to start a read"},
    std::pair{"repeat", "Repeat"},
    std::pair{"collapse-window", "Collapse window (misses)"},
    std::pair{"shown-stream", "Stream drawn (plan runs)"},
    std::pair{"import-trace", "Imported trace"},
    std::pair{"trace-format", "Trace format"},
    std::pair{"trace-relation", "Traced relation"},
    std::pair{"trace-backend", "Backend pid"},
    std::pair{"explain", "EXPLAIN"},
    std::pair{"trace-csv", "Event CSV"},
    std::pair{"cache-after", "Cache after the run"},
    std::pair{"summary-json", "Summary JSON"},
    std::pair{"save", "Session file"},
    std::pair{"open", "Session file"},
};

} // namespace

QString settingLabel(const QString& name) {
    for (const auto& [key, label] : kLabels)
        if (name == QLatin1String(key))
            return QString::fromUtf8(label);
    return {};
}

QString windowWording(const QString& message) {
    // "--name" at a word start, optionally followed by a value placeholder the window has no use for.
    static const QRegularExpression flag(
        QStringLiteral("(?<![\\w-])--([a-z][a-z0-9-]*)( (?:FILE|N|LO:HI|DIR|PATH|PID))?"));
    QString worded;
    qsizetype from = 0;
    QRegularExpressionMatchIterator it = flag.globalMatch(message);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const QString label = settingLabel(match.captured(1));
        if (label.isEmpty())
            continue;
        worded += QStringView(message).mid(from, match.capturedStart() - from);
        worded += QLatin1Char('"') + label + QLatin1Char('"');
        from = match.capturedEnd();
    }
    worded += QStringView(message).mid(from);
    return worded;
}

} // namespace la
