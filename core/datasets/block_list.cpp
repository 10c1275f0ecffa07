// SPDX-License-Identifier: GPL-3.0-or-later
#include "dataset.h"
#include "files/input_file.h"
#include "files/unique_fd.h"
#include "input_error.h"
#include "message_text.h"
#include "plan_visits.h"
#include "stop_request.h"
#include "visits.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace la {

namespace {

// 0xFFFFFFFF is PostgreSQL's InvalidBlockNumber, and relationBlocks() = max + 1 must fit 32 bits.
constexpr std::uint64_t kLargestBlock = 4294967294ULL;
// No block number or column name is this long: a longer field is junk, reported without
// buffering the rest of it.
constexpr std::size_t kLongestField = 4096;

// Reads a file through a fixed buffer, byte by byte. A regular file only (files/input_file.h): a list is
// read again by every run (and every cell of a sweep), which a pipe could give once at most.
class ByteReader {
public:
    ByteReader(std::string path, std::string what)
        : m_path(std::move(path)), m_what(std::move(what)),
          m_fd(openInputFile(m_path, m_what, "give a file of block numbers").fd) {}

    // The next byte, or -1 at the end of the file.
    int get() {
        if (m_at == m_end && !refill())
            return -1;
        return static_cast<unsigned char>(m_buffer[m_at++]);
    }
    int peek() {
        if (m_at == m_end && !refill())
            return -1;
        return static_cast<unsigned char>(m_buffer[m_at]);
    }

private:
    bool refill() {
        ssize_t n = 0;
        do
            n = ::read(m_fd.get(), m_buffer, sizeof m_buffer);
        while (n < 0 && retryAfter(errno));
        if (n < 0 && errno == EINTR)
            throw InputError("reading " + m_what + " '" + m_path + "' was interrupted by a signal");
        if (n < 0)
            fail(errno);
        m_at = 0;
        m_end = static_cast<std::size_t>(n);
        return n > 0;
    }
    [[noreturn]] void fail(int error) const {
        throw InputError("cannot read " + m_what + " '" + m_path + "': " + std::strerror(error));
    }

    std::string m_path;
    std::string m_what;
    UniqueFd m_fd;
    char m_buffer[1 << 16];
    std::size_t m_at = 0;
    std::size_t m_end = 0;
};

// One CSV record (RFC 4180) at a time: fields separated by commas, records by LF or CRLF; a field
// in double quotes may hold commas, line breaks and doubled quotes. Outside quotes, '#' starts a
// comment up to the end of the line, and blanks around a field are dropped.
class RecordReader {
public:
    RecordReader(ByteReader& bytes, std::string where) : m_bytes(bytes), m_where(std::move(where)) {
        if (m_bytes.peek() == 0xEF) { // a UTF-8 byte order mark, as spreadsheets write
            m_bytes.get();
            if (m_bytes.get() != 0xBB || m_bytes.get() != 0xBF)
                throw InputError(m_where + ", line 1: starts with a byte that is not text");
        }
    }

    // The next record with at least one non-empty field; false at the end of the file.
    bool next(std::vector<std::string>& fields, std::size_t& line) {
        for (;;) {
            fields.clear();
            line = m_line;
            const bool more = readRecord(fields);
            const bool blank =
                std::all_of(fields.begin(), fields.end(), [](const auto& f) { return f.empty(); });
            if (!blank)
                return true;
            if (!more)
                return false;
        }
    }

private:
    // Returns false if the file ended with this record.
    bool readRecord(std::vector<std::string>& fields) {
        std::string field;
        bool quoted = false;   // the field started with a quote
        bool inQuotes = false; // between its quotes now
        for (;;) {
            const int c = m_bytes.get();
            if (c < 0) {
                if (inQuotes)
                    throw InputError(m_where + ", line " + std::to_string(m_line) +
                                     ": a quoted field is not closed before the end of the file");
                finish(fields, field, quoted);
                return false;
            }
            if (inQuotes) {
                if (c == '"' && m_bytes.peek() == '"') {
                    m_bytes.get();
                    add(field, '"');
                } else if (c == '"') {
                    inQuotes = false;
                } else {
                    if (c == '\n')
                        ++m_line;
                    add(field, static_cast<char>(c));
                }
                continue;
            }
            if (c == '\n' || c == '#') {
                if (c == '#')
                    skipLine();
                ++m_line;
                finish(fields, field, quoted);
                return true;
            }
            if (c == ',') {
                finish(fields, field, quoted);
                field.clear();
                quoted = false;
            } else if (c == '"' && trimmedEmpty(field) && !quoted) {
                field.clear();
                quoted = inQuotes = true;
            } else if (c == '\r' && m_bytes.peek() == '\n') {
                continue;
            } else {
                if (quoted && c != ' ' && c != '\t')
                    throw InputError(m_where + ", line " + std::to_string(m_line) +
                                     ": text after the closing quote of a field");
                add(field, static_cast<char>(c));
            }
        }
    }

    void skipLine() {
        for (int c = m_bytes.get(); c >= 0 && c != '\n'; c = m_bytes.get()) {
        }
    }
    void add(std::string& field, char c) {
        if (field.size() >= kLongestField)
            throw InputError(m_where + ", line " + std::to_string(m_line) + ": a field longer than " +
                             std::to_string(kLongestField) + " bytes ('" + excerpt(field) +
                             "'); expected block numbers");
        field += c;
    }
    static bool trimmedEmpty(const std::string& field) {
        return field.find_first_not_of(" \t") == std::string::npos;
    }
    static void finish(std::vector<std::string>& fields, std::string& field, bool quoted) {
        if (!quoted) {
            const auto begin = field.find_first_not_of(" \t\r");
            const auto end = field.find_last_not_of(" \t\r");
            field = begin == std::string::npos ? std::string() : field.substr(begin, end - begin + 1);
        } else {
            const auto end = field.find_last_not_of(" \t\r");
            field.resize(end == std::string::npos ? 0 : end + 1);
        }
        fields.push_back(std::move(field));
    }

    ByteReader& m_bytes;
    std::string m_where;
    std::size_t m_line = 1;
};

bool isBlockHeader(std::string_view name) {
    return std::ranges::equal(name, std::string_view("block"),
                              [](char a, char b) { return (a | 0x20) == b; });
}

bool isResetMarker(std::string_view text) {
    return std::ranges::equal(text, std::string_view("reset"),
                              [](char a, char b) { return (a | 0x20) == b; });
}

// "stream N": the blocks after it are stream N's (docs/plan-runs.md).
bool isStreamMarker(std::string_view text) {
    return text.size() > 7 && std::ranges::equal(text.substr(0, 7), std::string_view("stream "),
                                                 [](char a, char b) { return (a | 0x20) == b; });
}

// A reset or a turn to another stream, at its place among the blocks, in file order.
struct ListMark {
    std::uint64_t place = 0;
    bool reset = false;
    std::uint8_t stream = 0;
};

// The first record decides the format: a header with a "block" column makes it CSV, a single
// value a plain list. A "reset" in place of a block number is a reset of the stream before the next
// block, kept in `resets` (its place in the blocks); without `resets` the file may hold none.
std::vector<std::uint32_t> parseBlocks(ByteReader& bytes, const std::string& path, const std::string& what,
                                       std::vector<ListMark>* marks) {
    const std::string name = what + " '" + path + "'";
    RecordReader records(bytes, name);
    std::vector<std::string> fields;
    std::size_t line = 0;
    std::optional<std::size_t> column;
    std::vector<std::uint32_t> blocks;
    const auto where = [&] { return name + ", line " + std::to_string(line) + ": "; };
    bool first = true;
    while (records.next(fields, line)) {
        if (first) {
            first = false;
            const auto header = std::find_if(fields.begin(), fields.end(), isBlockHeader);
            if (header != fields.end()) {
                column = static_cast<std::size_t>(header - fields.begin());
                continue;
            }
            if (fields.size() > 1) {
                std::string header;
                for (const std::string& field : fields)
                    header += (header.empty() ? "" : ",") + field;
                throw InputError(where() + "CSV header '" + excerpt(header) +
                                 "' has no 'block' column (name the column of block numbers 'block')");
            }
        }
        const std::size_t index = column.value_or(0);
        if (index >= fields.size() || (!column && fields.size() > 1))
            throw InputError(where() +
                             (column ? "no value in column " + std::to_string(index + 1) + " ('block')"
                                     : "more than one value on a line of a plain list") +
                             "; expected a whole number 0..4294967294");
        const std::string& text = fields[index];
        const bool reset = isResetMarker(text), stream = isStreamMarker(text);
        if ((reset || stream) && !marks)
            throw InputError(where() + "'" + excerpt(text) + "' marks " +
                             (reset ? "a reset of a stream" : "the blocks of another stream") +
                             ", which only a block list of visits (--blocks) holds; expected a whole "
                             "number 0..4294967294");
        if (reset) {
            marks->push_back({blocks.size(), true, 0});
            continue;
        }
        if (stream) {
            const std::string_view number = std::string_view(text).substr(7);
            unsigned id = 0;
            const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), id);
            if (error != std::errc() || end != number.data() + number.size() || id >= kMaxPlanStreams)
                throw InputError(where() + "'" + excerpt(text) +
                                 "' names no stream (expected 'stream N', N 0.." +
                                 std::to_string(kMaxPlanStreams - 1) + ")");
            marks->push_back({blocks.size(), false, static_cast<std::uint8_t>(id)});
            continue;
        }
        std::uint64_t block = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), block);
        if (text.empty() || error != std::errc() || end != text.data() + text.size() || block > kLargestBlock)
            throw InputError(where() + "'" + excerpt(text) +
                             "' is not a block number (expected a whole number 0..4294967294)");
        blocks.push_back(static_cast<std::uint32_t>(block));
    }
    return blocks;
}

} // namespace

std::vector<std::uint32_t> readBlockNumbers(const std::string& path, const std::string& what) {
    ByteReader bytes(path, what);
    return parseBlocks(bytes, path, what, nullptr);
}

namespace {

// Each stream's blocks and resets, and the turns between them, from the list in file order; the blocks
// before the first "stream" line are stream 0's.
std::unique_ptr<BlockSource> splitStreams(const std::string& path, const std::vector<std::uint32_t>& blocks,
                                          const std::vector<ListMark>& marks, std::uint64_t relationBlocks) {
    std::vector<Visits> streams(1);
    std::vector<StreamTurn> turns;
    std::uint8_t current = 0;
    std::size_t m = 0;
    for (std::size_t place = 0;; ++place) {
        for (; m < marks.size() && marks[m].place == place; ++m) {
            if (marks[m].reset) {
                streams[current].resetsBefore.push_back(streams[current].blocks.size());
                continue;
            }
            current = marks[m].stream;
            if (current >= streams.size())
                streams.resize(current + 1);
        }
        if (place == blocks.size())
            break;
        streams[current].blocks.push_back(blocks[place]);
        if (turns.empty() || turns.back().stream != current)
            turns.push_back({current, 0});
        ++turns.back().buffers;
    }
    for (std::size_t i = 0; i < streams.size(); ++i)
        if (streams[i].blocks.empty())
            throw InputError("block list '" + path + "' names stream " + std::to_string(i) +
                             " but gives it no block (number the streams 0, 1, 2 … and give each its "
                             "visits after its 'stream N' line)");
    for (Visits& visits : streams)
        visits.relationBlocks = relationBlocks;
    return std::make_unique<PlanSource>(std::move(streams), std::move(turns), relationBlocks);
}

} // namespace

std::unique_ptr<BlockSource> loadBlockList(const std::string& path, Direction direction,
                                           std::uint64_t relationBlocks) {
    Visits visits;
    ByteReader bytes(path, "block list");
    std::vector<ListMark> marks;
    visits.blocks = parseBlocks(bytes, path, "block list", &marks);
    if (visits.blocks.empty())
        throw InputError("block list '" + path +
                         "' holds no block numbers (expected one per line, or a CSV column named 'block')");
    const std::uint32_t largest = *std::max_element(visits.blocks.begin(), visits.blocks.end());
    if (relationBlocks > 0 && largest >= relationBlocks)
        throw InputError("block list '" + path + "' reads block " + std::to_string(largest) +
                         ", past --relation-blocks " + std::to_string(relationBlocks) +
                         " (the relation's size must exceed every block it reads)");
    visits.relationBlocks = relationBlocks > 0 ? relationBlocks : std::uint64_t{largest} + 1;
    if (std::ranges::any_of(marks, [](const ListMark& mark) { return !mark.reset; })) {
        if (direction == Direction::Backward)
            throw InputError("block list '" + path +
                             "' holds the visits of several streams, in the order the executor takes "
                             "them; it has no backward scan (leave --direction backward out)");
        return splitStreams(path, visits.blocks, marks, visits.relationBlocks);
    }
    for (const ListMark& mark : marks)
        visits.resetsBefore.push_back(mark.place);
    return makeVisitSource(std::move(visits), direction);
}

} // namespace la
