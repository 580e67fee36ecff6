//! `--format github`: GitHub Actions workflow commands, one per finding or warning, so that
//! a pull request shows each on the line of the snapshot it is about
//! (`::error file=contracts/a.v1.snap,line=12,title=FIELD_REMOVED::why; hint`).
//!
//! Each finding's message starts with its path (`` `lines[].qty`: why; hint ``). Findings
//! that would make near-identical annotations, one rule on one line with one hint (a rename
//! is one removed and one added field: the same rule in both directions), make one that
//! names each ([`of_findings`]).
//!
//! Values are escaped as GitHub's toolkit escapes them: in the message `%`, CR and LF; in a
//! property (`file`, `title`) also `:` and `,`, which would end it.

use std::fmt;

use contract_schema::compat::Finding;

/// How severe an annotation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A breaking finding: the check fails.
    Error,
    /// An allowed finding, or a warning (a file left out, a schema feature dropped).
    Warning,
}

/// One workflow command: `::error` or `::warning`, with the file and line it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// Error or warning.
    pub level: Level,
    /// The file, relative to the repository's root for GitHub to place it; none for what is
    /// no file's.
    pub file: Option<String>,
    /// The line in `file`, from 1.
    pub line: Option<usize>,
    /// The title: a rule id.
    pub title: Option<String>,
    /// The text.
    pub message: String,
}

/// `::error file=F,line=N,title=T::MESSAGE`, properties left out when absent.
impl fmt::Display for Annotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.level {
            Level::Error => "::error",
            Level::Warning => "::warning",
        })?;
        let mut properties = Vec::new();
        if let Some(file) = &self.file {
            properties.push(format!("file={}", escape_property(file)));
            // A line means nothing without its file.
            if let Some(line) = self.line {
                properties.push(format!("line={line}"));
            }
        }
        if let Some(title) = &self.title {
            properties.push(format!("title={}", escape_property(title)));
        }
        if !properties.is_empty() {
            write!(f, " {}", properties.join(","))?;
        }
        write!(f, "::{}", escape_data(&self.message))
    }
}

/// A finding to annotate, with where: the file its annotation names and its line there.
pub struct Placed<'a> {
    /// The finding.
    pub finding: &'a Finding,
    /// The file (the new snapshot, a peer's JSON Schema, or a removed snapshot's old file).
    pub file: Option<String>,
    /// The line in `file`, when the file has lines to point at.
    pub line: Option<usize>,
}

/// The annotations of `findings`, in their order: an error for a breaking one, a warning for
/// one allowed on purpose. Findings of one rule, file, line, hint and allowance make one
/// annotation naming each of them: `` `path`: why (backward); why (forward); hint ``.
#[must_use]
pub fn of_findings(findings: &[Placed<'_>]) -> Vec<Annotation> {
    // Groups, in the order of their first finding.
    let mut groups: Vec<Vec<&Placed<'_>>> = Vec::new();
    for placed in findings {
        let same = |other: &&Placed<'_>| {
            other.finding.rule == placed.finding.rule
                && other.file == placed.file
                && other.line == placed.line
                && other.finding.hint == placed.finding.hint
                && other.finding.allowed == placed.finding.allowed
        };
        match groups.iter_mut().find(|g| g.first().is_some_and(same)) {
            Some(group) => group.push(placed),
            None => groups.push(vec![placed]),
        }
    }
    groups.into_iter().map(|group| grouped(&group)).collect()
}

/// The one annotation of findings that differ at most in their path, why and direction.
fn grouped(group: &[&Placed<'_>]) -> Annotation {
    let first = group[0];
    let finding = first.finding;
    let path = |f: &Finding| {
        if f.path.is_empty() {
            String::new()
        } else {
            format!("`{}`: ", f.path)
        }
    };
    let mut message = String::new();
    if group.len() == 1 {
        message.push_str(&format!("{}{}", path(finding), finding.why));
    } else {
        let one_path = group.iter().all(|p| p.finding.path == finding.path);
        if one_path {
            message.push_str(&path(finding));
        }
        let parts: Vec<String> = group
            .iter()
            .map(|p| {
                let at = if one_path {
                    String::new()
                } else {
                    path(p.finding)
                };
                format!("{at}{} ({})", p.finding.why, p.finding.direction.as_str())
            })
            .collect();
        message.push_str(&parts.join("; "));
    }
    message.push_str(&format!("; {}", finding.hint));
    if let Some(reason) = &finding.allowed {
        message.push_str(&format!(" (allowed on purpose: {reason})"));
    }
    Annotation {
        level: if finding.is_breaking() {
            Level::Error
        } else {
            Level::Warning
        },
        file: first.file.clone(),
        line: first.line,
        title: Some(finding.rule.id().to_owned()),
        message,
    }
}

/// A workflow command's message: `%`, CR and LF escaped.
#[must_use]
pub fn escape_data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// A workflow command's property value: as [`escape_data`], and `:` and `,` too (the
/// escapes of [`escape_data`] hold neither).
#[must_use]
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use contract_schema::compat::{Direction, Fix, Rule};

    #[test]
    fn data_escapes_percent_cr_and_lf_only() {
        assert_eq!(
            escape_data("100% sure,\r\nkey: value"),
            "100%25 sure,%0D%0Akey: value"
        );
        // Escaping `%` first: an escape already in the text is not read back as one.
        assert_eq!(escape_data("%0A"), "%250A");
        assert_eq!(escape_data("plain"), "plain");
    }

    fn finding(rule: Rule, path: &str, direction: Direction, why: &str) -> Finding {
        Finding::new(
            rule,
            path,
            direction,
            why,
            "keep writing it",
            Fix::Described,
        )
    }

    #[test]
    fn near_identical_findings_make_one_annotation_naming_each() {
        let added = finding(
            Rule::FieldLikelyRenamed,
            "orderId",
            Direction::Backward,
            "`orderId` is required by new readers, `orderRef` sent",
        );
        let removed = finding(
            Rule::FieldLikelyRenamed,
            "orderId",
            Direction::Forward,
            "`orderRef` is required by old readers, `orderId` sent",
        );
        let elsewhere = finding(Rule::FieldRemoved, "", Direction::Forward, "gone");
        let place = |finding, line| Placed {
            finding,
            file: Some("contracts/a.v1.snap".to_owned()),
            line,
        };
        let out = of_findings(&[
            place(&added, Some(8)),
            place(&elsewhere, None),
            place(&removed, Some(8)),
        ]);
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(
            out[0].to_string(),
            "::error file=contracts/a.v1.snap,line=8,title=FIELD_LIKELY_RENAMED::`orderId`: \
             `orderId` is required by new readers, `orderRef` sent (backward); `orderRef` is \
             required by old readers, `orderId` sent (forward); keep writing it"
        );
        // No path, no prefix; a file without a line still names the file.
        assert_eq!(
            out[1].to_string(),
            "::error file=contracts/a.v1.snap,title=FIELD_REMOVED::gone; keep writing it"
        );
        // On two lines, or under two rules, they stay apart.
        let apart = of_findings(&[place(&added, Some(8)), place(&removed, Some(9))]);
        assert_eq!(apart.len(), 2);
        assert!(apart[0]
            .message
            .starts_with("`orderId`: `orderId` is required"));
        assert!(!apart[0].message.contains("(backward)"));
    }

    #[test]
    fn properties_escape_colon_and_comma_too() {
        assert_eq!(escape_property("a,b:c%d\ne\rf"), "a%2Cb%3Ac%25d%0Ae%0Df");
    }

    #[test]
    fn an_annotation_writes_only_the_properties_it_has() {
        let mut a = Annotation {
            level: Level::Error,
            file: Some("contracts/a,b.v1.snap".to_owned()),
            line: Some(12),
            title: Some("FIELD_REMOVED".to_owned()),
            message: "old readers require `x`;\nrestore it".to_owned(),
        };
        assert_eq!(
            a.to_string(),
            "::error file=contracts/a%2Cb.v1.snap,line=12,title=FIELD_REMOVED::old readers \
             require `x`;%0Arestore it"
        );
        a.file = None;
        a.level = Level::Warning;
        assert_eq!(
            a.to_string(),
            "::warning title=FIELD_REMOVED::old readers require `x`;%0Arestore it"
        );
        a.title = None;
        assert_eq!(
            a.to_string(),
            "::warning::old readers require `x`;%0Arestore it"
        );
    }
}
