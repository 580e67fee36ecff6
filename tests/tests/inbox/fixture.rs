//! What the conformance suite needs of a store, the payload it hands off, and the helpers
//! every test shares.

use std::error::Error;
use std::sync::atomic::{AtomicU64, Ordering};

use contract_core::inbox::{
    AcceptError, Acceptance, ArtifactStore, Inbox, LastAcceptance, Ledger, MemoryArtifacts,
    StoreError,
};
use contract_core::{send_handoff, Delivery, Handoff, HandoffContract, Journey};
use serde::{Deserialize, Serialize};

/// A handler's error.
pub type HandlerError = Box<dyn Error + Send + Sync>;

/// The receipt the suite's handlers return.
pub type Receipt = String;

/// The outcome of an acceptance in the suite.
pub type Outcome = Result<Acceptance<Order, Receipt>, AcceptError<HandlerError>>;

/// A store under test: a database the suite opens connections to, and where a handler
/// writes its effects in the acceptance's transaction.
pub trait Store: Sized + Send + Sync + 'static {
    /// One connection to the store.
    type Ledger: Ledger + Send + 'static;

    /// Whether the store survives its process (the killed-process tests run only then).
    const DURABLE: bool;

    /// A new, empty store for the test `test`; `None` when this store cannot run here (the
    /// test then passes, printing why it skipped).
    fn fresh(test: &str) -> Option<Self>;

    /// How a child process finds the store again ([`reopen`](Store::reopen)).
    fn locator(&self) -> String;

    /// The store a parent process's [`locator`](Store::locator) names, not removed when
    /// dropped (the parent owns it).
    fn reopen(locator: &str) -> Self;

    /// A new connection.
    fn connect(&self) -> Self::Ledger;

    /// The handler's effect: one row (or key) named `effect`, written in the transaction.
    ///
    /// # Errors
    ///
    /// When the store fails.
    fn apply(tx: &mut <Self::Ledger as Ledger>::Tx<'_>, effect: &str) -> Result<(), HandlerError>;

    /// How many committed effects are named `effect`, read through a new connection.
    fn effects(&self, effect: &str) -> u64;
}

/// The payload of the suite's envelopes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, HandoffContract)]
#[handoff(name = "inbox-order", version = 1)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    /// The order refunded.
    pub order_ref: String,
    /// The amount, in cents.
    pub amount_cents: u64,
}

/// The owner of the suite's envelopes (the agent taking over).
pub const OWNER: &str = "refund-specialist";

/// A `ready` envelope in `context`, with id `handoff`, from `triage` to [`OWNER`], first
/// attempt.
pub fn order(context: &str, handoff: &str) -> Handoff<Order> {
    let order = Order {
        order_ref: format!("A-{handoff}"),
        amount_cents: 4_250,
    };
    Handoff::new(context, handoff, OWNER, order)
        .goal("refund the damaged order")
        .journey(
            Journey::new("triage", OWNER)
                .session("session-1")
                .attempt(1),
        )
        .ready()
}

/// The bytes of an envelope, as `send_handoff` writes them.
pub fn bytes(mut handoff: Handoff<Order>) -> Vec<u8> {
    send_handoff(&mut handoff)
        .expect("the suite's envelopes are valid")
        .into_bytes()
}

/// A name no other test of this process uses (for keys and files).
pub fn unique(prefix: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// An inbox over a new connection to `store`, resolving artifacts in `artifacts`.
pub fn inbox<S: Store>(
    store: &S,
    artifacts: &MemoryArtifacts,
) -> Inbox<S::Ledger, MemoryArtifacts> {
    Inbox::with_artifacts(store.connect(), artifacts.clone())
}

/// The effect an envelope's handler writes: its key.
pub fn effect_of(context: &str, handoff: &str) -> String {
    format!("{context}/{handoff}")
}

/// Accepts `bytes` with the suite's handler: it writes the effect named `effect` and
/// returns a receipt naming the handoff.
pub fn accept<S: Store, A>(inbox: &mut Inbox<S::Ledger, A>, bytes: &[u8], effect: &str) -> Outcome
where
    A: contract_core::inbox::ArtifactStore,
{
    let effect = effect.to_owned();
    inbox.accept(
        bytes,
        move |tx: &mut <S::Ledger as Ledger>::Tx<'_>, delivery: &Delivery<Order>| {
            S::apply(tx, &effect)?;
            Ok(format!("refunded {}", delivery.payload().order_ref))
        },
    )
}

/// Accepts `bytes` with the suite's handler, which holds its transaction open for `hold`
/// after writing the effect (so that a racing connection arrives while it is open).
pub fn accept_holding<S: Store, A>(
    inbox: &mut Inbox<S::Ledger, A>,
    bytes: &[u8],
    effect: &str,
    hold: std::time::Duration,
) -> Outcome
where
    A: contract_core::inbox::ArtifactStore,
{
    let effect = effect.to_owned();
    inbox.accept(
        bytes,
        move |tx: &mut <S::Ledger as Ledger>::Tx<'_>, delivery: &Delivery<Order>| {
            S::apply(tx, &effect)?;
            std::thread::sleep(hold);
            Ok(format!("refunded {}", delivery.payload().order_ref))
        },
    )
}

/// Accepts `bytes` with a handler that writes the effect, then fails.
pub fn accept_failing<S: Store, A>(
    inbox: &mut Inbox<S::Ledger, A>,
    bytes: &[u8],
    effect: &str,
) -> Outcome
where
    A: contract_core::inbox::ArtifactStore,
{
    let effect = effect.to_owned();
    inbox.accept(
        bytes,
        move |tx: &mut <S::Ledger as Ledger>::Tx<'_>, _: &Delivery<Order>| {
            S::apply(tx, &effect)?;
            Err::<Receipt, _>("the handler refuses".into())
        },
    )
}

/// A context's last acceptance with the suite's [`Receipt`] read.
pub trait LastWithReceipt {
    /// [`Inbox::last_accepted`], its receipt read as a [`Receipt`].
    ///
    /// # Errors
    ///
    /// When the ledger fails or the receipt does not read.
    fn last_with_receipt(
        &self,
        context: &str,
    ) -> Result<Option<LastAcceptance<Receipt>>, StoreError>;
}

impl<L: Ledger, A: ArtifactStore> LastWithReceipt for Inbox<L, A> {
    fn last_with_receipt(
        &self,
        context: &str,
    ) -> Result<Option<LastAcceptance<Receipt>>, StoreError> {
        self.last_accepted(context)?
            .map(LastAcceptance::typed)
            .transpose()
    }
}
