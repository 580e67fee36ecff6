//! The compiler errors of the published check: each breaking finding at the field, variant or
//! tag it concerns, with its rule, why, the snapshot file and the fixes.

use std::collections::BTreeMap;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::Error;

use contract_schema::compat::{Concern, Direction, Finding, Rule};
use contract_schema::model::Schema;
use contract_schema::Mode;

use super::locate::{locate, locate_in, span_of, span_of_enum, span_of_variant, Spot};
use super::target::{published_enum, Contract, Target};
use crate::ast::Input;
use crate::attr::find_serde_key;
use contract_schema::model::EnumDef;

/// One error per breaking finding; a finding reported in both directions under the same
/// rule and path is one error.
pub(super) fn report_errors(
    input: &Input,
    target: Target,
    published: &Schema,
    contract: &Contract,
    shown: &str,
    findings: &[Finding],
) -> Vec<Error> {
    drafts(
        input,
        target,
        published_enum(input, published),
        contract,
        findings,
        None,
    )
    .into_iter()
    .map(|draft| {
        let message = draft.message(&contract.id().to_string(), shown, contract.mode);
        spanned_error(draft.tokens, message)
    })
    .collect()
}

/// How a nested type's findings are read: their paths start at the contract's root, and the
/// part below the nested type locates them in its syntax.
pub(super) struct Nested<'a> {
    /// The part of a path below the nested type (`qty` of `lines[].qty`).
    pub relative: &'a dyn Fn(&str) -> String,
    /// The root's Rust name and whether it is a struct or an enum (`"struct"`).
    pub root: (&'a str, &'static str),
}

/// The errors of `findings` (breaking ones only), merged as one mistake, one error.
pub(super) fn drafts(
    input: &Input,
    target: Target,
    old_enum: Option<&EnumDef>,
    contract: &Contract,
    findings: &[Finding],
    nested: Option<&Nested>,
) -> Vec<Draft> {
    let mut grouped: BTreeMap<(Rule, String), (&Finding, Vec<Direction>)> = BTreeMap::new();
    let mut order = Vec::new();
    for finding in findings.iter().filter(|f| f.is_breaking()) {
        let key = (finding.rule, finding.path.clone());
        match grouped.get_mut(&key) {
            Some((_, directions)) => directions.push(finding.direction),
            None => {
                order.push(key.clone());
                grouped.insert(key, (finding, vec![finding.direction]));
            }
        }
    }
    let next = contract.version.saturating_add(1);
    order
        .iter()
        .filter_map(|key| grouped.get(key))
        .map(|(finding, directions)| {
            let path = match nested {
                Some(nested) => (nested.relative)(&finding.path),
                None => finding.path.clone(),
            };
            let located = if finding.rule == Rule::ContractNameChanged {
                None
            } else {
                match target {
                    Target::Struct(fields) => locate(&path, fields).map(Spot::Field),
                    Target::Enum(_, variants) => locate_in(&path, variants, old_enum),
                }
            };
            let container = match target {
                Target::Struct(_) => "struct",
                Target::Enum(..) => "enum",
            };
            // The whole type is named by its Rust name.
            let subject = match &finding.field {
                _ if nested.is_some() && !finding.path.is_empty() => finding.path.clone(),
                Some(field) => field.clone(),
                None if finding.path.is_empty() => {
                    syn::ext::IdentExt::unraw(&input.original.ident).to_string()
                }
                None => finding.path.clone(),
            };
            let pairing: Vec<String> = directions
                .iter()
                .map(|d| format!("{d}: {}", d.pairing()))
                .collect();
            let allow_hint: Vec<(String, String)> = match (&located, &finding.field) {
                (_, _) if nested.is_some() => nested
                    .map(|n| nested_allows(finding.rule, &finding.path, n.root))
                    .unwrap_or_default(),
                (Some(Spot::Field(field)), Some(name))
                    if *name == field.ser_name || *name == field.de_name =>
                {
                    vec![(
                        format!("#[handoff(allow({}, reason = \"…\"))]", finding.rule),
                        "field".to_owned(),
                    )]
                }
                _ if finding.path.is_empty() => Vec::new(),
                _ => vec![(
                    format!(
                        "#[handoff(allow({}, field = \"{}\", reason = \"…\"))]",
                        finding.rule, finding.path
                    ),
                    container.to_owned(),
                )],
            };
            // No help line repeats another: a rule's hint that already offers a new major
            // version gets the concrete `version = N` instead of a second such line.
            let major = format!(
                "`version = {next}` (the published v{} stays for its peers)",
                contract.version
            );
            let hint = if finding.hint.ends_with("new major version") {
                format!("{}: {major}", finding.hint)
            } else {
                finding.hint.clone()
            };
            let tokens = match (finding.rule, &located) {
                (Rule::ContractNameChanged, _) => input.attrs.name.as_ref().map_or_else(
                    || input.original.ident.to_token_stream(),
                    |n| n.tokens.clone(),
                ),
                (_, Some(Spot::Field(field))) => span_of(finding.rule, field),
                (_, Some(Spot::Variant(variant))) => span_of_variant(finding.rule, variant),
                // Old writers send a field the new struct denies: the cause is the denial.
                (Rule::UnknownFieldDenied, None) => {
                    find_serde_key(&input.serde_keys, &["deny_unknown_fields"]).map_or_else(
                        || input.original.ident.to_token_stream(),
                        |k| k.tokens.clone(),
                    )
                }
                (_, None) => match target {
                    Target::Struct(_) => input.original.ident.to_token_stream(),
                    Target::Enum(..) => span_of_enum(finding.rule, input),
                },
            };
            let variant = match located {
                Some(Spot::Variant(v)) if finding.rule.concerns() == Concern::Variant => {
                    Some(v.name.clone())
                }
                _ => None,
            };
            Draft {
                subject,
                rule: finding.rule,
                why: finding.why.clone(),
                pairing: pairing.join("; "),
                also: Vec::new(),
                helps: vec![hint],
                allows: allow_hint,
                keys: vec![(finding.rule, finding.path.clone())],
                major,
                variant,
                tokens,
            }
        })
        .fold(Vec::new(), merge_variant_drafts)
}

/// Where a nested type's finding may be accepted: on the root's field that holds it (an
/// allowance covers the paths under its field), or on the root with the whole path.
fn nested_allows(rule: Rule, path: &str, (root, kind): (&str, &str)) -> Vec<(String, String)> {
    let first = path.split(['.', '[', '(']).next().unwrap_or_default();
    let mut out = Vec::new();
    if !first.is_empty() && first != path {
        out.push((
            format!("#[handoff(allow({rule}, reason = \"…\"))]"),
            format!("field `{first}` of `{root}`"),
        ));
    }
    out.push((
        format!("#[handoff(allow({rule}, field = \"{path}\", reason = \"…\"))]"),
        format!("{kind} `{root}`"),
    ));
    out
}

/// One error being written.
pub(super) struct Draft {
    /// What breaks: a field's wire name, a path, or the type's name.
    subject: String,
    /// The rule it breaks.
    rule: Rule,
    /// Why, in one line.
    why: String,
    /// The directions it breaks, with their pairings.
    pairing: String,
    /// Further findings of the same change: (subject, rule, why, pairing).
    also: Vec<(String, Rule, String, String)>,
    /// The rules' own fixes, in order, each once.
    helps: Vec<String>,
    /// Where each finding may be allowed: (`#[handoff(allow(…))]`, where it goes).
    allows: Vec<(String, String)>,
    /// The (rule, path) of each finding it reports.
    pub(super) keys: Vec<(Rule, String)>,
    /// The concrete new major version.
    major: String,
    /// The variant whose tag the finding is about, for a variant rule located at one.
    variant: Option<String>,
    /// Where it points.
    pub(super) tokens: TokenStream,
}

/// One mistake, one error: the findings about one variant's tag (a renamed tag breaks old
/// readers and new readers alike, under two rules) become one error at the variant, and so
/// do the findings about one subject at one place (a field renamed without an alias breaks
/// new readers and old readers under two rules, both at its `renamed_from`).
pub(super) fn merge_variant_drafts(mut drafts: Vec<Draft>, draft: Draft) -> Vec<Draft> {
    let place = (!draft.tokens.is_empty()).then(|| draft.tokens.to_string());
    let same = match &draft.variant {
        Some(v) => drafts.iter_mut().find(|d| d.variant.as_ref() == Some(v)),
        None => drafts.iter_mut().find(|d| {
            d.variant.is_none()
                && d.subject == draft.subject
                && place.as_ref() == Some(&d.tokens.to_string())
        }),
    };
    match same {
        Some(first) => {
            first
                .also
                .push((draft.subject, draft.rule, draft.why, draft.pairing));
            for help in draft.helps {
                if !first.helps.contains(&help) {
                    first.helps.push(help);
                }
            }
            first.allows.extend(draft.allows);
            first.keys.extend(draft.keys);
        }
        None => drafts.push(draft),
    }
    drafts
}

impl Draft {
    /// The error's message: what breaks, where it was published, under which mode, and the
    /// fixes.
    pub(super) fn message(&self, id: &str, shown: &str, mode: Mode) -> String {
        let mut message = format!(
            "`{}` breaks the published contract `{id}` [{}]: {}\n\
             = note: published in `{shown}`, checked under mode `{mode}` ({})",
            self.subject,
            self.rule,
            self.why,
            self.pairing,
            mode = mode.as_str(),
        );
        for (subject, rule, why, pairing) in &self.also {
            if *subject == self.subject {
                message.push_str(&format!(
                    "\n= note: the same change also breaks [{rule}]: {why} ({pairing})"
                ));
            } else {
                message.push_str(&format!(
                    "\n= note: the same change breaks `{subject}` too [{rule}]: {why} ({pairing})"
                ));
            }
        }
        for help in &self.helps {
            message.push_str(&format!("\n= help: {help}"));
        }
        if let Some((_, place)) = self.allows.first() {
            // One place for all when they share it (they do: one variant's findings).
            let allows: Vec<String> = if self.allows.iter().all(|(_, p)| p == place) {
                let attrs: Vec<&str> = self.allows.iter().map(|(a, _)| a.as_str()).collect();
                vec![format!("{} on the {place}", attrs.join(" and "))]
            } else {
                self.allows
                    .iter()
                    .map(|(a, p)| format!("{a} on the {p}"))
                    .collect()
            };
            message.push_str(&format!(
                "\n= help: or accept it on purpose, with a reason kept in the report: {}",
                allows.join("; ")
            ));
        }
        if !self.helps.iter().any(|h| h.contains("new major version")) {
            message.push_str(&format!(
                "\n= help: or publish the change as a new major version: {}",
                self.major
            ));
        }
        message
    }
}

/// An error spanning `tokens` (or the call site when they are empty).
pub(super) fn spanned_error(tokens: TokenStream, message: String) -> Error {
    if tokens.is_empty() {
        Error::new(Span::call_site(), message)
    } else {
        Error::new_spanned(tokens, message)
    }
}
