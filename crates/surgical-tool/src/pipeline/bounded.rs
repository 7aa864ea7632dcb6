//! Fitting what the tool reports into a model's context (the markers of a cut are `wording::output`'s).

use crate::wording::output as wording;

/// Lines longer than this many characters are cut, with a marker saying how much was left out: the
/// lines `read` shows, and those of an edit's `text`, `diff` and `patch`.
pub(crate) const MAX_LINE_CHARS: usize = 2000;

/// How the diffs and patches rendered from windows cut a line longer than [`MAX_LINE_CHARS`]
/// characters: around its change, with the markers of [`bounded`]'s cuts, so that the line with its
/// markers fits and [`bounded`] leaves it as it is.
pub(crate) fn line_cut() -> surgical_core::diff::LineCut<'static> {
    surgical_core::diff::LineCut {
        max_chars: MAX_LINE_CHARS,
        before: &wording::line_cut_before,
        after: &wording::line_cut,
    }
}

/// An edit's whole `text` holds at most about this many bytes (its lines cut first).
pub(crate) const MAX_TEXT_BYTES: usize = 64 * 1024;

/// An edit's `diff` and `patch` hold at most about this many bytes each (their lines cut first).
pub(crate) const MAX_FIELD_BYTES: usize = 256 * 1024;

/// `output` with every line over [`MAX_LINE_CHARS`] characters cut and the whole ended before it
/// passes `max_bytes`, each cut marked; and whether anything was cut. Output that fits is returned
/// as it is. A line's terminator stays where the line is cut; the marker of the last cut is a line
/// of its own (so a result stays readable, never a valid patch).
pub(crate) fn bounded(output: String, max_bytes: usize) -> (String, bool) {
    if output.len() <= max_bytes && output.len() <= MAX_LINE_CHARS {
        return (output, false);
    }
    let mut out = String::with_capacity(output.len().min(max_bytes + 256));
    let mut cut = false;
    let mut lines = output.split_inclusive('\n');
    let mut left_out = 0;
    for line in lines.by_ref() {
        let body = line
            .strip_suffix("\r\n")
            .or_else(|| line.strip_suffix('\n'))
            .unwrap_or(line);
        let (shown, more_chars) = match body.char_indices().nth(MAX_LINE_CHARS) {
            Some((at, _)) => (&body[..at], body[at..].chars().count()),
            None => (body, 0),
        };
        if out.len() + shown.len() > max_bytes && !out.is_empty() {
            left_out = 1;
            break;
        }
        out.push_str(shown);
        if more_chars > 0 {
            cut = true;
            out.push_str(&wording::line_cut(more_chars));
        }
        out.push_str(&line[body.len()..]);
    }
    left_out += lines.count();
    if left_out > 0 {
        cut = true;
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&wording::lines_left_out(left_out, max_bytes));
    }
    (out, cut)
}

/// Cuts a result's `text` past [`MAX_TEXT_BYTES`] and its `diff` and `patch` past
/// [`MAX_FIELD_BYTES`] (long lines everywhere); whether the patch was cut.
fn bound_text_diff_patch(text: &mut String, diff: &mut String, patch: &mut String) -> bool {
    *text = bounded(std::mem::take(text), MAX_TEXT_BYTES).0;
    *diff = bounded(std::mem::take(diff), MAX_FIELD_BYTES).0;
    let (cut, patch_cut) = bounded(std::mem::take(patch), MAX_FIELD_BYTES);
    *patch = cut;
    patch_cut
}

impl crate::EditSuccess {
    /// The result cut to fit a model's context: lines of `text`, `diff` and `patch` over
    /// [`MAX_LINE_CHARS`] characters, `text` past [`MAX_TEXT_BYTES`], `diff` and `patch` past
    /// [`MAX_FIELD_BYTES`]; `patchTruncated` says when the patch was cut.
    pub(crate) fn bounded(mut self) -> Self {
        self.patch_truncated |= bound_text_diff_patch(&mut self.text, &mut self.diff, &mut self.patch);
        self
    }
}

impl crate::SnippetSuccess {
    /// The result cut to fit a model's context: its `text`, `diff` and `patch` as an edit's
    /// ([`crate::EditSuccess::bounded`]); the segments are a few numbers each and stay whole.
    pub(crate) fn bounded(mut self) -> Self {
        self.edit = self.edit.bounded();
        self
    }
}

impl crate::WriteSuccess {
    /// The result cut to fit a model's context, as [`crate::EditSuccess::bounded`] cuts an edit's:
    /// a whole file written as one long line is reported in a few KiB, not three times its size.
    pub(crate) fn bounded(mut self) -> Self {
        self.patch_truncated |= bound_text_diff_patch(&mut self.text, &mut self.diff, &mut self.patch);
        self
    }
}

impl crate::PatchSuccess {
    /// The result cut to fit a model's context: `text` as an edit's; the combined `patch` past
    /// [`MAX_FIELD_BYTES`]; the files' diffs share another [`MAX_FIELD_BYTES`], and so do their
    /// patches ([`fair_shares`]: a small file's stays whole beside a large one's). Lines over
    /// [`MAX_LINE_CHARS`] characters are cut everywhere; `patchTruncated` says which patches were
    /// cut.
    pub(crate) fn bounded(mut self) -> Self {
        let (text, _) = bounded(std::mem::take(&mut self.text), MAX_TEXT_BYTES);
        let (patch, patch_cut) = bounded(std::mem::take(&mut self.patch), MAX_FIELD_BYTES);
        self.text = text;
        self.patch = patch;
        self.patch_truncated |= patch_cut;
        let diff_shares = fair_shares(self.files.iter().map(|f| f.diff.len()), MAX_FIELD_BYTES);
        let patch_shares = fair_shares(self.files.iter().map(|f| f.patch.len()), MAX_FIELD_BYTES);
        for ((file, diff_share), patch_share) in self.files.iter_mut().zip(diff_shares).zip(patch_shares) {
            let (diff, _) = bounded(std::mem::take(&mut file.diff), diff_share);
            let (patch, patch_cut) = bounded(std::mem::take(&mut file.patch), patch_share);
            file.diff = diff;
            file.patch = patch;
            file.patch_truncated |= patch_cut;
        }
        self
    }
}

/// How many bytes each of several outputs of these `sizes` may keep so that together they keep at
/// most about `total`: the smallest whole, as long as each fits an equal share of what is left,
/// then an equal share each for the rest (as filling vessels with water).
fn fair_shares(sizes: impl Iterator<Item = usize>, total: usize) -> Vec<usize> {
    let sizes: Vec<usize> = sizes.collect();
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| sizes[i]);
    let mut shares = vec![0; sizes.len()];
    let mut left = total;
    for (done, &i) in order.iter().enumerate() {
        let share = left / (sizes.len() - done);
        shares[i] = sizes[i].min(share);
        left -= shares[i];
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_outputs_keep_their_size_and_large_ones_share_the_rest() {
        assert_eq!(
            fair_shares([10, 500, 20, 900].into_iter(), 1000),
            vec![10, 485, 20, 485]
        );
        assert_eq!(fair_shares([10, 20].into_iter(), 1000), vec![10, 20]);
        assert_eq!(fair_shares(std::iter::empty(), 1000), Vec::<usize>::new());
    }

    #[test]
    fn output_that_fits_is_kept_as_it_is() {
        let text = "+1 one\n-2 two\n".to_string();
        assert_eq!(bounded(text.clone(), 1024), (text, false));
        let exactly = "x".repeat(MAX_LINE_CHARS);
        assert_eq!(bounded(exactly.clone(), MAX_FIELD_BYTES), (exactly, false));
    }

    #[test]
    fn long_lines_are_cut_with_a_marker_and_keep_their_terminator() {
        let long = "é".repeat(MAX_LINE_CHARS + 7);
        let (out, cut) = bounded(format!("a\n{long}\r\nb"), MAX_FIELD_BYTES);
        assert!(cut);
        let lines: Vec<&str> = out.split('\n').collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert!(out.contains("shown]\r\n"));
        assert_eq!(lines[0], "a");
        assert_eq!(
            lines[1],
            format!(
                "{} [... line cut here: 7 more characters not shown]\r",
                "é".repeat(MAX_LINE_CHARS)
            )
        );
        assert_eq!(lines[2], "b");
    }

    #[test]
    fn the_whole_is_capped_with_a_count_of_the_lines_left_out() {
        let text: String = (0..1000).map(|i| format!("line {i:04} of the diff\n")).collect();
        let (out, cut) = bounded(text, 1024);
        assert!(cut);
        assert!(out.len() < 1024 + 100, "{}", out.len());
        assert!(out.starts_with("line 0000 of the diff\n"));
        let shown = out.lines().count() - 1;
        assert!(out.ends_with(&format!(
            "[... {} more lines not shown: this output is capped at 1 KiB]\n",
            1000 - shown
        )));
    }
}
