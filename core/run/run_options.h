// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "run_config.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace la {

enum class OptionKind : std::uint8_t { Flag, Whole, Real, Text };

// One option of a run: its name, type, range, default, command-line flag, settings key, JSON key and
// help text, and how it reads and writes a RunConfig. The command line, the window's ranges, the
// saved settings, the summary JSON, the help text and the checks before a run all come from the
// table, so an option is one entry.
struct RunOption {
    std::string_view name;        // --name on the command line
    std::string_view settingsKey; // run/<key> in the saved settings
    std::string_view jsonKey;     // in the summary JSON's "config"
    OptionKind kind = OptionKind::Text;
    std::string_view section;   // of the help text: "Dataset", "Read stream", "I/O", "Output"
    std::string_view valueName; // "N", "FILE" in the help text
    std::string help;           // one line; a '\n' continues it; its default is the default run's
    std::string_view unit;      // of a number, for plot axes: "%", "ns", "blocks" (empty: none)
    std::uint64_t minWhole = 0, maxWhole = 0;
    double minReal = 0.0, maxReal = 0.0;
    bool minExclusive = false;             // Real: more than minReal
    std::vector<std::string_view> choices; // Text: the values it takes (empty: any)
    std::vector<std::string_view> aliases; // Text: other spellings it also takes ("uring")
    std::string_view negation;             // Flag: a second flag that sets it false ("buffered")
    std::string_view defaultValue;         // set by defaultRunConfig() where RunConfig's own default is none
    std::function<std::string(const RunConfig&)> get;        // "" = not set
    std::function<void(RunConfig&, const std::string&)> set; // gets checked values only
};

const std::vector<RunOption>& runOptions();
// A run as every front end starts it (the command line, the window's first launch, sweep cells):
// RunConfig's defaults with each option's defaultValue set.
RunConfig defaultRunConfig();
// The option named `name` (or whose negation it is); nullptr if there is none.
const RunOption* findRunOption(std::string_view name);

// Checks `value` against the option's type, range and choices, then stores it; throws InputError
// ("--eic '5000': expected a whole number 0..1000") otherwise.
void setRunOption(RunConfig& config, const RunOption& option, const std::string& value);

// The one check of a configuration: every option's value as setRunOption() would check it, and the
// options that cannot go together. A configuration built in code or by the window passes the same
// checks as the command line; runScan() and openSource() make it before they use one.
void validateRunConfig(const RunConfig& config);

// Every option's value, "name=value" joined by spaces (unset options left out): two configurations
// run alike exactly when their texts are equal.
std::string runOptionsText(const RunConfig& config);

// The help lines of one section, generated from the table.
std::string runOptionHelp(std::string_view section);

// One option's lines of a help text: `head` ("  --name VALUE") padded to the help's column, and
// `help`'s lines, the later ones indented to it.
std::string helpEntry(std::string head, std::string_view help);

// The help lines of the options of `section` in `options` (a table whose entries have a `section` and
// a `help`): a helpEntry each, headed by head(entry).
template <class Options, class Head>
std::string sectionHelp(const Options& options, std::string_view section, const Head& head) {
    std::string text;
    for (const auto& option : options)
        if (option.section == section)
            text += helpEntry(head(option), option.help);
    return text;
}

} // namespace la
