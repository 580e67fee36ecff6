"""Python's jsonschema against the Rust verdicts on the export.

    python interop/py/agree.py DIR

DIR (``<target>/interop``, written by ``tests/tests/interop_export.rs``, which runs this
script) holds ``manifest.json`` (the annotation keywords, the files) and one file per type:
its two exported schemas and cases, each an instance, the view it is judged against and the
verdict (``valid``) the export gives in Rust. Every schema is checked against the 2020-12
metaschema and compiled as the guide (contract-core/src/guide/peers.md) tells a Python peer to
(``Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)``, with
``jsonschema[format-nongpl]`` installed so that ``date-time`` and ``uri`` are checked), and
every instance must be judged as in Rust, apart from the points listed below (none today:
Python reads integers exactly and refuses a ``urn:uuid:`` prefix, as Rust does). Exits 1 on
any other disagreement (each printed), 2 when a file cannot be read or a schema is invalid;
prints ``summary: {...}`` with the counts.
"""

import json
import sys
from importlib.metadata import version
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

# Points where jsonschema judges otherwise than the Rust verdict: (name, why, explains(case)).
LISTED = []

# Formats the export writes, and a value of each that the checker must refuse: without the
# format-nongpl extra, `date-time` and `uri` would pass unchecked and the agreement would
# only hold by chance.
CHECKED_FORMATS = {
    "date-time": "2024-13-01T00:00:00Z",
    "date": "2024-02-30",
    "uri": "not a uri",
    "uuid": "urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8",
    "ipv4": "256.0.0.1",
    "ipv6": "1::2::3",
}


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: cannot be read: {e}", file=sys.stderr)
        sys.exit(2)


def main():
    if len(sys.argv) != 2:
        print("usage: python agree.py DIR (the folder interop_export.rs writes)", file=sys.stderr)
        sys.exit(2)
    folder = Path(sys.argv[1])
    manifest = read_json(folder / "manifest.json")

    checker = Draft202012Validator.FORMAT_CHECKER
    for name, wrong in CHECKED_FORMATS.items():
        if checker.conforms(wrong, name):
            print(f"the format checker does not check `{name}`: is jsonschema[format-nongpl] installed?",
                  file=sys.stderr)
            sys.exit(2)

    counts = {"instances": 0, "agree": 0, "unlisted": 0, "listed": {name: 0 for name, _, _ in LISTED}}
    failures = []
    for file in manifest["files"]:
        doc = read_json(folder / file)
        validators = {}
        for view in ("sender", "receiver"):
            schema = doc["schemas"][view]
            try:
                Draft202012Validator.check_schema(schema)
            except SchemaError as e:
                print(f"{file}: the {view} view is not a valid 2020-12 schema: {e.message}", file=sys.stderr)
                sys.exit(2)
            validators[view] = Draft202012Validator(schema, format_checker=checker)
        for case in doc["cases"]:
            counts["instances"] += 1
            verdict = validators[case["view"]].is_valid(case["instance"])
            if verdict == case["valid"]:
                counts["agree"] += 1
                continue
            point = next((p for p in LISTED if p[2](case)), None)
            if point is not None:
                counts["listed"][point[0]] += 1
                continue
            counts["unlisted"] += 1
            if len(failures) < 20:
                errors = [e.message for e in validators[case["view"]].iter_errors(case["instance"])][:3]
                failures.append(f"{doc['type']} ({case['view']}, {case['origin']}): Rust says {case['valid']}, "
                                f"jsonschema {verdict}: {json.dumps(case['instance'])} {errors}")
    for line in failures:
        print(f"DISAGREES: {line}")
    listed = sum(counts["listed"].values())
    print(f"agree.py (jsonschema {version('jsonschema')}): {counts['instances']} instances, "
          f"{counts['agree']} agree, {listed} listed differences, {counts['unlisted']} unlisted")
    for name, why, _ in LISTED:
        print(f"  listed: {name}: {why}")
    print(f"summary: {json.dumps(counts)}")
    sys.exit(0 if counts["unlisted"] == 0 else 1)


if __name__ == "__main__":
    main()
