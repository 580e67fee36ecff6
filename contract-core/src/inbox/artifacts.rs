//! [`ArtifactStore`]: where an inbox checks that the artifacts an envelope names exist, at
//! their version and with the content their digest names (a file read later
//! must not have changed).

use std::collections::HashMap;
use std::convert::Infallible;
use std::error::Error;
use std::sync::{Arc, PoisonError, RwLock};

use crate::envelope::Digest;

/// The artifacts an inbox can resolve: for an `ArtifactRef`'s `uri` and `version`, the
/// digest of that version's content ([`Digest::of_bytes`]), or `None` when the store does
/// not have it.
///
/// An inbox refuses an envelope naming an artifact the store does not resolve
/// (`ArtifactUnavailable`) or whose `digest` differs from the content's (`ArtifactChanged`).
pub trait ArtifactStore {
    /// What the store fails with.
    type Error: Error + Send + Sync + 'static;

    /// The digest of the content of `uri` at `version`; `None` when there is no such
    /// version.
    ///
    /// # Errors
    ///
    /// When the store fails (not when it lacks the version: that is `Ok(None)`).
    fn resolve(&self, uri: &str, version: u64) -> Result<Option<Digest>, Self::Error>;

    /// Whether the store has `uri` at `version`, asked for an artifact whose envelope names
    /// no `digest` (its content is not checked). The default: whether
    /// [`resolve`](ArtifactStore::resolve) has it; a store that keeps versions without
    /// their content ([`MemoryArtifacts::put_version`]) answers from them.
    ///
    /// ```
    /// use contract_core::inbox::{ArtifactStore, NoArtifacts};
    ///
    /// assert!(!NoArtifacts.contains("store://answer/104", 3)?);
    /// # Ok::<(), std::convert::Infallible>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn contains(&self, uri: &str, version: u64) -> Result<bool, Self::Error> {
        Ok(self.resolve(uri, version)?.is_some())
    }
}

/// The store of an inbox whose envelopes carry no artifacts: it resolves none, so an
/// envelope naming one is refused (`ArtifactUnavailable`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoArtifacts;

impl ArtifactStore for NoArtifacts {
    type Error = Infallible;

    fn resolve(&self, _uri: &str, _version: u64) -> Result<Option<Digest>, Infallible> {
        Ok(None)
    }
}

/// Artifacts kept in memory, for tests and examples; clones share their contents.
///
/// ```
/// use contract_core::envelope::Digest;
/// use contract_core::inbox::{ArtifactStore, MemoryArtifacts};
///
/// let artifacts = MemoryArtifacts::new();
/// artifacts.put("store://answer/104", 3, b"the draft");
/// assert_eq!(
///     artifacts.resolve("store://answer/104", 3).unwrap(),
///     Some(Digest::of_bytes(b"the draft")),
/// );
/// assert_eq!(artifacts.resolve("store://answer/104", 4).unwrap(), None);
/// ```
///
/// A version registered without its content ([`put_version`](MemoryArtifacts::put_version))
/// resolves for an envelope that names no `digest` of it; one that names a digest is refused
/// (`ArtifactUnavailable`): there is no content to check it against.
#[derive(Debug, Clone, Default)]
pub struct MemoryArtifacts {
    versions: Arc<RwLock<Versions>>,
}

/// Each version (`uri`, `version`) with its content's digest; `None` for a version
/// registered without content.
type Versions = HashMap<(String, u64), Option<Digest>>;

impl MemoryArtifacts {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        MemoryArtifacts::default()
    }

    /// Stores `content` as `uri` at `version` (replacing what was there: a changed file).
    pub fn put(&self, uri: impl Into<String>, version: u64, content: &[u8]) {
        let digest = Digest::of_bytes(content);
        self.versions
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((uri.into(), version), Some(digest));
    }

    /// Registers `uri` at `version` without its content, for envelopes that name the
    /// version and no `digest` (replacing what was there).
    ///
    /// ```
    /// use contract_core::inbox::{ArtifactStore, MemoryArtifacts};
    ///
    /// let artifacts = MemoryArtifacts::new();
    /// artifacts.put_version("store://answer/104", 3);
    /// assert!(artifacts.contains("store://answer/104", 3)?);
    /// // No content: no digest to check one against.
    /// assert_eq!(artifacts.resolve("store://answer/104", 3)?, None);
    /// assert!(!artifacts.contains("store://answer/104", 4)?);
    /// # Ok::<(), std::convert::Infallible>(())
    /// ```
    pub fn put_version(&self, uri: impl Into<String>, version: u64) {
        self.versions
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((uri.into(), version), None);
    }

    /// Removes `uri` at `version`.
    pub fn remove(&self, uri: &str, version: u64) {
        self.versions
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(uri.to_owned(), version));
    }
}

impl ArtifactStore for MemoryArtifacts {
    type Error = Infallible;

    fn resolve(&self, uri: &str, version: u64) -> Result<Option<Digest>, Infallible> {
        let versions = self.versions.read().unwrap_or_else(PoisonError::into_inner);
        Ok(versions.get(&(uri.to_owned(), version)).copied().flatten())
    }

    fn contains(&self, uri: &str, version: u64) -> Result<bool, Infallible> {
        let versions = self.versions.read().unwrap_or_else(PoisonError::into_inner);
        Ok(versions.contains_key(&(uri.to_owned(), version)))
    }
}

impl<S: ArtifactStore + ?Sized> ArtifactStore for &S {
    type Error = S::Error;

    fn resolve(&self, uri: &str, version: u64) -> Result<Option<Digest>, Self::Error> {
        (**self).resolve(uri, version)
    }

    fn contains(&self, uri: &str, version: u64) -> Result<bool, Self::Error> {
        (**self).contains(uri, version)
    }
}
