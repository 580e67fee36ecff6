//! Seed `003_…`'s workflow end to end: triage → refund specialist → escalation, every handoff
//! in a `handoff-envelope/v1` on one session (`sessionId`), and the ways the specialist's
//! `orderRef` goes missing, each caught where it happens and explained:
//!
//! 1. triage's builder loses `orderRef`: [`send_handoff_to`] the specialist's contract refuses
//!    it before it leaves; fixed, the handoff is accepted;
//! 2. the same envelope sent unchecked: the specialist refuses it (`orderRefPresent: false`),
//!    the sender's record says "not emitted", and nothing reaches escalation;
//! 3. a mapper renames `orderRef` to `orderId` (v2's name) before a **v1** specialist: refused,
//!    explained as a rename; a v2 specialist reads the unmapped envelope through its alias;
//! 4. a triage on v2 meets a v1 specialist: refused from `contract`, before the payload;
//! 5. the contracts themselves: v2's schema, its JSON Schema, and what changed from v1.
//!
//! The specialist and the escalation agent each accept through an inbox on a ledger of their
//! own (two SQLite files), which records every outcome; the example ends with the session's
//! journey read back from both ledgers, as `handoff session` draws it.
//!
//! `cargo run -p examples --bin refund-handoff` prints it.

use std::convert::Infallible;
use std::error::Error;
use std::fmt::Write;
use std::path::PathBuf;

use contract_core::inbox::rusqlite::Transaction;
use contract_core::inbox::{AcceptError, Acceptance, Inbox, Ledger, SqliteLedger};
use contract_core::runtime::{Cause, Certainty};
use contract_core::session::{Format, SessionView};
use contract_core::{
    compat, json_schema, send, send_handoff, send_handoff_to, why_missing, Delivery, Handoff,
    HandoffContract, HandoffRejection, HandoffSchema, Journey, Mode, Presence, ProblemKind,
    ReceiveOptions, View,
};
use serde::de::IgnoredAny;

use crate::refund::{v1, v2, Category};
use crate::story::SpecialistInput;

/// The session every handoff below belongs to (a random id, never a business value).
pub const SESSION: &str = "sess-support-042";
/// The workflow.
pub const WORKFLOW: &str = "support-refund";
/// The shared task context of the session's envelopes.
pub const CONTEXT: &str = "ctx-support-042";

const TRIAGE: &str = "triage-agent";
const SPECIALIST: &str = "refund-specialist";
const ESCALATION: &str = "escalation-agent";

/// A failed catch: the example stops and the binary exits non-zero.
fn failed(what: &str) -> Box<dyn Error> {
    format!("a catch failed: {what}").into()
}

/// The journey of a handoff from `from` to `to` on the session.
fn journey(from: &str, to: &str) -> Journey {
    Journey::new(from, to).session(SESSION).workflow(WORKFLOW)
}

/// A ready envelope from triage to the specialist, who owns the context once it accepts it.
fn from_triage<T>(handoff_id: &str, payload: T) -> Handoff<T> {
    Handoff::new(CONTEXT, handoff_id, SPECIALIST, payload)
        .goal("refund the customer's order")
        .journey(journey(TRIAGE, SPECIALIST))
        .ready()
}

/// What the specialist passes to its receive: the session's journey, for the trace.
fn at_specialist() -> ReceiveOptions {
    ReceiveOptions::default().journey(journey(TRIAGE, SPECIALIST))
}

/// The agents that accept handoffs, each on a ledger of its own (an SQLite file each, in one
/// folder kept after the run, so that `handoff session` can read them again).
struct Agents {
    folder: PathBuf,
    specialist: Inbox<SqliteLedger>,
    escalation: Inbox<SqliteLedger>,
}

impl Agents {
    /// The two ledgers, new, in a folder of the temporary directory.
    fn open() -> Result<Agents, Box<dyn Error>> {
        let folder = std::env::temp_dir().join("handoff-refund-example");
        std::fs::create_dir_all(&folder)?;
        let open = |name: &str| -> Result<SqliteLedger, Box<dyn Error>> {
            let path = folder.join(name);
            for stale in [path.clone(), path.with_extension("sqlite-wal")] {
                if stale.exists() {
                    std::fs::remove_file(stale)?;
                }
            }
            let _ = std::fs::remove_file(path.with_extension("sqlite-shm"));
            Ok(SqliteLedger::open(&path)?)
        };
        Ok(Agents {
            specialist: Inbox::new(open("specialist.sqlite")?).options(at_specialist()),
            escalation: Inbox::new(open("escalation.sqlite")?),
            folder,
        })
    }

    /// The session's journey, from both ledgers.
    fn session_view(&mut self) -> Result<SessionView, Box<dyn Error>> {
        let specialist = self.specialist.ledger_mut().session(SESSION)?;
        let escalation = self.escalation.ledger_mut().session(SESSION)?;
        Ok(SessionView::from_ledgers(
            SESSION,
            [
                ("specialist.sqlite".to_owned(), specialist),
                ("escalation.sqlite".to_owned(), escalation),
            ],
        ))
    }
}

/// An acceptance whose handler does nothing (the example keeps no business tables): the
/// delivery when it is applied, the rejection when the envelope is refused.
fn accept<T>(inbox: &mut Inbox<SqliteLedger>, bytes: &[u8]) -> Result<Accepted<T>, Box<dyn Error>>
where
    T: serde::de::DeserializeOwned + HandoffContract + 'static,
{
    let handler = |_: &mut Transaction<'_>, _: &Delivery<T>| Ok::<_, Infallible>(());
    match inbox.accept(bytes, handler) {
        Ok(Acceptance::Applied { delivery, .. }) => Ok(Ok(delivery)),
        Ok(Acceptance::Duplicate(_)) => Err(failed("a new handoff was taken for a duplicate")),
        Err(AcceptError::Rejected(rejection)) => Ok(Err(rejection)),
        Err(other) => Err(failed(&format!("the inbox failed: {other}"))),
    }
}

/// What an acceptance gave: the delivery, or the envelope's rejection.
type Accepted<T> = Result<Delivery<T>, HandoffRejection>;

/// What the triage agent extracts from the customer's message.
fn extracted() -> SpecialistInput {
    SpecialistInput {
        category: Category::Damaged,
        order_ref: Some("internal-value".into()),
        amount_cents: 1250,
    }
}

/// The bug: the builder of the specialist's input keeps the category, not the order.
fn built_with_the_bug() -> SpecialistInput {
    SpecialistInput {
        order_ref: None,
        ..extracted()
    }
}

/// The specialist on `v1` accepts the envelope. Without a contract it escalated when `orderRef`
/// was missing, and the escalation agent opened a generic ticket; here a payload without it
/// is refused, and a refused handoff goes back to its sender.
fn specialist_v1(
    agents: &mut Agents,
    bytes: &[u8],
) -> Result<Accepted<v1::RefundRequest>, Box<dyn Error>> {
    accept::<v1::RefundRequest>(&mut agents.specialist, bytes)
}

/// The session's view: one line per handoff, from the envelope's own ids and journey.
#[derive(Default)]
struct Session {
    lines: Vec<String>,
}

impl Session {
    /// Records what became of `handoff`, which must belong to the session.
    fn record<T>(&mut self, handoff: &Handoff<T>, outcome: &str) -> Result<(), Box<dyn Error>> {
        let journey = &handoff.journey;
        if journey.session_id.as_deref() != Some(SESSION) || handoff.context_id != CONTEXT {
            return Err(failed("a handoff left the session"));
        }
        let end = |agent: &Option<String>| agent.clone().unwrap_or_else(|| "?".to_owned());
        self.lines.push(format!(
            "{}  {} -> {}: {outcome}",
            handoff.handoff_id,
            end(&journey.handoff_from),
            end(&journey.handoff_to),
        ));
        Ok(())
    }
}

/// The sender's presence record, read from the envelope's `senderPresence` (it travels with
/// the payload; the payload itself is skipped).
fn sender_record(bytes: &[u8]) -> Result<Presence, Box<dyn Error>> {
    let envelope: Handoff<IgnoredAny> = serde_json::from_slice(bytes)?;
    envelope
        .sender_presence
        .ok_or_else(|| failed("the envelope carries no sender record"))
}

/// The whole workflow, as the lines it prints.
///
/// # Errors
/// When a catch fails: a handoff that loses `orderRef` is sent or accepted, a diagnosis
/// names another cause than the one the step shows, or a reader that should read an
/// envelope refuses it.
pub fn refund_handoff() -> Result<String, Box<dyn Error>> {
    let mut out = String::new();
    let mut session = Session::default();
    let mut agents = Agents::open()?;
    writeln!(
        out,
        "session {SESSION}, workflow {WORKFLOW}: {TRIAGE} -> {SPECIALIST} -> {ESCALATION}"
    )?;
    writeln!(
        out,
        "every handoff travels in a {} on context {CONTEXT}",
        Handoff::<()>::SCHEMA_VERSION
    )?;

    caught_at_send(&mut out, &mut session, &mut agents)?;
    unchecked(&mut out, &mut session, &mut agents)?;
    renamed_by_a_mapper(&mut out, &mut session, &mut agents)?;
    another_version(&mut out, &mut session, &mut agents)?;
    escalated(&mut out, &mut session, &mut agents)?;

    writeln!(out)?;
    writeln!(
        out,
        "== the session: {SESSION}, each handoff as its sender tells it =="
    )?;
    for line in &session.lines {
        writeln!(out, "{line}")?;
    }

    contracts(&mut out)?;

    writeln!(out)?;
    writeln!(
        out,
        "== the session's journey, read back from the two ledgers (handoff session) =="
    )?;
    let view = agents.session_view()?;
    let refused = view
        .steps()
        .iter()
        .filter(|s| s.step.outcome == contract_core::inbox::Outcome::Refused)
        .count();
    if view.steps().len() != 6 || refused != 3 {
        return Err(failed("the ledgers do not hold the session's six steps"));
    }
    write!(out, "{}", Format::Text.render(&view))?;
    let folder = agents.folder.display();
    writeln!(
        out,
        "the ledgers are kept: handoff session {SESSION} --ledger {folder}/specialist.sqlite \
         --ledger {folder}/escalation.sqlite --format html --out session.html"
    )?;
    Ok(out)
}

/// 1. The producer checks the consumer's contract before the envelope leaves.
fn caught_at_send(
    out: &mut String,
    session: &mut Session,
    agents: &mut Agents,
) -> Result<(), Box<dyn Error>> {
    writeln!(out)?;
    writeln!(
        out,
        "== 1. triage's builder lost orderRef: send_handoff_to::<{}> refuses it ==",
        v1::RefundRequest::CONTRACT
    )?;
    let mut handoff = from_triage("h-01", built_with_the_bug());
    let rejection = match send_handoff_to::<v1::RefundRequest, _>(&mut handoff) {
        Ok(_) => return Err(failed("send_handoff_to sent a payload without orderRef")),
        Err(rejection) => rejection,
    };
    writeln!(out, "{rejection}")?;
    if !rejection
        .problems()
        .iter()
        .any(|p| p.pointer == "/payload/orderRef")
    {
        return Err(failed(
            "the send refusal does not point at /payload/orderRef",
        ));
    }
    session.record(&handoff, "refused at send: never left triage")?;

    writeln!(out, "-- fixed, the builder keeps the order:")?;
    let mut handoff = from_triage("h-02", extracted());
    let sent = send_handoff_to::<v1::RefundRequest, _>(&mut handoff)?;
    let delivery = specialist_v1(agents, sent.bytes())?
        .map_err(|r| failed(&format!("the specialist refused a complete handoff: {r}")))?;
    writeln!(out, "sent and accepted: presence {}", delivery.presence())?;
    session.record(delivery.envelope(), "accepted")?;
    Ok(())
}

/// 2. The envelope goes out unchecked: the specialist's refusal and the sender's record.
fn unchecked(
    out: &mut String,
    session: &mut Session,
    agents: &mut Agents,
) -> Result<(), Box<dyn Error>> {
    writeln!(out)?;
    writeln!(
        out,
        "== 2. unchecked: the envelope goes out anyway, its own schema allowing the gap =="
    )?;
    // What a producer that skips the consumer's check writes: the record of its own
    // schema's send, the consumer's contract id, serde's bytes.
    let mut handoff = from_triage("h-03", built_with_the_bug());
    let written = send(&handoff.payload)?;
    handoff.contract = v1::RefundRequest::CONTRACT.id.to_owned();
    handoff.sender_presence = Some(written.presence().clone());
    let bytes = serde_json::to_vec(&handoff)?;

    let rejection = match specialist_v1(agents, &bytes)? {
        Ok(_) => return Err(failed("the specialist accepted a payload without orderRef")),
        Err(rejection) => rejection,
    };
    writeln!(out, "{SPECIALIST}: {rejection}")?;
    let presence = rejection
        .presence()
        .ok_or_else(|| failed("the specialist did not read the payload"))?;
    writeln!(out, "read-handoff: {}", serde_json::to_string(presence)?)?;
    let record = serde_json::to_value(presence)?;
    if record["orderRefPresent"] != serde_json::Value::Bool(false) {
        return Err(failed("the trace does not record orderRefPresent: false"));
    }

    let diagnosis = why_missing::<v1::RefundRequest>(presence)
        .sender(&sender_record(&bytes)?)
        .explain();
    writeln!(out, "{diagnosis}")?;
    let not_emitted = Cause::NotEmitted {
        certainty: Certainty::Established,
    };
    if diagnosis.causes("orderRef") != [not_emitted] {
        return Err(failed("the diagnosis is not \"not emitted\""));
    }
    writeln!(
        out,
        "{SPECIALIST} -> {ESCALATION}: not sent (a refused handoff goes back to {TRIAGE}, \
         not to a generic support ticket)"
    )?;
    session.record(&handoff, "refused at receive: orderRef not emitted")?;
    Ok(())
}

/// 3. A mapper on the way writes v2's name for a v1 specialist.
fn renamed_by_a_mapper(
    out: &mut String,
    session: &mut Session,
    agents: &mut Agents,
) -> Result<(), Box<dyn Error>> {
    writeln!(out)?;
    writeln!(
        out,
        "== 3. a mapper renames orderRef to orderId (v2's name) before a v1 specialist =="
    )?;
    let mut handoff = from_triage("h-04", extracted());
    let sent = send_handoff_to::<v1::RefundRequest, _>(&mut handoff)?;
    let mut envelope: serde_json::Value = serde_json::from_slice(sent.bytes())?;
    let payload = envelope
        .get_mut("payload")
        .and_then(serde_json::Value::as_object_mut)
        .ok_or_else(|| failed("the envelope has no payload object"))?;
    let order = payload
        .remove("orderRef")
        .ok_or_else(|| failed("the sent payload has no orderRef"))?;
    payload.insert("orderId".into(), order);
    let payload_bytes = serde_json::to_vec(&envelope["payload"])?;
    let mapped = serde_json::to_vec(&envelope)?;

    let rejection = match specialist_v1(agents, &mapped)? {
        Ok(_) => {
            return Err(failed(
                "the v1 specialist accepted a payload without orderRef",
            ))
        }
        Err(rejection) => rejection,
    };
    writeln!(out, "{SPECIALIST} (v1): {rejection}")?;
    let presence = rejection
        .presence()
        .ok_or_else(|| failed("the v1 specialist did not read the payload"))?;
    // The sender's record names v1 and the payload fits v2's receiver view: the record
    // outweighs the fit, and v2's name for the field shows the rename.
    let diagnosis = why_missing::<v1::RefundRequest>(presence)
        .sender(&sender_record(&mapped)?)
        .payload(&payload_bytes)
        .explain();
    writeln!(out, "{diagnosis}")?;
    let renamed = Cause::RenamedByMapper {
        arrived_as: "orderId".into(),
        because: format!("its name in {}", v2::RefundRequest::CONTRACT),
        certainty: Certainty::Established,
    };
    if diagnosis.causes("orderRef") != [renamed] {
        return Err(failed("the diagnosis is not the mapper's rename"));
    }
    session.record(&handoff, "refused at receive (v1): renamed on the way")?;

    // A v2 specialist needs no mapper: it reads v1's envelope, orderRef through its alias.
    // The v2 specialist: another inbox on the same ledger (a handoff id of its own: the
    // unmapped envelope's key is the v1 specialist's refused one).
    let mut unmapped = from_triage("h-04b", extracted());
    let sent = send_handoff_to::<v1::RefundRequest, _>(&mut unmapped)?;
    let delivery =
        accept::<v2::RefundRequest>(&mut agents.specialist, sent.bytes())?.map_err(|r| {
            failed(&format!(
                "the v2 specialist refused the unmapped v1 envelope: {r}"
            ))
        })?;
    if Some(&delivery.payload().order_id) != extracted().order_ref.as_ref() {
        return Err(failed("the v2 specialist did not read orderRef as orderId"));
    }
    writeln!(
        out,
        "{SPECIALIST} (v2), the envelope before the mapper: accepted, orderId read from its \
         alias orderRef (presence {})",
        delivery.presence()
    )?;
    session.record(delivery.envelope(), "accepted (v2, before the mapper)")?;
    Ok(())
}

/// 4. A triage on v2 hands off to a specialist on v1.
fn another_version(
    out: &mut String,
    session: &mut Session,
    agents: &mut Agents,
) -> Result<(), Box<dyn Error>> {
    writeln!(out)?;
    writeln!(
        out,
        "== 4. a triage on v2 meets a v1 specialist: refused before the payload =="
    )?;
    let mut handoff = from_triage(
        "h-05",
        v2::RefundRequest {
            category: Category::Damaged,
            order_id: "internal-value".into(),
            amount_cents: 1250,
            use_case: None,
        },
    );
    let sent = send_handoff(&mut handoff)?;
    let rejection = match specialist_v1(agents, sent.bytes())? {
        Ok(_) => return Err(failed("the v1 specialist read a v2 envelope")),
        Err(rejection) => rejection,
    };
    writeln!(out, "{SPECIALIST} (v1): {rejection}")?;
    let before_the_payload = rejection.presence().is_none()
        && rejection
            .problems()
            .iter()
            .any(|p| matches!(p.kind, ProblemKind::OtherVersion { .. }));
    if !before_the_payload {
        return Err(failed(
            "the v2 envelope was not refused from its contract id",
        ));
    }
    writeln!(out, "payload read: no")?;
    session.record(
        &handoff,
        "refused at receive (v1): refund-request/v2 is not readable",
    )?;
    Ok(())
}

/// The specialist hands the refund it accepted on to escalation, which accepts it on its own
/// ledger: the session's last hop, and the context's new owner.
fn escalated(
    out: &mut String,
    session: &mut Session,
    agents: &mut Agents,
) -> Result<(), Box<dyn Error>> {
    writeln!(out)?;
    writeln!(
        out,
        "== the specialist hands the accepted refund on to {ESCALATION} =="
    )?;
    let mut handoff = Handoff::new(CONTEXT, "h-06", ESCALATION, extracted())
        .goal("approve the refund above the specialist's limit")
        .journey(journey(SPECIALIST, ESCALATION))
        .ready();
    let sent = send_handoff_to::<v1::RefundRequest, _>(&mut handoff)?;
    let delivery = accept::<v1::RefundRequest>(&mut agents.escalation, sent.bytes())?
        .map_err(|r| failed(&format!("escalation refused the specialist's handoff: {r}")))?;
    writeln!(
        out,
        "{ESCALATION}: accepted, presence {}",
        delivery.presence()
    )?;
    session.record(delivery.envelope(), "accepted by escalation")?;
    Ok(())
}

/// 5. The contracts: v2's canonical schema and JSON Schema, and v1 against v2.
fn contracts(out: &mut String) -> Result<(), Box<dyn Error>> {
    writeln!(out)?;
    writeln!(
        out,
        "== 5. the contracts: {} and v1 ==",
        v2::RefundRequest::CONTRACT
    )?;
    writeln!(out, "-- canonical schema text (what the snapshot holds):")?;
    writeln!(
        out,
        "{}",
        contract_core::schema::text::to_text(&v2::RefundRequest::schema())
    )?;
    writeln!(out, "-- JSON Schema, receiver view:")?;
    let receiver = json_schema::<v2::RefundRequest>(View::Receiver);
    writeln!(out, "{}", serde_json::to_string_pretty(&receiver)?)?;
    writeln!(out)?;

    let old = v1::RefundRequest::schema();
    let new = v2::RefundRequest::schema();
    writeln!(out, "-- v1 writer -> v2 reader (backward):")?;
    writeln!(out, "{}", compat::check(&old, &new))?;
    writeln!(out, "-- v1 <-> v2 under mode full:")?;
    let report = compat::evolve(&old, &new, Mode::Full);
    writeln!(out, "{report}")?;
    writeln!(out)?;
    writeln!(
        out,
        "verdict: {}",
        if report.is_compatible() {
            "compatible"
        } else {
            "breaking: v2 needs its own major version (it has one)"
        }
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_catch_holds() {
        let out = super::refund_handoff().expect("every catch holds");
        assert!(
            out.contains(
                "orderRef: renamed on the way: it arrived as `orderId` (its name in \
                 refund-request/v2)"
            ),
            "{out}"
        );
        assert!(
            out.contains("orderRef: not emitted by the producer"),
            "{out}"
        );
        assert!(out.contains("\"orderRefPresent\":false"), "{out}");
        // The journey read back from the two ledgers.
        assert!(
            out.contains("orderRefPresent: false (not-emitted)"),
            "{out}"
        );
        assert!(
            out.contains("ledgers: specialist.sqlite (5 steps), escalation.sqlite (1 step)"),
            "{out}"
        );
    }
}
