//! Timestamps as the gateway writes them: `YYYY-MM-DD HH:MM:SS`, sometimes with a fraction.

use core::fmt;
use core::str::FromStr;

use crate::Error;
use crate::calendar::{civil_from_days, days_from_civil, is_valid_date};
use crate::text_traits::deserialize_from_str;

const FIELD: &str = "timestamp";

/// A wall-clock time in the gateway's local time, with no zone (the gateway sends none).
///
/// Parsed from `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD HH:MM:SS.S` (one to nine fraction
/// digits, as invoice lists write `createdDate`), and printed back exactly as it came. This
/// crate reads no clock: [`Timestamp::from_unix_seconds`] turns a time the caller read into
/// the gateway's form.
///
/// ```
/// use paytoken_types::Timestamp;
///
/// let created: Timestamp = "2018-07-26 17:10:06.0".parse()?;
/// assert_eq!(created.to_string(), "2018-07-26 17:10:06.0");
/// assert!("2018-02-30 17:10:06".parse::<Timestamp>().is_err());
/// # Ok::<(), paytoken_types::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    year: u16,
    month: u8,
    day: u8,
    hour: u8,
    minute: u8,
    second: u8,
    /// The fraction's digits as a number, and how many digits it had (0: no fraction).
    fraction: u32,
    fraction_digits: u8,
}

impl Timestamp {
    /// A time to the second.
    ///
    /// # Errors
    /// [`Error::Malformed`] when the date is not in the calendar or the time is not a time
    /// of day.
    pub const fn new(
        year: u16,
        month: u8,
        day: u8,
        hour: u8,
        minute: u8,
        second: u8,
    ) -> Result<Self, Error> {
        if year > 9999 || !is_valid_date(year, month, day) {
            return Err(Error::Malformed {
                field: FIELD,
                reason: "not a date of the calendar",
            });
        }
        if hour > 23 || minute > 59 || second > 59 {
            return Err(Error::Malformed {
                field: FIELD,
                reason: "not a time of day",
            });
        }
        Ok(Self {
            year,
            month,
            day,
            hour,
            minute,
            second,
            fraction: 0,
            fraction_digits: 0,
        })
    }

    /// The time `seconds` after 1970-01-01 00:00:00, or `None` outside the years 0 to 9999.
    #[must_use]
    pub fn from_unix_seconds(seconds: i64) -> Option<Self> {
        let days = seconds.div_euclid(86_400);
        let in_day = seconds.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days)?;
        let hour = u8::try_from(in_day / 3600).ok()?;
        let minute = u8::try_from(in_day % 3600 / 60).ok()?;
        let second = u8::try_from(in_day % 60).ok()?;
        Self::new(year, month, day, hour, minute, second).ok()
    }

    /// Seconds since 1970-01-01 00:00:00, ignoring any fraction.
    #[must_use]
    pub fn unix_seconds(&self) -> i64 {
        days_from_civil(self.year, self.month, self.day) * 86_400
            + i64::from(self.hour) * 3600
            + i64::from(self.minute) * 60
            + i64::from(self.second)
    }

    /// The year.
    #[must_use]
    pub const fn year(&self) -> u16 {
        self.year
    }
    /// The month, 1 to 12.
    #[must_use]
    pub const fn month(&self) -> u8 {
        self.month
    }
    /// The day of the month.
    #[must_use]
    pub const fn day(&self) -> u8 {
        self.day
    }
    /// The hour, 0 to 23.
    #[must_use]
    pub const fn hour(&self) -> u8 {
        self.hour
    }
    /// The minute.
    #[must_use]
    pub const fn minute(&self) -> u8 {
        self.minute
    }
    /// The second.
    #[must_use]
    pub const fn second(&self) -> u8 {
        self.second
    }

    /// This time with a fraction of the second written as `digits` (one to nine decimal
    /// digits, kept as written: `"0"` prints back as `.0`); `None` for anything else.
    pub(crate) fn with_fraction(mut self, digits: &str) -> Option<Self> {
        if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        self.fraction = digits
            .bytes()
            .fold(0, |acc, b| acc * 10 + u32::from(b - b'0'));
        self.fraction_digits = u8::try_from(digits.len()).ok()?;
        Some(self)
    }

    /// The fraction of the second in nanoseconds (0 without a fraction).
    #[must_use]
    pub fn nanosecond(&self) -> u32 {
        let mut nanos = self.fraction;
        for _ in self.fraction_digits..9 {
            nanos *= 10;
        }
        nanos
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )?;
        if self.fraction_digits > 0 {
            write!(
                f,
                ".{:0width$}",
                self.fraction,
                width = usize::from(self.fraction_digits)
            )?;
        }
        Ok(())
    }
}

impl FromStr for Timestamp {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        if crate::trimmed(text).is_empty() {
            return Err(Error::Empty { field: FIELD });
        }
        let malformed = Error::Malformed {
            field: FIELD,
            reason: "expected yyyy-MM-dd HH:mm:ss with an optional fraction",
        };
        let (main, fraction) = match text.split_once('.') {
            Some((main, fraction)) => (main, Some(fraction)),
            None => (text, None),
        };
        let [
            y1,
            y2,
            y3,
            y4,
            b'-',
            mo1,
            mo2,
            b'-',
            d1,
            d2,
            b' ',
            h1,
            h2,
            b':',
            mi1,
            mi2,
            b':',
            s1,
            s2,
        ] = *main.as_bytes()
        else {
            return Err(malformed);
        };
        let number = |digits: &[u8]| -> Option<u16> {
            digits.iter().try_fold(0u16, |acc, &b| {
                b.is_ascii_digit().then(|| acc * 10 + u16::from(b - b'0'))
            })
        };
        let two = |a, b| number(&[a, b]).and_then(|n| u8::try_from(n).ok());
        let parts = (
            number(&[y1, y2, y3, y4]),
            two(mo1, mo2),
            two(d1, d2),
            two(h1, h2),
            two(mi1, mi2),
            two(s1, s2),
        );
        let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = parts
        else {
            return Err(malformed);
        };
        let timestamp = Self::new(year, month, day, hour, minute, second)?;
        match fraction {
            Some(fraction) => timestamp.with_fraction(fraction).ok_or(malformed),
            None => Ok(timestamp),
        }
    }
}

deserialize_from_str!(Timestamp);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    #[test]
    fn parses_and_prints_both_forms() {
        for text in [
            "2024-02-29 23:59:59",
            "2018-07-26 17:10:06.0",
            "2018-07-26 17:10:06.05",
            "0001-01-01 00:00:00.123456789",
        ] {
            let timestamp: Timestamp = text.parse().unwrap();
            assert_eq!(timestamp.to_string(), text);
        }
        let with_fraction: Timestamp = "2018-07-26 17:10:06.5".parse().unwrap();
        assert_eq!(with_fraction.nanosecond(), 500_000_000);
        assert_eq!(with_fraction.second(), 6);
    }

    #[test]
    fn refuses_impossible_and_misshapen_times() {
        for bad in [
            "",
            "2023-02-29 00:00:00",
            "2023-13-01 00:00:00",
            "2023-01-01 24:00:00",
            "2023-01-01 23:60:00",
            "2023-01-01 23:59:60",
            "2023-01-01T00:00:00",
            "2023-1-01 00:00:00",
            "2023-01-01 00:00:00.",
            "2023-01-01 00:00:00.1234567890",
            "2023-01-01 00:00:00.1a",
            "2023-01-01 00:00:00Z",
            "+023-01-01 00:00:00",
            "2023-01-01 00:00",
        ] {
            assert!(bad.parse::<Timestamp>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn converts_from_and_to_unix_seconds() {
        let timestamp = Timestamp::from_unix_seconds(1_700_000_000).unwrap();
        assert_eq!(timestamp.to_string(), "2023-11-14 22:13:20");
        assert_eq!(timestamp.unix_seconds(), 1_700_000_000);
        assert_eq!(
            Timestamp::from_unix_seconds(0).unwrap().to_string(),
            "1970-01-01 00:00:00"
        );
        assert_eq!(Timestamp::from_unix_seconds(i64::MAX), None);
    }
}
