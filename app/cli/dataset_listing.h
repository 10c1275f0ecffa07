// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace la {

// The --list-datasets text: the catalog by group, with each dataset's size and cache state.
std::string datasetListing();

} // namespace la
