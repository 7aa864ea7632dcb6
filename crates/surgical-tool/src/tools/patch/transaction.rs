//! One call, one transaction: the orchestration of `apply_patch`, step by step ([`run`]).
//!
//! 1. **Parse**: the format given or detected (`surgical_patch::detect_format`), the patch read
//!    into `Op`s (`surgical_patch::parse`).
//! 2. **Open** ([`Files::open`]): every name resolved inside the root (`outside_root` otherwise);
//!    names leading to the same real path share one slot; the files that exist pinned.
//! 3. **Lock** ([`Files::lock`], unless `dryRun`): their directories, each once (a `flock` is per
//!    open file description: two locks on one directory from one process would wait for each
//!    other), in the order of their real paths (so two processes never wait for each other
//!    either).
//! 4. **Read** ([`Files::read`]): every file, decoded, its hash started on the other core.
//! 5. **Simulate** ([`simulate`]): every operation in memory, in patch order, on the files' decoded
//!    text (an operation sees what earlier operations of the patch did to its file), then every
//!    file's final bytes settled. Any failure — a hunk not found or ambiguous, a missing file, an
//!    undecodable one — returns an error naming the file and the hunk, and nothing has been
//!    written. Then the syntax check (`pipeline::syntax`) of every file changed: a call asked to
//!    refuse syntax errors stops here.
//! 6. **Commit** ([`commit`], unless `dryRun`): new and changed files first (each with
//!    `write_atomic` or `write_new`), deletions last; the whole call is one step of the undo
//!    journal (old contents saved, created and deleted files recorded), kept only if every file of
//!    it is. If a step fails, every step already done is undone (old bytes written back, created
//!    files and directories removed, deleted files recreated), and the error says so.
//! 7. **Report** ([`report`]): per operation its diffs, hashes and hunks; the text. The diffs
//!    ([`render`]) depend on the operations alone: for large files they are made on another thread
//!    while the commit writes.

use surgical_core::Options;
use surgical_fs::Root;
use surgical_patch::{detect_format, parse, Rules};

use super::commit::commit;
use super::errors::{file_error, parse_error};
use super::files::Files;
use super::report::{render, report, Rendered};
use super::simulate::{simulate, Outcome};
use super::PatchRequest;
use crate::wording::patch as words;
use crate::{Config, PatchSuccess, ToolError};

/// Runs a parsed call.
pub(crate) fn run(req: &PatchRequest, config: &Config) -> Result<PatchSuccess, ToolError> {
    crate::pipeline::timings::start();
    let format = req
        .format
        .or_else(|| detect_format(&req.patch))
        .ok_or_else(|| ToolError::invalid_input(words::NO_FORMAT))?;
    let ops = parse(&req.patch, format, req.path.as_deref()).map_err(|e| parse_error(e, format))?;
    crate::pipeline::timings::mark("parse");
    let root = Root::new(&config.root).map_err(|e| file_error(e, "."))?;
    if !req.dry_run {
        // Before the file is read: see `remove_orphans`.
        crate::pipeline::journal::remove_orphans(&root);
    }
    let max = req.max_tier.unwrap_or(Options::new().get_loosest_tier());
    let rules = Rules::new(format, max);

    let mut files = Files::open(&root, &ops)?;
    let _locks = if req.dry_run { Vec::new() } else { files.lock()? };
    files.read(config.max_file_size)?;
    let outcomes = simulate(&ops, &mut files, &rules, format)?;
    crate::pipeline::timings::mark("place and encode");
    // The syntax check of every file the patch changes (not one it creates or deletes), before
    // anything is written.
    let syntax: Vec<crate::pipeline::syntax::Outcome> = outcomes
        .iter()
        .map(|o| match (&o.before, &o.after) {
            (Some((_, old)), Some((_, new))) => {
                let shown = o.moved_to.as_deref().unwrap_or(&o.path);
                let old = old.text();
                // A new text held as replacements on the old one is built only to be parsed.
                if let Some(spliced) = new.spliced_on(old) {
                    return crate::pipeline::syntax::check_spliced(config, shown, old, spliced);
                }
                let new = new.text();
                let changes = match &o.changes {
                    Some(c) => c.clone(),
                    None => surgical_core::diff::whole_change(old, new),
                };
                crate::pipeline::syntax::check(config, shown, old, new, &changes)
            }
            _ => crate::pipeline::syntax::Outcome::default(),
        })
        .collect();
    if syntax.iter().any(|s| s.refuses(config)) {
        return Err(crate::pipeline::syntax::refusal(
            outcomes.iter().zip(&syntax).map(|(o, s)| (o.path.as_str(), s)),
            true,
        ));
    }
    crate::pipeline::timings::mark("syntax");
    let rendered = if req.dry_run {
        render(&outcomes)
    } else {
        commit_and_render(&root, &mut files, config, &outcomes)?
    };
    let report = report(&outcomes, rendered, &syntax, &files, format, req.dry_run);
    crate::pipeline::timings::mark("report");
    Ok(report)
}

/// Patches whose files hold at least this many bytes have their diffs made on another thread while
/// the files are written (most of a large file's write is the `fsync` waiting for the disk); for
/// smaller ones starting a thread costs more than it saves.
const RENDER_ON_THREAD: usize = 1 << 20;

/// The commit, and the operations' diffs ([`render`]), on another thread meanwhile when the files
/// are large; the diffs are returned only once every file is written.
fn commit_and_render(
    root: &Root,
    files: &mut Files,
    config: &Config,
    outcomes: &[Outcome],
) -> Result<Vec<Rendered>, ToolError> {
    let size: usize = outcomes
        .iter()
        .filter_map(|o| o.before.as_ref())
        .map(|(_, t)| t.text().len())
        .sum();
    if size < RENDER_ON_THREAD {
        commit(root, files, config)?;
        return Ok(render(outcomes));
    }
    std::thread::scope(|scope| {
        let rendering = scope.spawn(|| {
            let began = std::time::Instant::now();
            let rendered = render(outcomes);
            crate::pipeline::timings::took("diffs", began);
            rendered
        });
        let committed = commit(root, files, config);
        let rendered = rendering
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        committed.map(|()| rendered)
    })
}
