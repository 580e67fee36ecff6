//! The one syntactic rule for "this field is written `Option<T>`".
//!
//! A proc macro sees tokens, not types, so every check that treats an `Option` field
//! specially (a missing field read as `None`, a flattened `Option` of a struct, the wire
//! type of the compile-time compatibility check) asks this module, and they all agree.
//!
//! The rule: the path `Option`, `std::option::Option` or `core::option::Option` (each
//! optionally with a leading `::` when it names a crate), with exactly one angle-bracketed
//! type argument; invisible groups and parentheses around the type are looked through. Any
//! other path ending in `Option` (`my::Option<T>`, `::Option<T>`) is a user's type, and
//! `Option` without its argument is not a type a field can have. Like serde, a bare
//! `Option` is taken at face value: a user type that shadows it is read as the std type.

/// `T` when `ty` is written `Option<T>` under the rule above; `None` otherwise.
pub fn option_arg(ty: &syn::Type) -> Option<&syn::Type> {
    let path = match ty {
        syn::Type::Group(group) => return option_arg(&group.elem),
        syn::Type::Paren(paren) => return option_arg(&paren.elem),
        syn::Type::Path(path) if path.qself.is_none() => &path.path,
        _ => return None,
    };
    let segments: Vec<&syn::PathSegment> = path.segments.iter().collect();
    let (last, prefix) = segments.split_last()?;
    let names_std_option = match prefix {
        [] => path.leading_colon.is_none(),
        [krate, module] => {
            (krate.ident == "std" || krate.ident == "core")
                && module.ident == "option"
                && krate.arguments.is_none()
                && module.arguments.is_none()
        }
        _ => false,
    };
    if !names_std_option || last.ident != "Option" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut args = args.args.iter();
    match (args.next(), args.next()) {
        (Some(syn::GenericArgument::Type(inner)), None) => Some(inner),
        _ => None,
    }
}

/// Whether `ty` is written `Option<T>` under the rule above.
pub fn is_option(ty: &syn::Type) -> bool {
    option_arg(ty).is_some()
}

#[cfg(test)]
mod tests {
    use super::option_arg;
    use quote::ToTokens;

    fn arg(source: &str) -> Option<String> {
        let ty = syn::parse_str::<syn::Type>(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        option_arg(&ty).map(|inner| inner.to_token_stream().to_string())
    }

    #[test]
    fn the_std_option_paths_with_one_type_argument_are_options() {
        for source in [
            "Option<u8>",
            "std::option::Option<u8>",
            "core::option::Option<u8>",
            "::std::option::Option<u8>",
            "::core::option::Option<u8>",
            "(Option<u8>)",
        ] {
            assert_eq!(arg(source).as_deref(), Some("u8"), "{source}");
        }
        // One layer: the argument of the outer `Option`.
        assert_eq!(
            arg("Option<Option<String>>").as_deref(),
            Some("Option < String >")
        );
    }

    #[test]
    fn an_invisible_group_from_a_macro_is_looked_through() {
        let inner: syn::Type = syn::parse_quote!(Option<u8>);
        let group = syn::Type::Group(syn::TypeGroup {
            attrs: Vec::new(),
            group_token: Default::default(),
            elem: Box::new(inner),
        });
        assert!(option_arg(&group).is_some());
    }

    #[test]
    fn other_paths_ending_in_option_are_not() {
        for source in [
            "my::Option<u8>",
            "crate::Option<u8>",
            "::Option<u8>",
            "std::Option<u8>",
            "alloc::option::Option<u8>",
            "std::option::Option::<u8>::Inner",
            "std<T>::option::Option<u8>",
            "Option",
            "Option<>",
            "Option<u8, u16>",
            "Option<'a>",
            "Option<N = u8>",
            "<T as Trait>::Option<u8>",
            "&Option<u8>",
            "Vec<Option<u8>>",
        ] {
            assert_eq!(arg(source), None, "{source}");
        }
    }
}
