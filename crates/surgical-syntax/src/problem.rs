//! What is wrong at one place of a text, as data: the result's words are the tool layer's.

use std::ops::Range;

/// One syntax problem: what it is and where, as byte offsets of the text it was found in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    /// The bytes the problem is about (empty for something missing: where it should be).
    pub at: Range<usize>,
    pub problem: Problem,
    /// A place the problem's words name besides `at`: for an opener never closed, where the line
    /// its closer probably belongs on starts.
    pub hint: Option<usize>,
}

/// What kind of syntax problem, with the tokens it names (as written in the file).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Problem {
    /// An opening bracket (or a keyword that opens a block, such as Ruby's `def`) whose closer
    /// never comes. `closer` is what would close it; `before_line` (one-based) is the first line
    /// after it that is indented no deeper than the line it opened on, where the closer probably
    /// belongs, when there is one.
    NeverClosed {
        /// The opener as written: `{`, `(`, `[`, `def`, `do`, ...
        opener: String,
        /// What closes it: `}`, `)`, `]`, `end`, `fi`, ...
        closer: String,
        /// The first later line indented no deeper than the opener's own line.
        before_line: Option<usize>,
    },
    /// A closing bracket (or `end`, `fi`, ...) with nothing open for it to close.
    ClosesNothing {
        /// The closer as written.
        closer: String,
    },
    /// A string (or character, or quoted attribute) literal that never ends.
    UnclosedString {
        /// The quote that opened it, with its prefix if any (`"`, `'`, `f"`, `"""`, `` ` ``).
        quote: String,
    },
    /// A token the grammar needs here is missing: `;`, `,`, `:`, `=>`, ...
    Missing {
        /// The token, as it would be written.
        token: String,
    },
    /// Something the grammar needs here is missing, named in words: `an expression`, `a value`,
    /// `a name`, `a type`, ...
    Expected {
        /// The thing, with its article.
        what: String,
    },
    /// A token that cannot stand here.
    Unexpected {
        /// The token (its first line, cut at 40 characters).
        token: String,
    },
    /// The text ends inside an unfinished construct.
    UnexpectedEnd,
    /// Python: a line indented deeper than the block it is in, with no block opened by a `:` line.
    UnexpectedIndent,
    /// Python: a line indented less than the block it is in, but not as much as any block around it.
    UnindentMatchesNothing,
    /// Python: a line ending with `:` (one-based `after_line`) is not followed by an indented block.
    ExpectedIndentedBlock {
        /// The line ending with `:`.
        after_line: usize,
    },
    /// YAML: a line whose indentation fits none of the blocks around it.
    BadIndentation,
    /// Markdown: a code fence (```` ``` ```` or `~~~`) opened and never closed: the rest of the
    /// document is read as code.
    UnclosedFence {
        /// The fence as written.
        fence: String,
    },
}

#[cfg(feature = "parser")]
impl Problem {
    /// Problems of the same kind naming the same tokens are one problem moved, when they are at
    /// the same place after the edit.
    pub(crate) fn same_kind(&self, other: &Problem) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
}
