// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/device_profile_json.h"

#include "experiment/document_file.h"
#include "experiment/experiment.h"
#include "files/output_file.h"
#include "input_error.h"
#include "message_text.h"
#include "session/provenance.h"
#include "sim_device.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <map>

namespace la {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
    throw InputError(where.empty() ? what : where + ": " + what);
}

QString key(const char* name) {
    return QString::fromLatin1(name);
}

double numberAt(const QJsonObject& object, const char* name, const std::string& where) {
    const QJsonValue value = object.value(key(name));
    if (value.isUndefined())
        fail(where, joined({"\"", name, "\" is missing"}));
    if (!value.isDouble())
        fail(where, joined({"\"", name, "\" must be a number"}));
    const double number = value.toDouble();
    if (!std::isfinite(number))
        fail(where, joined({"\"", name, "\" is not a finite number"}));
    return number;
}

// A whole number in lo..hi, checked before any conversion (a double past int's range is undefined
// behaviour to convert).
std::int64_t wholeAt(const QJsonObject& object, const char* name, std::int64_t lo, std::int64_t hi,
                     const std::string& where) {
    const double number = numberAt(object, name, where);
    if (number != std::floor(number) || number < double(lo) || number > double(hi))
        fail(where, joined({"\"", name, "\" must be a whole number ", std::to_string(lo), "..",
                            std::to_string(hi)}));
    return std::int64_t(number);
}

QJsonObject objectAt(const QJsonObject& object, const char* name, const std::string& where) {
    const QJsonValue value = object.value(key(name));
    if (!value.isObject())
        fail(where, joined({"\"", name, value.isUndefined() ? "\" is missing" : "\" must be an object"}));
    return value.toObject();
}

QJsonArray arrayAt(const QJsonObject& object, const char* name, const std::string& where) {
    const QJsonValue value = object.value(key(name));
    if (!value.isArray())
        fail(where, joined({"\"", name, value.isUndefined() ? "\" is missing" : "\" must be an array"}));
    return value.toArray();
}

LatencyFigures readFigures(const QJsonValue& value, const std::string& where) {
    if (!value.isObject())
        fail(where, "must be an object with depth, iops, mean_us and latency_us");
    const QJsonObject object = value.toObject();
    LatencyFigures f;
    f.depth = int(wholeAt(object, "depth", 1, 1024, where));
    f.iops = numberAt(object, "iops", where);
    f.meanNs = numberAt(object, "mean_us", where) * 1000.0;
    if (object.contains(key("reads")))
        f.reads = std::uint64_t(wholeAt(object, "reads", 0, std::int64_t(1) << 53, where));
    const QJsonObject latency = objectAt(object, "latency_us", where);
    for (std::size_t i = 0; i < kProfileLevels.size(); ++i) {
        const std::string name(kProfileLevelNames[i]);
        f.quantileNs[i] = numberAt(latency, name.c_str(), where + ": latency_us") * 1000.0;
    }
    return f;
}

std::vector<LatencyFigures> readSeries(const QJsonArray& array, const char* name) {
    if (array.size() > 32)
        fail(name, joined({std::to_string(array.size()), " entries; a profile has at most 32 depths"}));
    std::vector<LatencyFigures> series;
    for (qsizetype i = 0; i < array.size(); ++i)
        series.push_back(readFigures(array.at(i), joined({name, "[", std::to_string(i), "]"})));
    return series;
}

QJsonObject figuresJson(const LatencyFigures& f, std::uint32_t bytes) {
    QJsonObject latency;
    for (std::size_t i = 0; i < kProfileLevels.size(); ++i)
        latency[QString::fromLatin1(kProfileLevelNames[i].data(), qsizetype(kProfileLevelNames[i].size()))] =
            std::round(f.quantileNs[i]) / 1000.0;
    QJsonObject object;
    object[key("depth")] = f.depth;
    object[key("reads")] = double(f.reads);
    object[key("iops")] = std::round(f.iops * 10.0) / 10.0;
    object[key("mb_per_s")] = std::round(f.iops * bytes / 1e5) / 10.0;
    object[key("mean_us")] = std::round(f.meanNs) / 1000.0;
    object[key("latency_us")] = latency;
    return object;
}

} // namespace

DeviceProfile parseDeviceProfile(const QByteArray& json) {
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        fail({}, joined({"not valid JSON at byte ", std::to_string(error.offset), ": ",
                         error.errorString().toStdString()}));
    if (!document.isObject())
        fail({}, "expected a JSON object (a profile written by lookahead calibrate)");
    const QJsonObject root = document.object();
    const QString schema = root.value(key("schema")).toString();
    if (schema != QString::fromLatin1(kDeviceProfileSchema))
        fail({}, joined({"schema \"", excerpt(schema.toStdString()), "\" is not ", kDeviceProfileSchema,
                         " (write a new profile with lookahead calibrate)"}));
    DeviceProfile profile;
    profile.parallelism = int(wholeAt(root, "parallelism", 1, 4096, {}));
    profile.random = readSeries(arrayAt(root, "random_reads", {}), "random_reads");
    const QJsonObject sequential = objectAt(root, "sequential_reads", {});
    profile.sequentialBytes =
        std::uint32_t(wholeAt(sequential, "read_bytes", 16384, 1 << 20, "sequential_reads"));
    profile.sequential =
        readSeries(arrayAt(sequential, "depths", "sequential_reads"), "sequential_reads.depths");
    profile.finish();
    return profile;
}

std::shared_ptr<const DeviceProfile> loadDeviceProfile(const std::string& path) {
    const std::string text = readDocumentFile(path, "device profile", kDeviceProfileBytes,
                                              "give a file written by lookahead calibrate");
    try {
        return std::make_shared<const DeviceProfile>(parseDeviceProfile(QByteArray::fromStdString(text)));
    } catch (const InputError& error) {
        throw InputError(joined({"device profile '", excerpt(path, 200), "': ", error.what()}));
    }
}

void loadDeviceProfiles(Experiment& experiment) {
    std::map<std::string, std::shared_ptr<const DeviceProfile>> loaded;
    for (RunVariant& variant : experiment.runs) {
        const std::string& path = variant.config.deviceProfile;
        if (path.empty() || variant.config.device.profile)
            continue;
        auto [at, fresh] = loaded.try_emplace(path);
        if (fresh)
            at->second = loadDeviceProfile(path);
        useDeviceProfile(variant.config.device, at->second);
    }
}

QByteArray deviceProfileJson(const DeviceCalibration& calibration, const NameValues& machine) {
    const DeviceProfile& profile = calibration.profile;
    QJsonObject root;
    root[key("schema")] = QString::fromLatin1(kDeviceProfileSchema);
    QJsonObject provenance;
    for (const auto& [name, value] : machine)
        provenance[QString::fromStdString(name)] = QString::fromStdString(value);
    root[key("machine")] = provenance;
    root[key("file")] = QString::fromStdString(calibration.file);
    root[key("scratch_file")] = calibration.scratchFile;
    root[key("file_bytes")] = double(calibration.fileBytes);
    root[key("engine")] = QString::fromStdString(calibration.engine);
    root[key("direct")] = calibration.direct;
    root[key("seconds")] = std::round(calibration.seconds * 100.0) / 100.0;
    root[key("parallelism")] = profile.parallelism;
    QJsonArray random;
    for (const LatencyFigures& f : profile.random)
        random.append(figuresJson(f, DeviceProfile::kRandomReadBytes));
    root[key("random_reads")] = random;
    QJsonArray depths;
    for (const LatencyFigures& f : profile.sequential)
        depths.append(figuresJson(f, profile.sequentialBytes));
    QJsonObject sequential;
    sequential[key("read_bytes")] = double(profile.sequentialBytes);
    sequential[key("depths")] = depths;
    root[key("sequential_reads")] = sequential;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

void commitDeviceProfile(OutputFile& output, const DeviceCalibration& calibration,
                         const std::string& commandLine) {
    output.write(
        deviceProfileJson(calibration, collectProvenance(commandLine, calibration.file, calibration.direct))
            .toStdString());
    output.commit();
}

} // namespace la
