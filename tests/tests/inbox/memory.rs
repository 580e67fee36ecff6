//! The suite on [`MemoryLedger`]: the effects are the keys a handler stages in its
//! `MemoryTx`, the connections clones of one ledger.

use contract_core::inbox::{MemoryLedger, MemoryTx};

use super::fixture::{unique, HandlerError, Store};

/// One in-memory ledger; each connection a clone of it.
pub struct MemoryStore {
    ledger: MemoryLedger,
}

impl Store for MemoryStore {
    type Ledger = MemoryLedger;

    // Memory does not outlive its process.
    const DURABLE: bool = false;

    fn fresh(_test: &str) -> Option<Self> {
        Some(MemoryStore {
            ledger: MemoryLedger::new(),
        })
    }

    fn locator(&self) -> String {
        unreachable!("the killed-process tests skip a store that is not durable")
    }

    fn reopen(_locator: &str) -> Self {
        unreachable!("the killed-process tests skip a store that is not durable")
    }

    fn connect(&self) -> MemoryLedger {
        self.ledger.clone()
    }

    fn apply(tx: &mut MemoryTx<'_>, effect: &str) -> Result<(), HandlerError> {
        // One key per application: an effect applied twice is two keys.
        tx.put(format!("{effect}\u{0}{}", unique("applied")), "applied");
        Ok(())
    }

    fn effects(&self, effect: &str) -> u64 {
        let prefix = format!("{effect}\u{0}");
        self.ledger
            .keys()
            .iter()
            .filter(|key| key.starts_with(&prefix))
            .count() as u64
    }
}

crate::inbox::suite::conformance!(MemoryStore);
