//! [`SqliteLedger`] (feature `sqlite`): a ledger in an SQLite file, the handler's effects in
//! the same file and the same transaction (`rusqlite::Transaction`).

use core::fmt;
use std::path::Path;
use std::time::{Duration, SystemTime};

use rusqlite::{
    params, Connection, OpenFlags, OptionalExtension, Row, Transaction, TransactionBehavior,
};

use crate::envelope::Digest;
use crate::inbox::journal::{PendingCounts, SessionFilter, SessionSummary, Step, StepColumns};
use crate::inbox::ledger::{
    Claim, Claimed, ContextState, Entry, Ledger, MigrationError, Migrations, Record, Settle,
};
use crate::inbox::time::{from_micros, to_micros};

/// The version of the ledger's tables this version of the crate writes (SQLite's
/// `user_version`). A database of a higher version is refused, never written.
pub const SQLITE_SCHEMA_VERSION: i64 = 2;

/// How long a write waits for another connection's transaction before it fails, by default.
pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The migrations, the `n`th taking a database of version `n` to `n + 1`: 1, the entries
/// and the artifacts' versions; 2, the journey's steps.
const MIGRATIONS: [&str; 2] = [
    "
    CREATE TABLE IF NOT EXISTS handoff_ledger (
        seq INTEGER PRIMARY KEY,
        context_id TEXT NOT NULL,
        handoff_id TEXT NOT NULL,
        digest BLOB NOT NULL,
        owner TEXT NOT NULL,
        accepted_at INTEGER NOT NULL,
        receipt BLOB,
        envelope BLOB NOT NULL,
        UNIQUE (context_id, handoff_id)
    );
    CREATE INDEX IF NOT EXISTS handoff_ledger_context ON handoff_ledger (context_id);
    CREATE TABLE IF NOT EXISTS handoff_artifact (
        context_id TEXT NOT NULL,
        uri TEXT NOT NULL,
        version INTEGER NOT NULL,
        PRIMARY KEY (context_id, uri)
    ) WITHOUT ROWID;
",
    "
    CREATE TABLE IF NOT EXISTS handoff_step (
        seq INTEGER PRIMARY KEY,
        step_key TEXT NOT NULL UNIQUE,
        session TEXT,
        workflow TEXT,
        outcome TEXT NOT NULL,
        step TEXT NOT NULL,
        count INTEGER NOT NULL,
        first_seen INTEGER NOT NULL,
        last_seen INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS handoff_step_touched ON handoff_step (last_seen) WHERE count > 1;
",
];

/// A ledger in an SQLite file (feature `sqlite`, SQLite built in through rusqlite's
/// `bundled`).
///
/// Opening sets what durable, concurrent acceptance needs: `journal_mode=WAL` (readers do
/// not block the writer), `synchronous=FULL` (a commit that returned survives a power
/// loss), a `busy_timeout` (a second connection waits for the first's transaction instead
/// of failing; [`DEFAULT_BUSY_TIMEOUT`]), and migrates the tables (`handoff_ledger`,
/// `handoff_artifact`, `handoff_step`: the journey's steps) to [`SQLITE_SCHEMA_VERSION`]
/// under `user_version`, one version after another, refusing a newer database. Each acceptance is one `BEGIN IMMEDIATE` transaction: the handler gets it as a
/// `rusqlite::Transaction` and writes its effects through it, so that they commit with the
/// ledger's entry, or not at all.
///
/// One ledger is one connection: threads each open their own on the same file.
///
/// A redelivery of a step already recorded is counted in memory and written with others
/// once the first of them waited a second or 64 steps have counts waiting (looked at on each
/// redelivery), and before this ledger reads or prunes its steps, records another step or
/// is dropped: a duplicate is answered without a write. A process that dies loses the counts
/// waiting, never an acceptance or a step; another connection reading the file sees them
/// once they are written.
///
/// ```
/// use contract_core::inbox::{Inbox, SqliteLedger};
///
/// let dir = std::env::temp_dir().join(format!("ledger-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let ledger = SqliteLedger::open(dir.join("inbox.db"))?;
/// let inbox = Inbox::new(ledger);
/// assert!(inbox.last_accepted("ctx-1")?.is_none());
/// # drop(inbox);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SqliteLedger {
    connection: Connection,
    /// Opened by [`open_read_only`](SqliteLedger::open_read_only): no acceptance begins.
    read_only: bool,
    /// Redeliveries counted and not yet written.
    pending: PendingCounts,
}

impl SqliteLedger {
    /// Opens (or creates) the ledger in the SQLite file at `path`.
    ///
    /// # Errors
    ///
    /// When SQLite cannot open the file or set it up, or the file holds a ledger newer
    /// than this version reads ([`SqliteError::NewerDatabase`]).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, SqliteError> {
        SqliteLedger::from_connection(Connection::open(path)?)
    }

    /// The ledger on a connection already open: it is set up as [`open`](Self::open) sets
    /// up its own (an in-memory database works, without WAL).
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open).
    pub fn from_connection(connection: Connection) -> Result<Self, SqliteError> {
        SqliteLedger::from_connection_with_migrations(connection, &Migrations::default())
    }

    /// Opens (or creates) the ledger in the SQLite file at `path`, as [`open`](Self::open)
    /// does, and runs the application's own `migrations` (its handler's tables) in the
    /// transaction that migrates the ledger's tables: each step not applied yet, in order,
    /// recorded in `handoff_app_migration`, so that a reopen applies only what is new.
    ///
    /// ```
    /// use contract_core::inbox::{Inbox, Migrations, SqliteLedger};
    ///
    /// const REFUNDS: Migrations<'static> = Migrations::new(&[
    ///     "CREATE TABLE refunds (order_ref TEXT PRIMARY KEY, amount_cents INTEGER NOT NULL)",
    ///     "ALTER TABLE refunds ADD COLUMN reason TEXT",
    /// ]);
    ///
    /// let dir = std::env::temp_dir().join(format!("ledger-migrations-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("inbox.db");
    /// let ledger = SqliteLedger::open_with_migrations(&path, &REFUNDS)?;
    /// drop(ledger);
    /// // Reopened: nothing is applied twice.
    /// let ledger = SqliteLedger::open_with_migrations(&path, &REFUNDS)?;
    /// let columns: i64 = ledger.connection().query_row(
    ///     "SELECT COUNT(*) FROM pragma_table_info('refunds')", [], |row| row.get(0))?;
    /// assert_eq!(columns, 3);
    /// # drop(ledger);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); a step that fails; a step applied before with another text,
    /// or more steps applied than `migrations` has ([`SqliteError::Migration`]): nothing is
    /// written then.
    pub fn open_with_migrations(
        path: impl AsRef<Path>,
        migrations: &Migrations<'_>,
    ) -> Result<Self, SqliteError> {
        SqliteLedger::from_connection_with_migrations(Connection::open(path)?, migrations)
    }

    /// The ledger on a connection already open, as [`from_connection`](Self::from_connection)
    /// sets it up, with the application's `migrations` run as
    /// [`open_with_migrations`](Self::open_with_migrations) runs them.
    ///
    /// ```
    /// use contract_core::inbox::rusqlite::Connection;
    /// use contract_core::inbox::{Migrations, SqliteLedger};
    ///
    /// let steps = Migrations::new(&["CREATE TABLE refunds (order_ref TEXT PRIMARY KEY)"]);
    /// let ledger = SqliteLedger::from_connection_with_migrations(Connection::open_in_memory()?, &steps)?;
    /// ledger.connection().execute("INSERT INTO refunds (order_ref) VALUES ('A-1')", [])?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`open_with_migrations`](Self::open_with_migrations).
    pub fn from_connection_with_migrations(
        connection: Connection,
        migrations: &Migrations<'_>,
    ) -> Result<Self, SqliteError> {
        connection.busy_timeout(DEFAULT_BUSY_TIMEOUT)?;
        // The answer is the mode set: `memory` for an in-memory database, which has no WAL.
        let _mode: String =
            connection.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))?;
        connection.pragma_update(None, "synchronous", "FULL")?;
        migrate(&connection, migrations)?;
        Ok(SqliteLedger {
            connection,
            read_only: false,
            pending: PendingCounts::default(),
        })
    }

    /// With another `busy_timeout`: how long a write waits for another connection's
    /// transaction before it fails.
    ///
    /// # Errors
    ///
    /// When SQLite refuses it.
    pub fn busy_timeout(self, timeout: Duration) -> Result<Self, SqliteError> {
        self.connection.busy_timeout(timeout)?;
        Ok(self)
    }

    /// The connection, for the application's own tables and reads.
    #[must_use]
    pub fn connection(&self) -> &Connection {
        &self.connection
    }

    /// The connection, mutably (for a transaction of the application's own).
    #[must_use]
    pub fn connection_mut(&mut self) -> &mut Connection {
        &mut self.connection
    }

    /// Opens the ledger in the SQLite file at `path` for reading only, for a reader that
    /// must write nothing (a session's journey, a list of sessions): the file is opened
    /// read-only, no setting is written to it and nothing is migrated, so that every write
    /// through this ledger fails. The ledger's own writer may go on writing meanwhile. A
    /// ledger is a WAL database: when no connection has it open, reading it creates its
    /// empty `-wal` and `-shm` companions, as SQLite does for any reader of such a database
    /// (never for a file refused).
    ///
    /// # Errors
    ///
    /// No file at `path` ([`SqliteError::NoFile`]); a file SQLite cannot open; a file that
    /// holds no ledger ([`SqliteError::NotALedger`]); a ledger newer than this version reads
    /// ([`SqliteError::NewerDatabase`]); a ledger of schema version 1, written before the
    /// journey's steps were recorded ([`SqliteError::NoJourney`]: [`open`](Self::open)
    /// migrates it, and steps are recorded from then on).
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Self, SqliteError> {
        let path = path.as_ref();
        if !path.is_file() {
            return Err(SqliteError::NoFile);
        }
        check_header(path)?;
        let connection = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        // A setting of the connection, not of the file: a read waits for a writer's
        // checkpoint instead of failing.
        connection.busy_timeout(DEFAULT_BUSY_TIMEOUT)?;
        check_readable(&connection).map_err(|error| match error {
            SqliteError::Sqlite(rusqlite::Error::SqliteFailure(failure, _))
                if failure.code == rusqlite::ErrorCode::NotADatabase =>
            {
                SqliteError::NotALedger
            }
            other => other,
        })?;
        Ok(SqliteLedger {
            connection,
            read_only: true,
            pending: PendingCounts::default(),
        })
    }
}

/// What the file's header says, read before SQLite opens the file. With no write-ahead log
/// beside it, the header is the database's last committed state: a file that is no SQLite
/// database, or a WAL database of another version, is refused here, before SQLite would
/// create the log's companion files (`-wal`, `-shm`) as any reader of a WAL database does.
/// Otherwise [`check_readable`] decides, once SQLite has the file.
fn check_header(path: &Path) -> Result<(), SqliteError> {
    use std::io::Read as _;

    let Ok(file) = std::fs::File::open(path) else {
        // Whatever keeps it from opening, SQLite says it.
        return Ok(());
    };
    let mut header = Vec::with_capacity(100);
    if file.take(100).read_to_end(&mut header).is_err() {
        return Ok(());
    }
    if header.len() < 100 || !header.starts_with(b"SQLite format 3\0") {
        return Err(SqliteError::NotALedger);
    }
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    if Path::new(&wal).exists() {
        return Ok(());
    }
    let found = i64::from(i32::from_be_bytes([
        header[60], header[61], header[62], header[63],
    ]));
    // Bytes 18 and 19: the versions that read and write the file, 2 for WAL.
    let wal_mode = header[18] == 2;
    match found {
        _ if found > SQLITE_SCHEMA_VERSION => Err(SqliteError::NewerDatabase {
            found,
            known: SQLITE_SCHEMA_VERSION,
        }),
        SQLITE_SCHEMA_VERSION => Ok(()),
        1 if wal_mode => Err(SqliteError::NoJourney),
        _ if wal_mode => Err(SqliteError::NotALedger),
        // A rollback-journal database: SQLite reads it without creating anything.
        _ => Ok(()),
    }
}

/// Whether the database on `connection` is a ledger of today's version, read without
/// writing: its `user_version` and its tables.
fn check_readable(connection: &Connection) -> Result<(), SqliteError> {
    let found: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if found > SQLITE_SCHEMA_VERSION {
        return Err(SqliteError::NewerDatabase {
            found,
            known: SQLITE_SCHEMA_VERSION,
        });
    }
    let table = |name: &str| -> Result<bool, SqliteError> {
        Ok(connection.query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1)",
            [name],
            |row| row.get(0),
        )?)
    };
    match (found, table("handoff_ledger")?, table("handoff_step")?) {
        (SQLITE_SCHEMA_VERSION, true, true) => Ok(()),
        (1, true, false) => Err(SqliteError::NoJourney),
        _ => Err(SqliteError::NotALedger),
    }
}

/// Takes the database to [`SQLITE_SCHEMA_VERSION`], and the application's tables to the
/// version of `app`, in one immediate transaction so that two processes opening a new file
/// do not both create it.
fn migrate(connection: &Connection, app: &Migrations<'_>) -> Result<(), SqliteError> {
    let tx = Transaction::new_unchecked(connection, TransactionBehavior::Immediate)?;
    let found: i64 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if found > SQLITE_SCHEMA_VERSION {
        return Err(SqliteError::NewerDatabase {
            found,
            known: SQLITE_SCHEMA_VERSION,
        });
    }
    for (from, migration) in MIGRATIONS.iter().enumerate() {
        if found <= from as i64 {
            tx.execute_batch(migration)?;
        }
    }
    if found < SQLITE_SCHEMA_VERSION {
        tx.pragma_update(None, "user_version", SQLITE_SCHEMA_VERSION)?;
    }
    migrate_app(&tx, app)?;
    tx.commit()?;
    Ok(())
}

/// Applies the application's steps not applied yet, recording each in
/// `handoff_app_migration` (its version, the SHA-256 of its text, when). Without steps,
/// nothing is read or created.
fn migrate_app(tx: &Transaction<'_>, app: &Migrations<'_>) -> Result<(), SqliteError> {
    if app.version() == 0 {
        return Ok(());
    }
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS handoff_app_migration (
            version INTEGER PRIMARY KEY,
            digest BLOB NOT NULL,
            applied_at INTEGER NOT NULL
        )",
    )?;
    let mut applied = Vec::new();
    {
        let mut statement = tx.prepare("SELECT version, digest FROM handoff_app_migration")?;
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            let version: i64 = row.get(0)?;
            let digest: Vec<u8> = row.get(1)?;
            let Ok(digest) = <[u8; 32]>::try_from(digest.as_slice()) else {
                return Err(SqliteError::CorruptDigest);
            };
            applied.push((
                u64::try_from(version).unwrap_or(u64::MAX),
                Digest::from_bytes(digest),
            ));
        }
    }
    let first = MigrationError::check(app, &applied)?;
    let now = to_micros(SystemTime::now());
    for (index, step) in app.steps().iter().enumerate().skip(first - 1) {
        tx.execute_batch(step)?;
        let digest = Digest::of_bytes(step.as_bytes());
        tx.execute(
            "INSERT INTO handoff_app_migration (version, digest, applied_at) VALUES (?1, ?2, ?3)",
            params![
                i64::try_from(index + 1).unwrap_or(i64::MAX),
                &digest.as_bytes()[..],
                now
            ],
        )?;
    }
    Ok(())
}

/// What a [`SqliteLedger`] fails with.
#[derive(Debug)]
#[non_exhaustive]
pub enum SqliteError {
    /// SQLite failed.
    Sqlite(rusqlite::Error),
    /// The database was written by a newer version of this crate: its `user_version` is
    /// above the one this version knows.
    NewerDatabase {
        /// The database's version.
        found: i64,
        /// The highest version this crate reads ([`SQLITE_SCHEMA_VERSION`]).
        known: i64,
    },
    /// A stored digest is not 32 bytes.
    CorruptDigest,
    /// A stored step of a journey does not read back.
    CorruptStep,
    /// A read-only opening found no file at the path given.
    NoFile,
    /// A read-only opening found a file that holds no ledger (no `handoff_ledger` and
    /// `handoff_step` tables of this version).
    NotALedger,
    /// A read-only opening found a ledger of schema version 1, written before the journey's
    /// steps were recorded: it has no journey to read. Opening it read-write
    /// ([`SqliteLedger::open`]) migrates it, and steps are recorded from then on.
    NoJourney,
    /// An acceptance on a ledger opened read-only
    /// ([`SqliteLedger::open_read_only`]): refused before its handler runs.
    ReadOnly,
    /// The application's migrations were refused ([`SqliteLedger::open_with_migrations`]):
    /// nothing was written.
    Migration(MigrationError),
}

impl From<rusqlite::Error> for SqliteError {
    fn from(error: rusqlite::Error) -> Self {
        SqliteError::Sqlite(error)
    }
}

impl From<MigrationError> for SqliteError {
    fn from(error: MigrationError) -> Self {
        SqliteError::Migration(error)
    }
}

impl SqliteError {
    /// Whether a retry may succeed: SQLite was busy or the database locked by another
    /// connection past the `busy_timeout` (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    ///
    /// ```
    /// use contract_core::inbox::SqliteError;
    ///
    /// assert!(!SqliteError::ReadOnly.is_transient());
    /// ```
    #[must_use]
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            SqliteError::Sqlite(rusqlite::Error::SqliteFailure(failure, _))
                if matches!(
                    failure.code,
                    rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
                )
        )
    }
}

impl fmt::Display for SqliteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SqliteError::Sqlite(error) => write!(f, "SQLite: {error}"),
            SqliteError::NewerDatabase { found, known } => write!(
                f,
                "the ledger's database is of version {found}, newer than this version \
                 reads ({known}): refused, not written"
            ),
            SqliteError::CorruptDigest => f.write_str("a stored digest is not 32 bytes"),
            SqliteError::CorruptStep => f.write_str("a stored step of a journey does not read"),
            SqliteError::NoFile => f.write_str("no such file"),
            SqliteError::NotALedger => {
                f.write_str("not a handoff ledger (no handoff_ledger and handoff_step tables)")
            }
            SqliteError::NoJourney => f.write_str(
                "a ledger of schema version 1, written before journey steps were recorded: it \
                 has no journey to show; opening it read-write (as an inbox does) migrates it",
            ),
            SqliteError::ReadOnly => {
                f.write_str("the ledger was opened read-only: it accepts nothing")
            }
            SqliteError::Migration(error) => fmt::Display::fmt(error, f),
        }
    }
}

impl std::error::Error for SqliteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SqliteError::Sqlite(error) => Some(error),
            _ => None,
        }
    }
}

/// The entry of a key (the columns [`entry_of`] reads).
const SELECT_ENTRY: &str =
    "SELECT seq, context_id, handoff_id, digest, owner, accepted_at, receipt, envelope \
     FROM handoff_ledger WHERE context_id = ?1 AND handoff_id = ?2";

/// The last entry of a context.
const SELECT_LAST: &str =
    "SELECT seq, context_id, handoff_id, digest, owner, accepted_at, receipt, envelope \
     FROM handoff_ledger WHERE context_id = ?1 ORDER BY seq DESC LIMIT 1";

/// An entry from a row of [`SELECT_ENTRY`] or [`SELECT_LAST`].
fn entry_of(row: &Row<'_>) -> rusqlite::Result<Result<Entry, SqliteError>> {
    let digest: Vec<u8> = row.get(3)?;
    let Ok(digest) = <[u8; 32]>::try_from(digest.as_slice()) else {
        return Ok(Err(SqliteError::CorruptDigest));
    };
    Ok(Ok(Entry {
        seq: seq_of_sql(row.get(0)?)?,
        context_id: row.get(1)?,
        handoff_id: row.get(2)?,
        digest: Digest::from_bytes(digest),
        owner: row.get(4)?,
        accepted_at: from_micros(row.get(5)?),
        receipt: row.get::<_, Option<Vec<u8>>>(6)?.unwrap_or_default(),
        envelope: row.get(7)?,
    }))
}

/// The one entry a query finds, if any.
fn one_entry(
    connection: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Option<Entry>, SqliteError> {
    let mut statement = connection.prepare_cached(sql)?;
    statement
        .query_row(params, entry_of)
        .optional()?
        .transpose()
}

/// A sequence number: SQLite's rowid, from 1 up.
fn seq_of_sql(seq: i64) -> rusqlite::Result<u64> {
    u64::try_from(seq).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(0, seq))
}

fn seq_to_sql(seq: u64) -> rusqlite::Result<i64> {
    i64::try_from(seq).map_err(|_| rusqlite::Error::ToSqlConversionFailure("seq beyond i64".into()))
}

/// Artifact versions are `u64`; SQLite's integers are `i64`. They are stored bit for bit
/// (a version past `i64::MAX` reads back negative in SQL, and exactly here): the inbox
/// compares them, never SQL.
fn version_to_sql(version: u64) -> i64 {
    i64::from_ne_bytes(version.to_ne_bytes())
}

fn version_of_sql(stored: i64) -> u64 {
    u64::from_ne_bytes(stored.to_ne_bytes())
}

impl SqliteLedger {
    /// Runs `write`, one statement outside any acceptance (a refusal's step, a redelivery's
    /// count), without a wait for the disk: under WAL, `synchronous=NORMAL` commits it
    /// without an fsync. A power loss may lose the last such writes, never an acceptance,
    /// whose step commits with it under `FULL`.
    fn unsynced<T>(
        &self,
        write: impl FnOnce(&Connection) -> Result<T, SqliteError>,
    ) -> Result<T, SqliteError> {
        self.connection
            .pragma_update(None, "synchronous", "NORMAL")?;
        let written = write(&self.connection);
        self.connection.pragma_update(None, "synchronous", "FULL")?;
        written
    }

    /// Writes the redeliveries counted in memory, in one transaction without a wait for the
    /// disk ([`unsynced`](Self::unsynced)). When it fails, they stay counted for the next
    /// attempt.
    fn flush_pending(&mut self) -> Result<(), SqliteError> {
        let counts = self.pending.take();
        if counts.is_empty() {
            return Ok(());
        }
        let written = self.unsynced(|connection| {
            let tx = Transaction::new_unchecked(connection, TransactionBehavior::Immediate)?;
            {
                let mut update = tx.prepare_cached(
                    "UPDATE handoff_step SET count = count + ?2, \
                     last_seen = max(last_seen, ?3) WHERE step_key = ?1",
                )?;
                for (key, more, last_seen) in &counts {
                    update.execute(params![key, more, last_seen])?;
                }
            }
            Ok(tx.commit()?)
        });
        if written.is_err() {
            self.pending.restore(counts);
        }
        written
    }
}

impl Drop for SqliteLedger {
    fn drop(&mut self) {
        // Nothing to answer to: a count that cannot be written now is lost with the process.
        let _ = self.flush_pending();
    }
}

/// Records a step (one statement: on a transaction, in it; on the connection, alone).
///
/// A new step's `first_seen` is never earlier than the step before it in the ledger's
/// sequence (the clock read before the write lock was taken, clamped), so that the steps
/// seen since a time are a suffix of the sequence, found without an index of their times:
/// the acceptance's path maintains no such index. Steps seen again (`count` above 1) are in
/// a partial index of their `last_seen`.
fn note_step(connection: &Connection, step: &Step) -> Result<(), SqliteError> {
    let body = step.stored_body().map_err(|_| SqliteError::CorruptStep)?;
    connection
        .prepare_cached(
            "INSERT INTO handoff_step \
             (step_key, session, workflow, outcome, step, count, first_seen, last_seen) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, \
             coalesce((SELECT max(?7, first_seen) FROM handoff_step ORDER BY seq DESC LIMIT 1), ?7), \
             coalesce((SELECT max(?8, first_seen) FROM handoff_step ORDER BY seq DESC LIMIT 1), ?8)) \
             ON CONFLICT (step_key) DO UPDATE SET count = count + excluded.count, \
             last_seen = max(last_seen, excluded.last_seen)",
        )?
        .execute(params![
            step.key(),
            step.session,
            step.workflow,
            step.outcome.as_str(),
            body,
            i64::try_from(step.count.max(1)).unwrap_or(i64::MAX),
            to_micros(step.first_seen),
            to_micros(step.last_seen),
        ])?;
    Ok(())
}

/// The first sequence number from which every step was first seen at or after `since`
/// (micros): a binary search over the sequence, each probe one lookup of the rowid.
fn first_seq_since(connection: &Connection, since: i64) -> Result<i64, SqliteError> {
    let mut probe = connection.prepare_cached(
        "SELECT seq, first_seen FROM handoff_step WHERE seq >= ?1 ORDER BY seq LIMIT 1",
    )?;
    let last: Option<i64> = connection
        .prepare_cached("SELECT MAX(seq) FROM handoff_step")?
        .query_row([], |row| row.get(0))?;
    let (mut lo, mut hi) = (0_i64, last.map_or(0, |l| l.saturating_add(1)));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let found: Option<(i64, i64)> = probe
            .query_row(params![mid], |row| Ok((row.get(0)?, row.get(1)?)))
            .optional()?;
        match found {
            Some((seq, first_seen)) if first_seen < since => lo = seq.saturating_add(1),
            _ => hi = mid,
        }
    }
    Ok(lo)
}

/// A step from a row of [`SELECT_STEP`]'s columns.
fn step_of(row: &Row<'_>) -> rusqlite::Result<Result<Step, SqliteError>> {
    let body: String = row.get(1)?;
    let outcome: String = row.get(7)?;
    let columns = StepColumns {
        seq: seq_of_sql(row.get(0)?)?,
        session: row.get(5)?,
        workflow: row.get(6)?,
        outcome: &outcome,
        count: u64::try_from(row.get::<_, i64>(2)?).unwrap_or(0),
        first_seen: from_micros(row.get(3)?),
        last_seen: from_micros(row.get(4)?),
    };
    Ok(Step::from_stored(&body, columns).ok_or(SqliteError::CorruptStep))
}

/// The columns of a step [`step_of`] reads, from `handoff_step`.
const SELECT_STEP: &str =
    "SELECT seq, step, count, first_seen, last_seen, session, workflow, outcome FROM handoff_step";

/// The context's artifact versions an acceptance keeps (one upsert each), for `record` and
/// `settle`.
fn keep_artifacts(
    tx: &Transaction<'_>,
    context_id: &str,
    artifacts: &[(&str, u64)],
) -> Result<(), SqliteError> {
    if artifacts.is_empty() {
        return Ok(());
    }
    let mut statement = tx.prepare_cached(
        "INSERT INTO handoff_artifact (context_id, uri, version) VALUES (?1, ?2, ?3) \
         ON CONFLICT (context_id, uri) DO UPDATE SET version = excluded.version",
    )?;
    for (uri, version) in artifacts {
        statement.execute(params![context_id, uri, version_to_sql(*version)])?;
    }
    Ok(())
}

/// Inserts a key's entry (with its receipt when the handler already ran): its new sequence
/// number, or the entry another connection committed since `entry` read (`BEGIN IMMEDIATE`
/// serialized the two, so the row read here is committed and whole).
fn insert_entry(
    tx: &Transaction<'_>,
    claim: &Claim<'_>,
    receipt: Option<&[u8]>,
) -> Result<Claimed, SqliteError> {
    let seq: Option<i64> = tx
        .prepare_cached(
            "INSERT INTO handoff_ledger \
             (context_id, handoff_id, digest, owner, accepted_at, receipt, envelope) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (context_id, handoff_id) DO NOTHING RETURNING seq",
        )?
        .query_row(
            params![
                claim.context_id,
                claim.handoff_id,
                &claim.digest.as_bytes()[..],
                claim.owner,
                to_micros(claim.accepted_at),
                receipt,
                claim.envelope,
            ],
            |row| row.get(0),
        )
        .optional()?;
    if let Some(seq) = seq {
        return Ok(Claimed::New {
            seq: seq_of_sql(seq)?,
        });
    }
    match one_entry(
        tx,
        SELECT_ENTRY,
        params![claim.context_id, claim.handoff_id],
    )? {
        Some(entry) => Ok(Claimed::Taken(entry)),
        None => Err(SqliteError::Sqlite(rusqlite::Error::QueryReturnedNoRows)),
    }
}

impl Ledger for SqliteLedger {
    type Tx<'t> = Transaction<'t>;
    type Statements = ();
    type Error = SqliteError;

    fn is_transient(error: &SqliteError) -> bool {
        error.is_transient()
    }

    fn entry(&mut self, context_id: &str, handoff_id: &str) -> Result<Option<Entry>, SqliteError> {
        one_entry(
            &self.connection,
            SELECT_ENTRY,
            params![context_id, handoff_id],
        )
    }

    fn begin(&mut self) -> Result<(Transaction<'_>, &()), SqliteError> {
        if self.read_only {
            return Err(SqliteError::ReadOnly);
        }
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        Ok((tx, &()))
    }

    fn context(
        _: &(),
        tx: &mut Transaction<'_>,
        context_id: &str,
        uris: &[&str],
    ) -> Result<ContextState, SqliteError> {
        let owner = tx
            .prepare_cached(
                "SELECT owner FROM handoff_ledger WHERE context_id = ?1 \
                 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row(params![context_id], |row| row.get(0))
            .optional()?;
        let mut versions = Vec::with_capacity(uris.len());
        if !uris.is_empty() {
            let mut statement = tx.prepare_cached(
                "SELECT version FROM handoff_artifact WHERE context_id = ?1 AND uri = ?2",
            )?;
            for uri in uris {
                let stored: Option<i64> = statement
                    .query_row(params![context_id, uri], |row| row.get(0))
                    .optional()?;
                versions.push(stored.map(version_of_sql));
            }
        }
        Ok(ContextState { owner, versions })
    }

    fn claim(_: &(), tx: &mut Transaction<'_>, claim: &Claim<'_>) -> Result<Claimed, SqliteError> {
        insert_entry(tx, claim, None)
    }

    fn record(_: &(), tx: &mut Transaction<'_>, record: &Record<'_>) -> Result<(), SqliteError> {
        tx.prepare_cached("UPDATE handoff_ledger SET receipt = ?2 WHERE seq = ?1")?
            .execute(params![seq_to_sql(record.seq)?, record.receipt])?;
        keep_artifacts(tx, record.context_id, record.artifacts)
    }

    /// The claim with its receipt in one statement (no update of the row after), then the
    /// artifact versions (one upsert each) and the step.
    fn settle(
        _: &(),
        tx: &mut Transaction<'_>,
        settle: &Settle<'_>,
    ) -> Result<Claimed, SqliteError> {
        let claim = &settle.claim;
        let seq = match insert_entry(tx, claim, Some(settle.receipt))? {
            Claimed::New { seq } => seq,
            taken @ Claimed::Taken(_) => return Ok(taken),
        };
        keep_artifacts(tx, claim.context_id, settle.artifacts)?;
        if let Some(step) = settle.step {
            note_step(tx, step)?;
        }
        Ok(Claimed::New { seq })
    }

    fn commit(tx: Transaction<'_>) -> Result<(), SqliteError> {
        Ok(tx.commit()?)
    }

    fn rollback(tx: Transaction<'_>) -> Result<(), SqliteError> {
        Ok(tx.rollback()?)
    }

    fn last_accepted(&self, context_id: &str) -> Result<Option<Entry>, SqliteError> {
        one_entry(&self.connection, SELECT_LAST, params![context_id])
    }

    fn prune(&mut self, before: SystemTime) -> Result<u64, SqliteError> {
        self.flush_pending()?;
        let tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let deleted = tx.execute(
            "DELETE FROM handoff_ledger WHERE accepted_at < ?1 AND seq NOT IN \
             (SELECT MAX(seq) FROM handoff_ledger GROUP BY context_id)",
            params![to_micros(before)],
        )?;
        tx.execute(
            "DELETE FROM handoff_step WHERE last_seen < ?1",
            params![to_micros(before)],
        )?;
        tx.commit()?;
        Ok(deleted as u64)
    }

    fn note_in(_: &(), tx: &mut Transaction<'_>, step: &Step) -> Result<(), SqliteError> {
        note_step(tx, step)
    }

    fn note(&mut self, step: &Step) -> Result<(), SqliteError> {
        self.flush_pending()?;
        self.unsynced(|connection| note_step(connection, step))
    }

    /// Counts a redelivery in memory (see [`SqliteLedger`]): a read of the step's key the
    /// first time, nothing written until the counts are.
    fn touch(&mut self, key: &str, at: SystemTime) -> Result<bool, SqliteError> {
        if self.read_only {
            return Err(SqliteError::ReadOnly);
        }
        let at = to_micros(at);
        if !self.pending.count(key, at) {
            let recorded = self
                .connection
                .prepare_cached("SELECT 1 FROM handoff_step WHERE step_key = ?1")?
                .exists(params![key])?;
            if !recorded {
                return Ok(false);
            }
            self.pending.start(key, at);
        }
        if self.pending.due() {
            self.flush_pending()?;
        }
        Ok(true)
    }

    fn session(&mut self, session: &str) -> Result<Vec<Step>, SqliteError> {
        self.flush_pending()?;
        let mut statement = self.connection.prepare_cached(&format!(
            "{SELECT_STEP} WHERE step_key >= ?2 AND step_key < ?3 AND session = ?1 ORDER BY seq"
        ))?;
        // The key's index finds them: a key starts with its session.
        let (from, to) = Step::key_range(session);
        let rows = statement.query_map(params![session, from, to], step_of)?;
        let mut steps = Vec::new();
        for row in rows {
            steps.push(row??);
        }
        Ok(steps)
    }

    fn sessions(&mut self, filter: &SessionFilter) -> Result<Vec<SessionSummary>, SqliteError> {
        self.flush_pending()?;
        let since = filter.since.map_or(i64::MIN, to_micros);
        // Steps seen once: their last sighting is their first, which never decreases along
        // the sequence, so those since `since` are the steps from one sequence number on.
        let from = match filter.since {
            Some(_) => first_seq_since(&self.connection, since)?,
            None => 0,
        };
        let group = |row: &Row<'_>| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, Option<String>>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, i64>(3)?,
                row.get::<_, i64>(4)?,
            ))
        };
        let mut groups = Vec::new();
        let mut once = self.connection.prepare_cached(
            "SELECT session, MIN(workflow), outcome, COUNT(*), MAX(last_seen) FROM handoff_step \
             WHERE seq >= ?1 AND count = 1 AND session IS NOT NULL \
             AND (?2 IS NULL OR workflow = ?2) GROUP BY session, outcome",
        )?;
        for row in once.query_map(params![from, filter.workflow], group)? {
            groups.push(row?);
        }
        // Steps seen again, through the partial index of their last sighting.
        let mut again = self.connection.prepare_cached(
            "SELECT session, MIN(workflow), outcome, COUNT(*), MAX(last_seen) FROM handoff_step \
             WHERE count > 1 AND last_seen >= ?1 AND session IS NOT NULL \
             AND (?2 IS NULL OR workflow = ?2) GROUP BY session, outcome",
        )?;
        for row in again.query_map(params![since, filter.workflow], group)? {
            groups.push(row?);
        }
        Ok(crate::inbox::journal::summaries(groups, filter))
    }
}
