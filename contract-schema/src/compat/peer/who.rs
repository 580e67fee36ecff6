//! Who wrote a peer's JSON Schema, and which sides of a check are peers'.

/// Who wrote a peer's JSON Schema: the terms its fix hints are said in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Peer {
    /// pydantic 2 (`model_json_schema`): hints name `Field(...)`, `Optional[...]`,
    /// `Literal[...]` and `model_config`.
    Pydantic,
    /// zod (zod 4's `z.toJSONSchema`, or zod-to-json-schema): hints name zod's methods
    /// (`.int().min(…)`, `.optional()`, `.nullish()`, `z.enum([…])`, `.strict()`).
    Zod,
    /// Another generator, or one not told: hints name the JSON Schema keywords, with the
    /// pydantic and the zod form beside them.
    JsonSchema,
}

impl Peer {
    /// Every peer, in the order of their names on the command line.
    pub const ALL: [Peer; 3] = [Peer::Pydantic, Peer::Zod, Peer::JsonSchema];

    /// The name, as the command line spells it: `pydantic`, `zod`, `json-schema`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Peer::Pydantic => "pydantic",
            Peer::Zod => "zod",
            Peer::JsonSchema => "json-schema",
        }
    }

    /// The peer of this name ([`Peer::as_str`]), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Peer> {
        Peer::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

impl core::fmt::Display for Peer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which sides of a check are a peer's JSON Schema, and whose: a side without a peer is a
/// Rust contract (its hints stay the engine's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PeerSides {
    /// The producer's (the writer's) peer, when its schema is a peer's.
    pub producer: Option<Peer>,
    /// The consumer's (the reader's) peer, when its schema is a peer's.
    pub consumer: Option<Peer>,
}

impl PeerSides {
    /// The producer is a peer; the consumer is a Rust contract.
    #[must_use]
    pub const fn producer(peer: Peer) -> Self {
        PeerSides {
            producer: Some(peer),
            consumer: None,
        }
    }

    /// The consumer is a peer; the producer is a Rust contract.
    #[must_use]
    pub const fn consumer(peer: Peer) -> Self {
        PeerSides {
            producer: None,
            consumer: Some(peer),
        }
    }

    /// Whether neither side is a peer.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.producer.is_none() && self.consumer.is_none()
    }
}
