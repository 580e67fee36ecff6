//! What runs where: every `record-deployment` kept in an SQLite file (rusqlite, SQLite
//! built in), by default `.handoff/deployments.sqlite` beside the manifest. The latest record
//! of an agent in an environment is what runs there; older ones stay, as history.
//!
//! One table, `handoff_deployments` (`seq`, `env`, `agent`, `version` as given, `commit_id`
//! it named then, `recorded_at` in Unix seconds), made when the store is first written. A
//! PostgreSQL store is not there yet.

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
