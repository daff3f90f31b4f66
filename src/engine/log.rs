//! [`Log`]: a hand's append-only lists (the pile, the events, the actions),
//! written in place.
//!
//! A `Vec`'s push checks its capacity and may call the allocator; that
//! call, cold as it is, makes every function that pushes save registers
//! it would not otherwise touch. A `Log` keeps its buffer filled ahead of
//! its length (with copies of entries it was given), so that where
//! [`Log::has_room`] holds, [`Log::put`] is a bounds-checked store (its
//! failure a panic, which returns nowhere): [`Hand::play`](super::Hand)
//! makes the moves of nearly every turn with no call at all.

use std::fmt;
use std::ops::Deref;

/// Entries ahead of the length a growing log fills at least.
const AHEAD: usize = 16;

/// An append-only list of `Copy` entries (see the module docs); reads as
/// the slice of its entries.
pub(crate) struct Log<T> {
    /// The entries, then filler (copies of earlier entries) up to `buf.len()`.
    buf: Vec<T>,
    len: usize,
}

impl<T: Copy> Log<T> {
    /// An empty log with capacity for `n` entries (none filled yet).
    pub(crate) fn with_capacity(n: usize) -> Log<T> {
        Log {
            buf: Vec::with_capacity(n),
            len: 0,
        }
    }

    /// A log of `entries`, with capacity for `n` entries in all and room
    /// for a few more without growing.
    pub(crate) fn from_slice(entries: &[T], n: usize) -> Log<T> {
        let len = entries.len();
        let mut buf = Vec::with_capacity(n.max(len + AHEAD));
        buf.extend_from_slice(entries);
        if let Some(&last) = entries.last() {
            buf.resize(len + AHEAD, last);
        }
        Log { buf, len }
    }

    /// Empties the log, keeping its buffer.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Makes the capacity at least `n` entries beyond the length.
    pub(crate) fn reserve(&mut self, n: usize) {
        let want = self.len + n;
        if self.buf.capacity() < want {
            self.buf.reserve(want - self.buf.len());
        }
    }

    /// Whether [`Log::put`] has room.
    #[inline(always)]
    pub(crate) fn has_room(&self) -> bool {
        self.len < self.buf.len()
    }

    /// Appends `entry` where [`Log::has_room`] holds (panics otherwise).
    #[inline(always)]
    pub(crate) fn put(&mut self, entry: T) {
        self.buf[self.len] = entry;
        self.len += 1;
    }

    /// Appends `entry`, growing the buffer when it has no room.
    #[inline(always)]
    pub(crate) fn push(&mut self, entry: T) {
        self.make_room(entry);
        self.put(entry);
    }

    /// Makes [`Log::has_room`] hold, filling ahead with `filler` if needed.
    #[inline(always)]
    pub(crate) fn make_room(&mut self, filler: T) {
        if !self.has_room() {
            self.grow(filler);
        }
    }

    /// Fills the buffer ahead of the length with copies of `filler`:
    /// [`AHEAD`] entries or as many as the log holds, within the capacity
    /// when it has room (at least one entry).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, filler: T) {
        let ahead = self.len + self.len.max(AHEAD);
        let filled = ahead.min(self.buf.capacity()).max(self.len + 1);
        self.buf.resize(filled, filler);
    }

    /// Removes and returns the last entry.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<T> {
        let last = self.last().copied()?;
        self.len -= 1;
        Some(last)
    }
}

impl<T> Default for Log<T> {
    fn default() -> Log<T> {
        Log {
            buf: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Deref for Log<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        &self.buf[..self.len]
    }
}

impl<T: Copy> Clone for Log<T> {
    /// The entries only (no filler): a copy has the room it grows.
    fn clone(&self) -> Log<T> {
        Log {
            buf: self.to_vec(),
            len: self.len,
        }
    }

    /// Reuses this log's buffer, keeping its filler beyond the entries.
    fn clone_from(&mut self, source: &Log<T>) {
        let n = source.len;
        if self.buf.len() >= n {
            self.buf[..n].copy_from_slice(source);
        } else {
            self.buf.clear();
            self.buf.extend_from_slice(source);
        }
        self.len = n;
    }
}

impl<T: fmt::Debug> fmt::Debug for Log<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_the_entries_pushed_and_popped() {
        let mut log = Log::with_capacity(4);
        let mut model = Vec::new();
        for i in 0..100u32 {
            if i % 7 == 3 {
                assert_eq!(log.pop(), model.pop());
            } else {
                log.push(i);
                model.push(i);
            }
            assert_eq!(&*log, &model[..]);
        }
        let copy = log.clone();
        assert_eq!(&*copy, &model[..]);
        let mut into = Log::from_slice(&[9, 9, 9], 3);
        into.clone_from(&log);
        assert_eq!(&*into, &model[..]);
        let mut short = Log::from_slice(&[1; 200], 200);
        short.clone_from(&Log::from_slice(&[2, 3], 2));
        assert_eq!(&*short, &[2, 3]);
        short.clear();
        assert!(short.is_empty());
        assert_eq!(short.pop(), None);
    }

    #[test]
    fn fills_ahead_within_its_capacity() {
        let mut log = Log::with_capacity(40);
        log.push(1u8);
        assert!(log.has_room(), "room ahead after the first push");
        let buffer = log.buf.as_ptr();
        for _ in 0..39 {
            log.push(2);
        }
        assert_eq!(log.len(), 40);
        assert_eq!(
            log.buf.as_ptr(),
            buffer,
            "no new buffer within the capacity"
        );
        log.clear();
        log.reserve(40);
        assert!(log.has_room());
        assert_eq!(log.buf.as_ptr(), buffer);
    }
}
