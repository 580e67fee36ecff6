//! The two traits the derives implement.

use contract_schema::{ContractInfo, Schema, Shape};

/// A type with a static description of what serde puts on the wire.
///
/// Derive it with `#[derive(HandoffSchema)]` on nested types; contracts derive
/// [`HandoffContract`], which implements this trait too. It is implemented here for the
/// standard types serde supports (numbers, strings, `Option`, collections, smart pointers
/// and their `Weak`s, tuples of up to 16 items, `serde_json::Value`, `PathBuf`, the
/// `std::net` addresses, `NonZero*`, `Duration`, `SystemTime`, C and OS strings, `Result`,
/// `Bound`, the ranges, `PhantomData`, and the wrappers serde writes as their inner value:
/// `Wrapping`, `Saturating`, `Reverse`, `Cell`, `RefCell`, `Mutex`, `RwLock`, the atomics)
/// and, behind features, for `uuid`, `chrono`, `url`, `indexmap` and `time` types. The
/// fidelity tests hold the table of every implementation of serde's and how each is
/// covered (`tests/tests/fidelity/serde_impls.rs`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no handoff description: it does not implement `HandoffSchema`",
    label = "no `HandoffSchema` for `{Self}`",
    note = "`{Self}` needs a description of what serde writes for it: when the type is yours, derive it with `#[derive(HandoffSchema)]` beside its `Serialize`/`Deserialize`; when it is another crate's and a field of yours holds it, describe that field's wire form with `#[handoff(schema_as = WireType)]`"
)]
pub trait HandoffSchema {
    /// The static description of the type.
    const SHAPE: &'static Shape;

    /// For a contract, its identity, which the [`schema`](HandoffSchema::schema) it
    /// resolves carries: the derive of `HandoffContract` sets it to its
    /// [`CONTRACT`](HandoffContract::CONTRACT). A constant rather than a `schema()` body in
    /// each derived impl, so that a contract adds no function of its own to the user's crate.
    /// Not public API.
    #[doc(hidden)]
    const __CONTRACT: Option<&'static ContractInfo> = None;

    /// The resolved schema of the type, with both views of every field.
    #[must_use]
    fn schema() -> Schema {
        match Self::__CONTRACT {
            Some(info) => Schema::from_contract(Self::SHAPE, info),
            None => Schema::from_shape(Self::SHAPE),
        }
    }
}

/// A versioned handoff contract: a [`HandoffSchema`] with a name and a major version.
///
/// ```
/// use contract_core::HandoffContract;
/// # use serde::{Deserialize, Serialize};
/// #[derive(Serialize, Deserialize, HandoffContract)]
/// #[handoff(name = "ping", version = 1)]
/// struct Ping {
///     seq: u64,
/// }
/// assert_eq!(Ping::CONTRACT.to_string(), "ping/v1");
/// ```
pub trait HandoffContract: HandoffSchema {
    /// The contract's identity, mode and snapshot folder. Displays as `name/vN`.
    const CONTRACT: ContractInfo;

    /// The published snapshots of this contract's name (every `<name>.v*.snap` in its
    /// snapshot folder, this version's included), embedded by the derive when it expanded:
    /// a snapshot added later is seen after the next rebuild of the crate. [`why_missing`]
    /// reads the other versions from here.
    ///
    /// [`why_missing`]: crate::why_missing
    const PUBLISHED: &'static [PublishedSnapshot] = &[];

    /// For a generic contract, the shape it publishes: each type parameter a hole (`any`)
    /// and the root named without arguments, so that `Envelope<RefundRequest>` and
    /// `Envelope<RefundDecision>` publish the same snapshot. `None` for a contract that is
    /// not generic, which publishes [`SHAPE`](HandoffSchema::SHAPE). Emitted by the derive.
    #[doc(hidden)]
    const PUBLISHED_SHAPE: Option<&'static Shape> = None;

    /// The schema this contract publishes in its snapshot and is checked against it with:
    /// its [`schema`](HandoffSchema::schema), or for a generic contract the same with each
    /// type parameter as a hole (`any`) and the root named without arguments. An argument's
    /// own shape is checked by its own contract: a payload that matters should be a
    /// `HandoffContract` with its own snapshot.
    #[must_use]
    fn published_schema() -> Schema {
        match Self::PUBLISHED_SHAPE {
            Some(shape) => Schema::from_contract(shape, &Self::CONTRACT),
            None => Self::schema(),
        }
    }
}

/// The hole a generic contract publishes for each of its type parameters: any JSON value.
/// Not public API: the derive names it in a generic contract's published shape.
#[doc(hidden)]
#[derive(Debug)]
pub enum Hole {}

impl HandoffSchema for Hole {
    const SHAPE: &'static Shape = &Shape::builtin(contract_schema::shape::Kind::Any);
}

/// One published snapshot file of a contract, as the derive embeds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublishedSnapshot {
    /// The major version the file publishes.
    pub version: u32,
    /// The file's contents (an insta header, then the canonical schema text).
    pub text: &'static str,
}

/// The shape of `T`, as a function: the edges of a description point at these.
#[must_use]
pub fn shape_of<T: HandoffSchema + ?Sized>() -> &'static Shape {
    T::SHAPE
}
