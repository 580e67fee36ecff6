#!/usr/bin/env bash
# The flow a user follows with a nested type of a published contract, in a scratch crate and
# non-interactively: publish (`cargo test` writes the snapshot), a compatible change inside the
# nested type (builds; the snapshot test fails; accepting it passes), a breaking one (`cargo
# check` fails at the nested field), an allowance on the root's field (builds), a new major
# version (builds, and its snapshot is written), a snapshot folder other than `contracts`
# (checked once `[package.metadata.handoff] snapshots` lists it). No step needs a build that a previous step
# made impossible, so `cargo insta review` never deadlocks. Exits 1 at the first step that
# does not behave as stated.
#
# Usage: scripts/nested-flow.sh   (the scratch crate is made under target/nested-flow)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/target/nested-flow"
rm -rf "$dir"
mkdir -p "$dir/src"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
unset CI
cd "$dir"

cat >Cargo.toml <<TOML
[package]
name = "nested-flow"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
contract-core = { path = "$root/contract-core" }
serde = { version = "1", features = ["derive"] }

[dev-dependencies]
contract-core = { path = "$root/contract-core", features = ["snapshots"] }
TOML

# $1: the attributes of `Order`'s field, $2: its version, $3: `Line`'s fields.
write() {
    cat >src/lib.rs <<RS
use contract_core::{HandoffContract, HandoffSchema};
use serde::{Deserialize, Serialize};

/// One line of an order.
#[derive(Serialize, Deserialize, HandoffSchema)]
pub struct Line {
$3
}

/// An order.
#[derive(Serialize, Deserialize, HandoffContract)]
#[handoff(name = "order", version = $2)]
pub struct Order {
    $1
    pub lines: Vec<Line>,
}
RS
}

fail() {
    echo "nested-flow: $*" >&2
    exit 1
}

# Accepts every pending snapshot: `cargo insta accept` when installed, else what it does
# (each `.snap.new` replaces its `.snap`).
accept() {
    if cargo insta --version >/dev/null 2>&1; then
        cargo insta accept >/dev/null
    else
        for new in contracts/*.snap.new; do
            [ -e "$new" ] && mv "$new" "${new%.new}"
        done
    fi
}

lines='    pub sku: String,
    pub qty: u32,'

echo "1. publish: cargo test writes contracts/order.v1.snap"
write "" 1 "$lines"
cargo build -q || fail "a new contract does not build"
INSTA_UPDATE=always cargo test -q >/dev/null 2>&1 || fail "publishing fails"
[ -f contracts/order.v1.snap ] || fail "no snapshot written"

echo "2. a compatible change inside Line: builds, the snapshot test fails, accepting passes"
write "" 1 "$lines
    #[serde(default)]
    pub note: Option<String>,"
cargo build -q || fail "a compatible nested change does not build"
if INSTA_UPDATE=new cargo test -q >/dev/null 2>&1; then fail "the snapshot test passes a changed snapshot"; fi
ls contracts/*.snap.new >/dev/null 2>&1 || fail "no pending snapshot"
accept
cargo test -q >/dev/null 2>&1 || fail "the accepted snapshot does not pass"
grep -q '"note"' contracts/order.v1.snap || fail "the accepted snapshot lacks the new field"

echo "3. a breaking change inside Line: cargo check fails at Line's field"
narrowed='    pub sku: String,
    pub qty: u16,
    #[serde(default)]
    pub note: Option<String>,'
write "" 1 "$narrowed"
if out=$(cargo check -q 2>&1); then fail "a narrowed nested field builds"; fi
grep -q '`lines\[\].qty` breaks the published contract `order/v1` \[INT_NARROWED\]' <<<"$out" ||
    fail "the error does not name the path and the contract: $out"
grep -q 'src/lib.rs:8:' <<<"$out" || fail "the error is not at Line's field: $out"

echo "4. accepted on purpose on the root's field: builds, and the test passes"
write '#[handoff(allow(INT_NARROWED, reason = "no line holds more than 65535"))]' 1 "$narrowed"
cargo build -q || fail "an allowed nested break does not build"
INSTA_UPDATE=always cargo test -q >/dev/null 2>&1 || fail "an allowed nested break fails the test"

echo "5. a new major version: builds beside v1, and cargo test publishes it"
v1_text=$(cat contracts/order.v1.snap)
write "" 2 '    pub sku: u64,
    pub qty: u16,'
cargo build -q || fail "a new major version does not build"
INSTA_UPDATE=always cargo test -q >/dev/null 2>&1 || fail "publishing v2 fails"
[ -f contracts/order.v2.snap ] || fail "no v2 snapshot written"
[ "$(cat contracts/order.v1.snap)" = "$v1_text" ] || fail "v1's snapshot changed"
cargo check -q || fail "the published v2 does not build"

echo "6. another folder: the root's \`snapshots = \"published\"\` is listed in Cargo.toml's metadata"
mkdir -p published
cp contracts/order.v2.snap published/order.v2.snap
rm contracts/order.v2.snap
sed -i 's/#\[handoff(name = "order", version = 2)\]/#[handoff(name = "order", version = 2, snapshots = "published")]/' src/lib.rs
grep -q 'snapshots = "published"' src/lib.rs || fail "the root does not name its folder"
cargo check -q || fail "the moved snapshot does not build"
sed -i 's/    pub qty: u16,/    pub qty: u8,/' src/lib.rs
cargo check -q 2>/dev/null || fail "a folder the metadata does not list is checked at compile time (unexpected)"
printf '\n[package.metadata.handoff]\nsnapshots = ["contracts", "published"]\n' >>Cargo.toml
if out=$(cargo check -q 2>&1); then fail "a folder listed in the metadata is not checked"; fi
grep -q '`lines\[\].qty` breaks the published contract `order/v2`' <<<"$out" ||
    fail "the error does not name the path and the contract: $out"
grep -q 'published/order.v2.snap' <<<"$out" || fail "the error does not name the file: $out"

echo "nested-flow: every step behaved as stated"
