//! What the diffs take as input: one replaced byte range, before and after.

use std::ops::Range;

/// One replacement, as the diffs take it: `old` is the byte range replaced in the text before,
/// `new` the byte range of what replaced it in the text after. Either may be empty (an insertion, a
/// deletion). A list of changes is in file order and its `old` ranges do not overlap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Change {
    /// Bytes replaced, in the text before.
    pub old: Range<usize>,
    /// Bytes written in their place, in the text after.
    pub new: Range<usize>,
}

impl Change {
    /// The change that replaced `old` (text before) with `new` (text after).
    pub fn new(old: Range<usize>, new: Range<usize>) -> Change {
        Change { old, new }
    }
}
