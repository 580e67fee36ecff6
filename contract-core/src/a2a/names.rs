//! The words of A2A 1.0 that a Message's writer and reader share: the `data` Part's media
//! type and the `Role` values.

use serde::{Serialize, Serializer};

/// The media type of the `data` Part a payload travels in.
pub const MEDIA_TYPE: &str = "application/json";
/// A2A 1.0's `role` of a message from the user (or a client agent acting for one).
pub const ROLE_USER: &str = "ROLE_USER";
/// A2A 1.0's `role` of a message from an agent.
pub const ROLE_AGENT: &str = "ROLE_AGENT";

/// Who sent a Message: A2A 1.0's `Role`, written `ROLE_USER` or `ROLE_AGENT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// `ROLE_USER`: the user, or a client acting for one.
    User,
    /// `ROLE_AGENT`: an agent.
    Agent,
}

impl Role {
    /// `ROLE_USER` or `ROLE_AGENT`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::User => ROLE_USER,
            Role::Agent => ROLE_AGENT,
        }
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
