#!/usr/bin/env bash
# SQLite acceptance of new envelopes now, recording the journey's steps, against the same
# acceptance at an earlier commit (by default the last one before the inbox recorded steps),
# on the same machine and disk: each commit's ledger bench (`--bench ledger -- ratios`, SQLite
# only) run by turns, then, now, now, then, ..., so that a machine that slows down or speeds up
# slows both alike.
#
# Each run prints its inbox's accepts per second and its plain transaction's (the same code at
# both commits: a transaction of `INSERT ... ON CONFLICT DO NOTHING` of the key and the bytes,
# then the handler's row). Per pair of runs, two figures:
#   - now / then: the inbox's accepts per second now over the inbox's then;
#   - normalised: (inbox / plain now) over (inbox / plain then), which takes out what the disk
#     did between the two runs.
# and their medians over the pairs.
#
# Usage: scripts/ledger-then-and-now.sh [PAIRS] [COMMIT]   (default 5 pairs, commit 533f330;
# the earlier commit is checked out in a worktree, target/ledger-then/tree, and built there)
set -euo pipefail
pairs=${1:-5}
then_commit=${2:-533f330}
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/target/ledger-then"
tree="$work/tree"

# The worktree stays between runs, so that its build does too (remove it with `git worktree
# remove target/ledger-then/tree`); one at another commit is made again.
mkdir -p "$work"
wanted=$(git -C "$root" rev-parse --verify "$then_commit^{commit}")
if [[ $(git -C "$tree" rev-parse HEAD 2>/dev/null) != "$wanted" ]]; then
    git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true
    git -C "$root" worktree prune
    git -C "$root" worktree add --quiet --detach --force "$tree" "$wanted"
fi

# The bench binary of a tree: built in release, its path from cargo's own report.
bench_binary() {
    local dir=$1 target=$2
    (cd "$dir" && CARGO_TARGET_DIR=$target cargo bench -p contract-core --features sqlite \
        --bench ledger --no-run --message-format=json 2>/dev/null) |
        sed -n 's/.*"executable":"\([^"]*ledger-[^"]*\)".*/\1/p' | tail -n 1
}

echo "building the ledger bench at $then_commit and now ..." >&2
then_bin=$(bench_binary "$tree" "$work/target")
now_bin=$(bench_binary "$root" "$root/target")
if [[ -z $then_bin || -z $now_bin ]]; then
    echo "a ledger bench did not build" >&2
    exit 1
fi

# One run of a bench: "inbox plain" accepts per second of new envelopes.
run() {
    env -u HANDOFF_TEST_POSTGRES "$1" --bench ratios 2>/dev/null |
        grep 'ratio ledger new: inbox / plain' |
        sed -E 's/.*; (inbox|first) ([0-9]+)\/s, (plain|second) ([0-9]+)\/s.*/\2 \4/'
}

results=()
for ((i = 0; i < pairs; i++)); do
    if ((i % 2 == 0)); then
        read -r ti tp < <(run "$then_bin")
        read -r ni np < <(run "$now_bin")
    else
        read -r ni np < <(run "$now_bin")
        read -r ti tp < <(run "$then_bin")
    fi
    line=$(awk -v ti="$ti" -v tp="$tp" -v ni="$ni" -v np="$np" 'BEGIN {
        printf "%.3f %.3f", ni / ti, (ni / np) / (ti / tp) }')
    results+=("$line")
    printf 'pair %d: then inbox %s/s plain %s/s; now inbox %s/s plain %s/s; now/then %s, normalised %s\n' \
        $((i + 1)) "$ti" "$tp" "$ni" "$np" ${line}
done

printf '%s\n' "${results[@]}" | awk '
    { a[NR] = $1; b[NR] = $2 }
    function median(v, n,    i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    END {
        printf "median of %d pairs: now/then %.2fx, normalised %.2fx (target >= 0.90x)\n", NR, median(a, NR), median(b, NR)
    }'
