//! How tool calls run: the [`Config`] every front end builds, whose words messages use
//! ([`Words`]), and the flag that abandons a call before it writes ([`Cancellation`]).

use std::path::Path;

use crate::contract::syntax::OnSyntaxError;

/// A flag that abandons a running tool call before it changes anything: set it (from any thread)
/// with [`Cancellation::cancel`], and a call whose [`Config`] holds it stops at its last check,
/// right before its first write, with the error `cancelled` and every file untouched. A call that
/// has passed that check runs to its end (it commits all of its change or none of it).
///
/// Clones share the flag; two are equal when they are the same flag.
#[derive(Clone, Debug, Default)]
pub struct Cancellation(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Cancellation {
    /// A flag not set.
    pub fn new() -> Cancellation {
        Cancellation::default()
    }

    /// Sets the flag: calls holding it stop before their first write.
    pub fn cancel(&self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl PartialEq for Cancellation {
    fn eq(&self, other: &Cancellation) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancellation {}

/// How tool calls run: the workspace root and the limits. Build with [`Config::new`] and the
/// setters; immutable once built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Every path must lead inside this directory (see `surgical_fs::Root`).
    pub root: std::path::PathBuf,
    /// Files larger than this are refused with `too_large` (default `surgical_fs::DEFAULT_SIZE_LIMIT`,
    /// 1 GiB).
    pub max_file_size: u64,
    /// Keep the undo journal in `<root>/.surgical/` (default true).
    pub undo: bool,
    /// Abandons the call before its first write when set (default: a flag nobody sets).
    pub cancellation: Cancellation,
    /// Whose words the `edit` tool's error messages use (default: a tool call's, `oldText`).
    pub words: Words,
    /// What a writing call does about the syntax errors it would introduce (default: write and
    /// report them); a call's `onSyntaxError` overrides it.
    pub on_syntax_error: OnSyntaxError,
}

/// Whose words messages use to name the parts of a call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Words {
    /// A tool call's JSON keys: `oldText`, `newText`, `replaceAll: true`.
    #[default]
    ToolCall,
    /// The flags of `surgical edit`, for people: `--old`, `--new`, `--replace-all`.
    CommandLine,
}

impl Config {
    /// The defaults for `root`.
    pub fn new(root: &Path) -> Config {
        Config {
            root: root.to_path_buf(),
            max_file_size: surgical_fs::DEFAULT_SIZE_LIMIT,
            undo: true,
            cancellation: Cancellation::new(),
            words: Words::ToolCall,
            on_syntax_error: OnSyntaxError::Report,
        }
    }

    /// The same, doing `on` about the syntax errors a writing call would introduce.
    pub fn on_syntax_error(self, on: OnSyntaxError) -> Config {
        Config {
            on_syntax_error: on,
            ..self
        }
    }

    /// The same, with messages in `words`.
    pub fn words(self, words: Words) -> Config {
        Config { words, ..self }
    }

    /// The same with another size limit.
    pub fn max_file_size(self, bytes: u64) -> Config {
        Config {
            max_file_size: bytes,
            ..self
        }
    }

    /// The same with the undo journal on or off.
    pub fn undo(self, on: bool) -> Config {
        Config { undo: on, ..self }
    }

    /// The same, abandoned before its first write once `cancellation` is set.
    pub fn cancellation(self, cancellation: Cancellation) -> Config {
        Config { cancellation, ..self }
    }
}
