// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_close.h"

#include <system_error>
#include <thread>

namespace la {

void closeInBackground(UniqueFd fd) {
    if (!fd.valid())
        return;
    const int raw = fd.release();
    try {
        std::thread([raw] { UniqueFd closing(raw); }).detach();
    } catch (const std::system_error&) {
        UniqueFd closing(raw); // no thread to be had: here, then
    }
}

} // namespace la
