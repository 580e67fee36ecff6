//! `--format github`: GitHub Actions workflow commands, one per finding or warning, so that
//! a pull request shows each on the line of the snapshot it is about
//! (`::error file=contracts/a.v1.snap,line=12,title=FIELD_REMOVED::why; hint`).
//!
//! Values are escaped as GitHub's toolkit escapes them: in the message `%`, CR and LF; in a
//! property (`file`, `title`) also `:` and `,`, which would end it.

use std::fmt;

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
    /// no file's (a removed snapshot).
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
