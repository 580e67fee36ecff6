//! Emission: one `'static` description per type, plus the contract's identity, and a
//! fallback implementation when there are errors so that one mistake does not cascade.
//!
//! Everything is emitted inside `const _: () = { ... };`, which imports the runtime's
//! `__private` items under one name (`__handoff_private`) from the absolute path of the crate.
//! Field type edges are spanned at the field's type, so a missing `HandoffSchema`
//! implementation is reported at the field.
//!
//! The expansion is kept small, since every token of it is compiled in the user's crate: a
//! field or variant is a `const fn` call (`Field::new(name, ty)`, `Variant::new(name, kind)`)
//! with only the members that differ from those defaults written beside it.

use proc_macro2::{TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::{DeriveInput, Error};

use contract_schema::model::Repr as WireRepr;
use contract_schema::Mode;

use crate::ast::{self, Data, DeriveKind, Field, Input, Style, Variant};
use crate::bound;
use crate::published;
use crate::symbol::DEFAULT_SNAPSHOTS;
use crate::valid;

/// Expands one derive: the description, or the errors and a fallback description.
pub fn derive(item: &DeriveInput, kind: DeriveKind) -> TokenStream {
    let parsed = ast::parse(item, kind);
    let mut errors = parsed.errors;
    let krate = parsed.krate;
    let Some(input) = parsed.input else {
        return fallback(item, kind, &krate, errors);
    };
    valid::check(&input, &mut errors);
    let contract = match kind {
        DeriveKind::Contract if errors.is_empty() => match contract_info(&input, &krate) {
            Ok((tokens, outcome)) => {
                errors.extend(outcome.errors);
                Some((tokens, outcome.track, outcome.embedded))
            }
            Err(err) => {
                errors.push(err);
                None
            }
        },
        _ => None,
    };
    if !errors.is_empty() {
        return fallback(item, kind, &krate, errors);
    }
    expand(&input, &krate, contract)
}

/// The generics of the impl: `HandoffSchema` on the type parameters and associated types the
/// description uses (see [`crate::bound`]), unless `#[handoff(bound = "…")]` gives the `where`
/// predicates instead (like serde's `bound`).
fn bounded_generics(
    generics: &syn::Generics,
    krate: &syn::Path,
    bound: Option<&[syn::WherePredicate]>,
    inferred: &bound::Inferred,
) -> syn::Generics {
    let mut generics = generics.clone();
    let predicates = &mut generics.make_where_clause().predicates;
    match bound {
        Some(given) => predicates.extend(given.iter().cloned()),
        None => {
            let params = inferred.params.iter().map(|ident| -> syn::WherePredicate {
                syn::parse_quote!(#ident: #krate::HandoffSchema)
            });
            let associated = inferred
                .associated
                .iter()
                .map(|ty| -> syn::WherePredicate { syn::parse_quote!(#ty: #krate::HandoffSchema) });
            predicates.extend(params.chain(associated));
        }
    }
    generics
}

/// Whether the predicates bound `param` by `HandoffSchema` (under any path).
fn bounds_schema(predicates: &[syn::WherePredicate], param: &syn::Ident) -> bool {
    predicates.iter().any(|predicate| match predicate {
        syn::WherePredicate::Type(t) => {
            matches!(&t.bounded_ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident(param))
                && t.bounds.iter().any(|b| {
                    matches!(b, syn::TypeParamBound::Trait(tr)
                        if tr.path.segments.last().is_some_and(|s| s.ident == "HandoffSchema"))
                })
        }
        _ => false,
    })
}

fn expand(
    input: &Input,
    krate: &syn::Path,
    contract: Option<(TokenStream, TokenStream, TokenStream)>,
) -> TokenStream {
    let item = input.original;
    let ident = &item.ident;
    let p = private();
    let bound = input.attrs.bound.as_ref().map(|b| b.value.as_slice());
    let inferred = bound::infer(input);
    let generics = bounded_generics(&item.generics, krate, bound, &inferred);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    // A type's identity holds the shapes of its type arguments that describe themselves:
    // those its description uses, or with `bound`, those the bound says do
    // (`T: HandoffSchema`).
    let generic_shapes = item
        .generics
        .type_params()
        .filter(|param| match bound {
            Some(b) => bounds_schema(b, &param.ident),
            None => inferred.params.contains(&param.ident),
        })
        .map(|param| {
            let id = &param.ident;
            quote!(#p::shape_of::<#id>)
        });
    let doc = &input.doc;
    let kind = kind(input, krate);
    let params: Vec<String> = item
        .generics
        .type_params()
        .map(|param| param.ident.to_string())
        .collect();
    // A generic contract publishes its description with each type parameter as a hole and
    // its name without arguments: one snapshot for every instantiation.
    let published_shape = match contract {
        Some(_) if !params.is_empty() => {
            holes(kind.clone(), &params, &quote!(#p::Hole)).map(|hole_kind| {
                quote! {
                    const PUBLISHED_SHAPE: ::core::option::Option<&'static #p::Shape> =
                        ::core::option::Option::Some(&#p::Shape {
                            name: #name,
                            module: ::core::module_path!(),
                            generics: &[],
                            doc: #doc,
                            kind: #hole_kind,
                        });
                }
            })
        }
        _ => None,
    };
    let (assertions, generic_assertions) = flatten_assertions(input, krate);
    let shape = quote! {
        #p::Shape {
            name: #name,
            module: ::core::module_path!(),
            generics: &[#(#generic_shapes),*],
            doc: #doc,
            kind: #kind,
        }
    };
    // Checks that depend on the generic arguments run when an instantiation's shape is
    // evaluated.
    let shape = if generic_assertions.is_empty() {
        shape
    } else {
        quote!({ #(#generic_assertions)* #shape })
    };

    let (schema_fn, contract_impl, snapshot_test, track) = match contract {
        Some((info, track, embedded)) => {
            // A constant, not a `schema()` body: the trait's default method resolves it, so
            // that a contract adds no function of its own for the user's crate to compile.
            let schema_fn = quote! {
                const __CONTRACT: ::core::option::Option<&'static #p::ContractInfo> =
                    ::core::option::Option::Some(&<Self as #krate::HandoffContract>::CONTRACT);
            };
            let contract_impl = quote! {
                #[automatically_derived]
                impl #impl_generics #krate::HandoffContract for #ident #ty_generics #where_clause {
                    const CONTRACT: #p::ContractInfo = #info;
                    #embedded
                    #published_shape
                }
            };
            let is_generic = item.generics.params.iter().next().is_some();
            let snapshot_test = if is_generic {
                TokenStream::new()
            } else {
                let test = format_ident!("__handoff_snapshot_{}", name);
                quote!(#krate::__private::snapshot_test!(#krate; #ident; #test);)
            };
            (schema_fn, contract_impl, snapshot_test, track)
        }
        None => (
            TokenStream::new(),
            TokenStream::new(),
            TokenStream::new(),
            TokenStream::new(),
        ),
    };

    // The nested check (see `published::nested`): the answers of this type to the published
    // contracts that hold it, and the root's questions to the types it holds.
    let own = input
        .attrs
        .name
        .as_ref()
        .zip(input.attrs.version.as_ref())
        .map(|(name, version)| (name.value.value(), version.value));
    let answer = published::answer(input, krate, own.as_ref().map(|(n, v)| (n.as_str(), *v)));
    let unanswered = if answer.is_empty() && track.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[allow(unused_imports)] use #p::Unanswered as _;)
    };
    quote! {
        const _: () = {
            use #krate::__private as #p;
            #unanswered
            #[automatically_derived]
            impl #impl_generics #krate::HandoffSchema for #ident #ty_generics #where_clause {
                const SHAPE: &'static #p::Shape = &#shape;
                #schema_fn
            }
            #contract_impl
            #(#assertions)*
            #track
            #answer
        };
        #snapshot_test
    }
}

/// `kind`'s tokens with every type parameter of `params` replaced by `hole`, or `None` when a
/// parameter is used through one of its associated types (`T::Item`, `<T as Trait>::Item`),
/// which a hole does not have: such a contract publishes the instantiation it is called with.
/// A parameter's name is replaced only where it starts a path (not after `::`), so that a
/// parameter named like an item of the expansion (`Kind`) leaves `__handoff_private::Kind` alone.
fn holes(tokens: TokenStream, params: &[String], hole: &TokenStream) -> Option<TokenStream> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = TokenStream::new();
    for (i, tt) in tokens.iter().enumerate() {
        let after_path_sep =
            i >= 1 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
        match tt {
            TokenTree::Ident(ident) if !after_path_sep && params.iter().any(|p| ident == p) => {
                let next = tokens.get(i + 1);
                let associated = match next {
                    Some(TokenTree::Punct(p)) => p.as_char() == ':',
                    Some(TokenTree::Ident(word)) => word == "as",
                    _ => false,
                };
                if associated {
                    return None;
                }
                out.extend(hole.clone());
            }
            TokenTree::Group(group) => {
                let inner = holes(group.stream(), params, hole)?;
                let mut replaced = proc_macro2::Group::new(group.delimiter(), inner);
                replaced.set_span(group.span());
                out.extend([TokenTree::Group(replaced)]);
            }
            other => out.extend([other.clone()]),
        }
    }
    Some(out)
}

/// The edge to a field's type, spanned at that type so that rustc reports a missing
/// `HandoffSchema` implementation at the field.
fn shape_fn(ty: &syn::Type) -> TokenStream {
    let span = ty.span();
    let p = private();
    quote_spanned!(span=> #p::shape_of::<#ty>)
}

/// The name under which the expansion's `const _` block imports `__private`
/// (`use ::contract_core::__private as __handoff_private;`): one identifier for the path each
/// item of the description names, so that a field costs a few tokens.
fn private() -> TokenStream {
    quote!(__handoff_private)
}

fn kind(input: &Input, krate: &syn::Path) -> TokenStream {
    let p = private();
    if let Some(schema_as) = &input.attrs.schema_as {
        let inner = shape_fn(&schema_as.value);
        return quote!(#p::Kind::Newtype(#inner));
    }
    if let Some(kind) = crate::repr::kind(input, krate) {
        return kind;
    }
    match &input.data {
        Data::Struct(fields) => {
            let fields = fields_tokens(fields);
            let deny = input.deny_unknown_fields;
            quote!(#p::Kind::Struct(&#p::StructShape { fields: &[#(#fields),*], deny_unknown_fields: #deny }))
        }
        // serde reads a transparent struct with its field's own `Deserialize` (a missing
        // transparent `Option` is `None`), a newtype struct through
        // `deserialize_newtype_struct` (a missing one is an error).
        Data::Newtype(field) if field.transparent => {
            let inner = shape_fn(field.wire_type());
            quote!(#p::Kind::Transparent(#inner))
        }
        Data::Newtype(field) => {
            let inner = shape_fn(field.wire_type());
            quote!(#p::Kind::Newtype(#inner))
        }
        // serde writes the fields that are not `skip_serializing` and reads those that are
        // not `skip_deserializing`: a field skipped in one direction only gives the two views
        // arrays of different lengths.
        Data::Tuple(fields) => {
            let items = |keep: fn(&Field) -> bool| {
                let items = fields
                    .iter()
                    .filter(|f| keep(f))
                    .map(|f| shape_fn(f.wire_type()));
                quote!(#p::Kind::Tuple(&[#(#items),*]))
            };
            if fields
                .iter()
                .any(|f| f.skip_serializing != f.skip_deserializing)
            {
                let sender = items(|f| !f.skip_serializing);
                let receiver = items(|f| !f.skip_deserializing);
                quote!(#p::Kind::Views(&#p::ViewsShape { sender: #sender, receiver: #receiver }))
            } else {
                items(|f| !f.is_skipped())
            }
        }
        Data::Unit => quote!(#p::Kind::Unit),
        Data::Enum(repr, variants) => {
            let repr = match repr.on_the_wire(variants) {
                WireRepr::External => quote!(#p::Repr::External),
                WireRepr::Internal { tag } => quote!(#p::Repr::Internal { tag: #tag }),
                WireRepr::Adjacent { tag, content } => {
                    quote!(#p::Repr::Adjacent { tag: #tag, content: #content })
                }
                WireRepr::Untagged => quote!(#p::Repr::Untagged),
            };
            let variants = variants
                .iter()
                .filter(|v| !v.is_skipped())
                .map(variant_tokens);
            let deny = input.deny_unknown_fields;
            quote!(#p::Kind::Enum(&#p::EnumShape { repr: #repr, variants: &[#(#variants),*], deny_unknown_fields: #deny }))
        }
    }
}

fn fields_tokens<'a>(fields: &'a [Field]) -> impl Iterator<Item = TokenStream> + 'a {
    fields.iter().filter(|f| !f.is_skipped()).map(field_tokens)
}

fn field_tokens(field: &Field) -> TokenStream {
    let p = private();
    let Field {
        name,
        ser_name,
        de_name,
        aliases,
        default,
        skip_deserializing,
        flatten,
        doc,
        ..
    } = field;
    let send = if field.skip_serializing {
        format_ident!("Never")
    } else if field.skip_if_none {
        format_ident!("IfSome")
    } else if field.skip_serializing_if {
        format_ident!("IfPresent")
    } else {
        format_ident!("Always")
    };
    let renamed_from: Vec<String> = field
        .attrs
        .renamed_from
        .iter()
        .map(|s| s.value.value())
        .collect();
    let ty = shape_fn(field.wire_type());
    // `Field::new` holds every member at its default (the Rust name on the wire, always sent,
    // required, confirmed, no doc): only the members that differ are written, so that a plain
    // field is one `const fn` call.
    let mut members = name_members(name, ser_name, de_name, aliases);
    if send != "Always" {
        members.extend(quote!(send: #p::Send::#send,));
    }
    if *default {
        members.extend(quote!(default: true,));
    }
    if *skip_deserializing {
        members.extend(quote!(skip_deserializing: true,));
    }
    if *flatten {
        members.extend(quote!(flatten: true,));
    }
    if field.attrs.assumption.is_some() {
        members.extend(quote!(provenance: #p::Provenance::Assumption,));
    }
    if !renamed_from.is_empty() {
        members.extend(quote!(renamed_from: &[#(#renamed_from),*],));
    }
    let plain = quote!(#p::Field::new(#name, #ty));
    with_members("Field", plain, members, doc)
}

fn variant_tokens(variant: &Variant) -> TokenStream {
    let p = private();
    let Variant {
        name,
        ser_name,
        de_name,
        aliases,
        skip_serializing,
        skip_deserializing,
        other,
        untagged,
        doc,
        ..
    } = variant;
    let kind = if let Some(schema_as) = &variant.attrs.schema_as {
        let inner = shape_fn(&schema_as.value);
        quote!(#p::VariantKind::Newtype(#inner))
    } else {
        match variant.style {
            Style::Unit => quote!(#p::VariantKind::Unit),
            Style::Newtype => match variant.fields.first() {
                Some(field) => {
                    let inner = shape_fn(field.wire_type());
                    quote!(#p::VariantKind::Newtype(#inner))
                }
                None => quote!(#p::VariantKind::Unit),
            },
            Style::Tuple => {
                let items = variant
                    .fields
                    .iter()
                    .filter(|f| !f.is_skipped())
                    .map(|f| shape_fn(f.wire_type()));
                quote!(#p::VariantKind::Tuple(&[#(#items),*]))
            }
            Style::Struct => {
                let fields = fields_tokens(&variant.fields);
                quote!(#p::VariantKind::Struct(&[#(#fields),*]))
            }
        }
    };
    // As for a field: `Variant::new` and the members that differ from its defaults.
    let mut members = name_members(name, ser_name, de_name, aliases);
    for (set, member) in [
        (*skip_serializing, "skip_serializing"),
        (*skip_deserializing, "skip_deserializing"),
        (*other, "other"),
        (*untagged, "untagged"),
    ] {
        if set {
            let member = format_ident!("{member}");
            members.extend(quote!(#member: true,));
        }
    }
    let plain = quote!(#p::Variant::new(#name, #kind));
    with_members("Variant", plain, members, doc)
}

/// The members of a `Field` or a `Variant` for its names that differ from the defaults of
/// its `new` (the Rust name on the wire both ways, no alias).
fn name_members(name: &str, ser_name: &str, de_name: &str, aliases: &[String]) -> TokenStream {
    let mut members = TokenStream::new();
    if ser_name != name {
        members.extend(quote!(ser_name: #ser_name,));
    }
    if de_name != name {
        members.extend(quote!(de_name: #de_name,));
    }
    if !aliases.is_empty() {
        members.extend(quote!(aliases: &[#(#aliases),*],));
    }
    members
}

/// `plain` (a `Field::new` or `Variant::new` call), or the struct `ty` of `__private` with
/// `members` and a non-empty `doc` written and the rest taken from `plain`.
fn with_members(ty: &str, plain: TokenStream, mut members: TokenStream, doc: &str) -> TokenStream {
    if !doc.is_empty() {
        members.extend(quote!(doc: #doc,));
    }
    if members.is_empty() {
        plain
    } else {
        let (p, ty) = (private(), format_ident!("{ty}"));
        quote!(#p::#ty { #members ..#plain })
    }
}

/// For each flattened field, a constant that fails to evaluate unless its type is a struct,
/// an enum or a map (or an `Option`, newtype or transparent struct, which serde looks through): the
/// type itself and, for an `Option<X>` written as such, `X` too. A type known outside the impl
/// is checked by an item of its own (first list); one that mentions a generic parameter is
/// checked inside `SHAPE` (second list), so that each instantiation is checked when its
/// schema is built: `Envelope<Figure>` with a flattened `T` is a compile error, not a schema
/// that captures any key.
///
/// Under `#[serde(deny_unknown_fields)]` (of the struct, or of the enum whose struct variant
/// flattens) the type must also be one that *takes* its keys: serde gives a flattened struct
/// without a `flatten` of its own (through `deserialize_struct`) and an externally tagged enum
/// (through `deserialize_enum`) the keys they read, and then rejects the keys nobody took. A
/// map, a `Value`, an internally or adjacently tagged or untagged enum, or a struct with a
/// `flatten` of its own is read through `deserialize_map`/`deserialize_any`, which only
/// borrows the keys: serde then rejects each key it read as unknown. Those are a compile error
/// that says so. (A newtype or transparent struct flattened is looked through by serde and
/// cannot be seen through here; it is left to the description.)
fn flatten_assertions(input: &Input, krate: &syn::Path) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let p = private();
    let params: Vec<String> = input
        .original
        .generics
        .params
        .iter()
        .map(|param| match param {
            syn::GenericParam::Type(t) => t.ident.to_string(),
            syn::GenericParam::Lifetime(l) => l.lifetime.ident.to_string(),
            syn::GenericParam::Const(c) => c.ident.to_string(),
        })
        .collect();
    let fields: Vec<&Field> = match &input.data {
        Data::Struct(fields) => fields.iter().collect(),
        Data::Enum(_, variants) => variants
            .iter()
            .filter(|v| v.style == Style::Struct && v.attrs.schema_as.is_none())
            .flat_map(|v| v.fields.iter())
            .collect(),
        Data::Newtype(_) | Data::Tuple(_) | Data::Unit => Vec::new(),
    };
    // An enum's `deny_unknown_fields` reaches its struct variants.
    let deny = input.deny_unknown_fields;
    let mut outside = Vec::new();
    let mut inside = Vec::new();
    if input.attrs.schema_as.is_some() {
        return (outside, inside);
    }
    let checked = fields
        .into_iter()
        .filter(|f| f.flatten && !f.is_skipped())
        .flat_map(|f| {
            let ty = f.wire_type();
            std::iter::once(ty).chain(option_inner(ty))
        })
        // `Self` cannot be checked while its own shape is being defined.
        .filter(|ty| !mentions(ty.to_token_stream(), &["Self".to_owned()]));
    for ty in checked {
        let span = ty.span();
        let message = format!(
            "`#[serde(flatten)]` needs a struct, an enum or a map (or an `Option` of one), and `{}` is none of them",
            crate::syntax::written(&ty.to_token_stream())
        );
        let mixed = format!(
            "`#[serde(flatten)]` of `{}`, an enum with `#[serde(untagged)]` variants, is not \
             supported by handoff-contract: serde reads such an enum from all the keys left \
             beside the fields, which the description does not follow; give it a field of its own \
             instead of flattening it",
            crate::syntax::written(&ty.to_token_stream())
        );
        // Under `deny_unknown_fields`, the types that only borrow the keys come first.
        let borrowing = if deny {
            let written = crate::syntax::written(&ty.to_token_stream());
            let borrowed = |what: &str| {
                format!(
                    "`#[serde(flatten)]` of `{written}` ({what}) cannot be combined with \
                     `#[serde(deny_unknown_fields)]`: serde lends it the keys no field takes, \
                     then rejects each of them as unknown; only a struct without a `flatten` \
                     of its own, an `Option` of one, or an externally tagged enum takes its \
                     keys: remove `deny_unknown_fields` or flatten one of those"
                )
            };
            let map = borrowed("a map");
            let any = borrowed("any JSON value");
            let flattening = borrowed("a struct with a `#[serde(flatten)]` field of its own");
            let internal = borrowed("an internally tagged enum");
            let adjacent = borrowed("an adjacently tagged enum");
            let untagged = borrowed("an untagged enum");
            quote_spanned! {span=>
                #p::Kind::Struct(s) if s.flattens() => ::core::panic!(#flattening),
                #p::Kind::Enum(#p::EnumShape { repr: #p::Repr::Internal { .. }, .. }) => {
                    ::core::panic!(#internal)
                }
                #p::Kind::Enum(#p::EnumShape { repr: #p::Repr::Adjacent { .. }, .. }) => {
                    ::core::panic!(#adjacent)
                }
                #p::Kind::Enum(#p::EnumShape { repr: #p::Repr::Untagged, .. }) => {
                    ::core::panic!(#untagged)
                }
                #p::Kind::Map { .. } => ::core::panic!(#map),
                #p::Kind::Any => ::core::panic!(#any),
            }
        } else {
            TokenStream::new()
        };
        let check = quote_spanned! {span=>
            match <#ty as #krate::HandoffSchema>::SHAPE.kind {
                #p::Kind::Enum(e) if e.has_untagged_variants() => ::core::panic!(#mixed),
                #borrowing
                #p::Kind::Struct(_)
                | #p::Kind::Enum(_)
                | #p::Kind::Map { .. }
                | #p::Kind::Option(_)
                | #p::Kind::Newtype(_)
                | #p::Kind::Transparent(_)
                | #p::Kind::Any => {}
                _ => ::core::panic!(#message),
            }
        };
        if mentions(ty.to_token_stream(), &params) {
            inside.push(quote!(#check;));
        } else {
            outside.push(quote!(const _: () = #check;));
        }
    }
    (outside, inside)
}

/// `X` when `ty` is written `Option<X>`, through every layer (`Option<Option<X>>`).
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let inner = crate::option::option_arg(ty)?;
    option_inner(inner).or(Some(inner))
}

/// Whether `tokens` mention one of `names` as an identifier.
fn mentions(tokens: TokenStream, names: &[String]) -> bool {
    tokens.into_iter().any(|tt| match tt {
        TokenTree::Ident(ident) => names.iter().any(|n| ident == n),
        TokenTree::Group(group) => mentions(group.stream(), names),
        TokenTree::Punct(_) | TokenTree::Literal(_) => false,
    })
}

/// The contract's `ContractInfo` literal, resolving its snapshots folder now, and the
/// outcome of the compile-time check against its published snapshot.
fn contract_info(
    input: &Input,
    krate: &syn::Path,
) -> Result<(TokenStream, published::Outcome), Error> {
    let p = private();
    let attrs = &input.attrs;
    let (Some(name), Some(version)) = (&attrs.name, &attrs.version) else {
        return Err(Error::new_spanned(
            &input.original.ident,
            "a contract needs `name` and `version`",
        ));
    };
    let name = name.value.value();
    let version = version.value;
    let mode_value = attrs.mode.as_ref().map_or(Mode::default(), |m| m.value);
    let mode = match mode_value {
        Mode::Backward => quote!(Backward),
        Mode::Forward => quote!(Forward),
        Mode::Full => quote!(Full),
        Mode::BackwardTransitive => quote!(BackwardTransitive),
        Mode::ForwardTransitive => quote!(ForwardTransitive),
        Mode::FullTransitive => quote!(FullTransitive),
    };
    // Displayed as the runtime displays it: `ContractId` is the one `name/vN` formatter.
    let id = contract_schema::ContractId {
        name: name.clone(),
        version,
    }
    .to_string();
    let dir = snapshots_dir(input)?;
    let allows = published::allow_entries(input)
        .into_iter()
        .map(|(rule, field, reason)| {
            let rule = rule.id();
            quote!(#p::AllowInfo { rule: #rule, field: #field, reason: #reason })
        });
    let info = quote! {
        #p::ContractInfo {
            name: #name,
            version: #version,
            mode: #p::Mode::#mode,
            id: #id,
            snapshots_dir: #dir,
            allows: &[#(#allows),*],
        }
    };
    let relative = input
        .attrs
        .snapshots
        .as_ref()
        .map_or_else(|| DEFAULT_SNAPSHOTS.to_owned(), |s| s.value.value());
    let contract = published::Contract {
        name: &name,
        version,
        mode: mode_value,
        dir: &dir,
        relative: &relative,
    };
    let mut outcome = published::check(input, &contract);
    outcome.embedded = published::embedded(&contract, krate);
    if let Some((number, asks)) = outcome.asks.take() {
        let root = input.original.ident.to_token_stream();
        outcome
            .track
            .extend(published::probe_items(&asks, number, version, &root, krate));
    }
    Ok((info, outcome))
}

/// `CARGO_MANIFEST_DIR` joined with `snapshots = "dir"` (default `contracts`).
fn snapshots_dir(input: &Input) -> Result<String, Error> {
    let (relative, span) = match &input.attrs.snapshots {
        Some(setting) => (setting.value.value(), setting.value.span()),
        None => (DEFAULT_SNAPSHOTS.to_owned(), input.original.ident.span()),
    };
    let Some(manifest_dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return Err(Error::new(
            span,
            "cannot resolve the contract's snapshots folder: the environment variable \
             CARGO_MANIFEST_DIR is not set (build with cargo)",
        ));
    };
    let dir = std::path::Path::new(&manifest_dir).join(relative);
    match dir.to_str() {
        Some(dir) => Ok(dir.to_owned()),
        None => Err(Error::new(
            span,
            "the contract's snapshots folder is not valid UTF-8: move the crate or set \
             `#[handoff(snapshots = \"...\")]`",
        )),
    }
}

/// The errors, and an implementation that describes the type as `any` so that uses of
/// the type elsewhere do not add errors of their own.
fn fallback(
    item: &DeriveInput,
    kind: DeriveKind,
    krate: &syn::Path,
    errors: Vec<Error>,
) -> TokenStream {
    let p = quote!(#krate::__private);
    let ident = &item.ident;
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    // The fallback describes nothing of its parameters, so it asks nothing of them: a use of
    // the type elsewhere adds no error of its own.
    let generics = item.generics.clone();
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let contract = match kind {
        DeriveKind::Contract => quote! {
            #[automatically_derived]
            impl #impl_generics #krate::HandoffContract for #ident #ty_generics #where_clause {
                const CONTRACT: #p::ContractInfo = #p::ContractInfo {
                    name: "invalid-contract",
                    version: 1,
                    mode: #p::Mode::Full,
                    id: "invalid-contract/v1",
                    snapshots_dir: "",
                    allows: &[],
                };
            }
        },
        DeriveKind::Schema => TokenStream::new(),
    };
    let errors = errors.into_iter().map(Error::into_compile_error);
    quote! {
        #(#errors)*
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #krate::HandoffSchema for #ident #ty_generics #where_clause {
                const SHAPE: &'static #p::Shape = &#p::Shape {
                    name: #name,
                    module: ::core::module_path!(),
                    generics: &[],
                    doc: "",
                    kind: #p::Kind::Any,
                };
            }
            #contract
        };
    }
}

#[cfg(test)]
mod tests {
    use super::{derive, DeriveKind};

    fn expand(kind: DeriveKind, source: &str) -> String {
        let item: syn::DeriveInput = syn::parse_str(source).expect("test input parses");
        derive(&item, kind).to_string()
    }

    fn errors(kind: DeriveKind, source: &str) -> usize {
        expand(kind, source).matches("compile_error").count()
    }

    #[test]
    fn a_valid_contract_expands_without_errors() {
        let out = expand(
            DeriveKind::Contract,
            r#"#[handoff(name = "ping", version = 3, mode = "backward")]
               struct Ping { seq: u64 }"#,
        );
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("\"ping/v3\""), "{out}");
        assert!(out.contains("Mode :: Backward"), "{out}");
        assert!(out.contains("snapshot_test"), "{out}");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("contracts");
        assert!(
            out.contains(&format!("{:?}", dir.to_str().expect("utf-8 path"))),
            "{out}"
        );
    }

    #[test]
    fn generic_contracts_emit_no_snapshot_test() {
        let out = expand(
            DeriveKind::Contract,
            r#"#[handoff(name = "envelope", version = 1)] struct Envelope<T> { payload: T }"#,
        );
        assert!(!out.contains("snapshot_test"), "{out}");
        assert!(out.contains("HandoffSchema"), "{out}");
    }

    #[test]
    fn every_error_is_reported_with_a_fallback_impl() {
        let out = expand(
            DeriveKind::Contract,
            r#"#[handoff(name = "Bad_Name", version = 0, colour = "red")]
               struct Bad {
                   #[handoff(assumption, confirmed, renamed_from = "x")]
                   x: u8,
               }"#,
        );
        // name, version, colour, `assumption, confirmed` (one conflict), renamed_from.
        assert_eq!(out.matches("compile_error").count(), 5, "{out}");
        assert!(out.contains("Kind :: Any"), "{out}");
        assert!(out.contains("\"invalid-contract/v1\""), "{out}");
    }

    #[test]
    fn an_integer_repr_says_how_it_is_written() {
        for (case, expected) in [
            // Ambiguous: serde_repr writes `1`, serde's derive `"A"`.
            ("#[repr(u8)] enum E { A = 1, B = 2 }", 1),
            ("#[repr(C, i32)] enum E { A, B }", 1),
            ("#[repr(u8)] #[handoff(repr)] enum E { A = 1, B = 2 }", 0),
            ("#[repr(u8)] #[handoff(by_name)] enum E { A = 1, B = 2 }", 0),
            // `schema_as` names the wire form; beside `repr` it is a conflict.
            (
                "#[repr(u8)] #[handoff(schema_as = u8)] enum E { A = 1, B = 2 }",
                0,
            ),
            (
                "#[repr(u8)] #[handoff(repr, schema_as = u8)] enum E { A = 1 }",
                1,
            ),
            // A data-carrying enum is no serde_repr enum: nothing to say.
            ("#[repr(u8)] enum E { A(u8), B }", 0),
            // No integer in `#[repr]`: nothing to say.
            ("#[repr(C)] enum E { A, B }", 0),
            ("#[repr(align(8))] struct S { x: u8 }", 0),
            ("#[handoff(repr)] enum E { A, B }", 1),
            ("#[repr(u8)] #[handoff(repr, by_name)] enum E { A }", 1),
            (
                "#[repr(u8)] #[handoff(repr)] enum E { A, B(u8), C { x: u8 } }",
                2,
            ),
            ("#[handoff(by_name)] struct S { x: u8 }", 1),
            ("#[handoff(repr = true)] enum E { A }", 1),
        ] {
            assert_eq!(errors(DeriveKind::Schema, case), expected, "{case}");
        }
    }

    #[test]
    fn a_conflict_is_one_error() {
        let cases = [
            // Adjacent in one attribute: one error spanning both.
            r#"struct A { #[handoff(assumption, confirmed)] x: u8 }"#,
            // In two attributes: one error at the later one.
            r#"struct A { #[handoff(confirmed)] #[handoff(assumption)] x: u8 }"#,
            r#"struct A { #[handoff(assumption, schema_as = u8, confirmed)] x: u8 }"#,
            r#"struct A { #[handoff(renamed_from = "y", renamed_from = "y")] x: u8 }"#,
            // A contract's settings on a nested type: one error for the derive chosen.
            r#"#[handoff(name = "a", version = 1)] struct A { x: u8 }"#,
            r#"#[handoff(name = "a")] #[handoff(mode = "full")] struct A { x: u8 }"#,
            // Two keys that hide the wire form, one fix.
            r#"#[serde(from = "W", into = "W")] struct A { x: u8 }"#,
            r#"#[serde(from = "W")] #[serde(into = "W")] struct A { x: u8 }"#,
        ];
        for case in cases {
            assert_eq!(errors(DeriveKind::Schema, case), 1, "{case}");
        }
        // A contract with no identity at all.
        assert_eq!(errors(DeriveKind::Contract, "struct A { x: u8 }"), 1);
        for case in [
            r#"#[handoff(name = "a", version = 1, version = 2)] struct A { x: u8 }"#,
            r#"#[handoff(name = "a", version = 1)] #[handoff(version = 2)] struct A { x: u8 }"#,
        ] {
            assert_eq!(errors(DeriveKind::Contract, case), 1, "{case}");
        }
    }

    #[test]
    fn malformed_attributes_are_errors_not_panics() {
        let cases = [
            r#"#[handoff] struct A { x: u8 }"#,
            r#"#[handoff = "x"] struct A { x: u8 }"#,
            r#"#[handoff(name)] struct A { x: u8 }"#,
            r#"#[handoff(name = )] struct A { x: u8 }"#,
            r#"#[handoff(name = "a", version = -1)] struct A { x: u8 }"#,
            r#"#[handoff(name = "a", version = 1u8)] struct A { x: u8 }"#,
            r#"#[handoff(name = "a", version = 1.5)] struct A { x: u8 }"#,
            r#"#[handoff(a::b = 1)] struct A { x: u8 }"#,
            r#"#[handoff(name = "a", version = 1, crate = "")] struct A { x: u8 }"#,
            r#"#[handoff(name = "a", version = 1, snapshots = " ")] struct A { x: u8 }"#,
            r#"#[handoff(name = "a", version = 1, schema_as = )] struct A { x: u8 }"#,
            r#"#[handoff(name = "", version = 1)] struct A { x: u8 }"#,
            r#"#[handoff(name = "---", version = 1)] struct A { x: u8 }"#,
            r#"#[handoff(name = "a", version = 1)] struct A { #[handoff(renamed_from)] x: u8 }"#,
            r#"#[handoff(name = "a", version = 1)] struct A { #[handoff(renamed_from = 3)] x: u8 }"#,
            r#"#[handoff(name = "a", version = 1)] enum A { #[handoff(assumption)] X }"#,
            r#"#[handoff(name = "a", version = 1)] union A { x: u8 }"#,
            r#"#[handoff(name = "a", version = 1)] #[serde(rename_all = "nonsense")] struct A { x: u8 }"#,
            r#"#[handoff(name = "a", version = 1)] #[serde(transparent)] enum A { X }"#,
        ];
        for case in cases {
            assert!(
                errors(DeriveKind::Contract, case) > 0
                    || expand(DeriveKind::Contract, case).contains("Kind :: Any"),
                "no error and no fallback for {case}"
            );
        }
    }

    #[test]
    fn unusual_but_valid_items_expand() {
        let cases = [
            "enum Never {}",
            "struct Unit;",
            "struct Empty {}",
            "struct Tuple();",
            "struct R { r#type: u8 }",
            "struct L<'a, T: 'a, const N: usize> where T: Clone { x: &'a [T; N] }",
        ];
        for case in cases {
            assert_eq!(errors(DeriveKind::Schema, case), 0, "{case}");
        }
    }
    #[test]
    fn a_plain_field_is_one_const_fn_call() {
        let out = expand(
            DeriveKind::Contract,
            r#"#[handoff(name = "ping", version = 1)]
               struct Ping { seq: u64, tags: Vec<String> }"#,
        );
        assert!(
            out.contains("use :: contract_core :: __private as __handoff_private ;"),
            "{out}"
        );
        assert!(
            out.contains(
                "__handoff_private :: Field :: new (\"seq\" , __handoff_private :: shape_of :: < u64 >)"
            ),
            "{out}"
        );
        for member in [
            "ser_name",
            "de_name",
            "aliases",
            "provenance",
            "renamed_from",
        ] {
            assert!(
                !out.contains(member),
                "{member} written at its default: {out}"
            );
        }
    }

    #[test]
    fn only_the_members_a_field_sets_are_written() {
        let out = expand(
            DeriveKind::Contract,
            r#"#[handoff(name = "ping", version = 1)]
               #[serde(rename_all = "camelCase")]
               struct Ping {
                   /// The order.
                   #[serde(alias = "orderRef", default)]
                   #[handoff(assumption, renamed_from = "orderRef")]
                   order_id: String,
                   #[serde(skip_serializing_if = "Option::is_none")]
                   note: Option<String>,
               }"#,
        );
        assert!(out.contains("ser_name : \"orderId\" , de_name : \"orderId\" , aliases : & [\"orderRef\"] , default : true , provenance : __handoff_private :: Provenance :: Assumption , renamed_from : & [\"orderRef\"] , doc : \"The order.\" , .. __handoff_private :: Field :: new (\"order_id\""), "{out}");
        assert!(out.contains("send : __handoff_private :: Send :: IfSome , .. __handoff_private :: Field :: new (\"note\""), "{out}");
        assert!(!out.contains("skip_deserializing"), "{out}");
        assert!(!out.contains("flatten"), "{out}");
    }
}
