//! The small readers that every attribute parser shares ([`crate::attr`] for
//! `#[handoff(...)]`, [`crate::allow`] for its `allow(...)`): where an attribute sits, a
//! value's tokens as written, a string literal, and skipping what failed to parse so that
//! parsing goes on with the next key.

use proc_macro2::{TokenStream, TokenTree};
use syn::parse::ParseStream;
use syn::{Error, Lit, LitStr, Token};

use crate::symbol::{CONTAINER_KEYS, FIELD_KEYS, VARIANT_KEYS};

/// Tokens as a user would write them (`version = 0`, `schema_as = Vec<u8>`).
pub fn written(tokens: &TokenStream) -> String {
    let text = tokens.to_string();
    // `to_string` spaces every token; close up the common punctuation.
    text.replace(" < ", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" ,", ",")
}

/// Where an attribute sits; decides which keys it accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// On the struct or enum.
    Container,
    /// On a field.
    Field,
    /// On an enum variant.
    Variant,
}

impl Position {
    /// The keys an attribute here accepts.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Position::Container => CONTAINER_KEYS,
            Position::Field => FIELD_KEYS,
            Position::Variant => VARIANT_KEYS,
        }
    }

    /// Where it is, for messages: "a field".
    pub fn describe(self) -> &'static str {
        match self {
            Position::Container => "a struct or enum",
            Position::Field => "a field",
            Position::Variant => "an enum variant",
        }
    }
}

/// Consumes the tokens up to the next comma (or the end): what is left of a setting whose
/// value failed to parse, so that parsing goes on with the next one.
pub fn skip_to_comma(input: ParseStream) -> syn::Result<()> {
    while !input.is_empty() && !input.peek(Token![,]) {
        input.parse::<TokenTree>()?;
    }
    Ok(())
}

/// The tokens up to the next comma (or the end), without consuming them.
pub fn value_tokens(input: ParseStream) -> TokenStream {
    let fork = input.fork();
    let mut tokens = TokenStream::new();
    while !fork.is_empty() && !fork.peek(Token![,]) {
        match fork.parse::<TokenTree>() {
            Ok(tt) => tokens.extend([tt]),
            Err(_) => break,
        }
    }
    tokens
}

/// The string literal that is the value of `key`; the error shows the form `key = example`.
pub fn string_literal(
    input: ParseStream,
    key: &dyn std::fmt::Display,
    example: &str,
) -> syn::Result<LitStr> {
    let message = || format!("`{key}` takes a string literal: `{key} = {example}`");
    match input.parse::<Lit>() {
        Ok(Lit::Str(lit)) => Ok(lit),
        Ok(other) => Err(Error::new_spanned(&other, message())),
        Err(err) => Err(Error::new(err.span(), message())),
    }
}

/// Whether `tokens` name the identifier `name` anywhere, inside groups too (a type parameter
/// in a field's type).
pub fn mentions_ident(tokens: &TokenStream, name: &str) -> bool {
    tokens.clone().into_iter().any(|tt| match tt {
        TokenTree::Ident(ident) => ident == name,
        TokenTree::Group(group) => mentions_ident(&group.stream(), name),
        TokenTree::Punct(_) | TokenTree::Literal(_) => false,
    })
}
