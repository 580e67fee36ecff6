//! The type grammar: built-in types with their constraints (integer sets, string formats
//! and lengths), generic arguments and named types, which are recorded as references to
//! check once the whole text is read.

use super::cursor::Cursor;
use super::lines::Reference;
use super::messages::{choice_message, shorten};
use crate::model::{IntRange, IntValue, Length, Type};
use crate::scalar::{FloatKind, IntKind, StringFormat};
use crate::text::ParseError;

/// How deeply types may nest (`option<list<…>>`) before the parser refuses: bounds the
/// recursion on hostile input.
const MAX_TYPE_DEPTH: usize = 64;

impl<'a> Cursor<'_, 'a> {
    /// The name of a defined type: a named type, not a built-in one.
    pub(super) fn type_name(&mut self, what: &str) -> Result<String, ParseError> {
        let at = self.pos;
        match self.ty(&mut Vec::new())? {
            Type::Named(name) => Ok(name),
            builtin => Err(self.error_at(
                at,
                format!(
                    "`{}` is a built-in type, not a name for a {what}",
                    shorten(&builtin.to_string())
                ),
            )),
        }
    }

    /// A type; named types outside generic arguments are recorded in `refs`.
    pub(super) fn ty(&mut self, refs: &mut Vec<Reference>) -> Result<Type, ParseError> {
        self.ty_at_depth(refs, 0)
    }

    fn ty_at_depth(&mut self, refs: &mut Vec<Reference>, depth: usize) -> Result<Type, ParseError> {
        self.spaces();
        let start = self.pos;
        if depth > MAX_TYPE_DEPTH {
            return Err(self.error_at(
                start,
                format!("a type nested more than {MAX_TYPE_DEPTH} levels deep"),
            ));
        }
        let path = self.path();
        if path.is_empty() {
            return Err(self.error_at(
                start,
                format!("expected a type, found {}", self.token_at(start)),
            ));
        }
        let ty = if path.contains("::") {
            None
        } else {
            self.builtin(path, refs, depth)?
        };
        if let Some(ty) = ty {
            return Ok(ty);
        }
        let mut name = path.to_owned();
        if self.eat('<') {
            // Generic arguments are part of the name; they need no definition.
            let mut args = Vec::new();
            loop {
                args.push(self.ty_at_depth(&mut Vec::new(), depth + 1)?.to_string());
                self.spaces();
                if self.eat('>') {
                    break;
                }
                self.expect_char(',', "between generic arguments, or `>` after them")?;
            }
            name.push('<');
            name.push_str(&args.join(", "));
            name.push('>');
        }
        refs.push(Reference {
            name: name.clone(),
            line: self.line.no,
            column: self.column(start),
        });
        Ok(Type::Named(name))
    }

    /// An identifier path `a::b::C` (possibly empty).
    fn path(&mut self) -> &'a str {
        let start = self.pos;
        loop {
            let seg = self.pos;
            while matches!(self.peek(), Some(c) if c.is_alphanumeric() || c == '_') {
                self.bump();
            }
            if self.pos == seg {
                // `a::` without a segment: leave the `::` for the caller to reject.
                if seg > start {
                    self.pos = seg - 2;
                }
                break;
            }
            if !self.rest().starts_with("::") {
                break;
            }
            self.pos += 2;
        }
        self.line.text.get(start..self.pos).unwrap_or("")
    }

    /// A built-in type named by `word`, or `None` when `word` is not a keyword.
    fn builtin(
        &mut self,
        word: &str,
        refs: &mut Vec<Reference>,
        depth: usize,
    ) -> Result<Option<Type>, ParseError> {
        if let Some(k) = IntKind::ALL.iter().find(|k| k.as_str() == word) {
            if self.eat('(') {
                return self.int_set(*k).map(Some);
            }
            return Ok(Some(Type::Int(*k)));
        }
        let ty = match word {
            "unit" => Type::Unit,
            "bool" => Type::Bool,
            "f32" => Type::Float(FloatKind::F32),
            "f64" => Type::Float(FloatKind::F64),
            "char" => Type::Char,
            "any" => Type::Any,
            "string" => {
                if self.eat('(') {
                    self.string_constraint()?
                } else {
                    Type::String(StringFormat::Plain)
                }
            }
            "option" | "list" | "set" => {
                self.open(word, '<')?;
                let inner = Box::new(self.ty_at_depth(refs, depth + 1)?);
                self.expect_char('>', &format!("to close `{word}<`"))?;
                match word {
                    "option" => Type::Option(inner),
                    "list" => Type::List(inner),
                    _ => Type::Set(inner),
                }
            }
            "array" => {
                self.open(word, '<')?;
                let inner = Box::new(self.ty_at_depth(refs, depth + 1)?);
                self.expect_char(';', "after the item type of `array<`")?;
                self.spaces();
                let at = self.pos;
                while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
                    self.pos += 1;
                }
                let len = self
                    .line
                    .text
                    .get(at..self.pos)
                    .and_then(|d| d.parse::<usize>().ok())
                    .ok_or_else(|| {
                        self.error_at(
                            at,
                            format!("expected the array's length, found {}", self.token_at(at)),
                        )
                    })?;
                self.expect_char('>', "to close `array<`")?;
                Type::Array(inner, len)
            }
            "map" => {
                self.open(word, '<')?;
                let key = Box::new(self.ty_at_depth(refs, depth + 1)?);
                self.expect_char(',', "between the key and value types of `map<`")?;
                let value = Box::new(self.ty_at_depth(refs, depth + 1)?);
                self.expect_char('>', "to close `map<`")?;
                Type::Map(key, value)
            }
            "tuple" => {
                self.open(word, '(')?;
                let mut items = Vec::new();
                self.spaces();
                if !self.eat(')') {
                    loop {
                        items.push(self.ty_at_depth(refs, depth + 1)?);
                        self.spaces();
                        if self.eat(')') {
                            break;
                        }
                        self.expect_char(',', "between tuple items, or `)` after them")?;
                    }
                }
                Type::Tuple(items)
            }
            _ => return Ok(None),
        };
        Ok(Some(ty))
    }

    /// The set of a constrained integer after `KIND(`: values and ranges (`7`, `1..=5`,
    /// `1..`, `..=-1`, `..`) separated by commas, then `)`.
    fn int_set(&mut self, kind: IntKind) -> Result<Type, ParseError> {
        let mut ranges = Vec::new();
        self.spaces();
        if self.eat(')') {
            return Ok(Type::int_in(kind, []));
        }
        loop {
            self.spaces();
            let at = self.pos;
            let min = if self.rest().starts_with("..") {
                IntValue::min_of(kind)
            } else {
                self.int_value(kind)?
            };
            let range = if self.rest().starts_with("..") {
                self.pos += 2;
                if self.eat('=') {
                    let max = self.int_value(kind)?;
                    if max < min {
                        return Err(self.error_at(at, "an empty range: its end is below its start"));
                    }
                    IntRange::new(min, max)
                } else if matches!(self.peek(), Some(c) if c == '-' || c.is_ascii_digit()) {
                    return Err(self.error_at(self.pos, "a range includes its end: write `A..=B`"));
                } else {
                    IntRange::new(min, IntValue::max_of(kind))
                }
            } else {
                IntRange::one(min)
            };
            ranges.push(range);
            self.spaces();
            if self.eat(')') {
                break;
            }
            self.expect_char(
                ',',
                &format!(
                    "between the values of `{}(`, or `)` after them",
                    kind.as_str()
                ),
            )?;
        }
        Ok(Type::int_in(kind, ranges))
    }

    /// An integer literal that `kind` holds.
    fn int_value(&mut self, kind: IntKind) -> Result<IntValue, ParseError> {
        self.spaces();
        let at = self.pos;
        if self.peek() == Some('-') {
            self.pos += 1;
        }
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.pos += 1;
        }
        let text = self.line.text.get(at..self.pos).unwrap_or("");
        let value = IntValue::parse(text.as_bytes()).ok_or_else(|| {
            if text.trim_start_matches('-').is_empty() {
                self.error_at(
                    at,
                    format!("expected an integer, found {}", self.token_at(at)),
                )
            } else {
                // Digits beyond every integer type.
                self.error_at(
                    at,
                    format!(
                        "{} is not a value of `{}`",
                        self.token_at(at),
                        kind.as_str()
                    ),
                )
            }
        })?;
        if value < IntValue::min_of(kind) || value > IntValue::max_of(kind) {
            return Err(self.error_at(
                at,
                format!("`{value}` is not a value of `{}`", kind.as_str()),
            ));
        }
        Ok(value)
    }

    /// The restrictions of a string after `string(`: a format name, `len LENGTH` and
    /// `pattern "REGEX"`, each at most once, separated by commas, then `)`.
    fn string_constraint(&mut self) -> Result<Type, ParseError> {
        let mut format = None;
        let mut length = None;
        let mut pattern = None;
        loop {
            self.spaces();
            let at = self.pos;
            while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == '-') {
                self.pos += 1;
            }
            let word = self.line.text.get(at..self.pos).unwrap_or("");
            let twice = match word {
                "len" => length.replace(self.length()?).is_some(),
                "pattern" => pattern.replace(self.string("the pattern")?).is_some(),
                _ => {
                    let found = StringFormat::NAMED
                        .iter()
                        .find(|f| f.as_str() == Some(word))
                        .copied()
                        .ok_or_else(|| {
                            let mut names: Vec<&str> = StringFormat::NAMED
                                .iter()
                                .filter_map(|f| f.as_str())
                                .collect();
                            names.extend(["len", "pattern"]);
                            self.error_at(
                                at,
                                choice_message(word, &names, "as a string format or restriction"),
                            )
                        })?;
                    format.replace(found).is_some()
                }
            };
            if twice {
                let what = if matches!(word, "len" | "pattern") {
                    word
                } else {
                    "a format"
                };
                return Err(self.error_at(at, format!("`string(` takes {what} once")));
            }
            self.spaces();
            if self.eat(')') {
                break;
            }
            self.expect_char(
                ',',
                "between the restrictions of `string(`, or `)` after them",
            )?;
        }
        Ok(Type::string_with(
            format.unwrap_or(StringFormat::Plain),
            length.unwrap_or(Length::ANY),
            pattern,
        ))
    }

    /// A length in characters: `N`, `A..=B`, `A..` or `..=B`.
    fn length(&mut self) -> Result<Length, ParseError> {
        self.spaces();
        let at = self.pos;
        let min = if self.rest().starts_with("..") {
            0
        } else {
            self.count()?
        };
        if !self.rest().starts_with("..") {
            return Ok(Length {
                min,
                max: Some(min),
            });
        }
        self.pos += 2;
        if !self.eat('=') {
            if matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
                return Err(self.error_at(self.pos, "a range includes its end: write `A..=B`"));
            }
            return Ok(Length { min, max: None });
        }
        let max = self.count()?;
        if max < min {
            return Err(self.error_at(at, "an empty range: its end is below its start"));
        }
        Ok(Length {
            min,
            max: Some(max),
        })
    }

    /// A non-negative count (`u64`).
    fn count(&mut self) -> Result<u64, ParseError> {
        let at = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.pos += 1;
        }
        self.line
            .text
            .get(at..self.pos)
            .and_then(|d| d.parse::<u64>().ok())
            .ok_or_else(|| {
                self.error_at(
                    at,
                    format!("expected a length, found {}", self.token_at(at)),
                )
            })
    }

    fn open(&mut self, word: &str, c: char) -> Result<(), ParseError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error_at(
                self.pos,
                format!(
                    "expected `{c}` after `{word}`, found {}",
                    self.token_at(self.pos)
                ),
            ))
        }
    }
}
