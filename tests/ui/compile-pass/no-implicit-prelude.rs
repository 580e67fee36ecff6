//! The derive works in a module without the implicit prelude.
#![no_implicit_prelude]

mod inner {
    #[derive(::serde::Serialize, ::serde::Deserialize, ::contract_core::HandoffContract)]
    #[handoff(name = "no-prelude", version = 1)]
    pub struct NoPrelude {
        pub id: u64,
        pub tags: ::std::vec::Vec<::std::string::String>,
    }
}

fn main() {
    let _ = <inner::NoPrelude as ::contract_core::HandoffSchema>::schema();
}
