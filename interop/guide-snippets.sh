#!/usr/bin/env bash
# Runs the JavaScript and Python snippets of the guide's page on peers in other languages
# (contract-core/src/guide/peers.md) against real exports, so that what the guide tells a peer
# keeps working.
#
#   interop/guide-snippets.sh
#
# A snippet is a ```js or ```python block whose first line is the marker comment
# `// guide snippet: run by interop/guide-snippets.sh` (or `# …` in Python). Each runs in a
# temporary folder holding the exports the snippets read, written by `handoff json-schema`:
#   refund-request.v2.receiver.json  examples/contracts/refund-request.v2.snap
#   refund-request.v2.plain.json     the same, --no-annotations
#   task-result.v1.receiver.json     tests/contracts/task-result.v1.snap
# with interop/js/node_modules (npm ci --prefix interop/js) beside them; Python is
# HANDOFF_INTEROP_PYTHON, else interop/py/.venv/bin/python (pip install -r
# interop/py/requirements.txt). Fails when a snippet fails, or when the page has no snippet
# of either language (a marker that drifted).
set -euo pipefail
cd "$(dirname "$0")/.."

python=${HANDOFF_INTEROP_PYTHON:-interop/py/.venv/bin/python}
# The snippets run in another folder.
[[ $python == /* ]] || python=$PWD/$python
if [[ ! -d interop/js/node_modules/ajv ]]; then
    echo "interop/js/node_modules is missing: run npm ci --prefix interop/js" >&2
    exit 1
fi
if [[ ! -x $python ]]; then
    echo "no Python venv at $python: run python3 -m venv interop/py/.venv and pip install -r interop/py/requirements.txt" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet -p contract-cli --bin handoff
handoff() {
    cargo run --quiet -p contract-cli --bin handoff -- "$@"
}
handoff json-schema examples/contracts/refund-request.v2.snap --out "$work/refund-request.v2.receiver.json"
handoff json-schema examples/contracts/refund-request.v2.snap --no-annotations \
    --out "$work/refund-request.v2.plain.json"
handoff json-schema tests/contracts/task-result.v1.snap --out "$work/task-result.v1.receiver.json"
ln -s "$PWD/interop/js/node_modules" "$work/node_modules"

page=contract-core/src/guide/peers.md
# Each marked block of the page, written to snippet-N.mjs or snippet-N.py.
awk -v dir="$work" '
    /^```(js|python)$/ { lang = substr($0, 4); first = 1; next }
    lang != "" && /^```$/ { if (file != "") close(file); lang = ""; file = ""; next }
    lang != "" && first {
        first = 0
        if ($0 ~ /guide snippet: run by interop\/guide-snippets\.sh/) {
            n += 1
            file = sprintf("%s/snippet-%02d.%s", dir, n, lang == "js" ? "mjs" : "py")
        }
    }
    lang != "" && file != "" { print > file }
' "$page"

js=0
py=0
for snippet in "$work"/snippet-*; do
    [[ -e $snippet ]] || continue
    echo "-- $(basename "$snippet")"
    case $snippet in
        # A failing snippet stops the script (set -e).
        *.mjs)
            (cd "$work" && node "$snippet")
            js=$((js + 1))
            ;;
        *.py)
            (cd "$work" && "$python" "$snippet")
            py=$((py + 1))
            ;;
    esac
done
if [[ $js -eq 0 || $py -eq 0 ]]; then
    echo "$page: found $js JavaScript and $py Python snippets marked to run; expected both" >&2
    exit 1
fi
echo "guide snippets ($page): $js JavaScript and $py Python, all passed"
