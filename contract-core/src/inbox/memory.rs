//! [`MemoryLedger`]: a ledger in memory, for tests, examples and a single process that needs
//! no durability. A handler writes its effects to the transaction ([`MemoryTx::put`]), which
//! stages them until the acceptance commits.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::convert::Infallible;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::SystemTime;

use crate::inbox::journal::{Journal, SessionFilter, SessionSummary, Step};
use crate::inbox::ledger::{Claim, Claimed, ContextState, Entry, Ledger, Record};

/// A ledger in memory. Clones share their state, so that several inboxes (threads, tasks)
/// accept into one ledger as several connections would into one database. A claim holds
/// its key, and only its key, until its transaction ends: a second claim of the same key
/// waits for it, others go on.
///
/// Effects a handler stages in its [`MemoryTx`] are committed with the acceptance, or not at
/// all: [`get`](MemoryLedger::get) reads them.
///
/// ```
/// use contract_core::inbox::MemoryLedger;
///
/// let ledger = MemoryLedger::new();
/// let shared = ledger.clone();
/// assert_eq!(shared.get("refund/A-1"), None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct MemoryLedger {
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    state: Mutex<State>,
    /// Notified when a claim is released (committed or rolled back).
    released: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// The committed entries, by key.
    entries: HashMap<(String, String), Entry>,
    /// Each context's committed entries: sequence number to handoff id.
    contexts: HashMap<String, BTreeMap<u64, String>>,
    /// The highest version accepted of each artifact, by context and uri.
    artifacts: HashMap<(String, String), u64>,
    /// The keys claimed by open transactions.
    claimed: HashSet<(String, String)>,
    /// The last sequence number handed out.
    seq: u64,
    /// The handlers' committed effects.
    data: BTreeMap<String, Vec<u8>>,
    /// The journey's steps.
    journal: Journal,
}

impl State {
    /// The context's last committed entry: the rollback target, and whose owner the next
    /// acceptance in the context is compared with.
    fn last(&self, context_id: &str) -> Option<&Entry> {
        let (_, handoff_id) = self.contexts.get(context_id)?.last_key_value()?;
        self.entries
            .get(&(context_id.to_owned(), handoff_id.clone()))
    }
}

impl MemoryLedger {
    /// An empty ledger.
    #[must_use]
    pub fn new() -> Self {
        MemoryLedger::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.shared.lock()
    }

    /// A committed effect: the value a handler [`put`](MemoryTx::put) under `key` in an
    /// acceptance that committed.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.lock().data.get(key).cloned()
    }

    /// The keys of the committed effects, in order.
    #[must_use]
    pub fn keys(&self) -> Vec<String> {
        self.lock().data.keys().cloned().collect()
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A transaction of a [`MemoryLedger`]: the handler's effects ([`put`](MemoryTx::put),
/// [`remove`](MemoryTx::remove)) are staged in it, and written to the ledger only when the
/// acceptance commits. Dropped without a commit, it writes nothing and releases its claim.
#[derive(Debug)]
pub struct MemoryTx<'t> {
    shared: &'t Shared,
    /// The key this transaction claimed.
    claimed: Option<(String, String)>,
    /// The claimed entry, completed by `record`.
    entry: Option<Entry>,
    /// The context's artifact versions to write.
    artifacts: Vec<(String, String, u64)>,
    /// The effects to write: a value, or `None` to remove the key.
    staged: BTreeMap<String, Option<Vec<u8>>>,
    /// The journey's steps to record.
    steps: Vec<Step>,
}

impl MemoryTx<'_> {
    /// Stages `value` under `key`, written when the acceptance commits.
    pub fn put(&mut self, key: impl Into<String>, value: impl Into<Vec<u8>>) {
        self.staged.insert(key.into(), Some(value.into()));
    }

    /// Stages the removal of `key`.
    pub fn remove(&mut self, key: impl Into<String>) {
        self.staged.insert(key.into(), None);
    }

    /// The value under `key` as this transaction sees it: what it staged, else what is
    /// committed.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<Vec<u8>> {
        match self.staged.get(key) {
            Some(staged) => staged.clone(),
            None => self.shared.lock().data.get(key).cloned(),
        }
    }

    /// Releases the claim, if any, and wakes the claims waiting for it.
    fn release(&mut self, state: &mut State) {
        if let Some(key) = self.claimed.take() {
            state.claimed.remove(&key);
            self.shared.released.notify_all();
        }
    }
}

impl Drop for MemoryTx<'_> {
    fn drop(&mut self) {
        if self.claimed.is_some() {
            let shared = self.shared;
            let mut state = shared.lock();
            self.release(&mut state);
        }
    }
}

impl Ledger for MemoryLedger {
    type Tx<'t> = MemoryTx<'t>;
    type Statements = ();
    type Error = Infallible;

    fn entry(&mut self, context_id: &str, handoff_id: &str) -> Result<Option<Entry>, Infallible> {
        let key = (context_id.to_owned(), handoff_id.to_owned());
        Ok(self.lock().entries.get(&key).cloned())
    }

    fn begin(&mut self) -> Result<(MemoryTx<'_>, &()), Infallible> {
        let tx = MemoryTx {
            shared: &self.shared,
            claimed: None,
            entry: None,
            artifacts: Vec::new(),
            staged: BTreeMap::new(),
            steps: Vec::new(),
        };
        Ok((tx, &()))
    }

    fn context(
        _: &(),
        tx: &mut MemoryTx<'_>,
        context_id: &str,
        uris: &[&str],
    ) -> Result<ContextState, Infallible> {
        let state = tx.shared.lock();
        let owner = state.last(context_id).map(|entry| entry.owner.clone());
        let versions = uris
            .iter()
            .map(|uri| {
                let key = (context_id.to_owned(), (*uri).to_owned());
                state.artifacts.get(&key).copied()
            })
            .collect();
        Ok(ContextState { owner, versions })
    }

    fn claim(_: &(), tx: &mut MemoryTx<'_>, claim: &Claim<'_>) -> Result<Claimed, Infallible> {
        let key = (claim.context_id.to_owned(), claim.handoff_id.to_owned());
        let shared = tx.shared;
        let mut state = shared.lock();
        // The claim of one key: wait while another transaction holds it.
        while state.claimed.contains(&key) {
            state = shared
                .released
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if let Some(entry) = state.entries.get(&key) {
            return Ok(Claimed::Taken(entry.clone()));
        }
        state.seq += 1;
        let seq = state.seq;
        state.claimed.insert(key.clone());
        drop(state);
        tx.claimed = Some(key);
        tx.entry = Some(Entry {
            seq,
            context_id: claim.context_id.to_owned(),
            handoff_id: claim.handoff_id.to_owned(),
            digest: *claim.digest,
            owner: claim.owner.to_owned(),
            accepted_at: claim.accepted_at,
            receipt: Vec::new(),
            envelope: claim.envelope.to_vec(),
        });
        Ok(Claimed::New { seq })
    }

    fn record(_: &(), tx: &mut MemoryTx<'_>, record: &Record<'_>) -> Result<(), Infallible> {
        if let Some(entry) = tx.entry.as_mut().filter(|e| e.seq == record.seq) {
            entry.receipt = record.receipt.to_vec();
        }
        tx.artifacts.extend(
            record
                .artifacts
                .iter()
                .map(|(uri, version)| (record.context_id.to_owned(), (*uri).to_owned(), *version)),
        );
        Ok(())
    }

    fn commit(mut tx: MemoryTx<'_>) -> Result<(), Infallible> {
        let shared = tx.shared;
        let mut state = shared.lock();
        if let Some(entry) = tx.entry.take() {
            state
                .contexts
                .entry(entry.context_id.clone())
                .or_default()
                .insert(entry.seq, entry.handoff_id.clone());
            let key = (entry.context_id.clone(), entry.handoff_id.clone());
            state.entries.insert(key, entry);
        }
        for (context_id, uri, version) in tx.artifacts.drain(..) {
            state.artifacts.insert((context_id, uri), version);
        }
        for step in tx.steps.drain(..) {
            state.journal.note(&step);
        }
        for (key, value) in std::mem::take(&mut tx.staged) {
            match value {
                Some(value) => state.data.insert(key, value),
                None => state.data.remove(&key),
            };
        }
        tx.release(&mut state);
        Ok(())
    }

    fn rollback(tx: MemoryTx<'_>) -> Result<(), Infallible> {
        // Dropping it discards what it staged and releases its claim.
        drop(tx);
        Ok(())
    }

    fn last_accepted(&self, context_id: &str) -> Result<Option<Entry>, Infallible> {
        let state = self.lock();
        Ok(state.last(context_id).cloned())
    }

    fn prune(&mut self, before: SystemTime) -> Result<u64, Infallible> {
        let mut state = self.lock();
        let State {
            entries, contexts, ..
        } = &mut *state;
        let mut pruned = 0;
        for (context_id, seqs) in contexts.iter_mut() {
            let Some(&last) = seqs.keys().next_back() else {
                continue;
            };
            seqs.retain(|&seq, handoff_id| {
                let key = (context_id.clone(), handoff_id.clone());
                let old = entries
                    .get(&key)
                    .is_some_and(|entry| entry.accepted_at < before);
                if seq != last && old {
                    entries.remove(&key);
                    pruned += 1;
                    false
                } else {
                    true
                }
            });
        }
        state.journal.prune(before);
        Ok(pruned)
    }

    fn note_in(_: &(), tx: &mut MemoryTx<'_>, step: &Step) -> Result<(), Infallible> {
        tx.steps.push(step.clone());
        Ok(())
    }

    fn note(&mut self, step: &Step) -> Result<(), Infallible> {
        self.lock().journal.note(step);
        Ok(())
    }

    fn touch(&mut self, key: &str, at: SystemTime) -> Result<bool, Infallible> {
        Ok(self.lock().journal.touch(key, at))
    }

    fn session(&mut self, session: &str) -> Result<Vec<Step>, Infallible> {
        Ok(self.lock().journal.session(session))
    }

    fn sessions(&mut self, filter: &SessionFilter) -> Result<Vec<SessionSummary>, Infallible> {
        Ok(self.lock().journal.sessions(filter))
    }
}
