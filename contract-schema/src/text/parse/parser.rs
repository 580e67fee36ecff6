//! The reader of a whole schema text: the header lines (`contract`, `mode`, `allow`,
//! `root`), the loop over the top-level lines, and the checks made once everything is
//! read (every referenced type defined, every flattened type an enum). The lines inside a
//! struct, an enum or a newtype are read in `blocks`.

use std::collections::{BTreeMap, HashMap};

use super::cursor::{unknown_keyword, Cursor};
use super::lines::{set_once, Line, Once, Reference};
use super::messages::{choice_message, shorten, undefined, unknown_rule, TOP_KEYWORDS};
use crate::allowance::{Allowance, Allowances};
use crate::contract::{is_contract_name, ContractId, Mode};
use crate::model::{Schema, Type, TypeDef};
use crate::rules::Rule;
use crate::text::source_map::SourceMapBuilder;
use crate::text::ParseError;

pub(super) struct Parser<'p, 'a> {
    pub(super) lines: &'p [Line<'a>],
    pub(super) next: usize,
    pub(super) refs: Vec<Reference>,
    /// The type of every `flatten` line, with where: each must lead to an enum.
    pub(super) flats: Vec<(Type, usize, usize)>,
    /// The lines of types, fields and variants, recorded only when asked for.
    pub(super) map: Option<SourceMapBuilder>,
}

impl<'p, 'a> Parser<'p, 'a> {
    pub(super) fn new(lines: &'p [Line<'a>], map: Option<SourceMapBuilder>) -> Self {
        Parser {
            lines,
            next: 0,
            refs: Vec::new(),
            flats: Vec::new(),
            map,
        }
    }

    /// Takes the next line if it is indented deeper than `level` (it belongs to the item
    /// at `level`), checks that it sits exactly one level deeper and reads its keyword.
    pub(super) fn next_child(
        &mut self,
        level: usize,
    ) -> Result<Option<(Cursor<'p, 'a>, &'a str, usize)>, ParseError> {
        let lines = self.lines;
        let Some(line) = lines.get(self.next).filter(|l| l.level() > level) else {
            return Ok(None);
        };
        self.next += 1;
        if line.level() != level + 1 {
            return Err(line.error(format!(
                "an indentation of {} spaces where {} are expected",
                line.indent,
                (level + 1) * 2
            )));
        }
        let mut c = Cursor::new(line);
        let (keyword, at) = c.keyword();
        Ok(Some((c, keyword, at)))
    }

    /// A type, then the end of the line; the named types it references are checked once
    /// the whole text is read.
    pub(super) fn type_to_end(&mut self, c: &mut Cursor<'_, '_>) -> Result<Type, ParseError> {
        c.spaces();
        let ty = c.ty(&mut self.refs)?;
        c.end()?;
        Ok(ty)
    }

    pub(super) fn schema(&mut self) -> Result<Schema, ParseError> {
        let mut contract: Once<ContractId> = None;
        let mut mode: Once<Mode> = None;
        let mut allowances = Allowances::new();
        let mut root: Once<Type> = None;
        let mut types: BTreeMap<String, TypeDef> = BTreeMap::new();
        let mut defined_at: HashMap<String, usize> = HashMap::new();
        let lines = self.lines;
        while let Some(line) = lines.get(self.next) {
            self.next += 1;
            if line.level() != 0 {
                return Err(line.error(
                    "an indented line outside any struct, enum or newtype; \
                     remove the indentation or the line",
                ));
            }
            let mut c = Cursor::new(line);
            let (keyword, at) = c.keyword();
            let in_header = types.is_empty();
            match keyword {
                "contract" | "mode" | "allow" | "root" if !in_header => {
                    return Err(c.error_at(
                        at,
                        format!("`{keyword}` belongs in the header, before the first type"),
                    ));
                }
                "contract" => {
                    let id = c.contract_id()?;
                    set_once(&mut contract, id, line, keyword)?;
                }
                "mode" => {
                    let m = c.mode()?;
                    set_once(&mut mode, m, line, keyword)?;
                }
                "allow" => allowances.push(c.allowance()?),
                "root" => {
                    let ty = self.type_to_end(&mut c)?;
                    set_once(&mut root, ty, line, keyword)?;
                    if let Some(map) = &mut self.map {
                        map.root(line.no);
                    }
                }
                "struct" | "enum" | "newtype" | "views" => {
                    c.spaces();
                    let name_at = c.pos;
                    let name = c.type_name(keyword)?;
                    c.record_name(name_at, &name, &mut defined_at, |first| {
                        format!(
                            "type `{}` is defined twice (first at line {first})",
                            shorten(&name)
                        )
                    })?;
                    if let Some(map) = &mut self.map {
                        map.begin_type(&name, line.no);
                    }
                    let def = match keyword {
                        "struct" => {
                            c.end()?;
                            self.struct_type(line, &name)?
                        }
                        "enum" => {
                            c.end()?;
                            self.enum_type(line, &name)?
                        }
                        "views" => {
                            c.end()?;
                            self.views_type(line, &name)?
                        }
                        _ => {
                            c.expect_colon("the newtype's name")?;
                            let inner = self.type_to_end(&mut c)?;
                            self.newtype(line, &name, inner)?
                        }
                    };
                    types.insert(name, def);
                }
                other => return Err(unknown_keyword(&c, at, other, TOP_KEYWORDS, "the header")),
            }
        }
        let Some((root, _)) = root else {
            return Err(ParseError::new(
                1,
                1,
                "no `root` line: the header names the type on the wire (`root TYPE`)",
            ));
        };
        for r in &self.refs {
            if !types.contains_key(&r.name) {
                return Err(ParseError::new(
                    r.line,
                    r.column,
                    undefined(&r.name, &types),
                ));
            }
        }
        let schema = Schema {
            contract: contract.map(|(id, _)| id),
            mode: mode.map(|(m, _)| m).unwrap_or_default(),
            allowances,
            root,
            types,
        };
        for (ty, line, column) in &self.flats {
            if schema.flat_enum(ty).is_none() {
                return Err(ParseError::new(
                    *line,
                    *column,
                    format!(
                        "`{}` is not an enum: a `flatten` line holds an enum (a flattened \
                         struct's fields are written as fields)",
                        shorten(&ty.to_string())
                    ),
                ));
            }
        }
        Ok(schema)
    }
}

/// The values of the header lines.
impl Cursor<'_, '_> {
    pub(super) fn contract_id(&mut self) -> Result<ContractId, ParseError> {
        self.spaces();
        let at = self.pos;
        let token = self.rest().split(' ').next().unwrap_or("");
        self.pos += token.len();
        let parsed = token.rsplit_once("/v").and_then(|(name, version)| {
            let version: u32 = version.parse().ok()?;
            // The canonical spelling only: no sign, no leading zeros.
            let canonical = version.to_string() == version_text(token);
            (is_contract_name(name) && version >= 1 && canonical).then(|| ContractId {
                name: name.to_owned(),
                version,
            })
        });
        let id = parsed.ok_or_else(|| {
            self.error_at(
                at,
                format!(
                    "expected a contract id `NAME/vN` (a kebab-case name and a version of at \
                     least 1), found {}",
                    self.token_at(at)
                ),
            )
        })?;
        self.end()?;
        Ok(id)
    }

    pub(super) fn mode(&mut self) -> Result<Mode, ParseError> {
        let (word, at) = self.keyword();
        let mode = Mode::parse(word).ok_or_else(|| {
            let names: Vec<&str> = Mode::ALL.iter().map(|m| m.as_str()).collect();
            self.error_at(at, choice_message(word, &names, "after `mode`"))
        })?;
        self.end()?;
        Ok(mode)
    }

    /// The rest of an `allow` line: `RULE_ID field "KEY" reason "TEXT"`. The rule id must be
    /// one of the catalogue's (a typo would silently allow nothing).
    pub(super) fn allowance(&mut self) -> Result<Allowance, ParseError> {
        self.spaces();
        let at = self.pos;
        let rule = if self.peek() == Some('"') {
            self.string("the rule id")?
        } else {
            self.keyword().0.to_owned()
        };
        if Rule::from_id(&rule).is_none() {
            return Err(self.error_at(at, unknown_rule(&rule, &self.token_at(at))));
        }
        self.expect_word("field", "after the rule id")?;
        let field = self.string("the field")?;
        self.expect_word("reason", "after the field")?;
        let reason = self.string("the reason")?;
        self.end()?;
        Ok(Allowance {
            rule,
            field,
            reason,
        })
    }
}

/// The digits after the last `/v` of a contract id.
fn version_text(token: &str) -> &str {
    token.rsplit_once("/v").map_or("", |(_, v)| v)
}
