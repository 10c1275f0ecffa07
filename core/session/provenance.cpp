// SPDX-License-Identifier: GPL-3.0-or-later
#include "provenance.h"

#include "io/uring_queue.h"
#include "message_text.h"

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace la {

namespace {

std::string firstLine(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\n'))
        line.pop_back();
    return line;
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
        if (line.starts_with("model name")) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? std::string()
                                              : line.substr(line.find_first_not_of(' ', colon + 1));
        }
    return {};
}

std::string filesystemName(long type) {
    switch (type) {
    case EXT4_SUPER_MAGIC: // also ext2 and ext3
        return "ext4";
    case XFS_SUPER_MAGIC:
        return "xfs";
    case BTRFS_SUPER_MAGIC:
        return "btrfs";
    case TMPFS_MAGIC:
        return "tmpfs";
    case OVERLAYFS_SUPER_MAGIC:
        return "overlay";
    case NFS_SUPER_MAGIC:
        return "nfs";
    case 0x2fc12fc1:
        return "zfs";
    case 0x65735546:
        return "fuse";
    case 0xf2f52010:
        return "f2fs";
    default: {
        char hex[24];
        std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(type));
        return hex;
    }
    }
}

// The scanned file's block device in sysfs: /sys/dev/block/MAJ:MIN, or its disk for a partition
// (only the whole disk has a queue/).
void addDevice(NameValues& out, const std::string& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0)
        return;
    const std::string id = joined({std::to_string(major(st.st_dev)), ":", std::to_string(minor(st.st_dev))});
    out.emplace_back("device", id);
    std::error_code error;
    std::filesystem::path dev = std::filesystem::canonical("/sys/dev/block/" + id, error);
    if (error)
        return;
    if (!std::filesystem::exists(dev / "queue") && std::filesystem::exists(dev.parent_path() / "queue"))
        dev = dev.parent_path();
    out.emplace_back("device_name", dev.filename().string());
    for (const auto& [key, path] : {std::pair{"device_model", "device/model"},
                                    {"device_rotational", "queue/rotational"},
                                    {"device_scheduler", "queue/scheduler"},
                                    {"device_nr_requests", "queue/nr_requests"}})
        if (const std::string value = firstLine(dev / path); !value.empty())
            out.emplace_back(key, value);
}

} // namespace

NameValues collectProvenance(const std::string& commandLine, const std::string& scannedFile, bool directIo) {
    NameValues out;
    out.emplace_back("lookahead_version", LOOKAHEAD_VERSION);
    utsname name{};
    if (::uname(&name) == 0)
        out.emplace_back("kernel",
                         joined({name.sysname, " ", name.release, " ", name.version, " ", name.machine}));
    if (const std::string cpu = cpuModel(); !cpu.empty())
        out.emplace_back("cpu_model", cpu);
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    char date[32];
    ::gmtime_r(&now, &utc);
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    out.emplace_back("date", date);
    out.emplace_back("command_line", commandLine);
    int error = 0;
    const bool uring = UringRing::create(8, error) != nullptr;
    out.emplace_back("io_uring", uring ? "available" : joined({"unavailable: ", std::strerror(error)}));
    out.emplace_back("o_direct", directIo ? "used" : "not used");
    if (scannedFile.empty())
        return out;
    out.emplace_back("scanned_file", scannedFile);
    struct statfs fs {};
    if (::statfs(scannedFile.c_str(), &fs) == 0)
        out.emplace_back("filesystem", filesystemName(static_cast<long>(fs.f_type)));
    addDevice(out, scannedFile);
    return out;
}

} // namespace la
