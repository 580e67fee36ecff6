//! The scalar kinds both descriptions share: the integer and float types, each with its
//! range, and the formats a string may promise. The static description
//! ([`shape`](crate::shape)), the owned model ([`model`](crate::model)) and the constrained
//! values ([`constraint`](crate::constraint)) all take them from here, and re-export them.

/// The integer types, each with its own range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum IntKind {
    U8,
    U16,
    U32,
    U64,
    U128,
    I8,
    I16,
    I32,
    I64,
    I128,
}

impl IntKind {
    /// Every integer kind, in the order of the canonical text.
    pub const ALL: [IntKind; 10] = [
        IntKind::U8,
        IntKind::U16,
        IntKind::U32,
        IntKind::U64,
        IntKind::U128,
        IntKind::I8,
        IntKind::I16,
        IntKind::I32,
        IntKind::I64,
        IntKind::I128,
    ];

    /// The Rust spelling (`"u32"`), also the canonical text.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            IntKind::U8 => "u8",
            IntKind::U16 => "u16",
            IntKind::U32 => "u32",
            IntKind::U64 => "u64",
            IntKind::U128 => "u128",
            IntKind::I8 => "i8",
            IntKind::I16 => "i16",
            IntKind::I32 => "i32",
            IntKind::I64 => "i64",
            IntKind::I128 => "i128",
        }
    }

    /// The smallest value of the type.
    #[must_use]
    pub const fn min(self) -> i128 {
        match self {
            IntKind::U8 | IntKind::U16 | IntKind::U32 | IntKind::U64 | IntKind::U128 => 0,
            IntKind::I8 => i8::MIN as i128,
            IntKind::I16 => i16::MIN as i128,
            IntKind::I32 => i32::MIN as i128,
            IntKind::I64 => i64::MIN as i128,
            IntKind::I128 => i128::MIN,
        }
    }

    /// The largest value of the type.
    #[must_use]
    pub const fn max(self) -> u128 {
        match self {
            IntKind::U8 => u8::MAX as u128,
            IntKind::U16 => u16::MAX as u128,
            IntKind::U32 => u32::MAX as u128,
            IntKind::U64 => u64::MAX as u128,
            IntKind::U128 => u128::MAX,
            IntKind::I8 => i8::MAX as u128,
            IntKind::I16 => i16::MAX as u128,
            IntKind::I32 => i32::MAX as u128,
            IntKind::I64 => i64::MAX as u128,
            IntKind::I128 => i128::MAX as u128,
        }
    }

    /// Whether every value of `self` is also a value of `other`.
    #[must_use]
    pub const fn fits_in(self, other: IntKind) -> bool {
        self.min() >= other.min() && self.max() <= other.max()
    }
}

/// The floating-point types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum FloatKind {
    F32,
    F64,
}

impl FloatKind {
    /// The Rust spelling (`"f64"`), also the canonical text.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
        }
    }
}

/// A known format of a string on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StringFormat {
    /// Any string.
    Plain,
    /// A hyphenated UUID (`uuid::Uuid`).
    Uuid,
    /// An RFC 3339 date and time with offset (`chrono::DateTime<Tz>`).
    DateTime,
    /// An RFC 3339 date and time without offset (`chrono::NaiveDateTime`).
    NaiveDateTime,
    /// A calendar date, `YYYY-MM-DD` (`chrono::NaiveDate`).
    Date,
    /// A time of day (`chrono::NaiveTime`).
    Time,
    /// A dotted IPv4 address, `192.0.2.1` (`std::net::Ipv4Addr`).
    Ipv4,
    /// An IPv6 address as Rust writes it, `2001:db8::1` (`std::net::Ipv6Addr`).
    Ipv6,
    /// An IPv4 or IPv6 address (`std::net::IpAddr`).
    Ip,
    /// An IPv4 address and port, `192.0.2.1:8080` (`std::net::SocketAddrV4`).
    SocketAddrV4,
    /// A bracketed IPv6 address and port, `[2001:db8::1]:8080` (`std::net::SocketAddrV6`).
    SocketAddrV6,
    /// Either form of socket address (`std::net::SocketAddr`).
    SocketAddr,
    /// An absolute URL as the WHATWG URL standard parses it (`url::Url`): JSON Schema's
    /// `uri`.
    Url,
}

impl StringFormat {
    /// The JSON Schema `format` name, or `None` for a plain string.
    #[must_use]
    pub const fn as_str(self) -> Option<&'static str> {
        match self {
            StringFormat::Plain => None,
            StringFormat::Uuid => Some("uuid"),
            StringFormat::DateTime => Some("date-time"),
            StringFormat::NaiveDateTime => Some("naive-date-time"),
            StringFormat::Date => Some("date"),
            StringFormat::Time => Some("time"),
            StringFormat::Ipv4 => Some("ipv4"),
            StringFormat::Ipv6 => Some("ipv6"),
            StringFormat::Ip => Some("ip"),
            StringFormat::SocketAddrV4 => Some("socket-addr-v4"),
            StringFormat::SocketAddrV6 => Some("socket-addr-v6"),
            StringFormat::SocketAddr => Some("socket-addr"),
            StringFormat::Url => Some("uri"),
        }
    }

    /// Every format with a name, for parsing.
    pub const NAMED: [StringFormat; 12] = [
        StringFormat::Uuid,
        StringFormat::DateTime,
        StringFormat::NaiveDateTime,
        StringFormat::Date,
        StringFormat::Time,
        StringFormat::Ipv4,
        StringFormat::Ipv6,
        StringFormat::Ip,
        StringFormat::SocketAddrV4,
        StringFormat::SocketAddrV6,
        StringFormat::SocketAddr,
        StringFormat::Url,
    ];

    /// Whether every string of `self` is a string of `other`: the same format, any string,
    /// or one address family into the format that takes both.
    #[must_use]
    pub const fn fits_in(self, other: StringFormat) -> bool {
        matches!(
            (self, other),
            (_, StringFormat::Plain)
                | (StringFormat::Ipv4 | StringFormat::Ipv6, StringFormat::Ip)
                | (
                    StringFormat::SocketAddrV4 | StringFormat::SocketAddrV6,
                    StringFormat::SocketAddr
                )
        ) || self as u8 == other as u8
    }
}
