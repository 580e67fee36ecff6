#!/usr/bin/env bash
# Compile cost of the derives: 100 structs of 8 fields, plain, with serde's derives alone, then with
# `HandoffContract` added, then with `schemars::JsonSchema` instead.
#
# Dependencies are built first; then each variant's crate is touched and rebuilt alone with
# CARGO_INCREMENTAL=0, five times, round-robin across the variants; the median is reported
# and the cost each derive adds over serde's own.
#
# Usage: scripts/compile-cost.sh [RUNS]   (a scratch crate is made under target/compile-cost)
set -euo pipefail
runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/target/compile-cost"
mkdir -p "$work"

variants=(plain serde handoff schemars)

gen_crate() {
    local variant=$1 dir="$work/$1"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "cost-$variant"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
serde = { version = "1", features = ["derive"] }
contract-core = { path = "$root/contract-core" }
schemars = { version = "1.2", default-features = false, features = ["derive"] }
TOML
    {
        echo "#![allow(dead_code, unused_imports)]"
        echo "use serde::{Deserialize, Serialize};"
        for i in $(seq 1 100); do
            case $variant in
                plain) ;;
                serde) echo "#[derive(Serialize, Deserialize)]" ;;
                handoff)
                    echo "#[derive(Serialize, Deserialize, contract_core::HandoffContract)]"
                    echo "#[handoff(name = \"s$i\", version = 1)]" ;;
                schemars) echo "#[derive(Serialize, Deserialize, schemars::JsonSchema)]" ;;
            esac
            cat <<RS
pub struct S$i {
    pub a: String,
    pub b: String,
    pub c: u32,
    pub d: u64,
    pub e: f64,
    pub f: bool,
    pub g: Vec<String>,
    pub h: Option<String>,
}
RS
        done
    } >"$dir/src/lib.rs"
}

for v in "${variants[@]}"; do
    gen_crate "$v"
    # All variants share one target folder, so every dependency is built once (with the same
    # CARGO_INCREMENTAL=0 as the timed builds, or the path dependencies would be rebuilt in the
    # first timed run).
    (cd "$work/$v" && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$work/target" cargo build -q)
done

declare -A times
for r in $(seq 1 "$runs"); do
    for v in "${variants[@]}"; do
        touch "$work/$v/src/lib.rs"
        start=$(date +%s.%N)
        (cd "$work/$v" && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$work/target" cargo build -q)
        end=$(date +%s.%N)
        times[$v]+="$(echo "$end - $start" | bc) "
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A med
for v in "${variants[@]}"; do
    med[$v]=$(echo "${times[$v]}" | median)
    echo "$v: runs ${times[$v]}-> median ${med[$v]} s"
done
echo "serde's derives add $(echo "${med[serde]} - ${med[plain]}" | bc) s over plain structs"
echo "handoff adds $(echo "${med[handoff]} - ${med[serde]}" | bc) s over serde's derives alone"
echo "schemars adds $(echo "${med[schemars]} - ${med[serde]}" | bc) s over serde's derives alone"
