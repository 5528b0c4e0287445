//! The sandbox's one log type: what it remembers of what happened (the requests that
//! reached it, the requests it answered, the notifications it sent), newest last, each
//! entry numbered from 1 in the order it came and the oldest dropped past a bound. Each
//! use sets its keeping rule: how many entries it keeps, and what an entry holds (the
//! request log bounds each entry in bytes before pushing it). The lock is held only to
//! push an entry, change one, or copy a page, so a reader never holds up a writer for
//! longer than the page it asked for.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A log that keeps its newest `KEPT` entries (at least one), numbered; empty by default.
#[derive(Debug)]
pub(crate) struct BoundedLog<T, const KEPT: usize> {
    entries: Mutex<Numbered<T>>,
}

#[derive(Debug)]
struct Numbered<T> {
    /// The number of the newest entry; 0 before the first.
    last: u64,
    /// The entries kept, with their numbers, ascending (a state file's may have gaps).
    entries: VecDeque<(u64, T)>,
}

impl<T, const KEPT: usize> Default for BoundedLog<T, KEPT> {
    fn default() -> Self {
        const { assert!(KEPT > 0, "a log keeps at least one entry") };
        Self {
            entries: Mutex::new(Numbered {
                last: 0,
                entries: VecDeque::new(),
            }),
        }
    }
}

impl<T, const KEPT: usize> BoundedLog<T, KEPT> {
    fn lock(&self) -> MutexGuard<'_, Numbered<T>> {
        // An entry is pushed or changed whole, or not at all: a poison means nothing.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds the entry `make` builds from its number (under the log's lock, so entries are
    /// kept elsewhere in the order they are numbered), dropping the oldest past the bound;
    /// says the number.
    pub(crate) fn push_with(&self, make: impl FnOnce(u64) -> T) -> u64 {
        let mut log = self.lock();
        log.last += 1;
        let number = log.last;
        let entry = make(number);
        if log.entries.len() >= KEPT {
            log.entries.pop_front();
        }
        log.entries.push_back((number, entry));
        number
    }

    /// Adds `entry`; says its number.
    pub(crate) fn push(&self, entry: T) -> u64 {
        self.push_with(|_| entry)
    }

    /// What `change` makes of entry `number`, if it is still kept.
    pub(crate) fn with_entry<R>(&self, number: u64, change: impl FnOnce(&mut T) -> R) -> Option<R> {
        let mut log = self.lock();
        let index = log
            .entries
            .binary_search_by_key(&number, |(kept, _)| *kept)
            .ok()?;
        log.entries.get_mut(index).map(|(_, entry)| change(entry))
    }

    /// The number of the newest entry; 0 before the first.
    pub(crate) fn last(&self) -> u64 {
        self.lock().last
    }

    /// At most `limit` entries numbered above `after`, oldest first, each as `copy` makes
    /// it from its number, and whether more follow them.
    pub(crate) fn page<R>(
        &self,
        after: u64,
        limit: usize,
        mut copy: impl FnMut(u64, &T) -> R,
    ) -> (Vec<R>, bool) {
        let log = self.lock();
        let start = log.entries.partition_point(|(number, _)| *number <= after);
        let taken = log
            .entries
            .range(start..)
            .take(limit)
            .map(|(number, entry)| copy(*number, entry))
            .collect();
        (taken, log.entries.len() - start > limit)
    }

    /// Every entry kept, oldest first, as `copy` makes it.
    pub(crate) fn all<R>(&self, mut copy: impl FnMut(&T) -> R) -> Vec<R> {
        self.page(0, usize::MAX, |_, entry| copy(entry)).0
    }

    /// Starts again from `kept` (numbered entries, oldest first: what a state file held),
    /// its newest the bound allows; the next entry is numbered after the newest of them.
    pub(crate) fn restore(&self, kept: Vec<(u64, T)>) {
        let mut log = self.lock();
        let skip = kept.len().saturating_sub(KEPT);
        log.last = kept.last().map_or(0, |(number, _)| *number);
        log.entries = kept.into_iter().skip(skip).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_numbered_and_the_oldest_dropped_past_the_bound() {
        let log = BoundedLog::<_, 3>::default();
        assert_eq!(log.last(), 0);
        let numbers: Vec<u64> = (0..5).map(|n| log.push(n * 10)).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5]);
        assert_eq!(log.all(|entry| *entry), [20, 30, 40]);
        assert_eq!(log.last(), 5);
        assert_eq!(log.with_entry(1, |entry| *entry), None, "dropped");
        assert_eq!(
            log.with_entry(4, |entry| {
                *entry += 1;
                *entry
            }),
            Some(31)
        );
        assert_eq!(log.push_with(|number| i32::try_from(number).unwrap()), 6);
        assert_eq!(log.all(|entry| *entry), [31, 40, 6]);
    }

    #[test]
    fn a_page_says_whether_more_follow() {
        let log = BoundedLog::<_, 10>::default();
        for n in 0..5 {
            log.push(n);
        }
        assert_eq!(log.page(0, 2, |number, _| number), (vec![1, 2], true));
        assert_eq!(log.page(2, 3, |number, _| number), (vec![3, 4, 5], false));
        assert_eq!(log.page(5, 3, |number, _| number), (vec![], false));
    }

    #[test]
    fn a_restored_log_keeps_its_numbers_gaps_included() {
        let log = BoundedLog::<_, 2>::default();
        log.restore(vec![(3, 'a'), (4, 'b'), (7, 'c')]);
        assert_eq!(
            log.page(0, 10, |number, entry| (number, *entry)).0,
            [(4, 'b'), (7, 'c')]
        );
        assert_eq!(log.with_entry(7, |entry| *entry), Some('c'));
        assert_eq!(log.with_entry(5, |entry| *entry), None);
        assert_eq!(log.push('d'), 8);
    }
}
