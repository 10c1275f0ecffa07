// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep/sweep_spec.h"

#include "checked_math.h"
#include "experiment/device_profile_json.h"
#include "experiment/document_file.h"
#include "files/held_directory.h"
#include "files/input_file.h"
#include "files/output_file.h"
#include "files/output_guard.h"
#include "input_error.h"
#include "message_text.h"
#include "registry.h"
#include "run_inputs.h"
#include "run_options.h"
#include "stream_config.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <sys/stat.h>

#include <cmath>
#include <cstdio>

namespace la {

namespace {

// The collapse map of docs/sweeps.md: where each policy falls into the 1<->2 trap.
constexpr const char* kCollapseMap = R"({
  "schema": "lookahead.sweep/1",
  "name": "collapse-map",
  "base": {"dataset": "seq", "pattern-blocks": 100000},
  "axes": [
    {"option": "miss-fraction", "from": 1, "to": 60, "step": 1},
    {"option": "miss-spacing", "values": ["even", "runs:2", "runs:4", "runs:8", "runs:16"]}
  ],
  "policies": ["pg17", "pg18", "pg19", "adaptive"]
})";

std::string numberText(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

std::string valueText(const QJsonValue& value) {
    if (value.isDouble())
        return numberText(value.toDouble());
    if (value.isBool())
        return value.toBool() ? "true" : "false";
    return value.toString().toStdString();
}

const RunOption* optionNamed(const std::string& name) {
    if (const RunOption* option = findRunOption(name))
        return option;
    for (const RunOption& option : runOptions())
        if (option.jsonKey == name)
            return &option;
    return nullptr;
}

std::string axisTitle(const RunOption& option) {
    std::string title(option.name);
    for (char& c : title)
        if (c == '-')
            c = ' ';
    if (!option.unit.empty()) {
        title += " (";
        title.append(option.unit);
        title += ')';
    }
    return title;
}

class SpecReader {
public:
    explicit SpecReader(std::string source) : m_source(std::move(source)) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(joined({"sweep spec ", excerpt(m_source, 200), ": ", what}));
    }

    SweepSpec read(const QByteArray& text) {
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(text, &error);
        if (error.error != QJsonParseError::NoError)
            fail(joined({"not valid JSON at byte ", std::to_string(error.offset), ": ",
                         error.errorString().toStdString()}));
        if (!document.isObject())
            fail("expected a JSON object with \"axes\" and \"policies\"");
        const QJsonObject root = document.object();
        for (auto it = root.begin(); it != root.end(); ++it)
            if (!QStringList{QStringLiteral("schema"), QStringLiteral("name"), QStringLiteral("base"),
                             QStringLiteral("axes"), QStringLiteral("policies")}
                     .contains(it.key()))
                fail(joined({"unknown key \"", excerpt(it.key().toStdString()),
                             "\" (a spec has schema, name, base, axes and policies)"}));
        const QString schema = root.value(QStringLiteral("schema")).toString();
        if (!schema.isEmpty() && schema != QStringLiteral("lookahead.sweep/1"))
            fail(joined({"schema \"", excerpt(schema.toStdString()), "\" is not lookahead.sweep/1"}));
        SweepSpec spec;
        spec.source = m_source;
        spec.name = root.value(QStringLiteral("name")).toString(QStringLiteral("sweep")).toStdString();
        if (spec.name.size() > kSweepNameBytes)
            fail(joined({"\"name\" '", excerpt(spec.name, 40), "' is longer than ",
                         std::to_string(kSweepNameBytes), " bytes; give a short name"}));
        readBase(root.value(QStringLiteral("base")), spec);
        readAxes(root.value(QStringLiteral("axes")), spec);
        readPolicies(root.value(QStringLiteral("policies")), spec);
        checkRunCount(spec);
        return spec;
    }

private:
    // Cells and runs are counted in 64 bits everywhere; a grid past that is no sweep anyone can run.
    void checkRunCount(const SweepSpec& spec) const {
        std::uint64_t runs = spec.policies.size() + 1;
        for (const SweepAxis& axis : spec.axes)
            if (!checkedMul<std::uint64_t>(runs, axis.values.size(), runs))
                fail("its axes make more than 2^64 runs; sweep fewer values");
    }

    std::string checkedValue(const QJsonValue& value, const std::string& where) const {
        std::string text = valueText(value);
        if (text.size() > kSweepValueBytes)
            fail(joined({where, ": the value '", excerpt(text, 40), "' is longer than ",
                         std::to_string(kSweepValueBytes), " bytes; no option takes one so long"}));
        return text;
    }

    void readBase(const QJsonValue& base, SweepSpec& spec) const {
        if (base.isUndefined())
            return;
        if (!base.isObject())
            fail("\"base\" must be an object of options, e.g. {\"dataset\": \"seq\"}");
        const QJsonObject object = base.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const std::string name = it.key().toStdString();
            const RunOption* option = optionNamed(name);
            if (!option)
                fail(joined({"base: unknown option '", excerpt(name),
                             "' (the options are those of lookahead --help)"}));
            spec.base.emplace_back(std::string(option->name), checkedValue(it.value(), "base: " + name));
        }
    }

    void readAxes(const QJsonValue& axes, SweepSpec& spec) const {
        if (!axes.isArray() || axes.toArray().isEmpty())
            fail("\"axes\" must be a non-empty array of {\"option\": ..., \"values\": [...]} or "
                 "{\"option\": ..., \"from\": A, \"to\": B, \"step\": S}");
        int index = 0;
        for (const QJsonValue& value : axes.toArray()) {
            ++index;
            spec.axes.push_back(readAxis(value, index));
            for (std::size_t other = 0; other + 1 < spec.axes.size(); ++other)
                if (spec.axes[other].option == spec.axes.back().option)
                    fail(joined({"axis ", std::to_string(index), ": option '", spec.axes.back().option,
                                 "' is already an axis"}));
        }
    }

    SweepAxis readAxis(const QJsonValue& value, int index) const {
        const std::string where = "axis " + std::to_string(index);
        if (!value.isObject())
            fail(where + ": expected an object with \"option\"");
        const QJsonObject object = value.toObject();
        const std::string name = object.value(QStringLiteral("option")).toString().toStdString();
        const RunOption* option = optionNamed(name);
        if (!option)
            fail(joined({where, ": unknown option '", excerpt(name),
                         "' (the options are those of lookahead --help)"}));
        SweepAxis axis;
        axis.option = option->name;
        axis.title = axisTitle(*option);
        axis.numeric = option->kind == OptionKind::Whole || option->kind == OptionKind::Real;
        const std::string named = joined({where, " (", axis.option, ")"});
        if (object.contains(QStringLiteral("values"))) {
            if (!object.value(QStringLiteral("values")).isArray())
                fail(named + ": \"values\" must be an array");
            for (const QJsonValue& v : object.value(QStringLiteral("values")).toArray())
                axis.values.push_back(checkedValue(v, named));
        } else if (object.contains(QStringLiteral("from"))) {
            axis.values = range(object, named);
        } else {
            fail(named + ": give \"values\": [...] or \"from\", \"to\" and \"step\"");
        }
        if (axis.values.empty())
            fail(named + ": no values (an empty range)");
        return axis;
    }

    std::vector<std::string> range(const QJsonObject& object, const std::string& named) const {
        const QJsonValue from = object.value(QStringLiteral("from"));
        const QJsonValue to = object.value(QStringLiteral("to"));
        const QJsonValue step = object.value(QStringLiteral("step"));
        if (!from.isDouble() || !to.isDouble() || !(step.isDouble() || step.isUndefined()))
            fail(named + ": \"from\", \"to\" and \"step\" must be numbers");
        const double a = from.toDouble(), b = to.toDouble(), s = step.toDouble(1.0);
        if (!(s > 0.0))
            fail(named + ": \"step\" must be more than 0");
        if (b < a)
            fail(joined({named, ": an empty range (\"from\" ", numberText(a), " is above \"to\" ",
                         numberText(b), ")"}));
        const double count = std::floor((b - a) / s + 1e-9) + 1.0;
        if (count > double(kSweepCellLimit))
            fail(named + ": more than 100,000 values");
        std::vector<std::string> values;
        for (std::uint64_t i = 0; i < std::uint64_t(count); ++i)
            values.push_back(numberText(a + double(i) * s));
        return values;
    }

    void readPolicies(const QJsonValue& policies, SweepSpec& spec) const {
        if (!policies.isArray() || policies.toArray().isEmpty())
            fail("\"policies\" must be a non-empty array such as [\"pg18\", \"pg19\"] "
                 "(\"POLICY@MECHANICS\" runs a policy on other mechanics)");
        for (const QJsonValue& value : policies.toArray()) {
            const std::string text = value.toString().toStdString();
            SweepPolicy policy;
            const auto at = text.find('@');
            policy.policy = text.substr(0, at);
            if (at != std::string::npos)
                policy.mechanics = text.substr(at + 1);
            try {
                findPolicy(policy.policy);
                if (!policy.mechanics.empty())
                    findMechanics(policy.mechanics);
            } catch (const InputError& error) {
                fail(joined({"policy '", excerpt(text), "': ", error.what()}));
            }
            // Its maps and runs' files are named after it: a second would be the first over again.
            for (const SweepPolicy& listed : spec.policies)
                if (listed.label() == policy.label())
                    fail(joined(
                        {"policy '", excerpt(text), "' is listed twice in \"policies\"; list each once"}));
            spec.policies.push_back(policy);
        }
    }

    std::string m_source;
};

// The cell's configuration, checked with its inputs: every run reads its files anew, so a FIFO (which
// would block, and could be read once) or a device is refused before any run (files/input_file.h), and
// so is a device profile that does not load. A missing file is left to the run, which names it;
// directories are the inputs that are directories.
RunConfig checkCellInputs(const SweepSpec& spec, std::uint64_t cell) {
    RunConfig config = spec.checkedCellConfig(cell);
    for (const NamedPath& input : runInputs(config)) {
        struct stat st {};
        if (::stat(input.path.c_str(), &st) != 0 || S_ISDIR(st.st_mode))
            continue;
        try {
            openInputFile(input.path, input.role,
                          "every run of a sweep reads it again, so give a regular file");
        } catch (const InputError& error) {
            throw InputError(joined({"sweep spec ", excerpt(spec.source, 200), ": cell ",
                                     std::to_string(cell), ": ", error.what()}));
        }
    }
    // A broken profile would fail every run of the cell, each on its own: it is the spec's error.
    if (!config.deviceProfile.empty()) {
        try {
            loadDeviceProfile(config.deviceProfile);
        } catch (const InputError& error) {
            throw InputError(joined({"sweep spec ", excerpt(spec.source, 200), ": cell ",
                                     std::to_string(cell), ": ", error.what()}));
        }
    }
    return config;
}

} // namespace

std::string SweepPolicy::label() const {
    return mechanics.empty() ? policy : policy + "@" + mechanics;
}

std::uint64_t SweepSpec::cells() const {
    std::uint64_t n = 1;
    for (const SweepAxis& axis : axes)
        n *= axis.values.size();
    return n;
}

std::vector<std::size_t> SweepSpec::coordinates(std::uint64_t cell) const {
    std::vector<std::size_t> at(axes.size());
    for (std::size_t i = axes.size(); i-- > 0;) {
        at[i] = cell % axes[i].values.size();
        cell /= axes[i].values.size();
    }
    return at;
}

std::vector<OptionValue> SweepSpec::cellOptions(std::uint64_t cell) const {
    std::vector<OptionValue> options = base;
    const std::vector<std::size_t> at = coordinates(cell);
    for (std::size_t i = 0; i < axes.size(); ++i)
        options.emplace_back(axes[i].option, axes[i].values[at[i]]);
    return options;
}

RunConfig SweepSpec::cellConfig(std::uint64_t cell) const {
    // The command line's defaults, so that a cell's headless command (--emit-commands) runs it alike.
    static const RunConfig defaults = defaultRunConfig();
    RunConfig config = defaults;
    const std::vector<OptionValue> options = cellOptions(cell);
    for (std::size_t i = 0; i < options.size(); ++i) {
        const auto& [name, value] = options[i];
        try {
            setRunOption(config, *findRunOption(name), value);
        } catch (const InputError& error) {
            const bool onAxis = i >= base.size();
            throw InputError(
                joined({"sweep spec ", excerpt(source, 200), ": ",
                        onAxis ? "axis " + std::to_string(i - base.size() + 1) + " (" + name + ")" : "base",
                        ": ", error.what()}));
        }
    }
    return config;
}

std::string SweepSpec::baselinePolicy(const RunConfig& cellConfig) const {
    // The constant distance runs on pg18's mechanics (its registry entry), so its limits are theirs.
    const StreamLimits limits = computeLimits(streamConfigFor(cellConfig), mechanicsFor("fixed:1", ""));
    return "fixed:" + std::to_string(limits.maxPinned);
}

RunConfig SweepSpec::checkedCellConfig(std::uint64_t cell) const {
    const RunConfig config = cellConfig(cell);
    try {
        validateRunConfig(config);
        if (!config.comparePolicy.empty())
            throw InputError("--compare-policy has no place in a sweep: list the policies instead");
    } catch (const InputError& error) {
        throw InputError(joined(
            {"sweep spec ", excerpt(source, 200), ": cell ", std::to_string(cell), ": ", error.what()}));
    }
    return config;
}

namespace {

// The checks of a spec read from anywhere (loadSweepSpec()'s comment).
SweepSpec checkedSpec(SweepSpec spec, bool force) {
    if (spec.cells() > kSweepCellLimit && !force)
        throw InputError(joined({"sweep spec ", excerpt(spec.source, 200), ": ", std::to_string(spec.cells()),
                                 " cells is more than 100,000; give --force to run them all"}));
    // Every value of every axis, in the first cell that has it: a bad value stops the sweep before
    // any run, in time independent of the grid's size. The first and the last cell also open their
    // block source (a dataset, a file), which every cell shares up to its size.
    std::uint64_t stride = spec.cells();
    for (const SweepAxis& axis : spec.axes) {
        stride /= axis.values.size();
        for (std::uint64_t value = 1; value < axis.values.size(); ++value)
            checkCellInputs(spec, value * stride);
    }
    for (const std::uint64_t cell : {std::uint64_t(0), spec.cells() - 1}) {
        const RunConfig config = checkCellInputs(spec, cell);
        try {
            openSource(config);
        } catch (const InputError& error) {
            throw InputError(joined({"sweep spec ", excerpt(spec.source, 200), ": cell ",
                                     std::to_string(cell), ": ", error.what()}));
        }
    }
    return spec;
}

// The trace's reads are written a megabyte at a time: a list of 10^9 reads is never in memory as text.
constexpr std::size_t kListChunkBytes = std::size_t{1} << 20;

// What "Sweep this run" leaves out of the run's options: the policies (the sweep's own), the axes,
// and the repeats (a cell runs once).
bool sweptApart(std::string_view option) {
    return option == "policy" || option == "compare-policy" || option == "mechanics" ||
           option == "compare-index-batches" || option == "repeat" || option == "eic" ||
           option == "io-combine-limit";
}

} // namespace

SweepSpec loadSweepSpec(const std::string& specOrPreset, bool force) {
    for (const auto& [name, text] : sweepPresets())
        if (name == specOrPreset)
            return checkedSpec(SpecReader("preset " + name).read(QByteArray::fromStdString(text)), force);
    const std::string text =
        readDocumentFile(specOrPreset, "sweep spec", kSweepSpecBytes,
                         "give a JSON file or a preset (" + sweepPresets().front().first + ")");
    return checkedSpec(SpecReader(specOrPreset).read(QByteArray::fromStdString(text)), force);
}

QByteArray sweepSpecOfRun(RunConfig config, const std::string& name, const HeldDirectory& lists) {
    // A spec names its cells by options. The trace's cache state also says which visits found their
    // block evicted by another backend, which no prewarm list can.
    if (config.tracedReads || config.tracedCache)
        throw InputError("this run's model takes its cache state from the imported trace (which blocks "
                         "were cached at the start, and which were evicted during the scan), which no "
                         "option of a sweep names; sweep the model on the trace's reads instead (Model "
                         "visits: the blocks the trace read), or a run that reads a block list and a prewarm "
                         "list (--blocks and --prewarm list:FILE)");
    if (config.blockSequence) {
        OutputFile visits(lists, "visits.txt", "the trace's reads, as a block list");
        std::string lines;
        for (const std::uint32_t block : *config.blockSequence) {
            lines += std::to_string(block);
            lines += '\n';
            if (lines.size() >= kListChunkBytes) {
                visits.write(lines);
                lines.clear();
            }
        }
        visits.write(lines);
        visits.commit();
        config.blockList = visits.path();
        config.blockSequence.reset();
    }
    const RunConfig defaults = defaultRunConfig();
    QJsonObject base;
    for (const RunOption& option : runOptions()) {
        const std::string value = option.get(config);
        if (!sweptApart(option.name) && value != option.get(defaults))
            base[QString::fromUtf8(option.name.data(), qsizetype(option.name.size()))] =
                QString::fromStdString(value);
    }
    const auto powersOfTwo = [](int to) {
        QJsonArray values;
        for (int value = 1; value <= to; value *= 2)
            values.append(value);
        return values;
    };
    return QJsonDocument(
               QJsonObject{
                   {QStringLiteral("schema"), QStringLiteral("lookahead.sweep/1")},
                   {QStringLiteral("name"), QString::fromStdString(excerpt(name, kSweepNameBytes - 10))},
                   {QStringLiteral("base"), base},
                   {QStringLiteral("axes"),
                    QJsonArray{QJsonObject{{QStringLiteral("option"), QStringLiteral("eic")},
                                           {QStringLiteral("values"), powersOfTwo(128)}},
                               QJsonObject{{QStringLiteral("option"), QStringLiteral("io-combine-limit")},
                                           {QStringLiteral("values"), powersOfTwo(32)}}}},
                   {QStringLiteral("policies"),
                    QJsonArray{QStringLiteral("pg17"), QStringLiteral("pg18"), QStringLiteral("pg19"),
                               QStringLiteral("adaptive")}}})
        .toJson();
}

SweepSpec sweepSpecOfText(const QByteArray& text, const std::string& source) {
    return checkedSpec(SpecReader(source).read(text), false);
}

const std::vector<std::pair<std::string, std::string>>& sweepPresets() {
    static const std::vector<std::pair<std::string, std::string>> presets{{"collapse-map", kCollapseMap}};
    return presets;
}

} // namespace la
