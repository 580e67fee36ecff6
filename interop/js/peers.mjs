// Real zod peers of the Rust contracts in `tests/tests/peers.rs`: a refund request with an
// optional field, a string enum, a tagged union and a nested list, as a TypeScript agent would
// declare it. `tests/tests/peers.rs` drives this script:
//
//   node peers.mjs schema MODEL ROLE   // the model's JSON Schema for ROLE (producer|consumer)
//   node peers.mjs write MODEL         // instances the peer builds, parses and writes
//   node peers.mjs read MODEL          // for each JSON line on stdin: "ok" or "refused"
//
// A MODEL may carry a fix, `NAME?KEY=CODE`: the model NAME with its key KEY changed as a fix
// hint of `compat::check_peer` says, CODE taken from the hint as written (a zod expression,
// or `KEY: expression`), evaluated with `z` alone in scope.
//
// zod 4 models (`refund`, `refund-strict`): a consumer's schema is
// `z.toJSONSchema(s, { io: "input" })` (a plain `z.object` is open there, as `parse` strips
// unknown keys), a producer's the default output view. The zod 3 model (`refund-v3`, through
// `zod/v3`) is exported by zod-to-json-schema as draft-07 with
// `removeAdditionalStrategy: "strict"` (its default closes a `z.object` whose `parse` accepts
// unknown keys); it is only a consumer here.
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { zodToJsonSchema } from "zod-to-json-schema";
import { createInterface } from "node:readline";

const U32_MAX = 4294967295;

function refundOf(zz, { strict = false, note = "nullish", amount = "u32" } = {}) {
  const line = zz.object({ sku: zz.string(), quantity: zz.number().int().min(1).max(1000) });
  const method = zz.discriminatedUnion("kind", [
    zz.object({ kind: zz.literal("card"), last4: zz.string() }),
    zz.object({ kind: zz.literal("voucher"), code: zz.string() }),
  ]);
  const shape = {
    orderId: zz.string(),
    // `amount: "int"`: zod's plain `.int()`, any integer a JavaScript number holds exactly.
    amountCents: amount === "int" ? zz.number().int() : zz.number().int().min(0).max(U32_MAX),
    reason: zz.enum(["damaged", "late", "other"]),
    lines: zz.array(line),
    method,
  };
  if (note === "nullish") {
    // What a TypeScript reader of another language's optional field declares: absent, null
    // or a string.
    shape.note = zz.string().nullish();
  } else if (note === "optional") {
    shape.note = zz.string().optional();
  } else if (note === "required") {
    shape.note = zz.string();
  }
  const object = zz.object(shape);
  return strict ? object.strict() : object;
}

const MODELS = {
  // The refund request both sides agree on.
  refund: { zod: 4, schema: refundOf(z) },
  // A consumer that refuses unknown keys and has no `note`: the Rust producer writes one.
  "refund-strict": { zod: 4, schema: refundOf(z, { strict: true, note: "none" }) },
  // A consumer whose `note` may be absent but never null.
  "refund-optional": { zod: 4, schema: refundOf(z, { note: "optional" }) },
  // The agreed request declared with zod 3.
  "refund-v3": { zod: 3, schema: refundOf(z3) },
  // A producer whose amount is zod's plain `.int()` (negative ones too), read as a `u32`.
  "refund-int": { zod: 4, schema: refundOf(z, { amount: "int" }) },
  // A consumer that requires `note` (a string, never null): the Rust producer may omit it.
  "refund-note-required": { zod: 4, schema: refundOf(z, { note: "required" }) },
};

// The model `NAME?KEY=CODE` names: NAME's schema with KEY replaced by the hint's CODE.
function modelOf(spec) {
  const cut = spec.indexOf("?");
  const name = cut < 0 ? spec : spec.slice(0, cut);
  const model = MODELS[name];
  if (!model || cut < 0) {
    return model;
  }
  const fix = spec.slice(cut + 1);
  const eq = fix.indexOf("=");
  const key = fix.slice(0, eq);
  let code = fix.slice(eq + 1);
  if (code.startsWith(`${key}:`)) {
    code = code.slice(key.length + 1).trim();
  }
  const zz = model.zod === 3 ? z3 : z;
  const value = new Function("z", `return (${code});`)(zz);
  return { ...model, schema: model.schema.extend({ [key]: value }) };
}

function usage() {
  process.stderr.write("usage: node peers.mjs schema MODEL producer|consumer | write MODEL | read MODEL\n");
  return 2;
}

// Instances built through the peer's own `parse`: every reason, both methods, with and without
// a note (where the model has one), empty and full lists, the largest amount.
function samples(model) {
  const reasons = ["damaged", "late", "other"];
  return reasons.map((reason, i) => {
    const raw = {
      orderId: `A-${i}`,
      amountCents: i === reasons.length - 1 ? U32_MAX : 100 * i,
      reason,
      lines: Array.from({ length: i }, (_, n) => ({ sku: `SKU-${n}`, quantity: n + 1 })),
      method: i % 2 === 0 ? { kind: "card", last4: "4242" } : { kind: "voucher", code: "V-1" },
    };
    if (i % 2 === 1 && model.schema.shape.note) {
      raw.note = "left at the door";
    }
    return model.schema.parse(raw);
  });
}

async function main(argv) {
  const [command, name, role] = argv;
  const model = modelOf(name ?? "");
  if (!model) {
    return usage();
  }
  if (command === "schema") {
    let schema;
    if (model.zod === 3) {
      if (role !== "consumer") {
        process.stderr.write("the zod 3 model is only a consumer\n");
        return 2;
      }
      schema = zodToJsonSchema(model.schema, { removeAdditionalStrategy: "strict" });
    } else if (role === "consumer") {
      schema = z.toJSONSchema(model.schema, { io: "input" });
    } else if (role === "producer") {
      schema = z.toJSONSchema(model.schema);
    } else {
      return usage();
    }
    process.stdout.write(JSON.stringify(schema, null, 2) + "\n");
  } else if (command === "write") {
    for (const instance of samples(model)) {
      process.stdout.write(JSON.stringify(instance) + "\n");
    }
  } else if (command === "read") {
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === "") {
        continue;
      }
      let verdict = "refused";
      try {
        verdict = model.schema.safeParse(JSON.parse(line)).success ? "ok" : "refused";
      } catch {
        verdict = "refused";
      }
      process.stdout.write(verdict + "\n");
    }
  } else {
    return usage();
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
