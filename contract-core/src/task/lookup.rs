//! [`Lookup`] and [`Verified`]: what a lookup found, where "not found" cannot pass for "none"
//! (the `task` module's docs say why, and why neither has a catch-all).

use serde::{Deserialize, Serialize};

/// A looked-up value: confirmed from a source, assumed on a stated basis, or not found.
/// Written with a `state` tag (`{"state": "not_found", "reason": "…"}`), never as `null`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, crate::HandoffSchema)]
#[handoff(crate = "crate")]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Lookup<T> {
    /// Read from a source.
    Confirmed {
        /// The value read.
        value: T,
    },
    /// Not read from a source: taken on a basis the sender states. Not a confirmation.
    Assumed {
        /// The value assumed.
        value: T,
        /// Why it is assumed (a user's earlier statement, a default, a similar product).
        basis: String,
    },
    /// Looked for and not found: not "none".
    NotFound {
        /// Why it was not found (what was searched, what failed).
        reason: String,
    },
}

impl<T> Lookup<T> {
    /// The value, when it was confirmed.
    #[must_use]
    pub fn confirmed(&self) -> Option<&T> {
        match self {
            Lookup::Confirmed { value } => Some(value),
            Lookup::Assumed { .. } | Lookup::NotFound { .. } => None,
        }
    }

    /// The value, confirmed or assumed; `None` when it was not found.
    #[must_use]
    pub fn value(&self) -> Option<&T> {
        match self {
            Lookup::Confirmed { value } | Lookup::Assumed { value, .. } => Some(value),
            Lookup::NotFound { .. } => None,
        }
    }

    /// The wire name of the state: `confirmed`, `assumed` or `not_found`.
    #[must_use]
    pub fn state(&self) -> &'static str {
        match self {
            Lookup::Confirmed { .. } => "confirmed",
            Lookup::Assumed { .. } => "assumed",
            Lookup::NotFound { .. } => "not_found",
        }
    }
}

/// A looked-up value a reader takes only when confirmed: `confirmed` or `not_found`, the
/// `Lookup` without `assumed`. Same wire form as `Lookup`, so a `Verified` writer is read by
/// a `Lookup` reader, and not the other way round.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, crate::HandoffSchema)]
#[handoff(crate = "crate")]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Verified<T> {
    /// Read from a source.
    Confirmed {
        /// The value read.
        value: T,
    },
    /// Looked for and not found: not "none".
    NotFound {
        /// Why it was not found.
        reason: String,
    },
}

impl<T> Verified<T> {
    /// The value, when it was confirmed.
    #[must_use]
    pub fn confirmed(&self) -> Option<&T> {
        match self {
            Verified::Confirmed { value } => Some(value),
            Verified::NotFound { .. } => None,
        }
    }
}

impl<T> From<Verified<T>> for Lookup<T> {
    fn from(verified: Verified<T>) -> Self {
        match verified {
            Verified::Confirmed { value } => Lookup::Confirmed { value },
            Verified::NotFound { reason } => Lookup::NotFound { reason },
        }
    }
}

impl<T> TryFrom<Lookup<T>> for Verified<T> {
    /// An assumed value, given back: it is not verified.
    type Error = Lookup<T>;

    fn try_from(lookup: Lookup<T>) -> Result<Self, Self::Error> {
        match lookup {
            Lookup::Confirmed { value } => Ok(Verified::Confirmed { value }),
            Lookup::NotFound { reason } => Ok(Verified::NotFound { reason }),
            assumed @ Lookup::Assumed { .. } => Err(assumed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compat::{self, Rule};
    use crate::{receive, HandoffSchema, ProblemKind};

    /// A quote whose price was looked up, as a sub-agent writes it.
    #[derive(Debug, Serialize, Deserialize, crate::HandoffSchema)]
    #[handoff(crate = "crate")]
    struct Quote {
        price: Lookup<u32>,
    }

    /// The same quote as a reader that takes confirmed prices only.
    #[derive(Debug, Serialize, Deserialize, crate::HandoffSchema)]
    #[handoff(crate = "crate")]
    struct VerifiedQuote {
        price: Verified<u32>,
    }

    #[test]
    fn lookup_writer_to_verified_reader_is_an_unknown_variant_at_assumed() {
        let report = compat::check(&Quote::schema(), &VerifiedQuote::schema());
        let breaking: Vec<_> = report.breaking().collect();
        assert_eq!(breaking.len(), 1, "{report:?}");
        assert_eq!(breaking[0].rule, Rule::EnumVariantUnknown);
        assert_eq!(breaking[0].path, "price(assumed)");
        // The other way round, a verified writer is read by a lookup reader.
        assert!(compat::check(&VerifiedQuote::schema(), &Quote::schema()).is_compatible());
    }

    #[test]
    fn presence_tells_the_states_apart_by_path() {
        let cases: [(&[u8], &[&str]); 3] = [
            (
                br#"{"price":{"state":"confirmed","value":5999}}"#,
                &["price", "price(confirmed).value"],
            ),
            (
                br#"{"price":{"state":"assumed","value":5999,"basis":"last week's offer"}}"#,
                &["price", "price(assumed).value", "price(assumed).basis"],
            ),
            (
                br#"{"price":{"state":"not_found","reason":"no offer page"}}"#,
                &["price", "price(not_found).reason"],
            ),
        ];
        for (bytes, paths) in cases {
            let received = receive::<Quote>(bytes).expect("a lookup in each state is read");
            let presence = received.presence();
            assert_eq!(presence.is_present("price"), Some(true));
            assert_eq!(presence.received(), paths, "{presence}");
            assert!(presence.missing().is_empty(), "{presence}");
        }
    }

    #[test]
    fn null_is_refused_where_a_lookup_is_expected() {
        let rejection = receive::<Quote>(br#"{"price":null}"#).expect_err("null is no lookup");
        assert!(
            rejection
                .problems()
                .iter()
                .any(|p| p.pointer == "/price"
                    && matches!(p.kind, ProblemKind::NullNotAllowed { .. })),
            "{rejection}"
        );
        let absent = receive::<Quote>(b"{}").expect_err("an absent lookup is refused too");
        assert!(absent
            .problems()
            .iter()
            .any(|p| p.pointer == "/price" && matches!(p.kind, ProblemKind::MissingField { .. })));
    }

    #[test]
    fn a_state_the_reader_does_not_know_is_refused() {
        // An assumed price sent to a reader of verified prices: refused, not read as confirmed.
        let bytes = br#"{"price":{"state":"assumed","value":5999,"basis":"an old offer"}}"#;
        assert!(serde_json::from_slice::<VerifiedQuote>(bytes).is_err());
        assert!(crate::receive::<Verified<u32>>(br#"{"state":"estimated","value":1}"#).is_err());
    }

    #[test]
    fn send_to_a_verified_reader_stops_an_assumed_value() {
        let assumed = Quote {
            price: Lookup::Assumed {
                value: 5999,
                basis: "an old offer".into(),
            },
        };
        let rejection = crate::send_to::<VerifiedQuote, _>(&assumed).expect_err("not verified");
        assert!(
            rejection
                .problems()
                .iter()
                .any(|p| p.pointer == "/price/state"
                    && matches!(p.kind, ProblemKind::UnknownVariant { .. })),
            "{rejection}"
        );
        assert!(!rejection.to_string().contains("5999"), "{rejection}");
        let confirmed = Quote {
            price: Lookup::Confirmed { value: 5999 },
        };
        assert!(crate::send_to::<VerifiedQuote, _>(&confirmed).is_ok());
    }

    #[test]
    fn conversions_keep_the_state() {
        let verified = Verified::Confirmed { value: 1_u32 };
        assert_eq!(
            Lookup::from(verified.clone()),
            Lookup::Confirmed { value: 1 }
        );
        let assumed = Lookup::Assumed {
            value: 1_u32,
            basis: "b".into(),
        };
        assert_eq!(Verified::try_from(assumed.clone()), Err(assumed.clone()));
        assert_eq!(assumed.confirmed(), None);
        assert_eq!(assumed.value(), Some(&1));
        assert_eq!(assumed.state(), "assumed");
        assert_eq!(verified.confirmed(), Some(&1));
    }
}
