// ajv against the Rust verdicts on the export (see tests/tests/interop_export.rs, which writes
// the files and runs this script).
//
//   node interop/js/agree.mjs DIR
//
// DIR (`<target>/interop`) holds manifest.json (the annotation keywords, the files) and one
// file per type: its two exported schemas and cases, each an instance, the view it is judged
// against and the verdict (`valid`) the export gives in Rust. Every schema is compiled as the
// guide's page on peers tells a JavaScript peer to (`new Ajv2020()`, ajv's default strict mode; `addFormats`;
// `addVocabulary` of the annotations), and every instance must be judged as in Rust, apart from
// the points listed below, each with its reason and a check that it still holds. Exits 1 on any
// other disagreement (each printed), 2 when a file cannot be read or a schema does not compile;
// prints `summary: {...}` with the counts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/// Points where ajv judges otherwise than the Rust verdict, and why. `explains` says whether
/// one explains a disagreement on a case; `holds` checks, on ajv alone, that it still exists
/// (a point that stops holding must leave the list).
const LISTED = [
  {
    name: "integer beyond 2^53",
    why:
      "JSON.parse reads every number as a double: an integer beyond ±2^53 is rounded before " +
      "ajv sees it, so a value one past a bound may equal the bound (18446744073709551616 " +
      "passes `maximum: 18446744073709551615`). The guide's page on peers says what a JavaScript peer does.",
    // Only where ajv gives the verdict the Rust side gives on the same schema and instance
    // with those integers read as doubles (`valid_as_doubles`): rounding, nothing else.
    explains: (c, verdict) => c.wide_integer && c.valid_as_doubles !== c.valid && verdict === c.valid_as_doubles,
    holds: (ajv) =>
      ajv.validate({ type: "integer", maximum: 18446744073709551615 }, JSON.parse("18446744073709551616")) ===
      true,
  },
  {
    name: "uuid with a urn:uuid: prefix",
    why:
      "ajv-formats' `uuid` also accepts the RFC 4122 URN form `urn:uuid:…`, which the Rust " +
      "export's `format: uuid` (and Python's jsonschema) refuse; serde's Uuid reads it.",
    explains: (c, verdict) => c.valid === false && verdict === true && holdsUrnUuid(c.instance),
    holds: (ajv) =>
      ajv.validate({ type: "string", format: "uuid" }, "urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8") === true,
  },
];

/// Whether a value holds a string with a `urn:uuid:` prefix.
function holdsUrnUuid(value) {
  if (typeof value === "string") return value.toLowerCase().startsWith("urn:uuid:");
  if (Array.isArray(value)) return value.some(holdsUrnUuid);
  if (value !== null && typeof value === "object") {
    return Object.entries(value).some(([k, v]) => holdsUrnUuid(k) || holdsUrnUuid(v));
  }
  return false;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    console.error(`${path}: cannot be read: ${e.message}`);
    process.exit(2);
  }
}

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node agree.mjs DIR (the folder interop_export.rs writes, <target>/interop)");
  process.exit(2);
}
const manifest = readJson(join(dir, "manifest.json"));

const ajv = new Ajv2020();
addFormats(ajv);
ajv.addVocabulary(manifest.annotations);

for (const point of LISTED) {
  const probe = new Ajv2020();
  addFormats(probe);
  if (!point.holds(probe)) {
    console.error(`listed point no longer holds, remove it: ${point.name}`);
    process.exit(1);
  }
}

const counts = { instances: 0, agree: 0, unlisted: 0, listed: {} };
for (const point of LISTED) counts.listed[point.name] = 0;
const firstFailures = [];

for (const file of manifest.files) {
  const doc = readJson(join(dir, file));
  const validators = {};
  for (const view of ["sender", "receiver"]) {
    try {
      validators[view] = ajv.compile(doc.schemas[view]);
    } catch (e) {
      console.error(`${file}: the ${view} view does not compile: ${e.message}`);
      process.exit(2);
    }
  }
  for (const c of doc.cases) {
    counts.instances += 1;
    const verdict = validators[c.view](c.instance);
    if (verdict === c.valid) {
      counts.agree += 1;
      continue;
    }
    const point = LISTED.find((p) => p.explains(c, verdict));
    if (point) {
      counts.listed[point.name] += 1;
      continue;
    }
    counts.unlisted += 1;
    if (firstFailures.length < 20) {
      firstFailures.push(
        `${doc.type} (${c.view}, ${c.origin}): Rust says ${c.valid}, ajv ${verdict}: ` +
          `${JSON.stringify(c.instance)} ${JSON.stringify(validators[c.view].errors)}`,
      );
    }
  }
}

for (const line of firstFailures) console.log(`DISAGREES: ${line}`);
console.log(
  `agree.mjs (ajv ${ajvVersion()}): ${counts.instances} instances, ${counts.agree} agree, ` +
    `${Object.values(counts.listed).reduce((a, b) => a + b, 0)} listed differences ` +
    `(${LISTED.map((p) => `${p.name}: ${counts.listed[p.name]}`).join(", ")}), ` +
    `${counts.unlisted} unlisted`,
);
for (const point of LISTED) console.log(`  listed: ${point.name}: ${point.why}`);
console.log(`summary: ${JSON.stringify(counts)}`);
process.exit(counts.unlisted === 0 ? 0 : 1);

function ajvVersion() {
  return readJson(new URL("./node_modules/ajv/package.json", import.meta.url)).version;
}
