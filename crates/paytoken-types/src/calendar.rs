//! Calendar arithmetic shared by timestamps and birth dates (proleptic Gregorian).

/// Whether `year` is a leap year.
pub(crate) const fn is_leap_year(year: u16) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

/// The number of days in `month` (1 to 12) of `year`; 0 for a month that does not exist.
pub(crate) const fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Whether year, month and day name a day of the calendar.
pub(crate) const fn is_valid_date(year: u16, month: u8, day: u8) -> bool {
    day >= 1 && day <= days_in_month(year, month)
}

/// Days since 1970-01-01 of a valid date (H. Hinnant's `days_from_civil`).
pub(crate) fn days_from_civil(year: u16, month: u8, day: u8) -> i64 {
    let year = i64::from(year) - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`), or `None`
/// outside the years 0 to 9999.
pub(crate) fn civil_from_days(days: i64) -> Option<(u16, u8, u8)> {
    let days = days.checked_add(719_468)?;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    Some((
        u16::try_from(year).ok().filter(|y| *y <= 9999)?,
        u8::try_from(month).ok()?,
        u8::try_from(day).ok()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_leap_years_and_month_lengths() {
        assert!(is_leap_year(2024) && is_leap_year(2000));
        assert!(!is_leap_year(1900) && !is_leap_year(2023));
        assert!(is_valid_date(2024, 2, 29));
        assert!(!is_valid_date(2023, 2, 29));
        assert!(!is_valid_date(2023, 13, 1));
        assert!(!is_valid_date(2023, 4, 31));
        assert!(!is_valid_date(2023, 4, 0));
    }

    #[test]
    fn converts_days_both_ways() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(11_017), Some((2000, 3, 1)));
        assert_eq!(civil_from_days(-1), Some((1969, 12, 31)));
        for days in (-719_468..2_932_896).step_by(997) {
            let (y, m, d) = civil_from_days(days).unwrap();
            assert!(is_valid_date(y, m, d));
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(civil_from_days(2_932_897), None);
    }
}
