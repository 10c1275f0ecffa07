// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset.h"
#include "input_error.h"
#include "visits.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace la {

namespace {

// 0xFFFFFFFF is PostgreSQL's InvalidBlockNumber, and relationBlocks() = max + 1 must fit 32 bits.
constexpr std::uint64_t kLargestBlock = 4294967294ULL;

std::string readWholeFile(const std::string& path) {
    const auto fail = [&](int error) {
        return InputError("cannot read block list '" + path + "': " + std::strerror(error));
    };
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored))
        throw fail(EISDIR);
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr)
        throw fail(errno);
    std::string text;
    char buffer[1 << 16];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0)
        text.append(buffer, got);
    const int error = std::ferror(file) ? errno : 0;
    std::fclose(file);
    if (error != 0)
        throw fail(error);
    return text;
}

std::string_view trimmed(std::string_view text) {
    const auto begin = text.find_first_not_of(" \t\r");
    if (begin == std::string_view::npos)
        return {};
    const auto end = text.find_last_not_of(" \t\r");
    text = text.substr(begin, end - begin + 1);
    // A quoted CSV field, e.g. "block" or "42".
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
        text = text.substr(1, text.size() - 2);
    return text;
}

// The `index`-th comma-separated field, or nothing if the line is shorter.
std::optional<std::string_view> field(std::string_view line, std::size_t index) {
    for (; index > 0; --index) {
        const auto comma = line.find(',');
        if (comma == std::string_view::npos)
            return std::nullopt;
        line.remove_prefix(comma + 1);
    }
    return trimmed(line.substr(0, line.find(',')));
}

// Reads the file's lines one by one: '#' starts a comment, blank lines are skipped. The first content line
// decides the format: a header with a "block" column makes it CSV, anything else a plain list.
class BlockListParser {
public:
    explicit BlockListParser(std::string path) : m_path(std::move(path)) {}

    std::vector<std::uint32_t> parse(std::string_view text) {
        std::size_t lineNumber = 0;
        while (!text.empty()) {
            ++lineNumber;
            const auto newline = text.find('\n');
            std::string_view line = text.substr(0, newline);
            text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
            line = line.substr(0, line.find('#'));
            if (trimmed(line).empty())
                continue;
            if (m_firstLine) {
                m_firstLine = false;
                m_csv = startsCsv(line, lineNumber);
                if (m_csv)
                    continue;
            }
            addBlock(line, lineNumber);
        }
        if (m_blocks.empty())
            throw InputError(
                "block list '" + m_path +
                "' holds no block numbers (expected one per line, or a CSV column named 'block')");
        return std::move(m_blocks);
    }

private:
    std::string where(std::size_t lineNumber) const {
        return "block list '" + m_path + "', line " + std::to_string(lineNumber) + ": ";
    }

    bool startsCsv(std::string_view line, std::size_t lineNumber) {
        for (std::size_t index = 0;; ++index) {
            const auto name = field(line, index);
            if (!name)
                break;
            if (std::ranges::equal(*name, std::string_view("block"),
                                   [](char a, char b) { return (a | 0x20) == b; })) {
                m_column = index;
                return true;
            }
        }
        if (line.find(',') != std::string_view::npos)
            throw InputError(where(lineNumber) + "CSV header '" + std::string(trimmed(line)) +
                             "' has no 'block' column (name the column of block numbers 'block')");
        return false;
    }

    void addBlock(std::string_view line, std::size_t lineNumber) {
        const auto text = m_csv ? field(line, m_column) : trimmed(line);
        if (!text)
            throw InputError(where(lineNumber) + "no value in column " + std::to_string(m_column + 1) +
                             " ('block'); expected a whole number 0..4294967294");
        std::uint64_t block = 0;
        const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), block);
        if (text->empty() || error != std::errc() || end != text->data() + text->size() ||
            block > kLargestBlock)
            throw InputError(where(lineNumber) + "'" + std::string(*text) +
                             "' is not a block number (expected a whole number 0..4294967294)");
        m_blocks.push_back(static_cast<std::uint32_t>(block));
    }

    std::string m_path;
    bool m_firstLine = true;
    bool m_csv = false;
    std::size_t m_column = 0; // the "block" column of a CSV
    std::vector<std::uint32_t> m_blocks;
};

} // namespace

std::unique_ptr<BlockSource> loadBlockList(const std::string& path, Direction direction) {
    Visits visits;
    visits.blocks = BlockListParser(path).parse(readWholeFile(path));
    std::uint32_t largest = 0;
    for (const std::uint32_t block : visits.blocks)
        largest = std::max(largest, block);
    visits.relationBlocks = std::uint64_t{largest} + 1;
    return makeVisitSource(std::move(visits), direction);
}

} // namespace la
