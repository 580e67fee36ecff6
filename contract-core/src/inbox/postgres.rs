//! [`PostgresLedger`] (feature `postgres`): a ledger in a PostgreSQL schema, the handler's
//! effects in the same database and the same transaction (`postgres::Transaction`).

use core::cell::RefCell;
use core::fmt;
use std::time::SystemTime;

use ::postgres::error::SqlState;
use ::postgres::{Client, IsolationLevel, NoTls, Row, Statement, Transaction};

use crate::envelope::Digest;
use crate::inbox::journal::{PendingCounts, SessionFilter, SessionSummary, Step, StepColumns};
use crate::inbox::ledger::{
    Claim, Claimed, ContextState, Entry, Ledger, MigrationError, Migrations, Open, Opened, Record,
    Settle,
};

/// The version of the ledger's tables this version of the crate writes (the row of
/// `handoff_ledger_version` in the ledger's schema). A schema of a higher version is refused,
/// never written.
pub const POSTGRES_SCHEMA_VERSION: i32 = 3;

/// The migrations, the `n`th taking a schema of version `n` to `n + 1` (1: the entries and
/// the artifacts' versions; 2: the journey's steps; 3: `handoff_open`, the function that
/// opens an acceptance in one round trip); `{s}` is the schema's quoted name.
const MIGRATIONS: [&str; 3] = [
    "
    CREATE TABLE {s}.handoff_ledger (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        context_id text NOT NULL,
        handoff_id text NOT NULL,
        digest bytea NOT NULL,
        owner text NOT NULL,
        accepted_at timestamptz NOT NULL,
        receipt bytea,
        envelope bytea NOT NULL,
        UNIQUE (context_id, handoff_id)
    );
    CREATE INDEX handoff_ledger_context ON {s}.handoff_ledger (context_id, seq);
    CREATE TABLE {s}.handoff_artifact (
        context_id text NOT NULL,
        uri text NOT NULL,
        version bigint NOT NULL,
        PRIMARY KEY (context_id, uri)
    );
",
    "
    CREATE TABLE {s}.handoff_step (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        step_key text COLLATE \"C\" NOT NULL UNIQUE,
        session text,
        workflow text,
        outcome text NOT NULL,
        step text NOT NULL,
        count bigint NOT NULL,
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL
    );
    CREATE INDEX handoff_step_last_seen ON {s}.handoff_step (last_seen);
",
    // A function, so that its statements take a snapshot each (VOLATILE, READ COMMITTED):
    // the reads after the advisory lock see what the acceptance that held it committed,
    // which one statement, whose snapshot predates the wait, would not.
    "
    CREATE FUNCTION {s}.handoff_open(
        p_lock bigint, p_context text, p_handoff text, p_digest bytea, p_step text,
        p_at timestamptz,
        OUT e_seq bigint, OUT e_digest bytea, OUT e_owner text, OUT e_accepted_at timestamptz,
        OUT e_receipt bytea, OUT e_envelope bytea,
        OUT last_owner text, OUT uris text[], OUT versions bigint[], OUT touched boolean)
    LANGUAGE plpgsql VOLATILE SET search_path TO {s}, pg_catalog AS $handoff_open$
    BEGIN
        touched := false;
        -- A key committed before needs no lock: a duplicate or a conflict.
        SELECT seq, digest, owner, accepted_at, receipt, envelope
            INTO e_seq, e_digest, e_owner, e_accepted_at, e_receipt, e_envelope
            FROM handoff_ledger WHERE context_id = p_context AND handoff_id = p_handoff;
        IF NOT FOUND THEN
            -- Held until the transaction ends: the next acceptance in this context reads
            -- what this one commits.
            PERFORM pg_advisory_xact_lock(p_lock);
            SELECT seq, digest, owner, accepted_at, receipt, envelope
                INTO e_seq, e_digest, e_owner, e_accepted_at, e_receipt, e_envelope
                FROM handoff_ledger WHERE context_id = p_context AND handoff_id = p_handoff;
        END IF;
        IF FOUND THEN
            -- A redelivery counted on its step, committed without waiting for the WAL's
            -- flush: nothing else is written by this transaction.
            IF e_digest = p_digest AND p_step IS NOT NULL THEN
                UPDATE handoff_step SET count = count + 1, last_seen = greatest(last_seen, p_at)
                    WHERE step_key = p_step;
                touched := FOUND;
                IF touched THEN
                    PERFORM set_config('synchronous_commit', 'off', true);
                END IF;
            END IF;
            RETURN;
        END IF;
        SELECT owner INTO last_owner FROM handoff_ledger WHERE context_id = p_context
            ORDER BY seq DESC LIMIT 1;
        SELECT array_agg(uri), array_agg(version) INTO uris, versions
            FROM handoff_artifact WHERE context_id = p_context;
    END
    $handoff_open$;
",
];

/// The longest schema name PostgreSQL keeps whole (`NAMEDATALEN - 1` bytes); a longer one
/// would be truncated, and two long names could then name one schema.
const MAX_SCHEMA_NAME: usize = 63;

/// A ledger in a PostgreSQL schema (feature `postgres`, the synchronous `postgres` client;
/// PostgreSQL 10 or later).
///
/// Opening creates the schema if it is missing, and migrates its tables
/// (`handoff_ledger_version`, `handoff_ledger`, `handoff_artifact`, `handoff_step`: the
/// journey's steps) and its function (`handoff_open`) to
/// [`POSTGRES_SCHEMA_VERSION`] in one transaction under a transaction-scoped advisory lock
/// (`pg_advisory_xact_lock`), so that processes opening a new schema at once do not both
/// create it; a schema of a newer version is refused. A schema already at this version is
/// only read: a role without `CREATE` opens one its administrator migrated.
///
/// Each acceptance is one `READ COMMITTED` transaction of five round trips, each statement
/// prepared once per connection: `BEGIN`; `handoff_open`, a PL/pgSQL function of the
/// schema that reads the key's entry (a committed key is a duplicate or a conflict) and
/// otherwise takes an
/// advisory lock on the context, held until the transaction ends, and then reads the
/// context's last owner and artifact versions (a statement of its own inside the function,
/// so that its snapshot follows the lock: acceptances in one context are serialized and
/// each sees the one before, so that an artifact regression cannot slip between two; other
/// contexts go on in parallel); the handler's statements; one statement that claims the key
/// with `INSERT … ON CONFLICT (context_id, handoff_id) DO NOTHING RETURNING seq`, its
/// receipt, the context's artifact versions and the applied step (the last two only when
/// the claim inserted); `COMMIT`. A second connection claiming the same key waits for the
/// first transaction and then finds its committed entry: its handler's effects roll back
/// and it answers with the first acknowledgement. A duplicate costs three round trips
/// (`BEGIN`, `handoff_open`, `COMMIT`) and writes nothing: its step's count is kept in
/// memory and written with others ([`Ledger::touch`]). The handler gets the transaction as a
/// `postgres::Transaction` and writes its effects through it, so that they commit with the
/// ledger's entry, or not at all.
///
/// Opening puts the ledger's schema first on the connection's `search_path` (what was there
/// after it: `"$user", public` by default), so that the handler's unqualified tables, and
/// those its migrations create ([`connect_with_migrations`](Self::connect_with_migrations)),
/// land in the ledger's schema beside its tables: one schema holds one inbox's data, and
/// tables already in the schemas after it are still found. Qualify a name
/// (`public.refunds`) to reach another schema first.
///
/// One ledger is one connection: threads each open their own on the same schema. A claim
/// waits as long as the transaction holding the key lasts; bound it with the connection's
/// `lock_timeout` (`options='-c lock_timeout=5s'` in the connection string). A connection
/// that fails is not reopened: open the ledger again.
///
/// ```no_run
/// use contract_core::inbox::{Inbox, PostgresLedger};
///
/// let ledger = PostgresLedger::connect("host=/run/postgresql user=app dbname=app", "handoff")?;
/// let inbox = Inbox::new(ledger);
/// assert!(inbox.last_accepted("ctx-1")?.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PostgresLedger {
    /// In a cell so that a read takes `&self` ([`Ledger::last_accepted`]); every other use
    /// takes `&mut self` and reaches it without a borrow (`get_mut`).
    client: RefCell<Client>,
    statements: PostgresStatements,
    /// Opened by [`open_read_only`](PostgresLedger::open_read_only): no acceptance begins.
    read_only: bool,
    /// Redeliveries counted and not yet written.
    pending: PendingCounts,
}

impl fmt::Debug for PostgresLedger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresLedger")
            .field("schema", &self.statements.schema)
            .finish_non_exhaustive()
    }
}

/// The statements a [`PostgresLedger`] prepares on its connection when it opens, which
/// [`begin`](Ledger::begin) lends beside the transaction.
pub struct PostgresStatements {
    /// The schema's name (its contexts' lock keys include it).
    schema: String,
    entry: Statement,
    last: Statement,
    lock_context: Statement,
    context: Statement,
    claim: Statement,
    record: Statement,
    record_artifacts: Statement,
    prune: Statement,
    note: Statement,
    recorded: Statement,
    touch: Statement,
    session: Statement,
    sessions: Statement,
    prune_steps: Statement,
    open: Statement,
    settle: Statement,
}

impl fmt::Debug for PostgresStatements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresStatements").finish_non_exhaustive()
    }
}

impl PostgresLedger {
    /// Connects to the database `params` names (a libpq-style connection string or URL,
    /// without TLS: for TLS, connect the client yourself and use [`open`](Self::open)), and
    /// opens the ledger in the schema `schema`, first on the connection's `search_path`: the
    /// handler's unqualified tables are the schema's.
    ///
    /// ```no_run
    /// use contract_core::inbox::PostgresLedger;
    ///
    /// let mut ledger = PostgresLedger::connect("host=/run/postgresql user=app dbname=app", "handoff")?;
    /// let path: String = ledger.client().query_one("SHOW search_path", &[])?.get(0);
    /// assert!(path.starts_with("handoff"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open), and when the connection fails.
    pub fn connect(params: &str, schema: &str) -> Result<Self, PostgresError> {
        PostgresLedger::connect_with_migrations(params, schema, &Migrations::default())
    }

    /// Connects as [`connect`](Self::connect) does, and opens the ledger as
    /// [`open_with_migrations`](Self::open_with_migrations) does: the application's own
    /// `migrations` run in the ledger's migration transaction, their unqualified tables
    /// created in the ledger's schema.
    ///
    /// ```no_run
    /// use contract_core::inbox::{Migrations, PostgresLedger};
    ///
    /// const REFUNDS: Migrations<'static> = Migrations::new(&[
    ///     "CREATE TABLE refunds (order_ref text PRIMARY KEY, amount_cents bigint NOT NULL)",
    /// ]);
    /// let ledger = PostgresLedger::connect_with_migrations(
    ///     "host=/run/postgresql user=app dbname=app",
    ///     "handoff",
    ///     &REFUNDS,
    /// )?;
    /// // The table is `handoff.refunds`, found unqualified by the ledger's connection.
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`open_with_migrations`](Self::open_with_migrations), and when the connection fails.
    pub fn connect_with_migrations(
        params: &str,
        schema: &str,
        migrations: &Migrations<'_>,
    ) -> Result<Self, PostgresError> {
        check_schema_name(schema)?;
        let client = Client::connect(params, NoTls)?;
        PostgresLedger::open_with_migrations(client, schema, migrations)
    }

    /// Opens the ledger in the schema `schema` of a connected client: puts the schema
    /// first on the client's `search_path` (for the session), creates the schema if it is
    /// missing, migrates its tables, prepares the ledger's statements.
    ///
    /// # Errors
    ///
    /// A schema name that is empty, longer than 63 bytes or holds a NUL
    /// ([`PostgresError::SchemaName`]); a schema written by a newer version of this crate
    /// ([`PostgresError::NewerDatabase`]); a failure of the database (a role without the
    /// privileges to create what is missing, among them).
    pub fn open(client: Client, schema: &str) -> Result<Self, PostgresError> {
        PostgresLedger::open_with_migrations(client, schema, &Migrations::default())
    }

    /// Opens the ledger as [`open`](Self::open) does, and runs the application's own
    /// `migrations` (its handler's tables) in the transaction that migrates the ledger's,
    /// under the same advisory lock: each step not applied yet, in order, recorded in the
    /// schema's `handoff_app_migration`, so that a reopen applies only what is new (and,
    /// with nothing new, only reads). Their unqualified tables are created in the ledger's
    /// schema (first on the `search_path`).
    ///
    /// ```no_run
    /// use contract_core::inbox::{Migrations, PostgresLedger};
    /// use contract_core::inbox::postgres::{Client, NoTls};
    ///
    /// let client = Client::connect("host=/run/postgresql user=app dbname=app", NoTls)?;
    /// let steps = Migrations::new(&["CREATE TABLE refunds (order_ref text PRIMARY KEY)"]);
    /// let ledger = PostgresLedger::open_with_migrations(client, "handoff", &steps)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`open`](Self::open); a step that fails; a step applied before with another text,
    /// or more steps applied than `migrations` has ([`PostgresError::Migration`]): nothing
    /// is written then.
    pub fn open_with_migrations(
        mut client: Client,
        schema: &str,
        migrations: &Migrations<'_>,
    ) -> Result<Self, PostgresError> {
        check_schema_name(schema)?;
        let quoted = quote_identifier(schema);
        search_path_first(&mut client, schema)?;
        migrate(&mut client, schema, &quoted, migrations)?;
        let statements = PostgresStatements::prepare(&mut client, schema, &quoted)?;
        Ok(PostgresLedger {
            client: RefCell::new(client),
            statements,
            read_only: false,
            pending: PendingCounts::default(),
        })
    }

    /// The schema the ledger's tables are in.
    #[must_use]
    pub fn schema(&self) -> &str {
        &self.statements.schema
    }

    /// The connection, for the application's own tables and reads.
    #[must_use]
    pub fn client(&mut self) -> &mut Client {
        self.client.get_mut()
    }

    /// The connection, the ledger closed (the redeliveries it counted in memory written
    /// first, if they can be).
    #[must_use]
    pub fn into_client(mut self) -> Client {
        let _ = self.flush_pending();
        self.client.into_inner()
    }

    /// Connects to the database `params` names (as [`connect`](Self::connect) does) and
    /// opens the ledger in the schema `schema` for reading only, as
    /// [`open_read_only`](Self::open_read_only) does.
    ///
    /// # Errors
    ///
    /// As [`open_read_only`](Self::open_read_only), and when the connection fails.
    pub fn connect_read_only(params: &str, schema: &str) -> Result<Self, PostgresError> {
        check_schema_name(schema)?;
        let client = Client::connect(params, NoTls)?;
        PostgresLedger::open_read_only(client, schema)
    }

    /// Opens the ledger in the schema `schema` of a connected client for reading only, for a
    /// reader that must write nothing (a session's journey, a list of sessions): the
    /// schema's version is read and nothing is created or migrated, and the connection's
    /// transactions are read-only from then on (`SET SESSION CHARACTERISTICS AS TRANSACTION
    /// READ ONLY`), so that every write through this ledger fails.
    ///
    /// # Errors
    ///
    /// A schema name that is empty, longer than 63 bytes or holds a NUL
    /// ([`PostgresError::SchemaName`]); no schema of that name ([`PostgresError::NoSchema`]);
    /// a schema without the ledger's tables ([`PostgresError::NotALedger`]); a schema written
    /// by a newer version of this crate ([`PostgresError::NewerDatabase`]); a schema of
    /// version 1, written before the journey's steps were recorded
    /// ([`PostgresError::NoJourney`]: [`open`](Self::open) migrates it); a failure of the
    /// database.
    pub fn open_read_only(mut client: Client, schema: &str) -> Result<Self, PostgresError> {
        check_schema_name(schema)?;
        client.batch_execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")?;
        let quoted = quote_identifier(schema);
        check_readable(&mut client, schema, &quoted)?;
        search_path_first(&mut client, schema)?;
        let statements = PostgresStatements::prepare(&mut client, schema, &quoted)?;
        Ok(PostgresLedger {
            client: RefCell::new(client),
            statements,
            read_only: true,
            pending: PendingCounts::default(),
        })
    }
}

/// Whether the schema `schema` holds a ledger of today's version, read without writing: its
/// version row and its tables.
fn check_readable(client: &mut Client, schema: &str, quoted: &str) -> Result<(), PostgresError> {
    let row = client.query_one(
        "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1), \
         to_regclass(format('%I.handoff_ledger_version', $1::text)) IS NOT NULL, \
         to_regclass(format('%I.handoff_step', $1::text)) IS NOT NULL",
        &[&schema],
    )?;
    let (exists, has_version, has_steps): (bool, bool, bool) =
        (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
    if !exists {
        return Err(PostgresError::NoSchema);
    }
    if !has_version {
        return Err(PostgresError::NotALedger);
    }
    let found: Option<i32> = client
        .query_one(
            &format!("SELECT max(version) FROM {quoted}.handoff_ledger_version"),
            &[],
        )?
        .try_get(0)?;
    match found {
        Some(found) if found > POSTGRES_SCHEMA_VERSION => Err(PostgresError::NewerDatabase {
            found,
            known: POSTGRES_SCHEMA_VERSION,
        }),
        // Version 2 has every table a reader reads (version 3 adds a function for writers).
        Some(2..=POSTGRES_SCHEMA_VERSION) if has_steps => Ok(()),
        Some(1) if !has_steps => Err(PostgresError::NoJourney),
        _ => Err(PostgresError::NotALedger),
    }
}

/// Puts `schema` first on the session's `search_path` (unless it is first already), the
/// schemas it had after it: the handler's unqualified tables are the ledger schema's.
fn search_path_first(client: &mut Client, schema: &str) -> Result<(), PostgresError> {
    client.execute(
        "SELECT set_config('search_path', CASE \
         WHEN current_setting('search_path') = '' THEN format('%I', $1::text) \
         WHEN current_setting('search_path') = format('%I', $1::text) \
         OR left(current_setting('search_path'), length(format('%I', $1::text)) + 1) \
            = format('%I', $1::text) || ',' \
         THEN current_setting('search_path') \
         ELSE format('%I', $1::text) || ', ' || current_setting('search_path') END, false)",
        &[&schema],
    )?;
    Ok(())
}

/// Refuses a schema name PostgreSQL would not keep as given.
fn check_schema_name(schema: &str) -> Result<(), PostgresError> {
    if schema.is_empty() || schema.len() > MAX_SCHEMA_NAME || schema.contains('\0') {
        return Err(PostgresError::SchemaName);
    }
    Ok(())
}

/// An identifier quoted for SQL: in double quotes, each double quote doubled.
fn quote_identifier(name: &str) -> String {
    let mut quoted = String::with_capacity(name.len() + 2);
    quoted.push('"');
    for c in name.chars() {
        if c == '"' {
            quoted.push('"');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

/// A key for `pg_advisory_xact_lock`: the first 8 bytes of the SHA-256 of what the lock is
/// for, each kind of lock with its own prefix so that the kinds never share a key.
fn lock_key(kind: &str, parts: &[&str]) -> i64 {
    let mut text = String::from("handoff-contract/");
    text.push_str(kind);
    for part in parts {
        // Lengths first, so that ("ab", "c") and ("a", "bc") differ.
        text.push('\0');
        text.push_str(&part.len().to_string());
        text.push(':');
        text.push_str(part);
    }
    let digest = Digest::of_bytes(text.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest.as_bytes()[..8]);
    i64::from_be_bytes(first)
}

/// Takes the schema to [`POSTGRES_SCHEMA_VERSION`], and the application's tables to the
/// version of `app`, in one transaction under an advisory lock of the schema's name, so
/// that two processes opening a new schema do not both create it. What exists is only
/// read: a schema at these versions needs no privilege to create.
fn migrate(
    client: &mut Client,
    schema: &str,
    quoted: &str,
    app: &Migrations<'_>,
) -> Result<(), PostgresError> {
    let mut tx = client.transaction()?;
    tx.execute(
        "SELECT pg_advisory_xact_lock($1)",
        &[&lock_key("migrate", &[schema])],
    )?;
    let has_version_table: bool = tx
        .query_one(
            "SELECT to_regclass(format('%I.handoff_ledger_version', $1::text)) IS NOT NULL",
            &[&schema],
        )?
        .try_get(0)?;
    let found = if has_version_table {
        let row = tx.query_one(
            &format!("SELECT max(version) FROM {quoted}.handoff_ledger_version"),
            &[],
        )?;
        row.try_get::<_, Option<i32>>(0)?.unwrap_or(0)
    } else {
        let exists: bool = tx
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)",
                &[&schema],
            )?
            .try_get(0)?;
        if !exists {
            tx.batch_execute(&format!("CREATE SCHEMA {quoted}"))?;
        }
        tx.batch_execute(&format!(
            "CREATE TABLE {quoted}.handoff_ledger_version (version integer NOT NULL)"
        ))?;
        0
    };
    if found > POSTGRES_SCHEMA_VERSION {
        return Err(PostgresError::NewerDatabase {
            found,
            known: POSTGRES_SCHEMA_VERSION,
        });
    }
    if found == POSTGRES_SCHEMA_VERSION {
        if migrate_app(&mut tx, schema, quoted, app)? {
            tx.commit()?;
        } else {
            tx.rollback()?;
        }
        return Ok(());
    }
    for (from, migration) in MIGRATIONS.iter().enumerate() {
        if i64::from(found) <= from as i64 {
            tx.batch_execute(&migration.replace("{s}", quoted))?;
        }
    }
    tx.execute(&format!("DELETE FROM {quoted}.handoff_ledger_version"), &[])?;
    tx.execute(
        &format!("INSERT INTO {quoted}.handoff_ledger_version (version) VALUES ($1)"),
        &[&POSTGRES_SCHEMA_VERSION],
    )?;
    migrate_app(&mut tx, schema, quoted, app)?;
    tx.commit()?;
    Ok(())
}

/// Applies the application's steps not applied yet, recording each in the schema's
/// `handoff_app_migration` (its version, the SHA-256 of its text, when): whether it wrote
/// anything. Without steps, nothing is read or created.
fn migrate_app(
    tx: &mut Transaction<'_>,
    schema: &str,
    quoted: &str,
    app: &Migrations<'_>,
) -> Result<bool, PostgresError> {
    if app.version() == 0 {
        return Ok(false);
    }
    let exists: bool = tx
        .query_one(
            "SELECT to_regclass(format('%I.handoff_app_migration', $1::text)) IS NOT NULL",
            &[&schema],
        )?
        .try_get(0)?;
    let mut applied = Vec::new();
    if exists {
        let rows = tx.query(
            &format!("SELECT version, digest FROM {quoted}.handoff_app_migration"),
            &[],
        )?;
        for row in rows {
            let version: i64 = row.try_get(0)?;
            let digest: &[u8] = row.try_get(1)?;
            let digest = <[u8; 32]>::try_from(digest).map_err(|_| PostgresError::CorruptDigest)?;
            applied.push((
                u64::try_from(version).unwrap_or(u64::MAX),
                Digest::from_bytes(digest),
            ));
        }
    }
    let first = MigrationError::check(app, &applied)?;
    if first > app.version() {
        return Ok(false);
    }
    if !exists {
        tx.batch_execute(&format!(
            "CREATE TABLE {quoted}.handoff_app_migration (\
             version bigint PRIMARY KEY, digest bytea NOT NULL, applied_at timestamptz NOT NULL)"
        ))?;
    }
    let insert = format!(
        "INSERT INTO {quoted}.handoff_app_migration (version, digest, applied_at) \
         VALUES ($1, $2, now())"
    );
    for (index, step) in app.steps().iter().enumerate().skip(first - 1) {
        tx.batch_execute(step)?;
        let digest = Digest::of_bytes(step.as_bytes());
        let version = i64::try_from(index + 1).unwrap_or(i64::MAX);
        tx.execute(&insert, &[&version, &&digest.as_bytes()[..]])?;
    }
    Ok(true)
}

/// The columns [`entry_of`] reads, in its order.
const ENTRY_COLUMNS: &str =
    "seq, context_id, handoff_id, digest, owner, accepted_at, receipt, envelope";

impl PostgresStatements {
    fn prepare(client: &mut Client, schema: &str, s: &str) -> Result<Self, PostgresError> {
        let mut prepare = |sql: String| client.prepare(&sql);
        Ok(PostgresStatements {
            schema: schema.to_owned(),
            entry: prepare(format!(
                "SELECT {ENTRY_COLUMNS} FROM {s}.handoff_ledger \
                 WHERE context_id = $1 AND handoff_id = $2"
            ))?,
            last: prepare(format!(
                "SELECT {ENTRY_COLUMNS} FROM {s}.handoff_ledger \
                 WHERE context_id = $1 ORDER BY seq DESC LIMIT 1"
            ))?,
            lock_context: prepare("SELECT pg_advisory_xact_lock($1)".to_owned())?,
            // The last owner, and the version of each uri in the order asked (NULL where
            // none was accepted).
            context: prepare(format!(
                "SELECT \
                 (SELECT owner FROM {s}.handoff_ledger WHERE context_id = $1 \
                  ORDER BY seq DESC LIMIT 1), \
                 ARRAY(SELECT a.version FROM unnest($2::text[]) WITH ORDINALITY AS u(uri, n) \
                  LEFT JOIN {s}.handoff_artifact a ON a.context_id = $1 AND a.uri = u.uri \
                  ORDER BY u.n)"
            ))?,
            claim: prepare(format!(
                "INSERT INTO {s}.handoff_ledger \
                 (context_id, handoff_id, digest, owner, accepted_at, envelope) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (context_id, handoff_id) DO NOTHING RETURNING seq"
            ))?,
            record: prepare(format!(
                "UPDATE {s}.handoff_ledger SET receipt = $2 WHERE seq = $1"
            ))?,
            record_artifacts: prepare(format!(
                "INSERT INTO {s}.handoff_artifact (context_id, uri, version) \
                 SELECT $1, u.uri, u.version FROM unnest($2::text[], $3::bigint[]) AS u(uri, version) \
                 ON CONFLICT (context_id, uri) DO UPDATE SET version = excluded.version"
            ))?,
            // Each context's last entry stays: it is the rollback target.
            prune: prepare(format!(
                "DELETE FROM {s}.handoff_ledger e WHERE e.accepted_at < $1 AND e.seq < \
                 (SELECT max(l.seq) FROM {s}.handoff_ledger l WHERE l.context_id = e.context_id)"
            ))?,
            note: prepare(format!(
                "INSERT INTO {s}.handoff_step AS t \
                 (step_key, session, workflow, outcome, step, count, first_seen, last_seen) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                 ON CONFLICT (step_key) DO UPDATE SET count = t.count + excluded.count, \
                 last_seen = greatest(t.last_seen, excluded.last_seen)"
            ))?,
            recorded: prepare(format!("SELECT 1 FROM {s}.handoff_step WHERE step_key = $1"))?,
            touch: prepare(format!(
                "UPDATE {s}.handoff_step AS t SET count = t.count + u.more, \
                 last_seen = greatest(t.last_seen, u.last) \
                 FROM unnest($1::text[], $2::bigint[], $3::timestamptz[]) AS u(key, more, last) \
                 WHERE t.step_key = u.key"
            ))?,
            session: prepare(format!(
                "SELECT seq, step, count, first_seen, last_seen, session, workflow, outcome \
                 FROM {s}.handoff_step WHERE step_key >= $2 AND step_key < $3 AND session = $1 ORDER BY seq"
            ))?,
            sessions: prepare(format!(
                "SELECT session, min(workflow), outcome, count(*), max(last_seen) \
                 FROM {s}.handoff_step \
                 WHERE session IS NOT NULL \
                 AND ($1::timestamptz IS NULL OR last_seen >= $1) \
                 AND ($2::text IS NULL OR workflow = $2) \
                 GROUP BY session, outcome"
            ))?,
            prune_steps: prepare(format!(
                "DELETE FROM {s}.handoff_step WHERE last_seen < $1"
            ))?,
            open: prepare(format!(
                "SELECT e_seq, e_digest, e_owner, e_accepted_at, e_receipt, e_envelope, \
                 last_owner, uris, versions, touched \
                 FROM {s}.handoff_open($1, $2, $3, $4, $5, $6)"
            ))?,
            // The claim with its receipt, the context's artifact versions and the applied
            // step, in one statement: the last two only when the claim inserted (a key
            // committed first inserts nothing, and the statement returns no row).
            settle: prepare(format!(
                "WITH claim AS (\
                 INSERT INTO {s}.handoff_ledger \
                 (context_id, handoff_id, digest, owner, accepted_at, receipt, envelope) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (context_id, handoff_id) DO NOTHING RETURNING seq), \
                 artifacts AS (\
                 INSERT INTO {s}.handoff_artifact (context_id, uri, version) \
                 SELECT $1, u.uri, u.version \
                 FROM unnest($8::text[], $9::bigint[]) AS u(uri, version) \
                 WHERE EXISTS (SELECT 1 FROM claim) \
                 ON CONFLICT (context_id, uri) DO UPDATE SET version = excluded.version), \
                 step AS (\
                 INSERT INTO {s}.handoff_step AS t \
                 (step_key, session, workflow, outcome, step, count, first_seen, last_seen) \
                 SELECT $10::text, $11::text, $12::text, $13::text, $14::text, $15::bigint, \
                 $16::timestamptz, $17::timestamptz \
                 WHERE $10::text IS NOT NULL AND EXISTS (SELECT 1 FROM claim) \
                 ON CONFLICT (step_key) DO UPDATE SET count = t.count + excluded.count, \
                 last_seen = greatest(t.last_seen, excluded.last_seen)) \
                 SELECT seq FROM claim"
            ))?,
        })
    }
}

/// An entry from a row of [`ENTRY_COLUMNS`].
fn entry_of(row: &Row) -> Result<Entry, PostgresError> {
    let seq: i64 = row.try_get(0)?;
    let digest: &[u8] = row.try_get(3)?;
    let digest = <[u8; 32]>::try_from(digest).map_err(|_| PostgresError::CorruptDigest)?;
    Ok(Entry {
        seq: seq_of_sql(seq)?,
        context_id: row.try_get(1)?,
        handoff_id: row.try_get(2)?,
        digest: Digest::from_bytes(digest),
        owner: row.try_get(4)?,
        accepted_at: row.try_get(5)?,
        receipt: row.try_get::<_, Option<Vec<u8>>>(6)?.unwrap_or_default(),
        envelope: row.try_get(7)?,
    })
}

fn seq_of_sql(seq: i64) -> Result<u64, PostgresError> {
    u64::try_from(seq).map_err(|_| PostgresError::CorruptSeq)
}

fn seq_to_sql(seq: u64) -> Result<i64, PostgresError> {
    i64::try_from(seq).map_err(|_| PostgresError::CorruptSeq)
}

/// Artifact versions are `u64`; PostgreSQL's `bigint` is `i64`. They are stored bit for bit,
/// as the SQLite ledger stores them (a version past `i64::MAX` reads back negative in SQL,
/// and exactly here): the inbox compares them, never SQL.
fn version_to_sql(version: u64) -> i64 {
    i64::from_ne_bytes(version.to_ne_bytes())
}

fn version_of_sql(stored: i64) -> u64 {
    u64::from_ne_bytes(stored.to_ne_bytes())
}

impl Ledger for PostgresLedger {
    type Tx<'t> = Transaction<'t>;
    type Statements = PostgresStatements;
    type Error = PostgresError;

    const KEY_IN_TRANSACTION: bool = true;

    fn is_transient(error: &PostgresError) -> bool {
        error.is_transient()
    }

    fn entry(
        &mut self,
        context_id: &str,
        handoff_id: &str,
    ) -> Result<Option<Entry>, PostgresError> {
        self.client
            .get_mut()
            .query_opt(&self.statements.entry, &[&context_id, &handoff_id])?
            .map(|row| entry_of(&row))
            .transpose()
    }

    fn begin(&mut self) -> Result<(Transaction<'_>, &PostgresStatements), PostgresError> {
        if self.read_only {
            return Err(PostgresError::ReadOnly);
        }
        let tx = self
            .client
            .get_mut()
            .build_transaction()
            .isolation_level(IsolationLevel::ReadCommitted)
            .start()?;
        Ok((tx, &self.statements))
    }

    fn context(
        statements: &PostgresStatements,
        tx: &mut Transaction<'_>,
        context_id: &str,
        uris: &[&str],
    ) -> Result<ContextState, PostgresError> {
        // Held until the transaction ends: the next acceptance in this context reads what
        // this one commits. Its own statement, so that the read below starts after the
        // lock is granted (READ COMMITTED takes a snapshot per statement).
        tx.execute(
            &statements.lock_context,
            &[&lock_key("context", &[&statements.schema, context_id])],
        )?;
        let row = tx.query_one(&statements.context, &[&context_id, &uris])?;
        let owner: Option<String> = row.try_get(0)?;
        let versions: Vec<Option<i64>> = row.try_get(1)?;
        Ok(ContextState {
            owner,
            versions: versions
                .into_iter()
                .map(|v| v.map(version_of_sql))
                .collect(),
        })
    }

    fn claim(
        statements: &PostgresStatements,
        tx: &mut Transaction<'_>,
        claim: &Claim<'_>,
    ) -> Result<Claimed, PostgresError> {
        let params: [&(dyn ::postgres::types::ToSql + Sync); 6] = [
            &claim.context_id,
            &claim.handoff_id,
            &&claim.digest.as_bytes()[..],
            &claim.owner,
            &claim.accepted_at,
            &claim.envelope,
        ];
        // The insert waits for a transaction holding the same key. When that one committed,
        // nothing is inserted and the entry is read by a statement of its own, which (READ
        // COMMITTED) sees the commit; when it rolled back, the key is this one's.
        if let Some(row) = tx.query_opt(&statements.claim, &params)? {
            return Ok(Claimed::New {
                seq: seq_of_sql(row.try_get(0)?)?,
            });
        }
        match tx.query_opt(&statements.entry, &[&claim.context_id, &claim.handoff_id])? {
            Some(row) => Ok(Claimed::Taken(entry_of(&row)?)),
            // Pruned between the two statements: claimed anew.
            None => match tx.query_opt(&statements.claim, &params)? {
                Some(row) => Ok(Claimed::New {
                    seq: seq_of_sql(row.try_get(0)?)?,
                }),
                None => Err(PostgresError::ClaimLost),
            },
        }
    }

    fn record(
        statements: &PostgresStatements,
        tx: &mut Transaction<'_>,
        record: &Record<'_>,
    ) -> Result<(), PostgresError> {
        tx.execute(
            &statements.record,
            &[&seq_to_sql(record.seq)?, &record.receipt],
        )?;
        if !record.artifacts.is_empty() {
            let uris: Vec<&str> = record.artifacts.iter().map(|(uri, _)| *uri).collect();
            let versions: Vec<i64> = record
                .artifacts
                .iter()
                .map(|(_, version)| version_to_sql(*version))
                .collect();
            tx.execute(
                &statements.record_artifacts,
                &[&record.context_id, &uris, &versions],
            )?;
        }
        Ok(())
    }

    /// One round trip: `handoff_open` reads the key's entry, else takes the context's
    /// advisory lock and then reads its last owner and every artifact version it accepted.
    /// A duplicate's step is not counted here (the function could, with a write): the
    /// ledger counts it in memory ([`touch`](Ledger::touch)), so that the duplicate's
    /// transaction writes nothing.
    fn open(
        statements: &PostgresStatements,
        tx: &mut Transaction<'_>,
        open: &Open<'_>,
    ) -> Result<Opened, PostgresError> {
        let lock = lock_key("context", &[&statements.schema, open.context_id]);
        let (step, at): (Option<&str>, Option<SystemTime>) = (None, None);
        let row = tx.query_one(
            &statements.open,
            &[
                &lock,
                &open.context_id,
                &open.handoff_id,
                &&open.digest.as_bytes()[..],
                &step,
                &at,
            ],
        )?;
        let touched = row.try_get::<_, Option<bool>>(9)?.unwrap_or(false);
        if let Some(seq) = row.try_get::<_, Option<i64>>(0)? {
            let digest: &[u8] = row.try_get(1)?;
            let digest = <[u8; 32]>::try_from(digest).map_err(|_| PostgresError::CorruptDigest)?;
            let entry = Entry {
                seq: seq_of_sql(seq)?,
                context_id: open.context_id.to_owned(),
                handoff_id: open.handoff_id.to_owned(),
                digest: Digest::from_bytes(digest),
                owner: row.try_get(2)?,
                accepted_at: row.try_get(3)?,
                receipt: row.try_get::<_, Option<Vec<u8>>>(4)?.unwrap_or_default(),
                envelope: row.try_get(5)?,
            };
            return Ok(Opened {
                entry: Some(entry),
                touched,
                ..Opened::default()
            });
        }
        let uris: Option<Vec<String>> = row.try_get(7)?;
        let versions: Option<Vec<i64>> = row.try_get(8)?;
        let artifacts = uris
            .unwrap_or_default()
            .into_iter()
            .zip(versions.unwrap_or_default())
            .map(|(uri, version)| (uri, version_of_sql(version)))
            .collect();
        Ok(Opened {
            owner: row.try_get(6)?,
            artifacts,
            entry: None,
            touched: false,
        })
    }

    /// One round trip: the claim with its receipt, the artifact versions and the step in
    /// one statement. A key found taken reads its entry (a second round trip, only then).
    fn settle(
        statements: &PostgresStatements,
        tx: &mut Transaction<'_>,
        settle: &Settle<'_>,
    ) -> Result<Claimed, PostgresError> {
        let claim = &settle.claim;
        let uris: Vec<&str> = settle.artifacts.iter().map(|(uri, _)| *uri).collect();
        let versions: Vec<i64> = settle
            .artifacts
            .iter()
            .map(|(_, version)| version_to_sql(*version))
            .collect();
        let step = settle.step;
        let key = step.map(Step::key);
        let body = step
            .map(Step::stored_body)
            .transpose()
            .map_err(|_| PostgresError::CorruptStep)?;
        let count = step.map(|s| i64::try_from(s.count.max(1)).unwrap_or(i64::MAX));
        let params: [&(dyn ::postgres::types::ToSql + Sync); 17] = [
            &claim.context_id,
            &claim.handoff_id,
            &&claim.digest.as_bytes()[..],
            &claim.owner,
            &claim.accepted_at,
            &settle.receipt,
            &claim.envelope,
            &uris,
            &versions,
            &key,
            &step.and_then(|s| s.session.as_deref()),
            &step.and_then(|s| s.workflow.as_deref()),
            &step.map(|s| s.outcome.as_str()),
            &body,
            &count,
            &step.map(|s| s.first_seen),
            &step.map(|s| s.last_seen),
        ];
        // The insert waits for a transaction holding the same key. When that one committed,
        // nothing is inserted and the entry is read by a statement of its own, which (READ
        // COMMITTED) sees the commit; when it rolled back, the key is this one's.
        if let Some(row) = tx.query_opt(&statements.settle, &params)? {
            return Ok(Claimed::New {
                seq: seq_of_sql(row.try_get(0)?)?,
            });
        }
        match tx.query_opt(&statements.entry, &[&claim.context_id, &claim.handoff_id])? {
            Some(row) => Ok(Claimed::Taken(entry_of(&row)?)),
            // Pruned between the two statements: settled anew.
            None => match tx.query_opt(&statements.settle, &params)? {
                Some(row) => Ok(Claimed::New {
                    seq: seq_of_sql(row.try_get(0)?)?,
                }),
                None => Err(PostgresError::ClaimLost),
            },
        }
    }

    fn commit(tx: Transaction<'_>) -> Result<(), PostgresError> {
        Ok(tx.commit()?)
    }

    fn rollback(tx: Transaction<'_>) -> Result<(), PostgresError> {
        Ok(tx.rollback()?)
    }

    fn last_accepted(&self, context_id: &str) -> Result<Option<Entry>, PostgresError> {
        // Never borrowed elsewhere through `&self`: every other use of the client takes
        // `&mut self` (`get_mut`), and this borrow ends before the function returns.
        self.client
            .borrow_mut()
            .query_opt(&self.statements.last, &[&context_id])?
            .map(|row| entry_of(&row))
            .transpose()
    }

    fn prune(&mut self, before: SystemTime) -> Result<u64, PostgresError> {
        self.flush_pending()?;
        let mut tx = self.client.get_mut().transaction()?;
        let pruned = tx.execute(&self.statements.prune, &[&before])?;
        tx.execute(&self.statements.prune_steps, &[&before])?;
        tx.commit()?;
        Ok(pruned)
    }

    fn note_in(
        statements: &PostgresStatements,
        tx: &mut Transaction<'_>,
        step: &Step,
    ) -> Result<(), PostgresError> {
        note_step(
            &statements.note,
            |sql, params| tx.execute(sql, params),
            step,
        )
    }

    fn note(&mut self, step: &Step) -> Result<(), PostgresError> {
        self.flush_pending()?;
        let mut tx = unsynced(self.client.get_mut())?;
        note_step(
            &self.statements.note,
            |sql, params| tx.execute(sql, params),
            step,
        )?;
        Ok(tx.commit()?)
    }

    /// Counts a redelivery in memory: a read of the step's key the first time, the counts
    /// written together in one statement once the first waited a second or 64 steps wait,
    /// and before this ledger reads or prunes its steps, records another step or gives up
    /// its client ([`PostgresLedger::into_client`]). A ledger dropped with counts waiting
    /// loses them (a second's or 64 steps' redeliveries at most: counts, never a step or an
    /// acceptance).
    fn touch(&mut self, key: &str, at: SystemTime) -> Result<bool, PostgresError> {
        if self.read_only {
            return Err(PostgresError::ReadOnly);
        }
        let micros = crate::inbox::time::to_micros(at);
        if !self.pending.count(key, micros) {
            let recorded = self
                .client
                .get_mut()
                .query_opt(&self.statements.recorded, &[&key])?
                .is_some();
            if !recorded {
                return Ok(false);
            }
            self.pending.start(key, micros);
        }
        if self.pending.due() {
            self.flush_pending()?;
        }
        Ok(true)
    }

    fn session(&mut self, session: &str) -> Result<Vec<Step>, PostgresError> {
        self.flush_pending()?;
        // The key's index finds them: a key starts with its session (compared byte by byte,
        // the column's collation is "C").
        let (from, to) = Step::key_range(session);
        self.client
            .get_mut()
            .query(&self.statements.session, &[&session, &from, &to])?
            .iter()
            .map(step_of)
            .collect()
    }

    fn sessions(&mut self, filter: &SessionFilter) -> Result<Vec<SessionSummary>, PostgresError> {
        self.flush_pending()?;
        let rows = self.client.get_mut().query(
            &self.statements.sessions,
            &[&filter.since, &filter.workflow],
        )?;
        let mut groups = Vec::with_capacity(rows.len());
        for row in &rows {
            let last: SystemTime = row.try_get(4)?;
            groups.push((
                row.try_get::<_, String>(0)?,
                row.try_get::<_, Option<String>>(1)?,
                row.try_get::<_, String>(2)?,
                row.try_get::<_, i64>(3)?,
                crate::inbox::time::to_micros(last),
            ));
        }
        Ok(crate::inbox::journal::summaries(groups, filter))
    }
}

/// A transaction for a write outside any acceptance (a refusal's step, a redelivery's
/// count) that does not wait for the WAL's flush (`synchronous_commit = off` for it alone): a
/// crash of the server may lose the last such writes, never an acceptance.
fn unsynced(client: &mut Client) -> Result<Transaction<'_>, PostgresError> {
    let mut tx = client.transaction()?;
    tx.batch_execute("SET LOCAL synchronous_commit TO OFF")?;
    Ok(tx)
}

impl PostgresLedger {
    /// Writes the redeliveries counted in memory: one statement in a transaction that does
    /// not wait for the WAL's flush ([`unsynced`]). When it fails, they stay counted for the
    /// next attempt.
    fn flush_pending(&mut self) -> Result<(), PostgresError> {
        let counts = self.pending.take();
        if counts.is_empty() {
            return Ok(());
        }
        let keys: Vec<&str> = counts.iter().map(|(key, _, _)| key.as_str()).collect();
        let more: Vec<i64> = counts.iter().map(|(_, more, _)| *more).collect();
        let last: Vec<SystemTime> = counts
            .iter()
            .map(|(_, _, last)| crate::inbox::time::from_micros(*last))
            .collect();
        let statement = &self.statements.touch;
        let written = unsynced(self.client.get_mut()).and_then(|mut tx| {
            tx.execute(statement, &[&keys, &more, &last])?;
            Ok(tx.commit()?)
        });
        if written.is_err() {
            self.pending.restore(counts);
        }
        written
    }
}

/// Records a step through `execute` (a transaction's or the client's).
fn note_step(
    statement: &Statement,
    execute: impl FnOnce(
        &Statement,
        &[&(dyn ::postgres::types::ToSql + Sync)],
    ) -> Result<u64, ::postgres::Error>,
    step: &Step,
) -> Result<(), PostgresError> {
    let body = step.stored_body().map_err(|_| PostgresError::CorruptStep)?;
    let count = i64::try_from(step.count.max(1)).unwrap_or(i64::MAX);
    execute(
        statement,
        &[
            &step.key(),
            &step.session,
            &step.workflow,
            &step.outcome.as_str(),
            &body,
            &count,
            &step.first_seen,
            &step.last_seen,
        ],
    )?;
    Ok(())
}

/// A step from a row of `seq, step, count, first_seen, last_seen, session, workflow,
/// outcome`.
fn step_of(row: &Row) -> Result<Step, PostgresError> {
    let columns = StepColumns {
        seq: seq_of_sql(row.try_get(0)?)?,
        session: row.try_get(5)?,
        workflow: row.try_get(6)?,
        outcome: row.try_get(7)?,
        count: u64::try_from(row.try_get::<_, i64>(2)?).unwrap_or(0),
        first_seen: row.try_get(3)?,
        last_seen: row.try_get(4)?,
    };
    Step::from_stored(row.try_get(1)?, columns).ok_or(PostgresError::CorruptStep)
}

/// What a [`PostgresLedger`] fails with. Its message names what failed, and for an error
/// the database reported, its SQLSTATE code and primary message, never its `DETAIL` (which
/// can quote a row's values): [`PostgresError::Postgres`] holds the whole error for code
/// that wants it.
#[derive(Debug)]
#[non_exhaustive]
pub enum PostgresError {
    /// The connection or the database failed.
    Postgres(::postgres::Error),
    /// The schema was written by a newer version of this crate: its version is above the
    /// one this version knows.
    NewerDatabase {
        /// The schema's version.
        found: i32,
        /// The highest version this crate reads ([`POSTGRES_SCHEMA_VERSION`]).
        known: i32,
    },
    /// The schema name is empty, longer than 63 bytes (PostgreSQL would truncate it), or
    /// holds a NUL.
    SchemaName,
    /// A stored digest is not 32 bytes.
    CorruptDigest,
    /// A stored sequence number is negative.
    CorruptSeq,
    /// A stored step of a journey does not read back.
    CorruptStep,
    /// A key's claim found neither a committed entry nor room for its own, twice (entries
    /// pruned and claimed again while it looked).
    ClaimLost,
    /// A read-only opening found no schema of the name given.
    NoSchema,
    /// A read-only opening found a schema without the ledger's tables of this version.
    NotALedger,
    /// A read-only opening found a schema of version 1, written before the journey's steps
    /// were recorded: it has no journey to read. Opening it read-write
    /// ([`PostgresLedger::open`]) migrates it, and steps are recorded from then on.
    NoJourney,
    /// An acceptance on a ledger opened read-only
    /// ([`PostgresLedger::open_read_only`]): refused before its handler runs.
    ReadOnly,
    /// The application's migrations were refused
    /// ([`PostgresLedger::open_with_migrations`]): nothing was written.
    Migration(MigrationError),
}

impl From<MigrationError> for PostgresError {
    fn from(error: MigrationError) -> Self {
        PostgresError::Migration(error)
    }
}

impl From<::postgres::Error> for PostgresError {
    fn from(error: ::postgres::Error) -> Self {
        PostgresError::Postgres(error)
    }
}

impl PostgresError {
    /// The SQLSTATE code of an error the database reported.
    #[must_use]
    pub fn code(&self) -> Option<&SqlState> {
        match self {
            PostgresError::Postgres(error) => error.code(),
            _ => None,
        }
    }

    /// Whether a retry may succeed: the connection was closed or reset, or failed on its
    /// socket (retry on a new connection: open the ledger again), or the database gave up
    /// the transaction for a reason that passes: a connection exception (SQLSTATE class
    /// `08`), a serialization failure (`40001`), a deadlock (`40P01`), a lock or statement
    /// timeout (`55P03`, `57014`), the server shutting down or starting (`57P01`–`57P03`),
    /// too many connections (`53300`).
    ///
    /// ```
    /// use contract_core::inbox::PostgresError;
    ///
    /// assert!(!PostgresError::SchemaName.is_transient());
    /// ```
    #[must_use]
    pub fn is_transient(&self) -> bool {
        let PostgresError::Postgres(error) = self else {
            return false;
        };
        if error.is_closed() {
            return true;
        }
        match error.code() {
            Some(code) => {
                let code = code.code();
                code.starts_with("08")
                    || matches!(
                        code,
                        "40001"
                            | "40P01"
                            | "55P03"
                            | "57014"
                            | "57P01"
                            | "57P02"
                            | "57P03"
                            | "53300"
                    )
            }
            // No SQLSTATE: the client's own failure; one on the socket passes with a new
            // connection.
            None => {
                std::error::Error::source(error).is_some_and(|cause| cause.is::<std::io::Error>())
            }
        }
    }
}

impl fmt::Display for PostgresError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PostgresError::Postgres(error) => match error.as_db_error() {
                Some(db) => write!(
                    f,
                    "PostgreSQL: {} {}: {}",
                    db.severity(),
                    db.code().code(),
                    db.message()
                ),
                None => match std::error::Error::source(error) {
                    Some(cause) => write!(f, "PostgreSQL: {error}: {cause}"),
                    None => write!(f, "PostgreSQL: {error}"),
                },
            },
            PostgresError::NewerDatabase { found, known } => write!(
                f,
                "the ledger's schema is of version {found}, newer than this version reads \
                 ({known}): refused, not written"
            ),
            PostgresError::SchemaName => f.write_str(
                "the ledger's schema name is empty, longer than 63 bytes, or holds a NUL",
            ),
            PostgresError::CorruptDigest => f.write_str("a stored digest is not 32 bytes"),
            PostgresError::CorruptSeq => f.write_str("a sequence number is out of range"),
            PostgresError::CorruptStep => f.write_str("a stored step of a journey does not read"),
            PostgresError::ClaimLost => {
                f.write_str("a key's claim found neither its committed entry nor room for its own")
            }
            PostgresError::NoSchema => f.write_str("no such schema"),
            PostgresError::NotALedger => f.write_str(
                "not a handoff ledger (the schema has no handoff_ledger_version and handoff_step tables)",
            ),
            PostgresError::NoJourney => f.write_str(
                "a ledger of schema version 1, written before journey steps were recorded: it \
                 has no journey to show; opening it read-write (as an inbox does) migrates it",
            ),
            PostgresError::ReadOnly => {
                f.write_str("the ledger was opened read-only: it accepts nothing")
            }
            PostgresError::Migration(error) => fmt::Display::fmt(error, f),
        }
    }
}

/// No source: the whole `postgres::Error` is in [`PostgresError::Postgres`], and its chain
/// would print the `DETAIL` the message leaves out.
impl std::error::Error for PostgresError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_identifiers() {
        assert_eq!(quote_identifier("handoff"), "\"handoff\"");
        assert_eq!(quote_identifier("a\"b"), "\"a\"\"b\"");
        assert_eq!(quote_identifier("Ünïcode space"), "\"Ünïcode space\"");
    }

    #[test]
    fn checks_schema_names() {
        assert!(check_schema_name("handoff").is_ok());
        assert!(check_schema_name(&"s".repeat(63)).is_ok());
        for bad in ["", "a\0b", &"s".repeat(64)] {
            assert!(matches!(
                check_schema_name(bad),
                Err(PostgresError::SchemaName)
            ));
        }
    }

    #[test]
    fn lock_keys_differ_by_kind_and_parts() {
        let a = lock_key("context", &["ab", "c"]);
        assert_eq!(a, lock_key("context", &["ab", "c"]));
        assert_ne!(a, lock_key("context", &["a", "bc"]));
        assert_ne!(a, lock_key("migrate", &["ab", "c"]));
    }

    #[test]
    fn versions_round_trip_bit_for_bit() {
        for version in [0, 1, u64::from(u32::MAX), i64::MAX as u64, u64::MAX] {
            assert_eq!(version_of_sql(version_to_sql(version)), version);
        }
    }
}
