//! What each provider's schema dialect can say, one table per dialect: a rule the provider
//! changes is one edit here. Each entry follows the provider's documentation, cited in
//! [`Rules::docs`].

/// How a dialect treats a named type that refers to itself (directly or through others).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recursion {
    /// `$ref` cycles are accepted.
    Allowed,
    /// A cycle is accepted only where it passes through a property that is not required.
    UnderOptionalOnly,
    /// No recursive schema.
    Refused,
}

/// What array lengths a dialect states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ItemCounts {
    /// `minItems` and `maxItems`, any value.
    Any,
    /// `minItems` of 0 or 1 only, no `maxItems`.
    MinZeroOrOne,
}

/// One dialect's rules.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rules {
    /// The dialect's name on the command line.
    pub(crate) name: &'static str,
    /// The provider's pages these rules follow.
    pub(crate) docs: &'static [&'static str],
    /// The root must be a plain object (no `anyOf`, no other type).
    pub(crate) object_root: bool,
    /// Every property must be listed in `required`; optionality is a `null` alternative.
    pub(crate) all_required: bool,
    /// A nullable value is written as an `anyOf` with `{"type": "null"}`, never as a type
    /// array.
    pub(crate) null_as_any_of: bool,
    /// `additionalProperties` may hold a schema (a map with free keys); otherwise every
    /// object is closed with `additionalProperties: false`.
    pub(crate) free_keys: bool,
    /// `minimum` and `maximum` on integers.
    pub(crate) int_bounds: bool,
    /// `minLength` and `maxLength` on strings.
    pub(crate) string_lengths: bool,
    /// `pattern` on strings.
    pub(crate) pattern: bool,
    /// The string formats the dialect checks.
    pub(crate) formats: &'static [&'static str],
    /// `const` (otherwise a one-value `enum`).
    pub(crate) const_keyword: bool,
    /// `prefixItems` (tuples).
    pub(crate) prefix_items: bool,
    /// `uniqueItems` (sets).
    pub(crate) unique_items: bool,
    /// Which array lengths can be stated.
    pub(crate) item_counts: ItemCounts,
    /// Recursive named types.
    pub(crate) recursion: Recursion,
    /// At most this many object properties in the whole schema.
    pub(crate) max_properties: Option<usize>,
    /// At most this many levels of nested objects.
    pub(crate) max_depth: Option<usize>,
    /// At most this many enum values (and `const`s) in the whole schema.
    pub(crate) max_enum_values: Option<usize>,
    /// At most this many characters of property names, definition names, enum values and
    /// `const` values in the whole schema.
    pub(crate) max_text: Option<usize>,
    /// A string enum of more than this many values ...
    pub(crate) long_enum: Option<usize>,
    /// ... has at most this many characters of values.
    pub(crate) long_enum_text: Option<usize>,
    /// At most this many optional properties (not in `required`) in the whole schema.
    pub(crate) max_optional: Option<usize>,
    /// At most this many union types (`anyOf`, type arrays) in the whole schema.
    pub(crate) max_unions: Option<usize>,
}

/// OpenAI Structured Outputs with `strict: true` (response formats and function calling).
pub(crate) const OPENAI_STRICT: Rules = Rules {
    name: "openai-strict",
    docs: &["https://platform.openai.com/docs/guides/structured-outputs#supported-schemas"],
    object_root: true,
    all_required: true,
    null_as_any_of: false,
    free_keys: false,
    int_bounds: true,
    string_lengths: false,
    pattern: true,
    formats: &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "ipv4",
        "ipv6",
        "uuid",
    ],
    const_keyword: true,
    prefix_items: false,
    unique_items: false,
    item_counts: ItemCounts::Any,
    recursion: Recursion::Allowed,
    max_properties: Some(5_000),
    max_depth: Some(10),
    max_enum_values: Some(1_000),
    max_text: Some(120_000),
    long_enum: Some(250),
    long_enum_text: Some(15_000),
    max_optional: None,
    max_unions: None,
};

/// Anthropic's strict tool use (`strict: true`, the tool's `input_schema`) and JSON outputs
/// (`output_config.format`), which share one JSON Schema subset.
pub(crate) const ANTHROPIC: Rules = Rules {
    name: "anthropic",
    docs: &[
        "https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations",
        "https://docs.claude.com/en/docs/agents-and-tools/tool-use/strict-tool-use",
    ],
    object_root: true,
    all_required: false,
    null_as_any_of: false,
    free_keys: false,
    int_bounds: false,
    string_lengths: false,
    pattern: true,
    formats: &[
        "date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6",
        "uuid",
    ],
    const_keyword: true,
    prefix_items: false,
    unique_items: false,
    item_counts: ItemCounts::MinZeroOrOne,
    recursion: Recursion::Refused,
    max_properties: None,
    max_depth: None,
    max_enum_values: None,
    max_text: None,
    long_enum: None,
    long_enum_text: None,
    max_optional: Some(24),
    max_unions: Some(16),
};

/// Gemini's `responseJsonSchema` (generation config), the JSON Schema form beside the older
/// OpenAPI-based `responseSchema`.
pub(crate) const GEMINI: Rules = Rules {
    name: "gemini",
    docs: &[
        "https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support",
        "https://ai.google.dev/api/generate-content#FIELDS.response_json_schema",
    ],
    object_root: false,
    all_required: false,
    null_as_any_of: true,
    free_keys: true,
    int_bounds: true,
    string_lengths: false,
    pattern: false,
    formats: &["date-time", "date", "time"],
    const_keyword: false,
    prefix_items: true,
    unique_items: false,
    item_counts: ItemCounts::Any,
    recursion: Recursion::UnderOptionalOnly,
    max_properties: None,
    max_depth: None,
    max_enum_values: None,
    max_text: None,
    long_enum: None,
    long_enum_text: None,
    max_optional: None,
    max_unions: None,
};
