// SPDX-License-Identifier: GPL-3.0-or-later
#include "memory_budget.h"

#include "input_error.h"
#include "message_text.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace la {

namespace {

std::uint64_t cgroupLimit() {
    std::ifstream in("/sys/fs/cgroup/memory.max");
    std::uint64_t limit = 0;
    if (in >> limit && limit > 0)
        return limit;
    return UINT64_MAX; // "max", or no cgroup v2
}

} // namespace

std::uint64_t memoryLimitBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    std::uint64_t limit =
        pages > 0 && pageSize > 0 ? std::uint64_t(pages) * std::uint64_t(pageSize) : UINT64_MAX;
    for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
        rlimit rl{};
        if (::getrlimit(resource, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
            limit = std::min<std::uint64_t>(limit, rl.rlim_cur);
    }
    return std::min(limit, cgroupLimit());
}

void requireMemory(std::uint64_t bytes, const std::string& what, const std::string& advice) {
    const std::uint64_t limit = memoryLimitBytes();
    if (bytes <= limit / 2)
        return;
    throw InputError(what + " would need " + byteSize(bytes) + " of memory, more than half of the " +
                     byteSize(limit) + " this process may use; " + advice);
}

} // namespace la
