#!/usr/bin/env bash
# Compile cost of the derives: 100 structs of 8 fields, plain, with serde's derives alone, then with
# `HandoffContract` added, then with `schemars::JsonSchema` instead. Two more variants measure the
# compile-time check of nested types: the same 100 structs deriving `HandoffSchema`, nested under
# 10 contracts (10 each), once unpublished (`nested-unpublished`) and once with every contract
# published (`nested`: its snapshots are written by a small program over the unpublished crate,
# so every nested type answers its contract's question).
#
# Dependencies are built first; then each variant's crate is touched and rebuilt alone with
# CARGO_INCREMENTAL=0, five times, round-robin across the variants; the median is reported
# and the cost each derive adds over serde's own, by the wall clock and in CPU time (user and
# system: on a machine other work shares, the steadier of the two).
#
# Usage: scripts/compile-cost.sh [RUNS]   (a scratch crate is made under target/compile-cost;
# COMPILE_COST_INSTRUCTIONS=1 counts instructions too, see the end)
set -euo pipefail
runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/target/compile-cost"
mkdir -p "$work"

variants=(plain serde handoff schemars nested-unpublished nested)

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
    case $variant in
        nested | nested-unpublished) gen_nested "$dir/src/lib.rs"; return ;;
    esac
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

# 100 nested structs under 10 contracts, each holding 10 of them.
gen_nested() {
    {
        echo "#![allow(dead_code, unused_imports)]"
        echo "use serde::{Deserialize, Serialize};"
        for i in $(seq 1 100); do
            echo "#[derive(Serialize, Deserialize, contract_core::HandoffSchema)]"
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
        for r in $(seq 1 10); do
            echo "#[derive(Serialize, Deserialize, contract_core::HandoffContract)]"
            echo "#[handoff(name = \"root$r\", version = 1)]"
            echo "pub struct Root$r {"
            for k in $(seq 1 10); do
                echo "    pub s$k: Vec<S$(((r - 1) * 10 + k))>,"
            done
            echo "}"
        done
    } >"$1"
}

# The snapshots of the `nested` variant: the canonical text of each contract, as its snapshot
# test would write it, by a program over the unpublished crate.
publish_nested() {
    local dir="$work/publish-nested"
    mkdir -p "$dir/src" "$work/nested/contracts"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "publish-nested"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
contract-core = { path = "$root/contract-core" }
cost-nested-unpublished = { path = "$work/nested-unpublished" }
TOML
    {
        echo "use contract_core::HandoffContract;"
        echo "fn write<T: HandoffContract>(dir: &str) {"
        echo "    let id = T::CONTRACT;"
        echo "    let text = contract_core::schema::text::to_text(&T::schema())"
        echo "        .replace(\"cost_nested_unpublished::\", \"cost_nested::\");"
        echo "    let path = format!(\"{dir}/{}.v{}.snap\", id.name, id.version);"
        echo "    std::fs::write(path, text).expect(\"write a snapshot\");"
        echo "}"
        echo "fn main() {"
        echo "    let dir = std::env::args().nth(1).expect(\"the contracts folder\");"
        for r in $(seq 1 10); do
            echo "    write::<cost_nested_unpublished::Root$r>(&dir);"
        done
        echo "}"
    } >"$dir/src/main.rs"
    (cd "$dir" && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$work/target" cargo run -q -- "$work/nested/contracts")
}

for v in "${variants[@]}"; do
    gen_crate "$v"
    # All variants share one target folder, so every dependency is built once (with the same
    # CARGO_INCREMENTAL=0 as the timed builds, or the path dependencies would be rebuilt in the
    # first timed run).
    (cd "$work/$v" && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$work/target" cargo build -q)
done
publish_nested

declare -A times cpu
for r in $(seq 1 "$runs"); do
    for v in "${variants[@]}"; do
        touch "$work/$v/src/lib.rs"
        # Bash's `time` of the build: the wall clock and the CPU time (user and system, the
        # children's included: rustc's), which other work on a shared machine disturbs less.
        cpu_wall=$( { TIMEFORMAT='%U %S %R'; time (cd "$work/$v" && CARGO_INCREMENTAL=0 \
            CARGO_TARGET_DIR="$work/target" cargo build -q); } 2>&1 | tail -n 1)
        read -r user sys wall <<<"$cpu_wall"
        times[$v]+="$wall "
        cpu[$v]+="$(echo "$user + $sys" | bc) "
    done
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
spread() { tr ' ' '\n' | grep -v '^$' | sort -n | awk 'NR==1 {lo=$1} {hi=$1} END {print lo " to " hi}'; }
declare -A med
for v in "${variants[@]}"; do
    med[$v]=$(echo "${times[$v]}" | median)
    echo "$v: runs ${times[$v]}-> median ${med[$v]} s (spread $(echo "${times[$v]}" | spread) s)"
done
echo "serde's derives add $(echo "${med[serde]} - ${med[plain]}" | bc) s over plain structs"
echo "handoff adds $(echo "${med[handoff]} - ${med[serde]}" | bc) s over serde's derives alone"
echo "schemars adds $(echo "${med[schemars]} - ${med[serde]}" | bc) s over serde's derives alone"
ratio() { echo "scale=2; $1 / $2" | bc; }
echo "handoff's cost over serde's: $(ratio "(${med[handoff]} - ${med[serde]})" "(${med[serde]} - ${med[plain]})")x; schemars': $(ratio "(${med[schemars]} - ${med[serde]})" "(${med[serde]} - ${med[plain]})")x"
echo "handoff adds $(ratio "(${med[handoff]} - ${med[serde]})" "(${med[schemars]} - ${med[serde]})")x what schemars adds over serde's derives"
# The same figures in CPU time.
declare -A cmed
for v in "${variants[@]}"; do
    cmed[$v]=$(echo "${cpu[$v]}" | median)
    echo "$v: CPU ${cpu[$v]}-> median ${cmed[$v]} s"
done
echo "in CPU time: handoff adds $(echo "${cmed[handoff]} - ${cmed[serde]}" | bc) s, schemars $(echo "${cmed[schemars]} - ${cmed[serde]}" | bc) s over serde's derives: handoff adds $(ratio "(${cmed[handoff]} - ${cmed[serde]})" "(${cmed[schemars]} - ${cmed[serde]})")x what schemars adds"
echo "every contract published (the nested check) against unpublished: $(echo "scale=1; (${med[nested]} - ${med[nested-unpublished]}) * 100 / ${med[nested-unpublished]}" | bc) % on the whole crate's build"

# With COMPILE_COST_INSTRUCTIONS=1, the instructions rustc runs to build the serde, handoff and
# schemars variants once each, counted by callgrind (a few minutes a variant): what rustc's own
# performance tracking compares, and what the load of a shared machine does not move. Built
# in a target folder of its own, through a RUSTC_WRAPPER that runs only the variant's crate
# under valgrind.
if [ "${COMPILE_COST_INSTRUCTIONS:-0}" = 1 ]; then
    command -v valgrind >/dev/null || { echo "COMPILE_COST_INSTRUCTIONS needs valgrind" >&2; exit 1; }
    wrapper="$work/count-rustc.sh"
    cat >"$wrapper" <<'SH'
#!/usr/bin/env bash
# rustc under callgrind for the variants' crates (cost_*), as it is for every other crate.
rustc=$1
shift
case " $* " in
    *" --crate-name cost_"*)
        exec valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            --log-file="$COMPILE_COST_LOG" "$rustc" "$@" ;;
    *) exec "$rustc" "$@" ;;
esac
SH
    chmod +x "$wrapper"
    declare -A instructions
    for v in serde handoff schemars; do
        log="$work/instructions-$v.log"
        (cd "$work/$v" && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$work/target-instructions" cargo build -q)
        touch "$work/$v/src/lib.rs"
        (cd "$work/$v" && CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$work/target-instructions" \
            RUSTC_WRAPPER="$wrapper" COMPILE_COST_LOG="$log" cargo build -q)
        instructions[$v]=$(grep -o 'Collected : [0-9]*' "$log" | awk '{s += $3} END {printf "%.0f", s}')
        echo "$v: $(printf "%'d" "${instructions[$v]}") instructions"
    done
    echo "in instructions: handoff adds $(ratio "(${instructions[handoff]} - ${instructions[serde]})" "(${instructions[schemars]} - ${instructions[serde]})")x what schemars adds over serde's derives"
fi
