// SPDX-License-Identifier: GPL-3.0-or-later
#include "prewarm.h"

#include "buffer_pool.h"
#include "dataset.h"
#include "input_error.h"
#include "message_text.h"
#include "text_parse.h"

#include <algorithm>
#include <cmath>

namespace la {

namespace {
constexpr std::uint64_t kExactFractionCount = 1ULL << 24;

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDULL;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ULL;
    return x ^ (x >> 33);
}

std::vector<std::uint32_t> readList(const std::string& path) {
    std::vector<std::uint32_t> blocks = readBlockNumbers(path, "prewarm list");
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    return blocks;
}
} // namespace

PrewarmSpec PrewarmSpec::parse(const std::string& spec) {
    PrewarmSpec result;
    result.m_text = spec;
    const auto bad = [&](const std::string& why) {
        return InputError("prewarm '" + excerpt(spec) + "': " + why +
                          " (use none, all, every:K, except-every:K, fraction:P:SEED, misses:PCT:SPACING or "
                          "list:FILE)");
    };
    if (spec == "none" || spec.empty()) {
        result.m_text = "none";
        return result;
    }
    if (spec == "all") {
        result.m_kind = Kind::All;
        return result;
    }
    if (spec.starts_with("every:") || spec.starts_with("except-every:")) {
        const bool except = spec.starts_with("except-");
        const std::string k = spec.substr(spec.find(':') + 1);
        if (!parseUnsigned(k, result.m_k) || result.m_k == 0)
            throw bad("K must be a whole number >= 1");
        result.m_kind = except ? Kind::ExceptEvery : Kind::Every;
        return result;
    }
    if (spec.starts_with("fraction:")) {
        const std::string rest = spec.substr(9);
        const auto colon = rest.find(':');
        const std::string p = rest.substr(0, colon);
        if (!parseDouble(p, result.m_fraction) || result.m_fraction < 0.0 || result.m_fraction > 1.0)
            throw bad("P must be a number between 0 and 1");
        if (colon != std::string::npos && !parseUnsigned(rest.substr(colon + 1), result.m_seed))
            throw bad("SEED must be a whole number");
        result.m_kind = Kind::Fraction;
        return result;
    }
    if (spec.starts_with("misses:")) {
        parseMisses(spec.substr(7), result);
        result.m_kind = Kind::Misses;
        return result;
    }
    if (spec.starts_with("list:")) {
        result.m_list = readList(spec.substr(5));
        result.m_kind = Kind::List;
        return result;
    }
    throw bad("unknown form");
}

void PrewarmSpec::parseMisses(const std::string& rest, PrewarmSpec& result) {
    const auto bad = [&](const std::string& why) {
        return InputError(joined({"prewarm 'misses:", excerpt(rest), "': ", why,
                                  " (use misses:PCT:even, misses:PCT:runs:L or misses:PCT:random[:SEED])"}));
    };
    const auto colon = rest.find(':');
    double percent = 0.0;
    if (!parseDouble(rest.substr(0, colon), percent) || percent < 0.0 || percent > 100.0)
        throw bad("PCT must be a percentage between 0 and 100");
    result.m_fraction = percent / 100.0;
    const std::string spacing = colon == std::string::npos ? "even" : rest.substr(colon + 1);
    if (spacing == "even")
        return;
    if (spacing.starts_with("runs:")) {
        if (!parseUnsigned(spacing.substr(5), result.m_run) || result.m_run == 0 || result.m_run > 1'000'000)
            throw bad("L of runs:L must be a whole number 1..1000000");
        return;
    }
    if (spacing == "random" || spacing.starts_with("random:")) {
        result.m_randomMisses = true;
        result.m_seed = 6; // the synthetic patterns' seed (docs/datasets.md §2.5)
        if (spacing.size() > 6 && !parseUnsigned(spacing.substr(7), result.m_seed))
            throw bad("SEED of random:SEED must be a whole number");
        return;
    }
    throw bad("SPACING must be even, runs:L or random");
}

// Runs of m_run blocks are missing or cached together; a run is missing when the running count of
// missing runs, floor(run * fraction), steps up, which spreads them as evenly as whole runs allow.
bool PrewarmSpec::missing(std::uint32_t block) const {
    if (m_randomMisses)
        return static_cast<double>(mix(block ^ mix(m_seed)) >> 11) * 0x1.0p-53 < m_fraction;
    const std::uint64_t runIndex = block / m_run; // whole runs: the division truncates on purpose
    const auto run = static_cast<double>(runIndex);
    return std::floor((run + 1.0) * m_fraction) > std::floor(run * m_fraction);
}

bool PrewarmSpec::contains(std::uint32_t block) const {
    switch (m_kind) {
    case Kind::None:
        return false;
    case Kind::All:
        return true;
    case Kind::Every:
        return block % m_k == 0;
    case Kind::ExceptEvery:
        return block % m_k != 0;
    case Kind::Fraction:
        return static_cast<double>(mix(block ^ mix(m_seed)) >> 11) * 0x1.0p-53 < m_fraction;
    case Kind::List:
        return std::binary_search(m_list.begin(), m_list.end(), block);
    case Kind::Misses:
        return !missing(block);
    }
    return false;
}

std::uint64_t PrewarmSpec::count(std::uint64_t relationBlocks) const {
    switch (m_kind) {
    case Kind::None:
        return 0;
    case Kind::All:
        return relationBlocks;
    case Kind::Every:
        return (relationBlocks + m_k - 1) / m_k;
    case Kind::ExceptEvery:
        return relationBlocks - (relationBlocks + m_k - 1) / m_k;
    case Kind::List:
        return static_cast<std::uint64_t>(std::lower_bound(m_list.begin(), m_list.end(), relationBlocks) -
                                          m_list.begin());
    case Kind::Fraction:
    case Kind::Misses:
        break;
    }
    // Counting a huge relation block by block would take seconds; only the pool's size depends on
    // it, and there the expected count serves as well.
    if (relationBlocks > kExactFractionCount)
        return static_cast<std::uint64_t>((m_kind == Kind::Misses ? 1.0 - m_fraction : m_fraction) *
                                          static_cast<double>(relationBlocks)) +
               1;
    std::uint64_t n = 0;
    for (std::uint64_t b = 0; b < relationBlocks; ++b)
        n += contains(static_cast<std::uint32_t>(b)) ? 1 : 0;
    return n;
}

std::uint64_t PrewarmSpec::apply(BufferPool& pool, std::uint64_t relationBlocks, bool* leftOut) const {
    bool left = false;
    std::uint64_t loaded = 0;
    // One wanted block: loaded while the pool has room; once it is full, the first wanted block it
    // does not hold already is one left out, and ends the walk.
    const auto take = [&](std::uint64_t block) {
        const auto b = static_cast<std::uint32_t>(block);
        if (pool.resident() < pool.capacity()) {
            loaded += pool.prewarm(b) ? 1 : 0;
            return true;
        }
        left = !pool.contains(b);
        return !left;
    };
    std::optional<std::uint64_t> all;
    if (m_kind == Kind::All)
        all = pool.prewarmAll(); // at once where the pool's layout allows it
    if (all) {
        loaded = *all;
    } else if (m_kind == Kind::List) {
        for (const std::uint32_t b : m_list)
            if (b >= relationBlocks || !take(b))
                break;
    } else if (m_kind == Kind::Every) {
        // The same blocks contains() picks, lowest first, without a division per block.
        for (std::uint64_t b = 0; b < relationBlocks && take(b); b += m_k) {
        }
    } else if (m_kind != Kind::None) {
        std::uint64_t phase = 0; // b % K, counted along rather than divided for
        for (std::uint64_t b = 0; b < relationBlocks; ++b) {
            const bool wanted =
                m_kind == Kind::ExceptEvery ? phase != 0 : contains(static_cast<std::uint32_t>(b));
            if (++phase == m_k)
                phase = 0;
            if (wanted && !take(b))
                break;
        }
    }
    if (leftOut)
        *leftOut = left;
    return loaded;
}

} // namespace la
