//! The typed value from the scanned tape: a `serde::Deserializer` that reads what
//! `serde_json::Deserializer` reads, so that `receive` tokenizes a payload once.
//!
//! It takes serde_json's decisions wherever they are visible to a `Deserialize` impl:
//! which `visit_*` a number reaches (`u64`, then `i64`, then `f64`, with `-0` a float, as
//! serde_json does), floats parsed by serde_json itself, escaped strings through `visit_str`
//! and plain ones through `visit_borrowed_str`, `null` through `visit_none` and `visit_unit`,
//! a struct from an object or an array, an enum from a string or a one-key object, map keys
//! read as numbers and booleans where the key type asks. Anything it does not mirror (such as
//! serde_json's `RawValue` protocol) fails here, and `receive` then asks serde_json itself:
//! a failure here costs time, never a verdict.

use core::fmt;

use serde::de::{self, DeserializeSeed, Visitor};

use crate::runtime::options::serde_json_private;
use crate::runtime::tape::number::{f32_number, i128_of, key_number, number, u128_of, Number};
use crate::runtime::tape::scan::{str_text, Node, NodeKind};

/// Why the tape could not give a value, and at which node (never serde's message, which may
/// quote a value).
#[derive(Debug)]
pub(crate) struct DeError {
    pub node: Option<u32>,
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the value does not deserialize")
    }
}

impl std::error::Error for DeError {}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(_: T) -> Self {
        DeError { node: None }
    }
}

type Result<T> = core::result::Result<T, DeError>;

/// Deserializes a `T` from a scanned document.
pub(crate) fn from_tape<T: de::DeserializeOwned>(input: &str, nodes: &[Node]) -> Result<T> {
    T::deserialize(Value { input, nodes, i: 0 })
}

/// The value at node `i`.
#[derive(Clone, Copy)]
struct Value<'t, 'de> {
    input: &'de str,
    nodes: &'t [Node],
    i: u32,
}

impl<'t, 'de> Value<'t, 'de> {
    fn node(&self) -> Node {
        self.nodes[self.i as usize]
    }

    fn text(&self) -> &'de [u8] {
        self.str().as_bytes()
    }

    /// The raw text of the node (a string's between its quotes, which are char boundaries).
    fn str(&self) -> &'de str {
        let n = self.node();
        self.input
            .get(n.start as usize..n.end as usize)
            .unwrap_or_default()
    }

    fn at<T>(&self, result: Result<T>) -> Result<T> {
        result.map_err(|e| DeError {
            node: e.node.or(Some(self.i)),
        })
    }

    /// A value of a kind the visitor does not take.
    fn invalid<T>(&self, _expected: &dyn de::Expected) -> Result<T> {
        Err(DeError { node: Some(self.i) })
    }

    fn visit_number<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match number(self.text(), self.node().kind) {
            Some(Number::U64(n)) => visitor.visit_u64(n),
            Some(Number::I64(n)) => visitor.visit_i64(n),
            Some(Number::F64(n)) => visitor.visit_f64(n),
            None => self.invalid(&visitor),
        }
    }

    fn visit_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let node = self.node();
        if node.escaped {
            visitor.visit_str(&str_text(self.input.as_bytes(), &node))
        } else {
            visitor.visit_borrowed_str(self.str())
        }
    }

    fn visit_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let node = self.node();
        if node.escaped {
            visitor.visit_bytes(str_text(self.input.as_bytes(), &node).as_bytes())
        } else {
            visitor.visit_borrowed_bytes(self.text())
        }
    }

    fn visit_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let mut seq = Seq {
            input: self.input,
            nodes: self.nodes,
            next: self.i + 1,
            left: self.node().count,
        };
        let value = visitor.visit_seq(&mut seq)?;
        // serde_json refuses items the visitor left unread.
        if seq.left == 0 {
            Ok(value)
        } else {
            Err(DeError { node: Some(self.i) })
        }
    }

    fn visit_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let mut map = Map {
            input: self.input,
            nodes: self.nodes,
            next: self.i + 1,
            left: self.node().count,
        };
        let value = visitor.visit_map(&mut map)?;
        if map.left == 0 {
            Ok(value)
        } else {
            Err(DeError { node: Some(self.i) })
        }
    }
}

macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let result = match self.node().kind {
                NodeKind::Int | NodeKind::Float => self.visit_number(visitor),
                _ => self.invalid(&visitor),
            };
            self.at(result)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Value<'_, 'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match self.node().kind {
            NodeKind::Null => visitor.visit_unit(),
            NodeKind::Bool => visitor.visit_bool(self.text() == b"true"),
            NodeKind::Int | NodeKind::Float => self.visit_number(visitor),
            NodeKind::Str => self.visit_string(visitor),
            NodeKind::Array => self.visit_seq(visitor),
            NodeKind::Object => self.visit_map(visitor),
        };
        self.at(result)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match self.node().kind {
            NodeKind::Bool => visitor.visit_bool(self.text() == b"true"),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f64
    }

    /// serde_json parses a float at single precision where its `float_roundtrip` feature is
    /// on (any crate of the build may turn it on): its own `f32` parse decides.
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match self.node().kind {
            kind @ (NodeKind::Int | NodeKind::Float) => match f32_number(self.text(), kind) {
                Some(Number::U64(n)) => visitor.visit_u64(n),
                Some(Number::I64(n)) => visitor.visit_i64(n),
                Some(Number::F64(n)) => visitor.visit_f64(n),
                None => self.invalid(&visitor),
            },
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match (self.node().kind, i128_of(self.text())) {
            (NodeKind::Int, Some(n)) => visitor.visit_i128(n),
            (NodeKind::Int | NodeKind::Float, _) => self.visit_number(visitor),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match (self.node().kind, u128_of(self.text())) {
            (NodeKind::Int, Some(n)) => visitor.visit_u128(n),
            (NodeKind::Int | NodeKind::Float, _) => self.visit_number(visitor),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match self.node().kind {
            NodeKind::Str => self.visit_string(visitor),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match self.node().kind {
            NodeKind::Str => self.visit_bytes(visitor),
            NodeKind::Array => self.visit_seq(visitor),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match self.node().kind {
            NodeKind::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        };
        self.at(result)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match self.node().kind {
            NodeKind::Null => visitor.visit_unit(),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        // serde_json's `RawValue` protocol is not mirrored: serde_json decides.
        if serde_json_private(name) {
            return Err(DeError { node: Some(self.i) });
        }
        let result = visitor.visit_newtype_struct(self);
        self.at(result)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match self.node().kind {
            NodeKind::Array => self.visit_seq(visitor),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let result = match self.node().kind {
            NodeKind::Object => self.visit_map(visitor),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let result = match self.node().kind {
            NodeKind::Object => self.visit_map(visitor),
            NodeKind::Array => self.visit_seq(visitor),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let node = self.node();
        let result = match node.kind {
            NodeKind::Str => visitor.visit_enum(Enum {
                tag: self,
                content: None,
            }),
            NodeKind::Object if node.count == 1 => visitor.visit_enum(Enum {
                tag: Value {
                    i: self.i + 1,
                    ..self
                },
                content: Some(Value {
                    i: self.i + 2,
                    ..self
                }),
            }),
            _ => self.invalid(&visitor),
        };
        self.at(result)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }
}

struct Seq<'t, 'de> {
    input: &'de str,
    nodes: &'t [Node],
    next: u32,
    left: u32,
}

impl<'de> de::SeqAccess<'de> for Seq<'_, 'de> {
    type Error = DeError;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        let item = Value {
            input: self.input,
            nodes: self.nodes,
            i: self.next,
        };
        self.left -= 1;
        self.next = self.nodes[self.next as usize].next;
        seed.deserialize(item).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

struct Map<'t, 'de> {
    input: &'de str,
    nodes: &'t [Node],
    /// The next key node.
    next: u32,
    left: u32,
}

impl<'de> de::MapAccess<'de> for Map<'_, 'de> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        let key = Value {
            input: self.input,
            nodes: self.nodes,
            i: self.next,
        };
        seed.deserialize(Key(key)).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value> {
        // A visitor that asks for a value with no key before it breaks serde's contract:
        // an error, not a read past the object.
        if self.left == 0 {
            return Err(DeError { node: None });
        }
        let value = Value {
            input: self.input,
            nodes: self.nodes,
            i: self.next + 1,
        };
        self.left -= 1;
        self.next = self.nodes[value.i as usize].next;
        seed.deserialize(value)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

/// An object key, as serde_json's `MapKey` reads it: a string, or a number or a boolean
/// spelled in one where the key type asks for one.
struct Key<'t, 'de>(Value<'t, 'de>);

macro_rules! numeric_keys {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let key = self.0;
            let number = if key.node().escaped { None } else { key_number(key.text()) };
            let result = match number {
                Some(Number::U64(n)) => visitor.visit_u64(n),
                Some(Number::I64(n)) => visitor.visit_i64(n),
                Some(Number::F64(n)) => visitor.visit_f64(n),
                None => key.invalid(&visitor),
            };
            key.at(result)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Key<'_, 'de> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let key = self.0;
        key.at(key.visit_string(visitor))
    }

    numeric_keys! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f32 deserialize_f64
    }

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let key = self.0;
        let result = match i128_of(key.text()) {
            Some(n) => visitor.visit_i128(n),
            None => key.invalid(&visitor),
        };
        key.at(result)
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let key = self.0;
        let result = match u128_of(key.text()) {
            Some(n) => visitor.visit_u128(n),
            None => key.invalid(&visitor),
        };
        key.at(result)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let key = self.0;
        let result = match key.text() {
            b"true" if !key.node().escaped => visitor.visit_bool(true),
            b"false" if !key.node().escaped => visitor.visit_bool(false),
            _ => key.invalid(&visitor),
        };
        key.at(result)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let key = self.0;
        key.at(visitor.visit_enum(Enum {
            tag: key,
            content: None,
        }))
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let key = self.0;
        key.at(key.visit_bytes(visitor))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// An enum: its tag (a string node) and, from a one-key object, its content.
struct Enum<'t, 'de> {
    tag: Value<'t, 'de>,
    content: Option<Value<'t, 'de>>,
}

impl<'de> de::EnumAccess<'de> for Enum<'_, 'de> {
    type Error = DeError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        let value = seed.deserialize(Key(self.tag))?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for Enum<'_, 'de> {
    type Error = DeError;

    fn unit_variant(self) -> Result<()> {
        match self.content {
            None => Ok(()),
            Some(content) => de::Deserialize::deserialize(content),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        match self.content {
            Some(content) => seed.deserialize(content),
            None => Err(DeError {
                node: Some(self.tag.i),
            }),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        match self.content {
            Some(content) => de::Deserializer::deserialize_seq(content, visitor),
            None => Err(DeError {
                node: Some(self.tag.i),
            }),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.content {
            Some(content) => de::Deserializer::deserialize_struct(content, "", fields, visitor),
            None => Err(DeError {
                node: Some(self.tag.i),
            }),
        }
    }
}
