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
