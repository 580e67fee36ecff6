//! The ledgers a session view reads, named as a user names them (`sqlite:PATH`, a path
//! ending in `.sqlite` or `.db`, a `postgres://` URL), opened for reading only, and what they
//! hold gathered: one session's steps from each of them, or the sessions of all of them.
//!
//! Each ledger is labelled by its path, or by its URL without a password; a label is what
//! the views show beside each step, and what every message names.

use core::fmt;
use std::error::Error;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use super::SessionView;
#[cfg(feature = "postgres")]
use crate::inbox::PostgresLedger;
#[cfg(feature = "sqlite")]
use crate::inbox::SqliteLedger;
use crate::inbox::{Ledger, SessionFilter, SessionSummary, Step};

/// The schema a PostgreSQL ledger is read from unless told otherwise: `handoff`.
pub const DEFAULT_SCHEMA: &str = "handoff";

/// Where a ledger is.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LedgerAddress {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A schema of a PostgreSQL database.
    Postgres {
        /// The database, as a libpq URL (`postgres://user@host/db`), which may hold a
        /// password: it is never shown.
        url: String,
        /// The schema the ledger's tables are in.
        schema: String,
    },
}

impl LedgerAddress {
    /// The ledger `text` names: `sqlite:PATH`, a path ending in `.sqlite`, `.sqlite3` or
    /// `.db` (an SQLite file), or a `postgres://` or `postgresql://` URL (a PostgreSQL
    /// database, whose ledger is read from the schema `schema`).
    ///
    /// # Errors
    ///
    /// [`GatherError::Address`]: `text` is none of these, or an empty path.
    pub fn parse(text: &str, schema: &str) -> Result<LedgerAddress, GatherError> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(LedgerAddress::Postgres {
                url: text.to_owned(),
                schema: schema.to_owned(),
            });
        }
        let path = match text.strip_prefix("sqlite:") {
            Some(path) => path,
            None if has_sqlite_extension(text) => text,
            None => {
                return Err(GatherError::Address {
                    address: redact(text),
                    why: "names no ledger: write sqlite:PATH, a path ending in .sqlite or .db, \
                          or a postgres:// URL",
                })
            }
        };
        if path.is_empty() {
            return Err(GatherError::Address {
                address: redact(text),
                why: "names no file",
            });
        }
        Ok(LedgerAddress::Sqlite(PathBuf::from(path)))
    }

    /// The ledger's label: an SQLite file's path; a PostgreSQL database's URL without its
    /// password, and the schema (`postgres://app@db/app (schema handoff)`).
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            LedgerAddress::Sqlite(path) => path.display().to_string(),
            LedgerAddress::Postgres { url, schema } => {
                format!("{} (schema {schema})", redact(url))
            }
        }
    }
}

/// The label, never the password.
impl fmt::Debug for LedgerAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("LedgerAddress").field(&self.label()).finish()
    }
}

impl fmt::Display for LedgerAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

fn has_sqlite_extension(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    [".sqlite", ".sqlite3", ".db"]
        .iter()
        .any(|extension| lower.ends_with(extension))
}

/// `text` without a password: the one a URL's user information holds
/// (`postgres://user:secret@host` becomes `postgres://user@host`, read as libpq reads it: up
/// to the first `@`) and any `password` parameter of its query.
fn redact(text: &str) -> String {
    let Some(scheme_end) = text.find("://").map(|i| i + 3) else {
        return text.to_owned();
    };
    let (scheme, rest) = text.split_at(scheme_end);
    let mut out = String::from(scheme);
    let rest = match rest.find('@') {
        Some(at) => {
            let user = &rest[..at];
            out.push_str(user.split(':').next().unwrap_or(""));
            &rest[at..]
        }
        None => rest,
    };
    match rest.split_once('?') {
        None => out.push_str(rest),
        Some((before, query)) => {
            out.push_str(before);
            let kept: Vec<&str> = query
                .split('&')
                .filter(|pair| {
                    let key = pair.split('=').next().unwrap_or("");
                    percent_decoded(key) != b"password"
                })
                .collect();
            if !kept.is_empty() {
                out.push('?');
                out.push_str(&kept.join("&"));
            }
        }
    }
    out
}

/// `text` with its `%XX` escapes decoded, as libpq decodes a parameter's name.
fn percent_decoded(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| core::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

/// One ledger open for reading.
enum Reader {
    #[cfg(feature = "sqlite")]
    Sqlite(SqliteLedger),
    #[cfg(feature = "postgres")]
    Postgres(Box<PostgresLedger>),
}

impl Reader {
    fn open(address: &LedgerAddress) -> Result<Reader, Box<dyn Error + Send + Sync>> {
        match address {
            #[cfg(feature = "sqlite")]
            LedgerAddress::Sqlite(path) => Ok(Reader::Sqlite(SqliteLedger::open_read_only(path)?)),
            #[cfg(not(feature = "sqlite"))]
            LedgerAddress::Sqlite(_) => {
                Err("this build reads no SQLite ledger (feature `sqlite`)".into())
            }
            #[cfg(feature = "postgres")]
            LedgerAddress::Postgres { url, schema } => Ok(Reader::Postgres(Box::new(
                PostgresLedger::connect_read_only(url, schema)?,
            ))),
            #[cfg(not(feature = "postgres"))]
            LedgerAddress::Postgres { .. } => {
                Err("this build reads no PostgreSQL ledger (feature `postgres`)".into())
            }
        }
    }

    fn session(&mut self, session: &str) -> Result<Vec<Step>, Box<dyn Error + Send + Sync>> {
        match self {
            #[cfg(feature = "sqlite")]
            Reader::Sqlite(ledger) => Ok(ledger.session(session)?),
            #[cfg(feature = "postgres")]
            Reader::Postgres(ledger) => Ok(ledger.session(session)?),
        }
    }

    fn sessions(
        &mut self,
        filter: &SessionFilter,
    ) -> Result<Vec<SessionSummary>, Box<dyn Error + Send + Sync>> {
        match self {
            #[cfg(feature = "sqlite")]
            Reader::Sqlite(ledger) => Ok(ledger.sessions(filter)?),
            #[cfg(feature = "postgres")]
            Reader::Postgres(ledger) => Ok(ledger.sessions(filter)?),
        }
    }
}

/// The ledgers of one or more agents, open for reading only (nothing is written to them,
/// nothing migrated), each under its [label](LedgerAddress::label).
///
/// ```
/// use contract_core::inbox::SqliteLedger;
/// use contract_core::session::{GatherError, LedgerAddress, Ledgers, DEFAULT_SCHEMA};
///
/// let dir = std::env::temp_dir().join(format!("gather-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("specialist.sqlite");
/// drop(SqliteLedger::open(&path)?); // the specialist's inbox made it
///
/// let address = LedgerAddress::parse(path.to_str().unwrap(), DEFAULT_SCHEMA)?;
/// let mut ledgers = Ledgers::open([address])?;
/// assert!(ledgers.sessions(&Default::default())?.is_empty());
/// assert!(matches!(ledgers.session("sess-42"), Err(GatherError::NoSession { .. })));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Ledgers {
    readers: Vec<(String, Reader)>,
}

impl fmt::Debug for Ledgers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.labels()).finish()
    }
}

impl Ledgers {
    /// Opens each ledger for reading only, in the order given (an address given twice is
    /// opened once).
    ///
    /// # Errors
    ///
    /// [`GatherError::Open`] for the first ledger that does not open: no file, a file that
    /// is no ledger, a ledger newer than this version reads or one written before the
    /// journey's steps were recorded, a database that refuses the connection, a missing
    /// schema.
    pub fn open(
        addresses: impl IntoIterator<Item = LedgerAddress>,
    ) -> Result<Ledgers, GatherError> {
        let mut opened: Vec<LedgerAddress> = Vec::new();
        let mut readers = Vec::new();
        for address in addresses {
            if opened.contains(&address) {
                continue;
            }
            let label = address.label();
            let reader = Reader::open(&address).map_err(|source| GatherError::Open {
                ledger: label.clone(),
                source,
            })?;
            readers.push((label, reader));
            opened.push(address);
        }
        Ok(Ledgers { readers })
    }

    /// The ledgers' labels, in the order given.
    #[must_use]
    pub fn labels(&self) -> Vec<&str> {
        self.readers
            .iter()
            .map(|(label, _)| label.as_str())
            .collect()
    }

    /// The steps each ledger recorded of `session`, under its label, in its own sequence.
    ///
    /// # Errors
    ///
    /// [`GatherError::Read`]: a ledger failed.
    pub fn steps(&mut self, session: &str) -> Result<Vec<(String, Vec<Step>)>, GatherError> {
        let mut gathered = Vec::with_capacity(self.readers.len());
        for (label, reader) in &mut self.readers {
            let steps = reader
                .session(session)
                .map_err(|source| GatherError::Read {
                    ledger: label.clone(),
                    source,
                })?;
            gathered.push((label.clone(), steps));
        }
        Ok(gathered)
    }

    /// The journey of `session` from every ledger ([`SessionView::from_ledgers`]).
    ///
    /// # Errors
    ///
    /// [`GatherError::NoSession`]: no ledger has a step of it; [`GatherError::Read`]: a
    /// ledger failed.
    pub fn session(&mut self, session: &str) -> Result<SessionView, GatherError> {
        let gathered = self.steps(session)?;
        if gathered.iter().all(|(_, steps)| steps.is_empty()) {
            return Err(GatherError::NoSession {
                session: session.to_owned(),
                ledgers: self.labels().into_iter().map(str::to_owned).collect(),
            });
        }
        Ok(SessionView::from_ledgers(session, gathered))
    }

    /// The sessions `filter` keeps, from every ledger: a session recorded in several is one
    /// summary (its steps and outcomes added up, its last activity the latest, its workflow
    /// the first ledger's that names one), the most recently active first.
    ///
    /// # Errors
    ///
    /// [`GatherError::Read`]: a ledger failed.
    pub fn sessions(&mut self, filter: &SessionFilter) -> Result<Vec<SessionSummary>, GatherError> {
        let mut lists = Vec::with_capacity(self.readers.len());
        for (label, reader) in &mut self.readers {
            // A ledger's first `limit` hold every session of the merged first `limit`: a
            // session's last activity is the latest of its ledgers'.
            lists.push(
                reader
                    .sessions(filter)
                    .map_err(|source| GatherError::Read {
                        ledger: label.clone(),
                        source,
                    })?,
            );
        }
        Ok(merge(lists, filter.limit))
    }
}

/// The summaries of several ledgers, one per session, the most recently active first.
fn merge(lists: Vec<Vec<SessionSummary>>, limit: Option<usize>) -> Vec<SessionSummary> {
    let mut merged: std::collections::BTreeMap<String, SessionSummary> = Default::default();
    for summary in lists.into_iter().flatten() {
        match merged.get_mut(&summary.session) {
            None => {
                merged.insert(summary.session.clone(), summary);
            }
            Some(seen) => {
                if seen.workflow.is_none() {
                    seen.workflow = summary.workflow;
                }
                seen.steps += summary.steps;
                for (outcome, count) in summary.outcomes {
                    *seen.outcomes.entry(outcome).or_default() += count;
                }
                seen.last_activity = seen.last_activity.max(summary.last_activity);
            }
        }
    }
    let mut list: Vec<SessionSummary> = merged.into_values().collect();
    list.sort_by(|a, b| {
        b.last_activity
            .cmp(&a.last_activity)
            .then_with(|| a.session.cmp(&b.session))
    });
    if let Some(limit) = limit {
        list.truncate(limit);
    }
    list
}

/// What gathering from ledgers fails with. Its message names the ledger by its label (never
/// a password) and never holds a value of a payload.
#[derive(Debug)]
#[non_exhaustive]
pub enum GatherError {
    /// A ledger's address names no ledger.
    Address {
        /// The address as given, without a password.
        address: String,
        /// Why it names none.
        why: &'static str,
    },
    /// A ledger does not open.
    Open {
        /// The ledger's label.
        ledger: String,
        /// Why.
        source: Box<dyn Error + Send + Sync>,
    },
    /// A ledger failed while it was read.
    Read {
        /// The ledger's label.
        ledger: String,
        /// Why.
        source: Box<dyn Error + Send + Sync>,
    },
    /// No ledger has a step of the session.
    NoSession {
        /// The session asked for.
        session: String,
        /// The labels of the ledgers read.
        ledgers: Vec<String>,
    },
}

impl fmt::Display for GatherError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let clean = super::text::clean;
        match self {
            GatherError::Address { address, why } => {
                write!(f, "ledger {}: {why}", clean(address))
            }
            GatherError::Open { ledger, source } => {
                write!(f, "ledger {} does not open: {source}", clean(ledger))
            }
            GatherError::Read { ledger, source } => {
                write!(f, "ledger {} failed while read: {source}", clean(ledger))
            }
            GatherError::NoSession { session, ledgers } => {
                let ledgers: Vec<_> = ledgers.iter().map(|l| clean(l)).collect();
                write!(f, "no session {} in {}", clean(session), ledgers.join(", "))
            }
        }
    }
}

impl Error for GatherError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            GatherError::Open { source, .. } | GatherError::Read { source, .. } => {
                Some(source.as_ref())
            }
            _ => None,
        }
    }
}

/// The time `text` names, for a filter of sessions active since then: an RFC 3339 time
/// (`2026-01-01T12:00:00Z`, `2026-01-01T14:00:00+02:00`, a fraction of a second allowed), or
/// a duration before `now`: whole numbers each with its unit, `s`, `m`, `h`, `d` or `w`
/// (`30m`, `2h`, `7d`, `1h30m`). `None` for anything else.
#[must_use]
pub fn parse_since(text: &str, now: SystemTime) -> Option<SystemTime> {
    if let Some(duration) = parse_duration(text) {
        return now.checked_sub(duration);
    }
    parse_rfc3339(text)
}

/// `30m`, `2h`, `1h30m`: whole numbers, each with its unit.
fn parse_duration(text: &str) -> Option<Duration> {
    if text.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit: u64 = match c {
            's' => 1,
            'm' => 60,
            'h' => 3_600,
            'd' => 86_400,
            'w' => 604_800,
            _ => return None,
        };
        if digits.is_empty() {
            return None;
        }
        let n: u64 = digits.parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
        digits.clear();
    }
    if !digits.is_empty() {
        return None;
    }
    Some(Duration::from_secs(total))
}

/// An RFC 3339 time, in UTC (`Z`) or at an offset (`+02:00`).
fn parse_rfc3339(text: &str) -> Option<SystemTime> {
    if let Some(utc) = crate::inbox::time::parse(text) {
        return Some(utc);
    }
    let split = text.len().checked_sub(6)?;
    if !text.is_char_boundary(split) {
        return None;
    }
    let (local, offset) = text.split_at(split);
    let bytes = offset.as_bytes();
    let sign = match bytes[0] {
        b'+' => 1i64,
        b'-' => -1,
        _ => return None,
    };
    if bytes[3] != b':' || ![1, 2, 4, 5].iter().all(|&i| bytes[i].is_ascii_digit()) {
        return None;
    }
    let two = |i: usize| i64::from(bytes[i] - b'0') * 10 + i64::from(bytes[i + 1] - b'0');
    let (hours, minutes) = (two(1), two(4));
    if hours > 23 || minutes > 59 {
        return None;
    }
    let at = crate::inbox::time::parse(&format!("{local}Z"))?;
    // The local time is `offset` ahead of UTC.
    let shift = Duration::from_secs(u64::try_from(hours * 3_600 + minutes * 60).ok()?);
    if sign > 0 {
        at.checked_sub(shift)
    } else {
        at.checked_add(shift)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::UNIX_EPOCH;

    #[test]
    fn addresses_name_sqlite_files_and_postgres_databases() {
        assert_eq!(
            LedgerAddress::parse("sqlite:ledger", "handoff").unwrap(),
            LedgerAddress::Sqlite("ledger".into())
        );
        for path in ["a/b.sqlite", "c.DB", "d.sqlite3"] {
            assert_eq!(
                LedgerAddress::parse(path, "handoff").unwrap(),
                LedgerAddress::Sqlite(path.into())
            );
        }
        let pg = LedgerAddress::parse("postgresql://app:s3cret@db/app", "journeys").unwrap();
        assert_eq!(pg.label(), "postgresql://app@db/app (schema journeys)");
        assert!(!format!("{pg:?}").contains("s3cret"));
        for bad in ["ledger.txt", "sqlite:", "mysql://root:s3cret@db/x", ""] {
            let error = LedgerAddress::parse(bad, "handoff")
                .unwrap_err()
                .to_string();
            assert!(!error.contains("s3cret"), "{error}");
            assert!(error.starts_with("ledger "), "{error}");
        }
    }

    #[test]
    fn passwords_are_redacted_as_libpq_reads_them() {
        for (url, shown) in [
            ("postgres://u:p@h/db", "postgres://u@h/db"),
            ("postgres://u:p/w@x@h/db", "postgres://u@x@h/db"),
            (
                "postgres://h/db?user=u&password=p&sslmode=off",
                "postgres://h/db?user=u&sslmode=off",
            ),
            ("postgres://h/db?password=p", "postgres://h/db"),
            ("postgres://h/db?pass%77ord=p&x=1", "postgres://h/db?x=1"),
            ("postgres:///db?host=/tmp/pg", "postgres:///db?host=/tmp/pg"),
            ("postgres://u@h", "postgres://u@h"),
        ] {
            assert_eq!(redact(url), shown, "{url}");
        }
    }

    #[test]
    fn since_reads_durations_and_rfc3339() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000_000);
        let ago = |s: u64| Some(now - Duration::from_secs(s));
        assert_eq!(parse_since("30m", now), ago(1_800));
        assert_eq!(parse_since("2h", now), ago(7_200));
        assert_eq!(parse_since("7d", now), ago(604_800));
        assert_eq!(parse_since("1h30m", now), ago(5_400));
        assert_eq!(parse_since("45s", now), ago(45));
        assert_eq!(
            parse_since("1970-01-02T00:00:00Z", now),
            Some(UNIX_EPOCH + Duration::from_secs(86_400))
        );
        assert_eq!(
            parse_since("1970-01-02T02:00:00+02:00", now),
            Some(UNIX_EPOCH + Duration::from_secs(86_400))
        );
        assert_eq!(
            parse_since("1970-01-01T23:30:00-00:30", now),
            Some(UNIX_EPOCH + Duration::from_secs(86_400))
        );
        for bad in [
            "",
            "h",
            "2",
            "2x",
            "-2h",
            "2h-",
            "1970-01-02",
            "yesterday",
            "é",
            "1970-01-02T00:00:00+2:00",
        ] {
            assert_eq!(parse_since(bad, now), None, "{bad}");
        }
        // Too far back: none, never a panic.
        assert_eq!(parse_since("99999999999999w", now), None);
    }
}
