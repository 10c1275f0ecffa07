// SPDX-License-Identifier: GPL-3.0-or-later
#include "output_guard.h"

#include "input_error.h"
#include "message_text.h"

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string_view>

namespace la {

namespace {

// Where a path leads: its inode if it exists, else the absolute path it would be created at.
struct Identity {
    std::optional<std::pair<dev_t, ino_t>> inode;
    std::string resolved;
    bool isDirectory = false;
    bool isStream = false; // a device or FIFO: /dev/null may well take two outputs

    bool operator==(const Identity& other) const {
        if (inode && other.inode)
            return *inode == *other.inode;
        return resolved == other.resolved;
    }
};

Identity identify(const std::string& path) {
    Identity id;
    std::error_code error;
    id.resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(path, error), error).string();
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        id.inode = std::pair{st.st_dev, st.st_ino};
        id.isDirectory = S_ISDIR(st.st_mode);
        id.isStream = !S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode);
    }
    return id;
}

bool inside(const Identity& file, const Identity& dir) {
    const std::string prefix = dir.resolved + "/";
    return file.resolved.starts_with(prefix);
}

// Whether `name` belongs to the relation whose first segment is named `relation`: the relation
// itself, a fork ("_fsm", "_vm", "_init") and either followed by a segment number (".3").
bool familyName(std::string_view name, std::string_view relation) {
    if (!name.starts_with(relation))
        return false;
    name.remove_prefix(relation.size());
    for (const std::string_view fork : {"_fsm", "_vm", "_init"})
        if (name.starts_with(fork)) {
            name.remove_prefix(fork.size());
            break;
        }
    if (name.empty())
        return true;
    return name.size() > 1 && name.front() == '.' &&
           name.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

// A relation's family: the directory its segments are looked up in, the first segment's name, and
// the files of the family that exist now (an output hard-linked to one is caught by its inode).
struct Family {
    Identity dir;
    std::string name;
    std::vector<Identity> members;
};

Family familyOf(const std::string& firstSegment) {
    const std::filesystem::path path(firstSegment);
    Family family{
        identify(path.has_parent_path() ? path.parent_path().string() : "."), path.filename().string(), {}};
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(family.dir.resolved, error))
        if (familyName(entry.path().filename().string(), family.name))
            family.members.push_back(identify(entry.path().string()));
    return family;
}

bool inFamily(const Identity& file, const Family& family) {
    for (const Identity& member : family.members)
        if (member == file)
            return true;
    const std::filesystem::path resolved(file.resolved);
    return identify(resolved.parent_path().string()) == family.dir &&
           familyName(resolved.filename().string(), family.name);
}

// How an output collides with an input (the start of the message), or nullptr if it does not.
const char* clashOf(const Identity& output, const Identity& input, const std::optional<Family>& family) {
    if (output == input)
        return "is the same file as ";
    if (input.isDirectory && inside(output, input))
        return "lies in ";
    if (family && inFamily(output, *family))
        return "names a segment or fork of the relation ";
    return nullptr;
}

} // namespace

void checkOutputsApart(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs) {
    std::vector<Identity> inputIds;
    std::vector<std::optional<Family>> families;
    inputIds.reserve(inputs.size());
    families.reserve(inputs.size());
    for (const NamedPath& input : inputs) {
        inputIds.push_back(identify(input.path));
        families.push_back(input.relation ? std::optional(familyOf(input.path)) : std::nullopt);
    }
    std::vector<Identity> outputIds;
    outputIds.reserve(outputs.size());
    for (const NamedPath& output : outputs) {
        const Identity id = identify(output.path);
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            const char* clash = clashOf(id, inputIds[i], families[i]);
            if (clash)
                throw InputError(output.role + " '" + excerpt(output.path) + "' " + clash + inputs[i].role +
                                 " '" + excerpt(inputs[i].path) +
                                 "': Lookahead never overwrites what it reads; choose another output file");
        }
        for (std::size_t i = 0; i < outputIds.size(); ++i)
            if (outputIds[i] == id && !id.isStream)
                throw InputError(output.role + " '" + excerpt(output.path) + "' is the same file as " +
                                 outputs[i].role + " '" + excerpt(outputs[i].path) +
                                 "'; give each output its own file");
        outputIds.push_back(id);
    }
}

} // namespace la
