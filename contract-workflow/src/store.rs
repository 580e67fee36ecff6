//! What runs where: every `record-deployment` kept in an SQLite file (rusqlite, SQLite
//! built in), by default `.handoff/deployments.sqlite` beside the manifest, or in a schema of
//! a PostgreSQL database ([`PostgresStore`]: the ledgers' database, no new server). The
//! latest record of an agent in an environment is what runs there; older ones stay, as
//! history.
//!
//! One table, `handoff_deployments` (`seq`, `env`, `agent`, `version` as given, `commit_id`
//! it named then, `recorded_at` in Unix seconds), made when the store is first written.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::{params, Connection, OpenFlags};

use crate::Error;

/// One agent's version running in an environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployment {
    /// The agent.
    pub agent: String,
    /// The git ref as it was recorded (`v1.4.0`, a commit id).
    pub version: String,
    /// The commit it named when recorded.
    pub commit: String,
    /// When, in seconds since the Unix epoch.
    pub recorded_at: i64,
}

/// What runs in one environment: each agent's latest deployment there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deployments {
    /// The environment.
    pub env: String,
    /// By agent.
    pub agents: BTreeMap<String, Deployment>,
}

impl Deployments {
    /// An environment where nothing is recorded.
    #[must_use]
    pub fn none(env: &str) -> Deployments {
        Deployments {
            env: env.to_owned(),
            agents: BTreeMap::new(),
        }
    }

    /// What runs of `agent`, if it was ever deployed here.
    #[must_use]
    pub fn get(&self, agent: &str) -> Option<&Deployment> {
        self.agents.get(agent)
    }
}

/// The deployment store in an SQLite file.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Connection,
    /// The file, for messages.
    name: String,
}

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS handoff_deployments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    env TEXT NOT NULL,
    agent TEXT NOT NULL,
    version TEXT NOT NULL,
    commit_id TEXT NOT NULL,
    recorded_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS handoff_deployments_env ON handoff_deployments (env, agent, seq);";

impl SqliteStore {
    /// Opens the store at `path` to write, making the file, its folder and its table when
    /// they are not there.
    ///
    /// # Errors
    ///
    /// [`Error::Store`] naming the file when it cannot be made or is not a store.
    pub fn open(path: &Path) -> Result<SqliteStore, Error> {
        let name = path.display().to_string();
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                Error::Store(format!(
                    "{}: cannot make the store's folder: {e}",
                    parent.display()
                ))
            })?;
        }
        let conn = Connection::open(path).map_err(|e| store_error(&name, &e))?;
        conn.execute_batch(SCHEMA)
            .map_err(|e| store_error(&name, &e))?;
        Ok(SqliteStore { conn, name })
    }

    /// Opens the store at `path` to read; none when there is no such file (nothing was ever
    /// recorded).
    ///
    /// # Errors
    ///
    /// [`Error::Store`] naming the file when it cannot be opened.
    pub fn open_existing(path: &Path) -> Result<Option<SqliteStore>, Error> {
        if !path.exists() {
            return Ok(None);
        }
        let name = path.display().to_string();
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| store_error(&name, &e))?;
        Ok(Some(SqliteStore { conn, name }))
    }

    /// A store in memory, gone when dropped (for tests and benchmarks).
    ///
    /// # Errors
    ///
    /// [`Error::Store`] when SQLite cannot open one.
    pub fn in_memory() -> Result<SqliteStore, Error> {
        let name = ":memory:".to_owned();
        let conn = Connection::open_in_memory().map_err(|e| store_error(&name, &e))?;
        conn.execute_batch(SCHEMA)
            .map_err(|e| store_error(&name, &e))?;
        Ok(SqliteStore { conn, name })
    }

    /// Records that `agent` runs `version` (which names `commit`) in `env`, now.
    ///
    /// # Errors
    ///
    /// [`Error::Store`] when the row cannot be written.
    pub fn record(&self, env: &str, agent: &str, version: &str, commit: &str) -> Result<(), Error> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        self.conn
            .execute(
                "INSERT INTO handoff_deployments (env, agent, version, commit_id, recorded_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![env, agent, version, commit, now],
            )
            .map_err(|e| store_error(&self.name, &e))?;
        Ok(())
    }

    /// What runs in `env`: each agent's latest record there.
    ///
    /// # Errors
    ///
    /// [`Error::Store`] when the store cannot be read (a file that is no store).
    pub fn deployed(&self, env: &str) -> Result<Deployments, Error> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT agent, version, commit_id, recorded_at FROM handoff_deployments d
                 WHERE env = ?1 AND seq = (SELECT MAX(seq) FROM handoff_deployments
                                           WHERE env = d.env AND agent = d.agent)",
            )
            .map_err(|e| store_error(&self.name, &e))?;
        let rows = statement
            .query_map(params![env], |row| {
                Ok(Deployment {
                    agent: row.get(0)?,
                    version: row.get(1)?,
                    commit: row.get(2)?,
                    recorded_at: row.get(3)?,
                })
            })
            .map_err(|e| store_error(&self.name, &e))?;
        let mut out = Deployments::none(env);
        for row in rows {
            let deployment = row.map_err(|e| store_error(&self.name, &e))?;
            out.agents.insert(deployment.agent.clone(), deployment);
        }
        Ok(out)
    }
}

/// The deployment store in a schema of a PostgreSQL database (the synchronous `postgres`
/// client, without TLS), the same table as [`SqliteStore`]'s.
pub struct PostgresStore {
    client: postgres::Client,
    /// The schema, quoted for SQL.
    schema: String,
    /// The database as messages name it (no password).
    name: String,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl PostgresStore {
    /// Connects to the database `url` names (`postgres://…`, or a libpq connection string)
    /// and opens the store in `schema`; with `write`, the schema and the table are made when
    /// missing, else a missing table holds nothing.
    ///
    /// # Errors
    ///
    /// [`Error::Store`] naming the database (its password left out) when it cannot be
    /// reached or the table cannot be made.
    pub fn connect(url: &str, schema: &str, write: bool) -> Result<PostgresStore, Error> {
        let name = format!("{} (schema {schema})", without_password(url));
        let fail = |e: &postgres::Error| {
            Error::Store(format!(
                "{name}: the deployment store: {}",
                e.as_db_error()
                    .map_or_else(|| e.to_string(), |db| db.message().to_owned())
            ))
        };
        let mut client = postgres::Client::connect(url, postgres::NoTls).map_err(|e| fail(&e))?;
        let quoted = format!("\"{}\"", schema.replace('"', "\"\""));
        if write {
            client
                .batch_execute(&format!(
                    "CREATE SCHEMA IF NOT EXISTS {quoted};
                     CREATE TABLE IF NOT EXISTS {quoted}.handoff_deployments (
                         seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                         env text NOT NULL,
                         agent text NOT NULL,
                         version text NOT NULL,
                         commit_id text NOT NULL,
                         recorded_at bigint NOT NULL
                     );
                     CREATE INDEX IF NOT EXISTS handoff_deployments_env
                         ON {quoted}.handoff_deployments (env, agent, seq);"
                ))
                .map_err(|e| fail(&e))?;
        }
        Ok(PostgresStore {
            client,
            schema: quoted,
            name,
        })
    }

    /// Records that `agent` runs `version` (which names `commit`) in `env`, now.
    ///
    /// # Errors
    ///
    /// [`Error::Store`] when the row cannot be written.
    pub fn record(
        &mut self,
        env: &str,
        agent: &str,
        version: &str,
        commit: &str,
    ) -> Result<(), Error> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let sql = format!(
            "INSERT INTO {}.handoff_deployments (env, agent, version, commit_id, recorded_at) \
             VALUES ($1, $2, $3, $4, $5)",
            self.schema
        );
        self.client
            .execute(&sql, &[&env, &agent, &version, &commit, &now])
            .map_err(|e| self.error(&e))?;
        Ok(())
    }

    /// What runs in `env`: each agent's latest record there; nothing when the table was never
    /// made.
    ///
    /// # Errors
    ///
    /// [`Error::Store`] when the store cannot be read.
    pub fn deployed(&mut self, env: &str) -> Result<Deployments, Error> {
        let exists: bool = self
            .client
            .query_one(
                "SELECT to_regclass($1) IS NOT NULL",
                &[&format!("{}.handoff_deployments", self.schema)],
            )
            .and_then(|row| row.try_get(0))
            .map_err(|e| self.error(&e))?;
        let mut out = Deployments::none(env);
        if !exists {
            return Ok(out);
        }
        let sql = format!(
            "SELECT DISTINCT ON (agent) agent, version, commit_id, recorded_at \
             FROM {}.handoff_deployments WHERE env = $1 ORDER BY agent, seq DESC",
            self.schema
        );
        let rows = self
            .client
            .query(&sql, &[&env])
            .map_err(|e| self.error(&e))?;
        for row in rows {
            let deployment = Deployment {
                agent: row.try_get(0).map_err(|e| self.error(&e))?,
                version: row.try_get(1).map_err(|e| self.error(&e))?,
                commit: row.try_get(2).map_err(|e| self.error(&e))?,
                recorded_at: row.try_get(3).map_err(|e| self.error(&e))?,
            };
            out.agents.insert(deployment.agent.clone(), deployment);
        }
        Ok(out)
    }

    fn error(&self, e: &postgres::Error) -> Error {
        let what = e
            .as_db_error()
            .map_or_else(|| e.to_string(), |db| db.message().to_owned());
        Error::Store(format!("{}: the deployment store: {what}", self.name))
    }
}

/// A PostgreSQL URL or connection string without its password.
fn without_password(url: &str) -> String {
    if let Some(rest) = url
        .strip_prefix("postgres://")
        .or_else(|| url.strip_prefix("postgresql://"))
    {
        let scheme = &url[..url.len() - rest.len()];
        if let Some((user_part, host_part)) = rest.split_once('@') {
            let user = user_part.split(':').next().unwrap_or("");
            return format!("{scheme}{user}@{host_part}")
                .split('?')
                .next()
                .unwrap_or("")
                .to_owned();
        }
        return format!("{scheme}{}", rest.split('?').next().unwrap_or(""));
    }
    url.split_whitespace()
        .filter(|kv| !kv.starts_with("password="))
        .collect::<Vec<_>>()
        .join(" ")
}

fn store_error(name: &str, e: &rusqlite::Error) -> Error {
    Error::Store(format!("{name}: the deployment store: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_record_of_an_agent_in_an_environment_is_what_runs() {
        let store = SqliteStore::in_memory().unwrap();
        store.record("production", "triage", "v1", "a1").unwrap();
        store.record("staging", "triage", "v3", "c3").unwrap();
        store.record("production", "billing", "v7", "b7").unwrap();
        store.record("production", "triage", "v2", "a2").unwrap();
        let production = store.deployed("production").unwrap();
        assert_eq!(production.env, "production");
        assert_eq!(production.agents.len(), 2);
        let triage = production.get("triage").unwrap();
        assert_eq!(
            (triage.version.as_str(), triage.commit.as_str()),
            ("v2", "a2")
        );
        assert_eq!(
            store
                .deployed("staging")
                .unwrap()
                .get("triage")
                .unwrap()
                .version,
            "v3"
        );
        assert!(store.deployed("nowhere").unwrap().agents.is_empty());
    }

    #[test]
    fn a_postgres_address_is_named_without_its_password() {
        assert_eq!(
            without_password("postgres://app:s3cret@db.local:5432/app?sslmode=disable"),
            "postgres://app@db.local:5432/app"
        );
        assert_eq!(
            without_password("host=/tmp/pg user=app password=s3cret dbname=app"),
            "host=/tmp/pg user=app dbname=app"
        );
    }

    /// The store in a schema of the server `HANDOFF_TEST_POSTGRES` names (skipped, saying
    /// so, when it is unset; a failure when `HANDOFF_REQUIRE_POSTGRES=1`).
    #[test]
    fn the_latest_record_on_postgres_is_what_runs() {
        let Ok(params) = std::env::var("HANDOFF_TEST_POSTGRES") else {
            assert!(
                std::env::var("HANDOFF_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "HANDOFF_REQUIRE_POSTGRES=1, but HANDOFF_TEST_POSTGRES is not set"
            );
            println!("SKIPPED: the PostgreSQL deployment store: need HANDOFF_TEST_POSTGRES");
            return;
        };
        let schema = format!("handoff_deploy_{}", std::process::id());
        let mut reader = PostgresStore::connect(&params, &schema, false).unwrap();
        assert!(reader.deployed("production").unwrap().agents.is_empty());
        let mut store = PostgresStore::connect(&params, &schema, true).unwrap();
        store.record("production", "triage", "v1", "a1").unwrap();
        store.record("production", "triage", "v2", "a2").unwrap();
        store.record("staging", "triage", "v3", "c3").unwrap();
        let production = reader.deployed("production").unwrap();
        assert_eq!(production.get("triage").unwrap().version, "v2");
        assert_eq!(
            reader
                .deployed("staging")
                .unwrap()
                .get("triage")
                .unwrap()
                .commit,
            "c3"
        );
        store
            .client
            .batch_execute(&format!("DROP SCHEMA \"{schema}\" CASCADE"))
            .unwrap();
    }

    #[test]
    fn a_missing_file_holds_nothing_and_a_foreign_one_is_named() {
        let dir = std::env::temp_dir().join(format!("handoff-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("nested/deployments.sqlite");
        assert!(SqliteStore::open_existing(&path).unwrap().is_none());
        SqliteStore::open(&path)
            .unwrap()
            .record("prod", "a", "v1", "c1")
            .unwrap();
        let read = SqliteStore::open_existing(&path).unwrap().unwrap();
        assert_eq!(
            read.deployed("prod").unwrap().get("a").unwrap().commit,
            "c1"
        );
        let foreign = dir.join("foreign.sqlite");
        std::fs::write(
            &foreign,
            b"not a database at all, and long enough to show it....",
        )
        .unwrap();
        let err = SqliteStore::open_existing(&foreign)
            .and_then(|s| s.map(|s| s.deployed("prod")).transpose())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(&format!("{}: the deployment store: ", foreign.display())),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
