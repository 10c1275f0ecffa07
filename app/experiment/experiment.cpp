// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment/experiment.h"

#include "enum_names.h"

namespace la {

namespace {

constexpr EnumName<Comparison> kComparisonNames[] = {
    {Comparison::None, "none"},           {Comparison::Policy, "policy"},
    {Comparison::Direction, "direction"}, {Comparison::BackwardCombining, "backward-combining"},
    {Comparison::Observed, "observed"},   {Comparison::IndexBatches, "index-batches"},
};
static_assert(namesEvery(kComparisonNames, Comparison::IndexBatches));

// B's index batches: the ones asked for, else the patch's ring against the older forms.
pg::IndexBatching otherBatching(const pg::PgScanConfig& a) {
    if (a.compareBatching)
        return *a.compareBatching;
    return {a.batching.mode == pg::IndexBatches::Ring ? pg::IndexBatches::Continue : pg::IndexBatches::Ring};
}

} // namespace

const char* comparisonName(Comparison comparison) {
    return nameIn(kComparisonNames, comparison, "none");
}

std::optional<Comparison> comparisonNamed(std::string_view name) {
    return valueNamed(kComparisonNames, name);
}

Experiment makeExperiment(const RunConfig& config, Comparison comparison) {
    RunVariant a;
    a.config = config;
    a.policy = a.label = config.policy;
    if (comparison == Comparison::Policy && config.comparePolicy.empty())
        comparison = Comparison::None;
    a.config.pg.compareBatching.reset(); // each run's settings are its own
    if (comparison == Comparison::None) {
        a.config.comparePolicy.clear();
        return {{a}, comparison, {}};
    }
    RunVariant b = a;
    switch (comparison) {
    case Comparison::Policy:
        b.policy = b.label = config.comparePolicy;
        break;
    case Comparison::Direction:
        b.config.dataset.direction =
            config.dataset.direction == Direction::Forward ? Direction::Backward : Direction::Forward;
        // Appended in two steps: `" " + std::string` trips GCC 12's -Wrestrict false positive at -O3
        // (GCC bug 105329).
        for (RunVariant* run : {&a, &b})
            run->label.append(1, ' ').append(directionName(run->config.dataset.direction));
        break;
    case Comparison::BackwardCombining:
        b.config.stream.backwardCombining = !config.stream.backwardCombining;
        (config.stream.backwardCombining ? a : b).label += " + backward combining";
        break;
    case Comparison::IndexBatches:
        b.config.pg.batching = otherBatching(config.pg);
        for (RunVariant* run : {&a, &b})
            run->label.append(" batches ").append(pg::indexBatchingText(run->config.pg.batching));
        break;
    case Comparison::None:
    case Comparison::Observed:
        break;
    }
    if (comparison != Comparison::Policy) {
        a.config.comparePolicy.clear();
        b.config.comparePolicy.clear();
    }
    return {{a, b}, comparison, {}};
}

Experiment makeImportExperiment(std::shared_ptr<const ObservedTrace> trace, const std::string& tracePath,
                                const RunConfig& config) {
    RunVariant observed;
    observed.policy = observed.label = "observed";
    observed.config = config;
    observed.observed = trace;
    observed.tracePath = tracePath;
    RunVariant model;
    model.config = config;
    model.policy = config.comparePolicy.empty() ? config.policy : config.comparePolicy;
    model.label = model.policy + " model";
    model.config.comparePolicy.clear();
    model.config.blockList.clear();
    model.config.blockSequence = std::make_shared<const std::vector<std::uint32_t>>(trace->impliedBlocks());
    return {{observed, model}, Comparison::Observed, {}};
}

} // namespace la
