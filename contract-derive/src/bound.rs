//! The impl's `where` predicates when `#[handoff(bound = "…")]` does not give them: inferred
//! from the types the description names, the way serde_derive infers its `Serialize` and
//! `Deserialize` bounds.
//!
//! A type parameter is bounded by `HandoffSchema` only when a type the description names
//! uses it: a field or variant on the wire in at least one view, through its `schema_as`
//! type when it has one. A parameter that appears only in fields skipped both ways, in
//! skipped variants, in a replaced type (`schema_as`) or inside `PhantomData` (which describes
//! itself whatever its argument) asks nothing of its argument, so
//! `struct C<T: Iterator> { #[serde(skip)] t: T, marker: PhantomData<T> }` is described for
//! any `T`, as serde derives it for any `T`. An associated type (`T::Item`,
//! `<T as Trait>::Item`) is bounded itself (`T::Item: HandoffSchema`), not its parameter.

use crate::ast::{Data, Field, Input, Style};

/// What the description of an item needs of its type parameters.
pub struct Inferred {
    /// The type parameters a described type uses directly, in declaration order: each gets
    /// `T: HandoffSchema`, and its shape is part of the type's identity.
    pub params: Vec<syn::Ident>,
    /// The associated types a described type uses (`T::Item`), once each, in order of use:
    /// each gets `T::Item: HandoffSchema`.
    pub associated: Vec<syn::Type>,
}

/// The bounds the description of `input` needs.
pub fn infer(input: &Input) -> Inferred {
    let all: Vec<&syn::Ident> = input
        .original
        .generics
        .type_params()
        .map(|p| &p.ident)
        .collect();
    let mut uses = Uses {
        all: &all,
        used: vec![false; all.len()],
        associated: Vec::new(),
        seen: Vec::new(),
    };
    for ty in described_types(input) {
        uses.visit_type(ty);
    }
    Inferred {
        params: all
            .iter()
            .zip(&uses.used)
            .filter(|(_, used)| **used)
            .map(|(ident, _)| (*ident).clone())
            .collect(),
        associated: uses.associated,
    }
}

/// The types whose shapes the description of `input` names (the `shape_of` edges that
/// `expand` emits): the container's `schema_as` type alone when it has one; else every field
/// on the wire in at least one view (a newtype's one field always), and, of an enum, the
/// fields of every variant on the wire in at least one view, or that variant's `schema_as`
/// type.
fn described_types<'a>(input: &'a Input) -> Vec<&'a syn::Type> {
    if let Some(schema_as) = &input.attrs.schema_as {
        return vec![&schema_as.value];
    }
    let on_the_wire = |fields: &'a [Field<'a>]| {
        fields
            .iter()
            .filter(|f| !f.is_skipped())
            .map(Field::wire_type)
    };
    match &input.data {
        Data::Struct(fields) | Data::Tuple(fields) => on_the_wire(fields).collect(),
        Data::Newtype(field) => vec![field.wire_type()],
        Data::Unit => Vec::new(),
        Data::Enum(_, variants) => variants
            .iter()
            .filter(|v| !v.is_skipped())
            .flat_map(|v| match (&v.attrs.schema_as, v.style) {
                (Some(schema_as), _) => vec![&schema_as.value],
                (None, Style::Unit) => Vec::new(),
                // `expand` describes a newtype variant by its one field, skipped or not.
                (None, Style::Newtype) => v.fields.iter().take(1).map(Field::wire_type).collect(),
                (None, Style::Tuple | Style::Struct) => on_the_wire(&v.fields).collect(),
            })
            .collect(),
    }
}

/// Walks types, recording the type parameters and associated types they use.
struct Uses<'a> {
    /// The item's type parameters.
    all: &'a [&'a syn::Ident],
    /// Whether each of `all` is used directly.
    used: Vec<bool>,
    /// The associated types used.
    associated: Vec<syn::Type>,
    /// The text of each of `associated`, to record each once.
    seen: Vec<String>,
}

impl Uses<'_> {
    fn param(&self, ident: &syn::Ident) -> Option<usize> {
        self.all.iter().position(|p| *p == ident)
    }

    fn visit_type(&mut self, ty: &syn::Type) {
        match ty {
            syn::Type::Array(t) => self.visit_type(&t.elem),
            syn::Type::Group(t) => self.visit_type(&t.elem),
            syn::Type::Paren(t) => self.visit_type(&t.elem),
            syn::Type::Ptr(t) => self.visit_type(&t.elem),
            syn::Type::Reference(t) => self.visit_type(&t.elem),
            syn::Type::Slice(t) => self.visit_type(&t.elem),
            syn::Type::Tuple(t) => t.elems.iter().for_each(|e| self.visit_type(e)),
            syn::Type::FnPtr(t) => {
                t.inputs.iter().for_each(|arg| self.visit_type(&arg.ty));
                self.visit_return(&t.output);
            }
            syn::Type::ImplTrait(t) => t.bounds.iter().for_each(|b| self.visit_bound(b)),
            syn::Type::TraitObject(t) => t.bounds.iter().for_each(|b| self.visit_bound(b)),
            syn::Type::Path(t) => self.visit_type_path(ty, t),
            // A macro's expansion is unknown: like serde, it uses no parameter.
            _ => {}
        }
    }

    fn visit_type_path(&mut self, ty: &syn::Type, t: &syn::TypePath) {
        // `<T as Trait>::Item`: the projection is what must describe itself, not `T`.
        if t.qself.is_some() {
            if self.mentions_param(ty) {
                self.associate(ty);
            }
            return;
        }
        let path = &t.path;
        // `PhantomData<T>` describes itself for any `T`.
        if path
            .segments
            .last()
            .is_some_and(|s| s.ident == "PhantomData")
        {
            return;
        }
        if path.leading_colon.is_none() {
            if let Some(first) = path.segments.first() {
                if let Some(index) = self.param(&first.ident) {
                    if path.segments.len() == 1 {
                        self.used[index] = true;
                    } else {
                        // `T::Item`: an associated type of the parameter.
                        self.associate(ty);
                        return;
                    }
                }
            }
        }
        for segment in &path.segments {
            self.visit_arguments(&segment.arguments);
        }
    }

    fn visit_arguments(&mut self, arguments: &syn::PathArguments) {
        match arguments {
            syn::PathArguments::AngleBracketed(args) => {
                for arg in &args.args {
                    match arg {
                        syn::GenericArgument::Type(ty) => self.visit_type(ty),
                        syn::GenericArgument::AssocType(assoc) => self.visit_type(&assoc.ty),
                        _ => {}
                    }
                }
            }
            syn::PathArguments::Parenthesized(args) => {
                args.inputs.iter().for_each(|arg| self.visit_type(&arg.ty));
                self.visit_return(&args.output);
            }
            syn::PathArguments::None => {}
        }
    }

    fn visit_return(&mut self, output: &syn::ReturnType) {
        if let syn::ReturnType::Type(_, ty) = output {
            self.visit_type(ty);
        }
    }

    fn visit_bound(&mut self, bound: &syn::TypeParamBound) {
        if let syn::TypeParamBound::Trait(t) = bound {
            for segment in &t.path.segments {
                self.visit_arguments(&segment.arguments);
            }
        }
    }

    /// Records `ty` as an associated type to bound, once.
    fn associate(&mut self, ty: &syn::Type) {
        let text = quote::ToTokens::to_token_stream(ty).to_string();
        if !self.seen.contains(&text) {
            self.seen.push(text);
            self.associated.push(ty.clone());
        }
    }

    /// Whether `ty` names one of the type parameters anywhere.
    fn mentions_param(&self, ty: &syn::Type) -> bool {
        fn any(tokens: proc_macro2::TokenStream, all: &[&syn::Ident]) -> bool {
            tokens.into_iter().any(|tt| match tt {
                proc_macro2::TokenTree::Ident(ident) => all.iter().any(|p| **p == ident),
                proc_macro2::TokenTree::Group(group) => any(group.stream(), all),
                _ => false,
            })
        }
        any(quote::ToTokens::to_token_stream(ty), self.all)
    }
}
