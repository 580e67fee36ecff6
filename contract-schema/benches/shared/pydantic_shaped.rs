//! A wide pydantic-shaped refund schema and its Rust contract, generated for any number of
//! fields: what `benches/import.rs` imports and checks, and what `tests/tests/peers.rs`
//! compares, at 20 fields, with pydantic's own `model_json_schema` of the same model
//! (`interop/py/peers.py wide 20`).
//!
//! The model has fields `field_0` … `field_{n-1}`, cycling through five kinds as pydantic
//! writes them for a producer (`mode="serialization"`,
//! `json_schema_serialization_defaults_required=True`): a string, an integer of 0 to
//! 4,294,967,295, an optional string with the default `null` (required there, since pydantic
//! always writes it), a list of `WideLine`, and the string enum `WideReason`.

use serde_json::{json, Map, Value};

/// pydantic's title of a field: its name with `_` as a space, each word capitalised.
fn title(name: &str) -> String {
    name.split('_')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<String>>()
        .join(" ")
}

/// The JSON Schema pydantic 2 writes for the producer side of the `n`-field model.
pub fn pydantic_producer(n: usize) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::with_capacity(n);
    for i in 0..n {
        let name = format!("field_{i}");
        let t = title(&name);
        let schema = match i % 5 {
            0 => json!({ "title": t, "type": "string" }),
            1 => {
                json!({ "maximum": 4_294_967_295_u64, "minimum": 0, "title": t, "type": "integer" })
            }
            2 => json!({
                "anyOf": [{ "type": "string" }, { "type": "null" }],
                "default": null,
                "title": t,
            }),
            3 => json!({ "items": { "$ref": "#/$defs/WideLine" }, "title": t, "type": "array" }),
            _ => json!({ "$ref": "#/$defs/WideReason" }),
        };
        properties.insert(name.clone(), schema);
        required.push(Value::String(name));
    }
    json!({
        "$defs": {
            "WideLine": {
                "properties": {
                    "quantity": { "maximum": 4_294_967_295_u64, "minimum": 0, "title": "Quantity", "type": "integer" },
                    "sku": { "title": "Sku", "type": "string" },
                },
                "required": ["sku", "quantity"],
                "title": "WideLine",
                "type": "object",
            },
            "WideReason": {
                "enum": ["damaged", "late", "other"],
                "title": "WideReason",
                "type": "string",
            },
        },
        "properties": properties,
        "required": required,
        "title": "Wide",
        "type": "object",
    })
}

/// The canonical text of the Rust contract that reads the `n`-field model: `u32` for the
/// bounded integers, `option<string>` read when present, `list<WideLine>` and the enum `WideReason`.
pub fn rust_contract(n: usize) -> String {
    let mut text =
        String::from("root Wide\n\nstruct Wide\n  rust \"bench::Wide\"\n  unknown ignore\n");
    for i in 0..n {
        let ty = match i % 5 {
            0 => "string",
            1 => "u32",
            2 => "option<string>",
            3 => "list<WideLine>",
            _ => "WideReason",
        };
        let (send, receive) = if i % 5 == 2 {
            ("if-present", "optional")
        } else {
            ("always", "required")
        };
        text.push_str(&format!(
            "  field field_{i}: {ty}\n    send \"field_{i}\" {send}\n    receive \"field_{i}\" {receive}\n"
        ));
    }
    text.push_str(concat!(
        "\nstruct WideLine\n  rust \"bench::WideLine\"\n  unknown ignore\n",
        "  field quantity: u32\n    send \"quantity\" always\n    receive \"quantity\" required\n",
        "  field sku: string\n    send \"sku\" always\n    receive \"sku\" required\n",
        "\nenum WideReason\n  rust \"bench::WideReason\"\n  repr external\n",
        "  variant Damaged: unit\n    send \"damaged\"\n    receive \"damaged\"\n",
        "  variant Late: unit\n    send \"late\"\n    receive \"late\"\n",
        "  variant Other: unit\n    send \"other\"\n    receive \"other\"\n",
    ));
    text
}
