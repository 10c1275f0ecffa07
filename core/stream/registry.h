// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distance_policy.h"
#include "mechanics.h"

#include <memory>
#include <span>
#include <string>

namespace la {

// Every distance policy and every version's mechanics, in the order the help and the GUI list them.
struct PolicyEntry {
    const char* name;           // as typed; "fixed:N" stands for fixed:1 .. fixed:32767
    const char* description;    // one line
    const Mechanics* mechanics; // the version it models: the default for --mechanics
    const char* example;        // a name the GUI offers for it
    std::unique_ptr<DistancePolicy> (*make)(int argument); // N of "fixed:N", else 0
};

std::span<const PolicyEntry> policyRegistry();
std::span<const Mechanics* const> mechanicsRegistry();

// Throw InputError naming the valid choices (or the valid range of N).
const PolicyEntry& findPolicy(const std::string& name);
std::unique_ptr<DistancePolicy> makePolicy(const std::string& name);
const Mechanics& findMechanics(const std::string& name);
// `mechanics` empty: the policy's own.
const Mechanics& mechanicsFor(const std::string& policy, const std::string& mechanics);

// "pg17, pg18, pg19, cf7035, fixed:N or adaptive" and "pg17, pg18, pg19 or cf7035", for help and
// error texts.
std::string policyChoices();
std::string mechanicsChoices();

} // namespace la
