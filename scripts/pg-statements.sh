#!/usr/bin/env bash
# The PostgreSQL inbox's statements for a new envelope, run by `pgbench -M prepared` with no
# client of ours, against the plain transaction the ledger bench compares it with: what the
# server's work alone gives the ratio of new envelopes (`benches/ledger.rs`, PostgreSQL half).
#
# - inbox: BEGIN; handoff_open (a key not seen); the handler's row; the claim with its receipt,
#   artifacts and applied step in one statement; COMMIT. The two ledger statements are copies
#   of those `PostgresLedger` prepares (contract-core/src/inbox/postgres.rs), with values like
#   the bench's (an envelope of 1,100 bytes, a step body of 200);
# - plain: BEGIN; INSERT ... ON CONFLICT DO NOTHING of the key and the bytes; the row; COMMIT;
# - context-row (with `--designs`): a design not built, measured here to size it. No
#   `handoff_open` and no advisory lock: a row per context, upserted with `ON CONFLICT
#   (context_id) DO UPDATE SET prev_owner = t.owner, ...`, which under READ COMMITTED waits for
#   an acceptance of the same context and then reads its committed row (the context's
#   acceptances serialized, its last owner returned), the key's entry read in the same
#   statement; the `(context_id, seq)` index gone (the row holds the last seq, which the claim
#   sets); the handler's row, the claim and the step as in `inbox` (the artifacts' versions,
#   none in these scripts, left to a statement of their own); COMMIT. In a schema of its
#   own, so that `inbox` keeps its index;
# - context-row-no-step (with `--designs`): the same without the step's row.
#
# The ledger's tables and function are made from the migrations in postgres.rs, in a schema
# of their own (dropped when done). Each script runs SECONDS seconds, by turns, ROUNDS times;
# printed: each run's transactions a second and `pgbench -r`'s latency per statement, then
# the ratio of the medians. To see the work alone on a machine of virtual processors, put the
# server and this script on one processor (`taskset -pc 0` on the server's processes, then
# `taskset -c 0 scripts/pg-statements.sh`).
#
# Usage: scripts/pg-statements.sh [--designs] CONNINFO [ROUNDS] [SECONDS]
#   e.g. scripts/pg-statements.sh "host=/tmp/pg user=postgres dbname=postgres" 2 8
# (psql and pgbench from PATH, or from PGBIN).
set -euo pipefail
designs=false
if [[ ${1:-} == --designs ]]; then
    designs=true
    shift
fi
conninfo=${1:?usage: scripts/pg-statements.sh [--designs] CONNINFO [ROUNDS] [SECONDS]}
rounds=${2:-2}
seconds=${3:-8}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${PGBIN:+$PGBIN/}
schema="handoff_pgbench_$$"
work=$(mktemp -d)
trap 'rm -rf "$work"; "${bin}psql" -q -d "$conninfo" -c "DROP SCHEMA IF EXISTS $schema CASCADE; DROP SCHEMA IF EXISTS ${schema}_ctx CASCADE" >/dev/null 2>&1 || true' EXIT

# The ledger's migrations, as postgres.rs writes them, for the schema $1.
ledger_sql() {
python3 - "$root/contract-core/src/inbox/postgres.rs" "$1" <<'EOF'
import re, sys
source, schema = open(sys.argv[1]).read(), sys.argv[2]
start = source.find("const MIGRATIONS")
if start < 0:
    sys.exit("postgres.rs has no MIGRATIONS: this script follows an older layout")
block = source[start:source.index("];", start)]
migrations = re.findall(r'"\n(.*?)\n",', block, re.S)
if not migrations:
    sys.exit("no migration found in postgres.rs's MIGRATIONS")
print(f"CREATE SCHEMA {schema};")
for migration in migrations:
    print(migration.replace("{s}", schema).replace('\\"', '"') + ";")
print(f"""CREATE TABLE {schema}.plain_inbox (context_id text NOT NULL, handoff_id text NOT NULL,
    envelope bytea NOT NULL, PRIMARY KEY (context_id, handoff_id));
CREATE TABLE {schema}.refunds (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    order_ref text NOT NULL, amount_cents bigint NOT NULL);""")
EOF
}
ledger_sql "$schema" >"$work/ledger.sql"
"${bin}psql" -q -v ON_ERROR_STOP=1 -d "$conninfo" -f "$work/ledger.sql" >/dev/null
scripts=(inbox plain)
if $designs; then
    c="${schema}_ctx"
    {
        ledger_sql "$c"
        echo "DROP INDEX $c.handoff_ledger_context;"
        echo "CREATE TABLE $c.handoff_context (context_id text PRIMARY KEY, owner text NOT NULL,"
        echo "    prev_owner text, last_seq bigint);"
    } >"$work/designs.sql"
    "${bin}psql" -q -v ON_ERROR_STOP=1 -d "$conninfo" -f "$work/designs.sql" >/dev/null
    scripts+=(context-row context-row-no-step)
fi

s=$schema
key="'h-' || :n"
digest="decode(md5(:n::text) || md5(:n::text), 'hex')"
envelope="convert_to(repeat('x', 1100), 'UTF8')"
# The claim with its receipt, the artifacts' versions and the applied step, as the ledger's
# settling statement writes them, in schema $1 (each a CTE of one `WITH`).
claim_cte() { echo "claim AS (INSERT INTO $1.handoff_ledger (context_id, handoff_id, digest, owner, accepted_at, receipt, envelope) VALUES ('ctx-7f3a9c', $key, $digest, 'refund-specialist', now(), 'null'::bytea, $envelope) ON CONFLICT (context_id, handoff_id) DO NOTHING RETURNING seq)"; }
artifacts_cte() { echo "artifacts AS (INSERT INTO $1.handoff_artifact (context_id, uri, version) SELECT 'ctx-7f3a9c', u.uri, u.version FROM unnest('{}'::text[], '{}'::bigint[]) AS u(uri, version) WHERE EXISTS (SELECT 1 FROM claim) ON CONFLICT (context_id, uri) DO UPDATE SET version = excluded.version)"; }
step_cte() { echo "step AS (INSERT INTO $1.handoff_step AS t (step_key, session, workflow, outcome, step, count, first_seen, last_seen) SELECT 'sess-1' || chr(31) || 'ctx-7f3a9c' || chr(31) || $key || chr(31) || '1' || chr(31) || 'applied', 'sess-1', 'refunds', 'applied', repeat('s', 200), 1, now(), now() WHERE EXISTS (SELECT 1 FROM claim) ON CONFLICT (step_key) DO UPDATE SET count = t.count + excluded.count, last_seen = greatest(t.last_seen, excluded.last_seen))"; }
cat >"$work/inbox.pgb" <<EOF
\set n random(1, 2000000000)
BEGIN ISOLATION LEVEL READ COMMITTED;
SELECT e_seq, e_digest, e_owner, e_accepted_at, e_receipt, e_envelope, last_owner, uris, versions, touched FROM $s.handoff_open(:n, 'ctx-7f3a9c', $key, $digest, NULL, NULL);
INSERT INTO $s.refunds (order_ref, amount_cents) VALUES ('A-' || :n, 4250);
WITH $(claim_cte "$s"), $(artifacts_cte "$s"), $(step_cte "$s") SELECT seq FROM claim;
COMMIT;
EOF
if $designs; then
    open="WITH ctx AS (INSERT INTO $c.handoff_context AS t (context_id, owner) VALUES ('ctx-7f3a9c', 'refund-specialist') ON CONFLICT (context_id) DO UPDATE SET prev_owner = t.owner, owner = excluded.owner RETURNING prev_owner) SELECT ctx.prev_owner, e.seq, e.digest FROM ctx LEFT JOIN $c.handoff_ledger e ON e.context_id = 'ctx-7f3a9c' AND e.handoff_id = $key;"
    claim="$(claim_cte "$c"), last AS (UPDATE $c.handoff_context SET last_seq = (SELECT seq FROM claim) WHERE context_id = 'ctx-7f3a9c' AND EXISTS (SELECT 1 FROM claim))"
    step=$(step_cte "$c")
    for variant in context-row context-row-no-step; do
        with="$claim"
        if [[ $variant == context-row ]]; then
            with="$claim, $step"
        fi
        cat >"$work/$variant.pgb" <<EOF
\set n random(1, 2000000000)
BEGIN ISOLATION LEVEL READ COMMITTED;
$open
INSERT INTO $c.refunds (order_ref, amount_cents) VALUES ('A-' || :n, 4250);
WITH $with SELECT seq FROM claim;
COMMIT;
EOF
    done
fi
cat >"$work/plain.pgb" <<EOF
\set n random(1, 2000000000)
BEGIN ISOLATION LEVEL READ COMMITTED;
INSERT INTO $s.plain_inbox (context_id, handoff_id, envelope) VALUES ('ctx-7f3a9c', $key, $envelope) ON CONFLICT (context_id, handoff_id) DO NOTHING;
INSERT INTO $s.refunds (order_ref, amount_cents) VALUES ('A-' || :n, 4250);
COMMIT;
EOF

declare -A rates
for round in $(seq 1 "$rounds"); do
    for script in "${scripts[@]}"; do
        out=$("${bin}pgbench" -n -M prepared -T "$seconds" -r -f "$work/$script.pgb" "$conninfo" 2>&1)
        tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
        [[ -n $tps ]] || { echo "pgbench failed:"; echo "$out"; exit 1; }
        rates[$script]+="$tps "
        echo "round $round, $script: $tps transactions a second; latency per statement (ms):"
        grep -E '^ +[0-9.]+ +[0-9]+ +[A-Z]' <<<"$out" | awk '{printf "  %s  %s %s %s\n", $1, $3, $4, $5}'
    done
done
args=()
for script in "${scripts[@]}"; do
    args+=("$script" ${rates[$script]} --)
done
python3 - "${args[@]}" <<'EOF'
import statistics, sys
runs, name = {}, None
for arg in sys.argv[1:]:
    if arg == "--":
        name = None
    elif name is None:
        name = arg
        runs[name] = []
    else:
        runs[name].append(float(arg))
plain = statistics.median(runs.pop("plain"))
for name, rates in runs.items():
    print(f"{name} / plain: {statistics.median(rates) / plain:.2f}x "
          f"(medians {statistics.median(rates):.0f}/s and {plain:.0f}/s)")
EOF
