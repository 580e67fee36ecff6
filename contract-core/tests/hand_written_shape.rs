//! A description written by hand, as the derive writes it: generic and recursive types
//! must be expressible as `'static` data.
use contract_core::__private::*;
use contract_core::{HandoffSchema, Schema};

struct Plan<T> {
    _steps: Vec<Plan<T>>,
    _payload: T,
}

impl<T: HandoffSchema> HandoffSchema for Plan<T> {
    const SHAPE: &'static Shape = &Shape {
        name: "Plan",
        module: module_path!(),
        generics: &[shape_of::<T>],
        doc: "A plan whose steps are plans.",
        kind: Kind::Struct(&StructShape {
            fields: &[
                Field {
                    name: "steps",
                    ser_name: "steps",
                    de_name: "steps",
                    aliases: &[],
                    send: Send::Always,
                    default: false,
                    skip_deserializing: false,
                    flatten: false,
                    ty: shape_of::<Vec<Plan<T>>>,
                    provenance: Provenance::Confirmed,
                    renamed_from: &[],
                    doc: "",
                },
                Field {
                    name: "payload",
                    ser_name: "payload",
                    de_name: "payload",
                    aliases: &["body"],
                    send: Send::IfPresent,
                    default: false,
                    skip_deserializing: false,
                    flatten: false,
                    ty: shape_of::<Option<T>>,
                    provenance: Provenance::Assumption,
                    renamed_from: &[],
                    doc: "",
                },
            ],
            deny_unknown_fields: false,
        }),
    };
}

#[test]
fn generic_recursive_shape_resolves() {
    let schema: Schema = <Plan<String>>::schema();
    assert_eq!(schema.root.to_string(), "Plan<string>");
    let def = schema.def("Plan<string>").expect("the plan is defined");
    let contract_schema::Body::Struct(s) = &def.body else {
        panic!("a struct")
    };
    assert_eq!(s.fields[0].ty.to_string(), "list<Plan<string>>");
    let payload = &s.fields[1];
    assert!(!payload.receiver.as_ref().unwrap().required);
    assert_eq!(schema.types.len(), 1);
    let other: Schema = <Plan<u32>>::schema();
    assert_eq!(other.root.to_string(), "Plan<u32>");
}
