//! How common a short string is in a text, estimated from a sample of it (issue 30).
//!
//! A search that starts from a needle's *anchor* (a part of it every occurrence holds verbatim)
//! costs what the anchor's places cost: a run that is on every line of the file (`println!("{}`, a
//! quote) makes the windowed search of every tier slower than a pass over the whole text, while a
//! run that holds the needle's own number is found once. [`Rarity`] tells them apart before any
//! search: the counts of every 4-byte string (hashed into 2^19 counters, two per string sampled, so
//! that a string the sample lacks is seldom counted for another's) and of every byte in
//! 32 blocks of 8 KiB spread evenly over the text (the whole text when it is smaller), under a
//! millisecond whatever the text's size.
//!
//! An estimate only ever costs time: the searches that use it find the same places whatever it
//! says (every anchor is searched for in the whole text, and one found too often is given up for
//! the pass it was to avoid).

/// Blocks sampled, and the size of each.
const BLOCKS: usize = 32;
const BLOCK: usize = 8 << 10;
/// Counters of 4-byte strings: a string's counter is its hash's top bits, at most this many (a
/// sample smaller than 2^18 bytes gets about two counters per byte, at least 2^10).
const GRAM_BITS: u32 = 19;

/// Counts of short strings in a sample of a text; see the module's documentation.
pub(crate) struct Rarity {
    /// Per hash of a 4-byte string, how many times strings with that hash are in the sample
    /// (saturating): never fewer than the string's own count.
    grams: Box<[u16]>,
    /// How many top bits of a hash pick its counter (`grams` has 2^bits).
    bits: u32,
    /// Per byte value, how many times it is in the sample.
    bytes: [u32; 256],
    /// Bytes sampled, and the text's length.
    sampled: usize,
    len: usize,
}

/// The counter of a 4-byte string among 2^`bits` (multiplicative hashing: the product's top bits).
fn gram_hash(gram: &[u8], bits: u32) -> usize {
    let word = u32::from_le_bytes([gram[0], gram[1], gram[2], gram[3]]);
    (word.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize
}

impl Rarity {
    /// The counts of `text`'s sample: the whole text up to 256 KiB, else [`BLOCKS`] blocks of
    /// [`BLOCK`] bytes, the first at its start, the last at its end, the others evenly between.
    pub(crate) fn of(text: &[u8]) -> Rarity {
        let sampled = text.len().min(BLOCKS * BLOCK);
        // Small texts (a window of a few lines) get a small table: it is zeroed on every haystack.
        let bits = (2 * sampled).next_power_of_two().trailing_zeros().clamp(10, GRAM_BITS);
        let mut rarity = Rarity {
            grams: vec![0u16; 1 << bits].into_boxed_slice(),
            bits,
            bytes: [0; 256],
            sampled: 0,
            len: text.len(),
        };
        if text.len() <= BLOCKS * BLOCK {
            rarity.count(text);
        } else {
            for k in 0..BLOCKS {
                let start = (text.len() - BLOCK) * k / (BLOCKS - 1);
                rarity.count(&text[start..start + BLOCK]);
            }
        }
        rarity
    }

    fn count(&mut self, block: &[u8]) {
        for gram in block.windows(4) {
            let counter = &mut self.grams[gram_hash(gram, self.bits)];
            *counter = counter.saturating_add(1);
        }
        for &b in block {
            self.bytes[b as usize] += 1;
        }
        self.sampled += block.len();
    }

    /// How many times `s` is in the sample at most: the count of its rarest 4-byte string (when it
    /// has one) or of its rarest byte, whichever is lower. `u32::MAX` for an empty string.
    pub(crate) fn sample_count(&self, s: &[u8]) -> u32 {
        let bytes = s.iter().map(|&b| self.bytes[b as usize]).min().unwrap_or(u32::MAX);
        let grams = s
            .windows(4)
            .map(|g| u32::from(self.gram_count(g)))
            .min()
            .unwrap_or(u32::MAX);
        bytes.min(grams)
    }

    /// How many times the 4-byte string `gram` (or another with its hash) is in the sample.
    pub(crate) fn gram_count(&self, gram: &[u8]) -> u16 {
        self.grams[gram_hash(gram, self.bits)]
    }

    /// How many bytes of the sample are `b`, counting every ASCII digit as one (a searcher keying
    /// on a string's first bytes, the packed one, shares its fingerprints between strings, so that
    /// a string starting with digits stops wherever any number is; see
    /// [`crate::find::anchors::rarest_window`]).
    pub(crate) fn class_count(&self, b: u8) -> u32 {
        if b.is_ascii_digit() {
            self.bytes[usize::from(b'0')..=usize::from(b'9')].iter().sum()
        } else {
            self.bytes[usize::from(b)]
        }
    }

    /// How many times `s` may be in the whole text: [`Rarity::sample_count`] scaled by the text's
    /// length over the sample's (an estimate: 0 means rarer than the sample can tell).
    pub(crate) fn estimate(&self, s: &[u8]) -> usize {
        let count = self.sample_count(s) as usize;
        if self.sampled == 0 || count == u32::MAX as usize {
            return count;
        }
        count.saturating_mul(self.len) / self.sampled
    }
}

/// The sample's byte counts as ranks for `memchr`'s substring finder, which looks for a needle's
/// two rarest bytes first: rarest by this text's counts, not by a table of typical text (which
/// takes a quote or a digit for rare in code that has them on every line).
impl memchr::arch::all::packedpair::HeuristicFrequencyRank for &Rarity {
    fn rank(&self, byte: u8) -> u8 {
        if self.sampled == 0 {
            return 0;
        }
        // The square root of the byte's share of the sample, so that rare bytes keep their order
        // (a byte in every byte ranks 255, one in a hundred 25, one in ten thousand 2).
        let share = f64::from(self.bytes[byte as usize]) / self.sampled as f64;
        (share.sqrt() * 255.0).round() as u8
    }
}

impl std::fmt::Debug for Rarity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rarity")
            .field("sampled", &self.sampled)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_text_is_counted_whole() {
        let text = b"abcdabcdxyz";
        let r = Rarity::of(text);
        assert_eq!(r.sampled, text.len());
        assert!(r.sample_count(b"abcd") >= 2);
        assert_eq!(r.sample_count(b"x"), 1);
        assert_eq!(r.sample_count(b"q"), 0);
        // A string with an absent byte or 4-gram counts 0 (unless a hash collides: not these).
        assert_eq!(r.sample_count(b"abcq"), 0);
        assert_eq!(r.estimate(b"x"), 1);
        assert_eq!(r.sample_count(b""), u32::MAX);
    }

    #[test]
    fn a_large_text_is_sampled_and_the_counts_scaled() {
        // 4 MiB of one line repeated, and one rare line in the middle.
        let line = b"    println!(\"{} => {:?}\", x);\n";
        let mut text = line.repeat((4 << 20) / line.len());
        text.extend_from_slice(b"unique 12345\n");
        text.extend_from_slice(&line.repeat(1000));
        let r = Rarity::of(&text);
        assert_eq!(r.sampled, BLOCKS * BLOCK);
        let common = r.estimate(b"println!(\"{}");
        let lines = text.len() / line.len();
        assert!(common > lines / 2 && common < 2 * lines, "{common} for about {lines}");
        assert_eq!(r.estimate(b"unique"), 0);
    }

    #[test]
    fn ranks_follow_the_sample() {
        use memchr::arch::all::packedpair::HeuristicFrequencyRank;
        let r = Rarity::of(b"\"\"\"\"\"\"\"\"ab");
        assert!((&r).rank(b'"') > (&r).rank(b'a'));
        assert_eq!((&r).rank(b'z'), 0);
    }
}
