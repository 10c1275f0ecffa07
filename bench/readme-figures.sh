#!/bin/sh
# Prints the figures the README's tour and docs/simulated-device.md quote, from what Lookahead itself
# prints on this machine (simulated device: the same on every machine). Usage:
#   bench/readme-figures.sh [path/to/lookahead]
set -eu
bin=${1:-build/app/lookahead}
verdict() { "$bin" --headless "$@" | tail -n 1; }

echo "Tour, step 1: sparse-miss:16, pg18 vs pg19"
verdict --dataset sparse-miss:16 --policy pg18 --compare-policy pg19
echo
echo "Tour, step 2: linear backward, backward combining toggled"
verdict --dataset linear --direction backward --policy pg18 --compare-backward-combining
echo
echo "Consumer cost against the cost of PG18's collapse (sparse-miss:16)"
for ns in 2000 3000 5000 10000; do
    printf '%6s ns/block: ' "$ns"
    verdict --dataset sparse-miss:16 --policy pg18 --compare-policy pg19 --consumer-ns "$ns" | cut -d';' -f1
done
echo
# The seeds' headline: Q1 of the index-prefetching thread, a backward scan of a correlated table
# (49,969 preads descending against 5,395 ascending), at its published size on this project's
# calibrated disk (docs/simulated-device.md, "Calibrated profiles").
q1="--dataset hash-clustered-twin-correlated --scale 1 --device-profile docs/profiles/this-machine.json
    --sim-io-method worker --consumer-ns 1500 --submit-ns 1900 --direct"
runs() { "$bin" --headless "$@" 2>/dev/null | awk '/^(run|policy) /{label=$0} /^  reads /{reads=$2}
    /^  waits /{print "  " label ": " reads " reads, " $2 " waits, run time " $(NF-2) " s"}'; }
echo "Backward scan of a correlated table (Q1 at full size, calibrated disk): PostgreSQL 19 against CF 7035"
runs $q1 --direction backward --policy pg19 --compare-policy cf7035
verdict $q1 --direction backward --policy pg19 --compare-policy cf7035
echo "The same table forward against backward, both on CF 7035's rules"
runs $q1 --policy cf7035 --compare-direction
verdict $q1 --policy cf7035 --compare-direction
echo "One read in flight (eic 1), 25 us of work per block: a reversed range cannot overlap consumption"
runs $q1 --consumer-ns 25000 --eic 1 --policy cf7035 --compare-direction
verdict $q1 --consumer-ns 25000 --eic 1 --policy cf7035 --compare-direction
echo "The --backward-combining what-if (each read handed back as it completes) against the patch"
verdict $q1 --consumer-ns 25000 --eic 1 --direction backward --policy pg19 --backward-combining \
    --compare-policy cf7035 2>/dev/null
