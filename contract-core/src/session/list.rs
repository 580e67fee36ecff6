//! A list of sessions ([`SessionSummary`]), as text for a terminal and as JSON for scripts.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde::Serialize;

use super::text::clean;
use crate::inbox::time::Rfc3339;
use crate::inbox::SessionSummary;

/// The sessions as a table, one line each, the ledgers read below it:
///
/// ```text
/// session           workflow        steps  outcomes              last activity
/// sess-support-042  support-refund      5  3 applied, 2 refused  2026-01-01T12:00:05.000000Z
///
/// 1 session in specialist.sqlite, escalation.sqlite
/// ```
///
/// Every name is printed with its control characters escaped.
#[must_use]
pub fn sessions_text(sessions: &[SessionSummary], ledgers: &[&str]) -> String {
    let ledgers: Vec<Cow<'_, str>> = ledgers.iter().map(|l| clean(l)).collect();
    let ledgers = ledgers.join(", ");
    if sessions.is_empty() {
        return format!("no sessions in {ledgers}\n");
    }
    let rows: Vec<[String; 5]> = sessions
        .iter()
        .map(|s| {
            let outcomes: Vec<String> = s
                .outcomes
                .iter()
                .map(|(outcome, n)| format!("{n} {outcome}"))
                .collect();
            [
                clean(&s.session).into_owned(),
                s.workflow
                    .as_deref()
                    .map_or_else(|| "-".to_owned(), |w| clean(w).into_owned()),
                s.steps.to_string(),
                outcomes.join(", "),
                Rfc3339(s.last_activity).to_string(),
            ]
        })
        .collect();
    let header = ["session", "workflow", "steps", "outcomes", "last activity"];
    let mut widths = header.map(|h| h.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: [&str; 5]| {
        let mut text = String::new();
        for (i, cell) in cells.iter().enumerate() {
            let pad = widths[i].saturating_sub(cell.chars().count());
            if i > 0 {
                text.push_str("  ");
            }
            // The count is right-aligned, the rest left-aligned.
            if i == 2 {
                text.extend(core::iter::repeat_n(' ', pad));
                text.push_str(cell);
            } else {
                text.push_str(cell);
                if i + 1 < cells.len() {
                    text.extend(core::iter::repeat_n(' ', pad));
                }
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(header);
    for row in &rows {
        line([&row[0], &row[1], &row[2], &row[3], &row[4]]);
    }
    let _ = write!(
        out,
        "\n{} {} in {ledgers}\n",
        sessions.len(),
        if sessions.len() == 1 {
            "session"
        } else {
            "sessions"
        }
    );
    out
}

/// The sessions as JSON (pretty-printed, with a final newline), the most recently active
/// first:
///
/// ```text
/// {"sessions": [{"session", "workflow", "steps", "outcomes": {OUTCOME: COUNT},
///                "lastActivity"}],
///  "ledgers": [LABEL]}
/// ```
///
/// `steps` counts the steps of the session (a redelivery counts on its step, not as
/// another); `outcomes` names only those seen (`applied`, `refused`, …); `lastActivity` is
/// RFC 3339 in UTC, by the clock of the ledger that saw it; `workflow` is `null` when no step
/// names one.
#[must_use]
pub fn sessions_json(sessions: &[SessionSummary], ledgers: &[&str]) -> String {
    #[derive(Serialize)]
    struct List<'a> {
        sessions: &'a [SessionSummary],
        ledgers: &'a [&'a str],
    }
    // Nothing in a summary can fail to serialize: its maps have string keys.
    let mut text = serde_json::to_string_pretty(&List { sessions, ledgers }).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::Outcome;
    use std::time::{Duration, SystemTime};

    fn summary(session: &str, workflow: Option<&str>) -> SessionSummary {
        SessionSummary {
            session: session.to_owned(),
            workflow: workflow.map(str::to_owned),
            steps: 12,
            outcomes: [(Outcome::Applied, 10), (Outcome::Refused, 2)].into(),
            last_activity: SystemTime::UNIX_EPOCH + Duration::from_secs(86_400),
        }
    }

    #[test]
    fn a_table_with_its_names_escaped_and_the_ledgers_below() {
        let text = sessions_text(
            &[
                summary("s-1", Some("support-refund")),
                summary("s-\u{1b}[2J", None),
            ],
            &["a.sqlite", "b\nc.db"],
        );
        assert_eq!(
            text,
            "session      workflow        steps  outcomes               last activity\n\
             s-1          support-refund     12  10 applied, 2 refused  1970-01-02T00:00:00.000000Z\n\
             s-\\u{1b}[2J  -                  12  10 applied, 2 refused  1970-01-02T00:00:00.000000Z\n\
             \n2 sessions in a.sqlite, b\\nc.db\n"
        );
        assert_eq!(
            sessions_text(&[], &["a.sqlite"]),
            "no sessions in a.sqlite\n"
        );
    }

    #[test]
    fn json_keeps_the_summaries_keys() {
        let json: serde_json::Value =
            serde_json::from_str(&sessions_json(&[summary("s-1", None)], &["a.sqlite"]))
                .expect("JSON");
        assert_eq!(
            json,
            serde_json::json!({
                "sessions": [{
                    "session": "s-1",
                    "workflow": null,
                    "steps": 12,
                    "outcomes": {"applied": 10, "refused": 2},
                    "lastActivity": "1970-01-02T00:00:00.000000Z"
                }],
                "ledgers": ["a.sqlite"]
            })
        );
    }
}
