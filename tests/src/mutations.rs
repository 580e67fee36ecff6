//! Mutations of generated instances: changes of a struct object (a key removed, renamed,
//! retyped, duplicated under another of its names, an unknown key added), shared by the
//! fidelity tests, which judge them against serde, and the peers' agreement
//! (`interop_export.rs`), which writes them for validators in other languages.

use contract_core::schema::model::{FieldDef, Unknown};
use serde_json::{json, Value};

use crate::strategies::{Site, SplitMix, Step};

/// Values a field is retyped to.
pub fn replacements() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(7),
        json!(-3),
        json!(0),
        json!(2.0),
        json!(1.5),
        json!("x"),
        json!(""),
        json!([]),
        json!([1]),
        json!(["x"]),
        json!({}),
        json!({ "a": 1 }),
    ]
}

/// The value at a path inside an instance.
pub fn value_mut<'a>(root: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut node = root;
    for step in path {
        node = match step {
            Step::Key(k) => node.get_mut(k.as_str())?,
            Step::Index(i) => node.get_mut(*i)?,
        };
    }
    Some(node)
}

/// The object of a site inside an instance.
pub fn site_object<'a>(root: &'a Value, path: &[Step]) -> Option<&'a Value> {
    let mut node = root;
    for step in path {
        node = match step {
            Step::Key(k) => node.get(k.as_str())?,
            Step::Index(i) => node.get(*i)?,
        };
    }
    Some(node)
}

/// The field a key of a struct object belongs to, for the receiver.
pub fn field_at<'a>(site: &'a Site, key: &str) -> Option<&'a FieldDef> {
    site.fields
        .iter()
        .find(|f| f.receiver.as_ref().is_some_and(|r| r.accepts(key)))
}

/// One change of a struct object.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// The key removed.
    Remove {
        /// The key.
        key: String,
    },
    /// The key's value moved under another key.
    Rename {
        /// The key.
        key: String,
        /// The key it is moved to.
        to: String,
    },
    /// The key's value replaced.
    Retype {
        /// The key.
        key: String,
        /// The value put there.
        to: Value,
    },
    /// A key added (or its value replaced).
    AddKey {
        /// The key.
        key: String,
        /// Its value.
        value: Value,
    },
}

impl Mutation {
    /// The instance `root` with this change made to the object at `path`; `None` when there
    /// is no object there, or no such key to remove, rename or retype.
    #[must_use]
    pub fn apply(&self, root: &Value, path: &[Step]) -> Option<Value> {
        let mut out = root.clone();
        let mut node = &mut out;
        for step in path {
            node = match step {
                Step::Key(k) => node.get_mut(k.as_str())?,
                Step::Index(i) => node.get_mut(*i)?,
            };
        }
        let object = node.as_object_mut()?;
        match self {
            Mutation::Remove { key } => {
                object.remove(key)?;
            }
            Mutation::Rename { key, to } => {
                let value = object.remove(key)?;
                object.insert(to.clone(), value);
            }
            Mutation::Retype { key, to } => {
                *object.get_mut(key)? = to.clone();
            }
            Mutation::AddKey { key, value } => {
                object.insert(key.clone(), value.clone());
            }
        }
        Some(out)
    }
}

/// The mutations of one struct object: every present key removed, renamed, retyped (to three
/// values of other types and to `null`), duplicated under its other names, and an unknown key.
pub fn site_mutations(root: &Value, site: &Site, rng: &mut SplitMix) -> Vec<Mutation> {
    let Some(object) = site_object(root, &site.path).and_then(Value::as_object) else {
        return Vec::new();
    };
    let replacements = replacements();
    let mut out = Vec::new();
    for (key, value) in object {
        out.push(Mutation::Remove { key: key.clone() });
        out.push(Mutation::Rename {
            key: key.clone(),
            to: format!("{key}Renamed"),
        });
        out.push(Mutation::Retype {
            key: key.clone(),
            to: Value::Null,
        });
        for _ in 0..3 {
            if let Some(to) = rng.pick(&replacements) {
                if std::mem::discriminant(to) != std::mem::discriminant(value) {
                    out.push(Mutation::Retype {
                        key: key.clone(),
                        to: to.clone(),
                    });
                }
            }
        }
        if let Some(receiver) = field_at(site, key).and_then(|f| f.receiver.as_ref()) {
            for other in std::iter::once(&receiver.name).chain(&receiver.aliases) {
                if other == key {
                    continue;
                }
                // Read under another of its names: serde reads it alone...
                out.push(Mutation::Rename {
                    key: key.clone(),
                    to: other.clone(),
                });
                // ...and rejects it next to the first as a duplicate field.
                out.push(Mutation::AddKey {
                    key: other.clone(),
                    value: value.clone(),
                });
            }
        }
    }
    let unknown = if site.unknown == Unknown::Capture {
        "zzCapturedOrNot"
    } else {
        "zzUnknownField"
    };
    if !object.contains_key(unknown) {
        out.push(Mutation::AddKey {
            key: unknown.to_owned(),
            value: json!(1),
        });
        out.push(Mutation::AddKey {
            key: unknown.to_owned(),
            value: json!("text"),
        });
    }
    out
}
