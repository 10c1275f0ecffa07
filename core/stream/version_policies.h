// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distance_policy.h"

#include <string>

namespace la {

// PostgreSQL 17: behaviours A (hit: -1), B (sequential: towards io_combine_limit), C (advised: x2).
class Pg17Policy final : public DistancePolicy {
public:
    std::string name() const override { return "pg17"; }
    void start(Distances& d, const StreamLimits& limits, bool full) override;
    void onNoIo(Distances& d, const StreamLimits& limits, int iosInProgress) override;
    void onCompleted(Distances& d, const StreamLimits& limits, const CompletedRead& read) override;
};

// PostgreSQL 18: every completed read doubles the distance, every hit takes one off.
class Pg18Policy final : public DistancePolicy {
public:
    std::string name() const override { return "pg18"; }
    void start(Distances& d, const StreamLimits& limits, bool full) override;
    void onNoIo(Distances& d, const StreamLimits& limits, int iosInProgress) override;
    void onCompleted(Distances& d, const StreamLimits& limits, const CompletedRead& read) override;
};

// PostgreSQL 19: separate read-ahead and combine distances, a decay hold-off, growth only on waits.
class Pg19Policy final : public DistancePolicy {
public:
    std::string name() const override { return "pg19"; }
    void start(Distances& d, const StreamLimits& limits, bool full) override;
    void onNoIo(Distances& d, const StreamLimits& limits, int iosInProgress) override;
    void onCompleted(Distances& d, const StreamLimits& limits, const CompletedRead& read) override;
    void onReadRetiredEarly(Distances& d, const StreamLimits& limits) override;
};

// A constant distance: the reference the adaptive policy is held to.
class FixedPolicy final : public DistancePolicy {
public:
    explicit FixedPolicy(int distance) : m_distance(distance) {}
    std::string name() const override { return "fixed:" + std::to_string(m_distance); }
    void start(Distances& d, const StreamLimits& limits, bool full) override;
    void onNoIo(Distances&, const StreamLimits&, int) override {}
    void onCompleted(Distances&, const StreamLimits&, const CompletedRead&) override {}

private:
    int m_distance;
};

} // namespace la
