//! The check itself: parse the text before and after an edit (only windows of them when they can
//! decide), and keep the problems after that have no counterpart before.

use std::ops::{ControlFlow, Range};
use std::time::Instant;

use surgical_core::Change;
use tree_sitter::{InputEdit, Parser, Point, Tree};

use crate::findings::{broken, Broken};
use crate::problem::Finding;
use crate::{grammar, layout, Language};

/// Parsing ran past the budget.
#[derive(Debug)]
pub(crate) struct OverBudget;

/// What the check found: the problems the edit introduced (positions in the new text) and how many
/// problems of the new text it did not report because the text before had them.
pub(crate) struct Found {
    pub introduced: Vec<Finding>,
    pub preexisting: usize,
}

/// Below this size both whole texts are parsed: windows would save little.
const WHOLE_BELOW: usize = 16 * 1024;

/// How far (in lines) a window reaches from a change for a line to start it at, before it takes
/// the text's start (or end) instead.
const WINDOW_REACH: usize = 3000;

/// The problems `changes` (old → new) introduced into `old`, giving `new`, in `language`; from
/// windows of the texts when `windowed` and they can decide, else from the whole texts.
pub(crate) fn introduced(
    language: Language,
    old: &[u8],
    new: &[u8],
    changes: &[Change],
    deadline: Instant,
    windowed: bool,
) -> Result<Found, OverBudget> {
    let grammar = grammar::grammar(language).expect("the caller checks the grammar is built in");
    let mut parser = Parser::new();
    parser
        .set_language(&grammar)
        .expect("every grammar built in is of an ABI this tree-sitter reads");
    if windowed && old.len() >= WHOLE_BELOW {
        // Code indented under a namespace or a class has no top-level line near a change: a
        // window inside its blocks, read with their headers and closers, decides first.
        if matches!(language, Language::CSharp | Language::Java) && !changes.is_empty() {
            if let Some(found) = nested(&mut parser, language, old, new, changes, deadline)? {
                return Ok(found);
            }
        }
        if let (Some(windows), Some(window_grammar)) = (windows(old, changes), window_grammar(language, old, new)) {
            parser
                .set_language(&window_grammar)
                .expect("every grammar built in is of an ABI this tree-sitter reads");
            let found = self::windowed(&mut parser, language, old, new, changes, &windows, deadline)?;
            if let Some(found) = found {
                return Ok(found);
            }
            parser
                .set_language(&grammar)
                .expect("every grammar built in is of an ABI this tree-sitter reads");
        }
    }
    whole(&mut parser, language, old, new, changes, deadline)
}

/// The grammar a window of a text in `language` is read with, or `None` when windows cannot be
/// read alone. A PHP file is HTML until its `<?php`: a window from its middle would be read as
/// HTML, where nothing is an error. Its windows are read in PHP mode (the `php_only` grammar)
/// when both texts open PHP at their start (or after a shebang line) and never close it (no `?>`
/// anywhere, not even in a string: the check would have to know which), and decide only that an
/// edit broke nothing; any other PHP file, and an edit that breaks one, is read whole.
fn window_grammar(language: Language, old: &[u8], new: &[u8]) -> Option<tree_sitter::Language> {
    if language != Language::Php {
        return grammar::grammar(language);
    }
    #[cfg(feature = "php")]
    {
        let opens_php = |text: &[u8]| {
            let body = match text.strip_prefix(b"#!".as_slice()) {
                Some(rest) => rest
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(&[][..], |p| &rest[p + 1..]),
                None => text,
            };
            body.starts_with(b"<?php") && memchr::memmem::find(text, b"?>").is_none()
        };
        if opens_php(old) && opens_php(new) {
            return Some(tree_sitter_php::LANGUAGE_PHP_ONLY.into());
        }
    }
    None
}

/// Both whole texts parsed: the text after incrementally, from the tree before edited by the
/// changes.
fn whole(
    parser: &mut Parser,
    language: Language,
    old: &[u8],
    new: &[u8],
    changes: &[Change],
    deadline: Instant,
) -> Result<Found, OverBudget> {
    let old_focus: Vec<Range<usize>> = changes.iter().map(|c| c.old.clone()).collect();
    let new_focus: Vec<Range<usize>> = changes.iter().map(|c| c.new.clone()).collect();
    let mut tree = parse(parser, old, None, deadline)?;
    let before = problems(language, &tree, old, 0, &old_focus);
    let pristine = tree.clone();
    edit(&mut tree, old, new, changes, 0, 0);
    let after_tree = parse(parser, new, Some(&tree), deadline)?;
    let after = problems(language, &after_tree, new, 0, &new_focus);
    let mut found = compare(&before, after, changes);
    let mut after_tree = after_tree;
    if !found.introduced.is_empty() {
        // Error recovery over reused subtrees can differ from a fresh reading of the same text:
        // what is reported is what a fresh parse of the text after finds. Fresh from the first
        // change on: the tree before, told that everything from there was replaced, lends the
        // parser only what precedes the change (which tree-sitter reuses only where a fresh
        // parse would read the same), and the rest is read anew.
        let fresh = match changes.first() {
            Some(c) => {
                let mut from_change = pristine;
                let rest = Change::new(c.old.start..old.len(), c.new.start..new.len());
                edit(&mut from_change, old, new, std::slice::from_ref(&rest), 0, 0);
                parse(parser, new, Some(&from_change), deadline)?
            }
            _ => parse(parser, new, None, deadline)?,
        };
        found = compare(&before, problems(language, &fresh, new, 0, &new_focus), changes);
        after_tree = fresh;
    }
    Ok(Found {
        introduced: crate::attribute::attribute(language, &after_tree, new, &new_focus, found.introduced),
        preexisting: found.preexisting,
    })
}

/// How many lines around a window its boundaries are confirmed with (a window whose edit broke
/// something), and the first step a window grows by when its text before does not parse clean.
const CONTEXT_LINES: usize = 100;

/// How many times a window whose text before does not parse clean grows (each step four times the
/// last) before the whole texts are parsed instead.
const GROWTHS: usize = 3;

/// The check decided from windows of the texts, or `None` when the windows cannot decide and the
/// whole texts must be parsed.
///
/// Each window of the text before (see [`windows`]) is parsed; one that does not parse clean (it
/// starts inside a string, say, or the file was broken there already) grows to top-level lines
/// further out, a few times. The same window after the changes is parsed incrementally from it.
/// When every window after is clean too, the edit introduced nothing (the text outside the windows
/// is the same, and each window starts and ends where the text before has a top-level item). When
/// one window after is not, its problems are the edit's, provided its boundaries are confirmed:
/// the text before parses clean over [`CONTEXT_LINES`] more lines each way, with both boundaries
/// between items there (in no string, comment or other token). Two windows broken (an edit that
/// opens a comment in one and closes it in another), or boundaries not confirmed: `None`.
fn windowed(
    parser: &mut Parser,
    language: Language,
    old: &[u8],
    new: &[u8],
    changes: &[Change],
    windows: &[Range<usize>],
    deadline: Instant,
) -> Result<Option<Found>, OverBudget> {
    let mut next = 0;
    let mut taken: Vec<Range<usize>> = Vec::new();
    // The problems of the one window the changes broke, placed.
    let mut broken: Option<Vec<Finding>> = None;
    for window in windows {
        // The changes inside this window.
        let first = next;
        while next < changes.len() && changes[next].old.start <= window.end {
            next += 1;
        }
        let inside = &changes[first..next];
        // Its text before, parsed clean: grown when it is not.
        let mut w = window.clone();
        let mut margin = CONTEXT_LINES;
        let mut growths = 0;
        let mut tree = loop {
            let tree = parse(parser, &old[w.clone()], None, deadline)?;
            if problems(language, &tree, &old[w.clone()], w.start, &[])
                .findings
                .is_empty()
            {
                break tree;
            }
            if growths == GROWTHS {
                return Ok(None);
            }
            growths += 1;
            w = widened(old, window, margin);
            margin *= 4;
            let holds_only_its_changes = changes[..first].last().is_none_or(|c| c.old.end < w.start)
                && changes.get(next).is_none_or(|c| c.old.start > w.end);
            if !holds_only_its_changes || w.len() * 2 > old.len() {
                return Ok(None);
            }
        };
        if taken.last().is_some_and(|t| t.end > w.start) {
            return Ok(None);
        }
        taken.push(w.clone());
        let new_window = new_position(changes, w.start, false)..new_position(changes, w.end, true);
        let old_text = &old[w.clone()];
        let new_text = &new[new_window.clone()];
        edit(&mut tree, old_text, new_text, inside, w.start, new_window.start);
        let after = parse(parser, new_text, Some(&tree), deadline)?;
        let focus: Vec<Range<usize>> = inside.iter().map(|c| c.new.clone()).collect();
        if problems(language, &after, new_text, new_window.start, &focus)
            .findings
            .is_empty()
        {
            continue;
        }
        // PHP's windows are read with the `php_only` grammar, whose error recovery differs from
        // the whole file's: what broke is for the whole texts to say. So it is for changes in
        // several windows: where the problems of one are placed depends on the others' lines.
        if language == Language::Php || windows.len() > 1 || !boundaries_confirmed(parser, language, old, &w, deadline)?
        {
            return Ok(None);
        }
        // What is reported is what a fresh parse of the text after finds (as for the whole
        // texts), over the window and the context its text before was confirmed clean with, so
        // that the parser recovers from the break as it would in the whole text; placed by the
        // rules, at most MAX_ERRORS of them.
        let around = widened(new, &new_window, CONTEXT_LINES);
        let around_text = &new[around.clone()];
        let fresh = parse(parser, around_text, None, deadline)?;
        let mut found = problems(language, &fresh, around_text, around.start, &focus).findings;
        let inside = |f: &Finding| new_window.start <= f.at.start && f.at.end <= new_window.end;
        let all_inside = found.iter().all(inside);
        // Where an opener's closer probably belongs is read in the whole text after (the first
        // later line indented no deeper may lie past the context).
        for f in &mut found {
            if let (crate::Problem::NeverClosed { closer, .. }, None) = (&f.problem, f.hint) {
                f.hint = crate::findings::before_line(new, f.at.start, closer);
            }
        }
        // The tree moved to its place in the text after, for the rules that place problems.
        let tree = shifted(fresh, new, around.start);
        let mut listed = crate::attribute::attribute(language, &tree, new, &focus, found);
        listed.truncate(crate::MAX_ERRORS);
        // The whole texts decide instead when a problem listed lies past the window; when one
        // found does (an echo of the break, which can go on past the context), unless the rules
        // placed brackets (an opener never closed, a closer closing nothing) and dropped their
        // echoes; and when a string or a keyword block (`if` ... `fi`, `do` ... `end`) is left
        // open or closes nothing: the parser pairs those over the whole text, and reports echoes
        // of them far from the edit.
        if !decides(&listed, all_inside, &inside, &|_| false) {
            return Ok(None);
        }
        broken = Some(listed);
    }
    Ok(Some(Found {
        introduced: broken.unwrap_or_default(),
        preexisting: 0,
    }))
}

/// The check decided from a window inside nested blocks ([`crate::members`]), read with the
/// headers and closers of the blocks around it, or `None` when it cannot decide. The same
/// decision as [`windowed`]'s for one window: the text before must parse clean in that context;
/// the text after clean too, nothing was introduced; broken, its boundaries are confirmed by the
/// text before parsed clean over [`CONTEXT_LINES`] more lines of the block each way (in the same
/// context), and the problems of a fresh parse of the text after over those lines are the
/// edit's, under the same conditions.
fn nested(
    parser: &mut Parser,
    language: Language,
    old: &[u8],
    new: &[u8],
    changes: &[Change],
    deadline: Instant,
) -> Result<Option<Found>, OverBudget> {
    let (a, b) = (changes[0].old.start, changes[changes.len() - 1].old.end);
    let Some(n) = crate::members::window(old, a, b) else {
        return Ok(None);
    };
    if n.window.len() * 2 > old.len() || a < n.window.start || b >= n.window.end {
        return Ok(None);
    }
    let old_lines = Newlines::of(old);
    let mut tree = parse_ranges(parser, old, &old_lines, &n.ranges(), None, deadline)?;
    if !problems(language, &tree, old, 0, &[]).findings.is_empty() {
        return Ok(None);
    }
    // The same stretches of the text after: the headers before the changes, the closers after.
    let delta = new.len() as isize - old.len() as isize;
    let moved = |r: &Range<usize>| (r.start as isize + delta) as usize..(r.end as isize + delta) as usize;
    let new_window = new_position(changes, n.window.start, false)..new_position(changes, n.window.end, true);
    let after_ranges = |n: &crate::members::Nested, window: Range<usize>| {
        let mut out = n.before();
        out.push(window);
        out.extend(n.closers.iter().map(moved));
        out
    };
    edit(&mut tree, old, new, changes, 0, 0);
    let new_lines = Newlines::of(new);
    let after = parse_ranges(
        parser,
        new,
        &new_lines,
        &after_ranges(&n, new_window.clone()),
        Some(&tree),
        deadline,
    )?;
    let focus: Vec<Range<usize>> = changes.iter().map(|c| c.new.clone()).collect();
    if problems(language, &after, new, 0, &focus).findings.is_empty() {
        return Ok(Some(Found {
            introduced: Vec::new(),
            preexisting: 0,
        }));
    }
    // Broken: the boundaries confirmed in a wider stretch of the block.
    let Some(wide) = crate::members::widened(old, &n, CONTEXT_LINES) else {
        return Ok(None);
    };
    let wide_tree = parse_ranges(parser, old, &old_lines, &wide.ranges(), None, deadline)?;
    if !problems(language, &wide_tree, old, 0, &[]).findings.is_empty()
        || !between_items(&wide_tree, n.window.start)
        || !between_items(&wide_tree, n.window.end)
    {
        return Ok(None);
    }
    let around = new_position(changes, wide.window.start, false)..new_position(changes, wide.window.end, true);
    let fresh = parse_ranges(parser, new, &new_lines, &after_ranges(&wide, around), None, deadline)?;
    let mut found = problems(language, &fresh, new, 0, &focus).findings;
    let inside = |f: &Finding| new_window.start <= f.at.start && f.at.end <= new_window.end;
    let all_inside = found.iter().all(inside);
    for f in &mut found {
        if let (crate::Problem::NeverClosed { closer, .. }, None) = (&f.problem, f.hint) {
            f.hint = crate::findings::before_line(new, f.at.start, closer);
        }
    }
    let mut listed = crate::attribute::attribute(language, &fresh, new, &focus, found);
    listed.truncate(crate::MAX_ERRORS);
    // An opener of a block around the window, left open by what the edit wrote: the `{` of a
    // header of the context, which the parse read with the window (a `(` typed on a blank line
    // of a method swallows the closers below, and the rules place the break on the block).
    let context = |f: &Finding| {
        matches!(&f.problem, crate::Problem::NeverClosed { opener, .. } if opener == "{")
            && n.headers.iter().any(|h| h.end == f.at.end)
    };
    if !decides(&listed, all_inside, &inside, &context) {
        return Ok(None);
    }
    Ok(Some(Found {
        introduced: listed,
        preexisting: 0,
    }))
}

/// Whether the problems `listed` from a broken window say what the whole texts would (see
/// [`windowed`]): some listed, all inside the window or placed on its `context` (the `{` of a
/// block around a window inside blocks, which the parse read too), no string or keyword block
/// left open or closing nothing, and every problem found inside the window (`all_inside`) unless
/// all listed are brackets (whose echoes the rules dropped).
fn decides(
    listed: &[Finding],
    all_inside: bool,
    inside: &dyn Fn(&Finding) -> bool,
    context: &dyn Fn(&Finding) -> bool,
) -> bool {
    let bracket = |f: &Finding| match &f.problem {
        crate::Problem::NeverClosed { opener, .. } => matches!(opener.as_str(), "{" | "(" | "["),
        crate::Problem::ClosesNothing { closer } => matches!(closer.as_str(), "}" | ")" | "]"),
        _ => false,
    };
    let keyword_or_string = |f: &Finding| match &f.problem {
        crate::Problem::NeverClosed { .. } | crate::Problem::ClosesNothing { .. } => !bracket(f),
        crate::Problem::UnclosedString { .. } => true,
        _ => false,
    };
    !(listed.is_empty()
        || !listed.iter().all(|f| inside(f) || context(f))
        || listed.iter().any(keyword_or_string)
        || !(all_inside || listed.iter().all(bracket)))
}

/// Parses the stretches `ranges` of `text` (whose line breaks are `lines`) as one text, within the
/// deadline; the tree's positions are the text's. The parser reads whole texts again after.
fn parse_ranges(
    parser: &mut Parser,
    text: &[u8],
    lines: &Newlines,
    ranges: &[Range<usize>],
    old: Option<&Tree>,
    deadline: Instant,
) -> Result<Tree, OverBudget> {
    let included: Vec<tree_sitter::Range> = ranges
        .iter()
        .map(|r| tree_sitter::Range {
            start_byte: r.start,
            end_byte: r.end,
            start_point: lines.point(r.start),
            end_point: lines.point(r.end),
        })
        .collect();
    parser
        .set_included_ranges(&included)
        .expect("the stretches are in order and apart");
    let tree = parse(parser, text, old, deadline);
    parser.set_included_ranges(&[]).expect("no stretches: the whole text");
    tree
}

/// Whether window `w` of `old` starts and ends between top-level items: the text before parses
/// clean from a top-level line [`CONTEXT_LINES`] further out on each side, and neither of the
/// window's ends falls inside a token or a string, comment or other literal there.
fn boundaries_confirmed(
    parser: &mut Parser,
    language: Language,
    old: &[u8],
    w: &Range<usize>,
    deadline: Instant,
) -> Result<bool, OverBudget> {
    let around = widened(old, w, CONTEXT_LINES);
    let text = &old[around.clone()];
    let tree = parse(parser, text, None, deadline)?;
    if !problems(language, &tree, text, around.start, &[]).findings.is_empty() {
        return Ok(false);
    }
    let between = |at: usize| at == 0 || at == old.len() || between_items(&tree, at - around.start);
    Ok(between(w.start) && between(w.end))
}

/// Whether position `at` of a tree's text lies between tokens and in no string, comment or other
/// literal (a multi-line string's lines can look like top-level code).
fn between_items(tree: &Tree, at: usize) -> bool {
    let mut node = tree.root_node();
    loop {
        let mut cursor = node.walk();
        let Some(inner) = node
            .children(&mut cursor)
            .find(|c| c.start_byte() < at && at < c.end_byte())
        else {
            return true;
        };
        let kind = inner.kind();
        let literal = [
            "string",
            "comment",
            "heredoc",
            "nowdoc",
            "template",
            "text_block",
            "raw",
            "scalar",
            "code",
            "fence",
        ]
        .iter()
        .any(|k| kind.contains(k));
        if literal || inner.child_count() == 0 {
            return false;
        }
        node = inner;
    }
}

/// `window` of `text` widened to the top-level lines at least `lines` lines further out each way
/// (the text's start or end when there is none).
fn widened(text: &[u8], window: &Range<usize>, lines: usize) -> Range<usize> {
    let mut start = window.start;
    for _ in 0..lines {
        if start == 0 {
            break;
        }
        start = text[..start - 1].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    }
    let mut end = window.end;
    for _ in 0..lines {
        match text[end.min(text.len())..].iter().position(|&b| b == b'\n') {
            Some(p) => end += p + 1,
            None => {
                end = text.len();
                break;
            }
        }
    }
    let start = if start == 0 { 0 } else { boundary_before(text, start) };
    start..boundary_after(text, end.min(text.len()))
}

/// `tree`, of the text starting at `at` in `text`, moved to that place (an insertion before it, as
/// far as tree-sitter is concerned).
fn shifted(mut tree: Tree, text: &[u8], at: usize) -> Tree {
    if at > 0 {
        let row = memchr::memchr_iter(b'\n', &text[..at]).count();
        let column = at - memchr::memrchr(b'\n', &text[..at]).map_or(0, |p| p + 1);
        tree.edit(&InputEdit {
            start_byte: 0,
            old_end_byte: 0,
            new_end_byte: at,
            start_position: Point { row: 0, column: 0 },
            old_end_position: Point { row: 0, column: 0 },
            new_end_position: Point { row, column },
        });
    }
    tree
}

/// Where position `at` of the text before is after the changes: moved by every change that
/// starts before it (`at` is outside every change), and by one that starts at it too when
/// `inclusive` (the end of a window, which holds a change starting there).
fn new_position(changes: &[Change], at: usize, inclusive: bool) -> usize {
    let mut delta: isize = 0;
    for c in changes {
        if c.old.start > at || (c.old.start == at && !inclusive) {
            break;
        }
        delta += c.new.len() as isize - c.old.len() as isize;
    }
    (at as isize + delta) as usize
}

/// The windows of the text before to parse: around each change, from the start of the nearest
/// line before it that starts a top-level item (a line that is not indented, does not start with
/// a closing bracket, and follows a blank line) to the start of the nearest such line after the
/// line holding its end; windows that meet are merged. `None` when the windows would hold most of
/// the text (the whole is then parsed).
fn windows(old: &[u8], changes: &[Change]) -> Option<Vec<Range<usize>>> {
    let mut windows: Vec<Range<usize>> = Vec::new();
    for c in changes {
        // The item before a change at a window's first line and the line holding the change's
        // end are the window's too: text typed at a line's start can join that line to the item
        // above (an indented `def`), and an empty window decides nothing.
        let start = boundary_before(old, c.old.start.saturating_sub(1));
        let end = boundary_after(old, (c.old.end + 1).min(old.len()));
        match windows.last_mut() {
            Some(last) if start <= last.end => last.end = last.end.max(end),
            _ => windows.push(start..end),
        }
    }
    let covered: usize = windows.iter().map(|w| w.len()).sum();
    (covered * 2 <= old.len()).then_some(windows)
}

/// The start of the line, at or before the line holding `at`, that starts a top-level item; the
/// text's start when none is found within [`WINDOW_REACH`] lines.
fn boundary_before(text: &[u8], at: usize) -> usize {
    let mut line = text[..at.min(text.len())]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    for _ in 0..WINDOW_REACH {
        if line == 0 {
            return 0;
        }
        if starts_item(text, line) {
            return line;
        }
        line = text[..line - 1].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    }
    0
}

/// The first line start at or after `at` that starts a top-level item; the text's end when none
/// is found within [`WINDOW_REACH`] lines.
fn boundary_after(text: &[u8], at: usize) -> usize {
    let mut line = if at == 0 || text.get(at - 1) == Some(&b'\n') {
        at
    } else {
        match text[at.min(text.len())..].iter().position(|&b| b == b'\n') {
            Some(p) => at + p + 1,
            None => return text.len(),
        }
    };
    for _ in 0..WINDOW_REACH {
        if line >= text.len() {
            return text.len();
        }
        if starts_item(text, line) {
            return line;
        }
        line = match text[line..].iter().position(|&b| b == b'\n') {
            Some(p) => line + p + 1,
            None => return text.len(),
        };
    }
    text.len()
}

/// Whether the line starting at `start` looks like the start of a top-level item: not indented,
/// not blank, not a closing bracket, and after a blank line.
fn starts_item(text: &[u8], start: usize) -> bool {
    let Some(&first) = text.get(start) else { return false };
    if first.is_ascii_whitespace() || matches!(first, b')' | b']' | b'}') {
        return false;
    }
    // The line before must be blank.
    if start < 1 {
        return true;
    }
    let prev_start = text[..start - 1].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    text[prev_start..start].iter().all(|b| b.is_ascii_whitespace())
}

/// Parses `text`, from `old` edited to it when given, within the deadline.
fn parse(parser: &mut Parser, text: &[u8], old: Option<&Tree>, deadline: Instant) -> Result<Tree, OverBudget> {
    let mut progress = |_: &tree_sitter::ParseState| {
        if Instant::now() > deadline {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
    let len = text.len();
    let tree = parser.parse_with_options(&mut |i, _| if i < len { &text[i..] } else { &[] }, old, Some(options));
    match tree {
        Some(tree) => Ok(tree),
        None => {
            parser.reset();
            Err(OverBudget)
        }
    }
}

/// The problems of one text: its tree's, and the layout checks of its language.
fn problems(language: Language, tree: &Tree, text: &[u8], offset: usize, focus: &[Range<usize>]) -> Broken {
    let mut found = broken(language, tree, text, offset, focus);
    let mut extra = match language {
        Language::Python => layout::python::check(text, offset),
        #[cfg(feature = "markdown")]
        Language::Markdown => layout::markdown::check(tree, text, offset),
        Language::Bash | Language::Css | Language::Rust => layout::lenient::check(language, tree, text, offset),
        _ => Vec::new(),
    };
    if !extra.is_empty() {
        // An indentation problem explains the stretch the parser could not read around it: the
        // unexpected token found there is dropped for it (openers never closed are kept).
        for f in &extra {
            found.regions.push(line_around(text, offset, f.at.start));
        }
        found.findings.retain(|f| {
            !matches!(f.problem, crate::Problem::Unexpected { .. })
                || !extra.iter().any(|e| overlaps_error_of(&found.regions, &e.at, &f.at))
        });
        found.findings.append(&mut extra);
        found.findings.sort_by_key(|f| (f.at.start, f.at.end));
    }
    found
}

/// Whether `a` and `b` fall in one region of `regions` (both inside the same range).
fn overlaps_error_of(regions: &[Range<usize>], a: &Range<usize>, b: &Range<usize>) -> bool {
    regions
        .iter()
        .any(|r| r.start <= a.start && a.start <= r.end && r.start <= b.start && b.start <= r.end)
}

/// The line holding `at` (a position of the larger text; `text` starts at `offset` in it).
fn line_around(text: &[u8], offset: usize, at: usize) -> Range<usize> {
    let local = at - offset;
    let start = text[..local.min(text.len())]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let end = text[local.min(text.len())..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |p| local + p);
    offset + start..offset + end
}

/// The problems after that the text before did not have: a problem after is the text before's
/// when it lies in a stretch the parser could not read before (mapped through the changes), or
/// when a problem of the same kind was at the same place.
fn compare(before: &Broken, after: Broken, changes: &[Change]) -> Found {
    let regions: Vec<Range<usize>> = before.regions.iter().map(|r| map_range(changes, r)).collect();
    let moved: Vec<(usize, &Finding)> = before
        .findings
        .iter()
        .map(|f| (map_range(changes, &f.at).start, f))
        .collect();
    let mut introduced = Vec::new();
    let mut preexisting = 0;
    for f in after.findings {
        let old = regions.iter().any(|r| r.start <= f.at.start && f.at.start <= r.end)
            || moved
                .iter()
                .any(|(at, o)| *at == f.at.start && o.problem.same_kind(&f.problem));
        if old {
            preexisting += 1;
        } else {
            introduced.push(f);
        }
    }
    Found {
        introduced,
        preexisting,
    }
}

/// A range of the text before, after the changes: each end moved by the changes before it; an end
/// inside a change goes to that change's edge, widening the range over the change's new text.
fn map_range(changes: &[Change], r: &Range<usize>) -> Range<usize> {
    let mut start = None;
    let mut end = None;
    let mut delta: isize = 0;
    for c in changes {
        if start.is_none() {
            if r.start < c.old.start {
                start = Some((r.start as isize + delta) as usize);
            } else if r.start < c.old.end || (c.old.is_empty() && r.start == c.old.start) {
                start = Some(c.new.start);
            }
        }
        if end.is_none() {
            if (c.old.start < r.end && r.end <= c.old.end) || (c.old.is_empty() && r.end == c.old.start) {
                end = Some(c.new.end);
            } else if r.end <= c.old.start {
                end = Some((r.end as isize + delta) as usize);
            }
        }
        if start.is_some() && end.is_some() {
            break;
        }
        delta += c.new.len() as isize - c.old.len() as isize;
    }
    let start = start.unwrap_or((r.start as isize + delta) as usize);
    let end = end.unwrap_or((r.end as isize + delta) as usize).max(start);
    start..end
}

/// The positions of a text's `\n`s, for tree-sitter's points (rows are `\n`-lines for it).
struct Newlines(Vec<usize>);

impl Newlines {
    fn of(text: &[u8]) -> Newlines {
        Newlines(memchr::memchr_iter(b'\n', text).collect())
    }

    fn point(&self, at: usize) -> Point {
        let row = self.0.partition_point(|&p| p < at);
        let column = if row == 0 { at } else { at - self.0[row - 1] - 1 };
        Point { row, column }
    }
}

/// `tree` (of `old`) edited by `changes`, each given in the coordinates of larger texts where
/// `old` starts at `old_offset` and `new` at `new_offset`.
fn edit(tree: &mut Tree, old: &[u8], new: &[u8], changes: &[Change], old_offset: usize, new_offset: usize) {
    let lines = Newlines::of(old);
    // From the last change back, so each change's positions before it are those of `old`.
    for c in changes.iter().rev() {
        let start = c.old.start - old_offset;
        let old_end = c.old.end - old_offset;
        let written = &new[c.new.start - new_offset..c.new.end - new_offset];
        let start_position = lines.point(start);
        let breaks = memchr::memchr_iter(b'\n', written).count();
        let new_end_position = match memchr::memrchr(b'\n', written) {
            Some(last) => Point {
                row: start_position.row + breaks,
                column: written.len() - last - 1,
            },
            None => Point {
                row: start_position.row,
                column: start_position.column + written.len(),
            },
        };
        tree.edit(&InputEdit {
            start_byte: start,
            old_end_byte: old_end,
            new_end_byte: start + written.len(),
            start_position,
            old_end_position: lines.point(old_end),
            new_end_position,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_map_through_changes() {
        // "aaXXbb" -> "aaYYYYbb": XX (2..4) replaced by YYYY (2..6).
        let changes = [Change::new(2..4, 2..6)];
        assert_eq!(map_range(&changes, &(0..1)), 0..1);
        assert_eq!(map_range(&changes, &(4..6)), 6..8);
        assert_eq!(map_range(&changes, &(3..5)), 2..7);
        assert_eq!(map_range(&changes, &(0..6)), 0..8);
        assert_eq!(new_position(&changes, 4, false), 6);
        assert_eq!(new_position(&changes, 2, false), 2);
        assert_eq!(new_position(&changes, 2, true), 4);
        assert_eq!(new_position(&changes, 1, true), 1);
    }

    #[test]
    fn windows_start_at_top_level_items() {
        let text = b"fn a() {\n    1\n}\n\nfn b() {\n    2\n}\n\nfn c() {\n    3\n}\n\nfn d() {}\n\nfn e() {}\n";
        let at = text.windows(1).position(|w| w == b"2").unwrap();
        let w = windows(text, &[Change::new(at..at + 1, at..at + 1)]).unwrap();
        assert_eq!(w.len(), 1);
        assert_eq!(&text[w[0].clone()], b"fn b() {\n    2\n}\n\n");
    }
}
