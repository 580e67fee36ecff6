//! `acceptedAt` on the wire: an RFC 3339 time in UTC with microseconds
//! (`2026-01-01T12:00:00.000000Z`), the precision the ledgers keep.

use core::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serializer};

/// A time truncated to whole microseconds: what a ledger stores and reads back, so that an
/// acknowledgement returned by the acceptance equals the one a duplicate reads.
pub(crate) fn to_micro_precision(time: SystemTime) -> SystemTime {
    let micros = to_micros(time);
    from_micros(micros)
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian), and back: Howard Hinnant's
/// algorithms (`days_from_civil`, `civil_from_days`).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A time written as RFC 3339 in UTC, with microseconds.
pub(crate) struct Rfc3339(pub(crate) SystemTime);

impl fmt::Display for Rfc3339 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let micros = to_micros(self.0);
        let seconds = micros.div_euclid(1_000_000);
        let fraction = micros.rem_euclid(1_000_000);
        let days = seconds.div_euclid(86_400);
        let of_day = seconds.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        write!(
            f,
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{fraction:06}Z",
            of_day / 3600,
            of_day / 60 % 60,
            of_day % 60
        )
    }
}

/// Reads what [`Rfc3339`] writes: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of up to nine
/// digits, `Z`.
pub(crate) fn parse(text: &str) -> Option<SystemTime> {
    let bytes = text.as_bytes();
    let number = |range: core::ops::Range<usize>| -> Option<u32> {
        let digits = bytes.get(range)?;
        digits.iter().try_fold(0u32, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
        })
    };
    let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if separators.iter().any(|&(i, c)| bytes.get(i) != Some(&c)) {
        return None;
    }
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    if !(1..=12).contains(&month) || day == 0 || day > 31 || hour > 23 || minute > 59 {
        return None;
    }
    if second > 59 {
        return None;
    }
    let mut rest = &text[19..];
    let mut nanos = 0u32;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 9 {
            return None;
        }
        let value: u32 = fraction[..digits].parse().ok()?;
        nanos = value * 10u32.pow(9 - u32::try_from(digits).ok()?);
        rest = &fraction[digits..];
    }
    if rest != "Z" {
        return None;
    }
    let days = days_from_civil(i64::from(year), month, day);
    if civil_from_days(days) != (i64::from(year), month, day) {
        // 2026-02-30 and the like.
        return None;
    }
    let seconds =
        days * 86_400 + i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second);
    let whole = Duration::from_secs(seconds.unsigned_abs());
    let time = if seconds >= 0 {
        UNIX_EPOCH.checked_add(whole)?
    } else {
        UNIX_EPOCH.checked_sub(whole)?
    };
    time.checked_add(Duration::from_nanos(u64::from(nanos)))
}

/// `#[serde(with = "…")]` for a `SystemTime` written as RFC 3339.
pub(crate) mod rfc3339 {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(time: &SystemTime, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&Rfc3339(*time))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SystemTime, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        // The text is not repeated in the error.
        parse(&text).ok_or_else(|| {
            serde::de::Error::custom("not an RFC 3339 time in UTC (`2026-01-01T12:00:00Z`)")
        })
    }
}

/// A time as microseconds since the Unix epoch (negative before it, saturating far out), the
/// form the SQL stores keep `acceptedAt` in.
pub(crate) fn to_micros(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_micros()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_micros())
            .map(|m| -m)
            .unwrap_or(i64::MIN),
    }
}

/// The time of [`to_micros`]'s microseconds.
pub(crate) fn from_micros(micros: i64) -> SystemTime {
    let magnitude = Duration::from_micros(micros.unsigned_abs());
    if micros >= 0 {
        UNIX_EPOCH.checked_add(magnitude).unwrap_or(UNIX_EPOCH)
    } else {
        UNIX_EPOCH.checked_sub(magnitude).unwrap_or(UNIX_EPOCH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micros_round_trip() {
        for micros in [0, 1, -1, 1_767_225_600_123_456, -86_400_000_000] {
            assert_eq!(to_micros(from_micros(micros)), micros);
        }
    }

    #[test]
    fn writes_and_reads_rfc3339() {
        let time = UNIX_EPOCH + Duration::from_micros(1_767_269_045_123_456);
        let text = Rfc3339(time).to_string();
        assert_eq!(text, "2026-01-01T12:04:05.123456Z");
        assert_eq!(parse(&text), Some(time));
        assert_eq!(
            parse("2024-02-29T00:00:00Z"),
            Some(UNIX_EPOCH + Duration::from_secs(1_709_164_800))
        );
        assert_eq!(
            Rfc3339(UNIX_EPOCH).to_string(),
            "1970-01-01T00:00:00.000000Z"
        );
        let before = UNIX_EPOCH - Duration::from_micros(1);
        assert_eq!(Rfc3339(before).to_string(), "1969-12-31T23:59:59.999999Z");
        assert_eq!(parse("1969-12-31T23:59:59.999999Z"), Some(before));
        for bad in [
            "2023-02-29T00:00:00Z",
            "2026-01-01T24:00:00Z",
            "2026-01-01T12:00:00",
            "2026-01-01T12:00:00.Z",
            "2026-01-01 12:00:00Z",
            "2026-1-01T12:00:00Z",
            "",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
