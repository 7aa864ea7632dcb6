//! Issue 31's wrong-result classes, one synthetic regression test per shape seen on the fresh
//! sets' first run (docs/snippets-fresh.md, "What was wrong"): our own text, not the
//! repositories'. Each asserts the right behaviour and fails on the code of the first run. Those
//! the marker grammar fixed run; the others are ignored, each with the reason it still fails
//! (`cargo test -p surgical-core --test snippet_round3 -- --ignored` shows them).

use surgical_core::snippet::{apply_snippet, SnippetError};

/// The merged text, or a panic naming what happened instead.
fn merged(file: &str, snippet: &str) -> String {
    match apply_snippet(file.as_bytes(), snippet) {
        Ok(a) => String::from_utf8(a.applied.text).expect("UTF-8"),
        Err(e) => panic!("refused: {e:?}"),
    }
}

/// The refusal, or a panic showing the merged text.
fn refused(file: &str, snippet: &str) -> SnippetError {
    match apply_snippet(file.as_bytes(), snippet) {
        Ok(a) => panic!("merged:\n{}", String::from_utf8_lossy(&a.applied.text)),
        Err(e) => e,
    }
}

// ---------------------------------------------------------------------------------------------
// Class 1: marker lines written into the file. A line that reads as an omission marker in a
// syntax the detector does not know was taken as content: written (deleting what it stood for)
// or, more often, left the snippet without a place.

const GUIDE_RST: &str = "\
Widget
======

.. image:: https://example.org/badge.svg
   :alt: build status


What is Widget?
===============

Widget draws boxes around text.
It needs Python 3.8 or newer.

Widget began as a script and grew
into a small library with a command.

Install it with pip, then run it on any
file to see its boxes.
";

#[test]
#[ignore = "issue 31: refused, not placed: with the marker read, the changed line is \"rewrite the next line or insert after it\" (R2); needs the scored readings"]
fn marker_lines_written_plain_marker_in_rst_without_a_first_marker() {
    // A plain `... remaining sections ...` line (no comment syntax) between two segments, no
    // marker before the first: the marker stands for the lines it replaces, it is never written.
    let snippet = "\
.. image:: https://example.org/badge.svg
   :alt: build status
... remaining sections ...
Widget draws boxes around text.
It needs Python 3.9 or newer.
... remaining sections ...
";
    assert_eq!(
        merged(GUIDE_RST, snippet),
        GUIDE_RST.replace("Python 3.8", "Python 3.9")
    );
}

#[test]
#[ignore = "issue 31: refused, not placed: with the marker read, the changed line is \"rewrite the next line or insert after it\" (R2); needs the scored readings"]
fn marker_lines_written_rst_comment_marker() {
    // reStructuredText's comment (`.. `) holding the ellipsis, as models write markers in .rst.
    let snippet = "\
.. ... existing content ...
Widget draws boxes around text.
It needs Python 3.9 or newer.
.. ... existing content ...
";
    assert_eq!(
        merged(GUIDE_RST, snippet),
        GUIDE_RST.replace("Python 3.8", "Python 3.9")
    );
}

const COLOURS_CSV: &str = "\
name,hex,rgb
black,#000000,0 0 0
navy,#000080,0 0 128
blue,#0000ff,0 0 255
green,#008000,0 128 0
teal,#008080,0 128 128
lime,#00ff00,0 255 0
maroon,#800000,128 0 0
purple,#800080,128 0 128
olive,#808000,128 128 0
gray,#808080,128 128 128
silver,#c0c0c0,192 192 192
red,#ff0000,255 0 0
white,#ffffff,255 255 255
";

#[test]
fn marker_lines_written_plain_marker_in_csv() {
    let snippet = "\
... existing rows ...
teal,#008080,0 128 128
aqua,#00ffff,0 255 255
lime,#00ff00,0 255 0
... 7 more lines ...
";
    assert_eq!(
        merged(COLOURS_CSV, snippet),
        COLOURS_CSV.replace("lime,", "aqua,#00ffff,0 255 255\nlime,")
    );
}

#[test]
fn marker_lines_written_in_every_syntax_models_use() {
    // Each marker form of the grammar (docs/snippets-fresh.md) that the detector does not read
    // today, around the same change: every one must merge as the comment-marker form does.
    let file = "\
first line of the file
alpha one
alpha two
beta one
beta two
gamma one
gamma two
last line of the file
";
    let expected = file.replace("beta two", "beta 2");
    for m in [
        "... existing code ...",
        "… unchanged …",
        ".. ... existing content ...",
        ".. ...",
        "REM ... existing commands ...",
        ":: ... unchanged ...",
        "! ... existing keys ...",
        "{{/* ... */}}",
        "<%-- ... existing code --%>",
        "{{!-- ... --}}",
        "[... 3 more lines ...]",
        "(rest of the lines ...)",
        "// rest of code...",
    ] {
        let snippet = format!("{m}\nbeta one\nbeta 2\ngamma one\n{m}\n");
        match apply_snippet(file.as_bytes(), &snippet) {
            Ok(a) => assert_eq!(String::from_utf8(a.applied.text).unwrap(), expected, "marker {m:?}"),
            Err(e) => panic!("marker {m:?}: refused: {e:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Class 2: a block replaced at the wrong place. With thin context in a repetitive file, the
// snippet replaced a similar block elsewhere. (On the first run this mechanism showed only on
// ambiguous negatives, class 3 below; the same file cut to one list, where the insertion point
// is unique, is placed as wrongly: this test.)

#[test]
#[ignore = "issue 31 class 2, open: a one-for-one rewrite of a similar entry still outscores the insertion (needs rarity-weighted evidence)"]
fn block_replaced_at_the_wrong_place_entry_appended_after_a_similar_one() {
    // A new entry after the list's last `        ),`, before its `    ),` (once in the file). The
    // insertion there was not counted (the snippet's new `cases.param(` line is a strong line the
    // file holds elsewhere, read as evidence for a span from another `        ),`), and the
    // one-for-one rewrite of the last entry, alike the new one, was applied.
    let file = "\
@cases(
    (\"path\", \"count\", \"fix\", \"own\"),
    (
        cases.param(
            \"data/playbooks/fix-loops.yml\",
            1,
            True,
            True,
            id=\"loops\",
        ),
        cases.param(
            \"data/playbooks/fix-names.yml\",
            3,
            True,
            True,
            id=\"names\",
        ),
    ),
)
def test_fix(path, count, fix, own):
    assert run(path, fix, own) == count
";
    let new_entry = "        cases.param(
            \"data/playbooks/fix-comments.yml\",
            2,
            True,
            True,
            id=\"comments\",
        ),
";
    let snippet = format!("# ...\n        ),\n{new_entry}    ),\n# ...\n");
    let expected = file.replace(
        "            id=\"names\",\n        ),\n",
        &format!("            id=\"names\",\n        ),\n{new_entry}"),
    );
    assert_eq!(merged(file, &snippet), expected);
}

// ---------------------------------------------------------------------------------------------
// Class 3: ambiguous snippets applied. The snippet's context fits several places (the whole
// block it shows occurs more than once, so each place gives another file); a reading that
// replaced a similar block elsewhere (deleting more file lines than it writes) was applied.

#[test]
#[ignore = "issue 31 class 3, open: insertion readings after a repeated closer are not counted against the rewrite (needs the scored readings)"]
fn ambiguous_applied_new_entry_between_repeated_closers() {
    // A new `cases.param(...)` entry after an entry's `        ),` and before the list's `    ),`: two
    // lists end that way (one of params, one of tuples), so inserting there gives two files. The
    // reading that rewrote the list's last param one-for-one (its head `        ),` then
    // `        cases.param(`, a line the list repeats) was the only one counted, and applied.
    let file = "\
@cases(
    (\"path\", \"count\"),
    (
        cases.param(
            \"a.yml\",
            1,
            id=\"a\",
        ),
        cases.param(
            \"b.yml\",
            2,
            id=\"b\",
        ),
        cases.param(
            \"c.yml\",
            3,
            id=\"c\",
        ),
    ),
)
def test_count(path, count):
    assert run(path) == count


@cases(
    (\"given\", \"expected\"),
    (
        (
            [\"x\"],
            [\"y\"],
        ),
        (
            [\"z\"],
            [\"w\"],
        ),
    ),
)
def test_pairs(given, expected):
    assert pair(given) == expected
";
    let snippet = "\
# ...
        ),
        cases.param(
            \"d.yml\",
            4,
            id=\"d\",
        ),
    ),
# ...
";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

#[test]
#[ignore = "issue 31 class 3, open: insertion readings after a repeated closer are not counted against the rewrite (needs the scored readings)"]
fn ambiguous_applied_new_method_after_a_closer() {
    // A new method after a method's `    }` and before the impl's `}`: both impls end that way.
    // The reading that replaced the body of the other impl's method of the same name was applied.
    let file = "\
impl Sink for Vec<u8> {
    fn len(&self) -> usize {
        Vec::len(self)
    }

    #[inline]
    fn put(&mut self, src: &[u8]) {
        self.extend_from_slice(src);
    }
}

impl Sink for Buffer {
    fn len(&self) -> usize {
        self.filled
    }
}

impl Sink for Counter {
    fn len(&self) -> usize {
        self.count
    }
}
";
    let snippet = "\
// ...
    }

    #[inline]
    fn put(&mut self, src: &[u8]) {
        self.count += src.len();
    }
}
// ...
";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

// ---------------------------------------------------------------------------------------------
// Class 4: whitespace on lines the model wrote. On a line the model wrote (not an unchanged
// context line paired one-to-one with the file's), its bytes are written: a blank line it
// empties, a blank line it indents, a line it re-indents with a tab.

#[test]
fn whitespace_on_lines_the_model_wrote_emptied_blank_line() {
    // The file's blank line holds spaces; the model's changed part writes it empty.
    let file = "\
<config>
    <appender name=\"out\">
        <pattern>%msg%n</pattern>
    </appender>

    <logger name=\"app\" level=\"debug\"/>
         
    <root level=\"info\">
        <appender-ref ref=\"out\"/>
    </root>
</config>
";
    let snippet = "\
<!-- ... -->
    </appender>

    <logger name=\"app\" level=\"info\"/>

    <root level=\"info\">
<!-- ... -->
";
    let expected = file
        .replace("level=\"debug\"", "level=\"info\"")
        .replace("\n         \n", "\n\n");
    assert_eq!(merged(file, snippet), expected);
}

#[test]
fn whitespace_on_lines_the_model_wrote_indented_blank_line() {
    // The file's blank line is empty; the model writes it with four spaces, between two context
    // lines, in a snippet that also changes another line. Its four spaces are written.
    let file = "\
def clean():
    rows = load('data.csv')
    rows = dedupe(rows)

    # Order the columns
    rows = order(rows, COLUMNS)

    # Write the rows back
    save(rows, 'data.csv')
";
    let snippet = "\
def clean():
    rows = load('data.csv', strict=True)
    rows = dedupe(rows)
# ... existing code ...
    rows = order(rows, COLUMNS)
    
    # Write the rows back
# ... existing code ...
";
    let expected = file
        .replace("load('data.csv')", "load('data.csv', strict=True)")
        .replace("COLUMNS)\n\n", "COLUMNS)\n    \n");
    assert_eq!(merged(file, snippet), expected);
}

#[test]
fn whitespace_on_lines_the_model_wrote_tab_indented_new_line() {
    // A tab-indented file whose comments' ` *` lines outnumber its tab-indented lines; the model
    // rewrites a tab-indented line as the file has it. Its tab is written: the snippet's lines
    // match the file's as written, so nothing is re-indented (four spaces were written).
    let file = "\
/*
 * Copyright the authors.
 *
 * Licensed under the terms in LICENSE; you may not use this file
 * except in compliance with them. Distributed \"as is\", without
 * warranties or conditions of any kind.
 */
package org.example.model;

/**
 * A named thing: its name, and the rules it follows.
 *
 * @author Someone
 */
public class Named extends Base {

\t@Column(name = \"name\")
\t@NotBlank
\tprivate String name;

\tpublic String getName() {
\t\treturn this.name;
\t}
}
";
    let snippet = "\
// ... rest of code ...
public class Named extends Base {

\t@Column
\t@NotBlank
\tprivate String name;
\t// ... rest of code ...
";
    assert_eq!(
        merged(file, snippet),
        file.replace("\t@Column(name = \"name\")", "\t@Column")
    );
}

#[test]
fn whitespace_on_lines_the_model_wrote_blank_paired_by_position() {
    // A file with mixed endings: its blank line (CRLF) stands between the rewritten `=> ...;` line
    // and the `/// <summary>` of `Get`. The model rewrites that line and adds a method after it,
    // its own doc starting with `/// <summary>` too. Blank lines are weak anchors, paired by
    // position between strong ones: the file's blank and `/// <summary>` are the ones right
    // before `/// Gets`, so the CRLF stays there (it moved to the first, new, blank line).
    let file = "class C\n{\n    public void Go(string name)\n        => Run(name);\n\r\n    /// <summary>\n    /// Gets the thing.\n    /// </summary>\n    public int Get() => 1;\n}\n";
    let snippet = "\
// ... existing code ...
    public void Go(string name)
        => Stop(name);

    /// <summary>
    /// Stops the thing.
    /// </summary>
    public void Stop(string name) { }

    /// <summary>
    /// Gets the thing.
// ... existing code ...
";
    let out = merged(file, snippet);
    // The text is right whatever ending the new lines take (that is the merger's choice)...
    assert_eq!(
        out.replace('\r', ""),
        "class C\n{\n    public void Go(string name)\n        => Stop(name);\n\n    /// <summary>\n    /// Stops the thing.\n    /// </summary>\n    public void Stop(string name) { }\n\n    /// <summary>\n    /// Gets the thing.\n    /// </summary>\n    public int Get() => 1;\n}\n"
    );
    // ...and the file's blank line, CRLF, is the one right before the `/// <summary>` of `Get`.
    let lines: Vec<&str> = out.split_inclusive('\n').collect();
    let gets = lines.iter().position(|l| l.contains("/// Gets")).expect("the doc line");
    assert_eq!(lines[gets - 2], "\r\n", "{out:?}");
}

// ---------------------------------------------------------------------------------------------
// Refusal R2/R3 on lock files: a stanza repeated with the same shape (`[[package]]`, `name`,
// `version`, `source`, `checksum`, `dependencies = [`); the snippet names its package by a line
// the file holds once. A span from another `[[package]]` to another `dependencies = [` would
// write that name again over a similar stanza; it was counted as a reading, and the snippet
// refused as ambiguous.

#[test]
fn refusal_r2_lock_file_version_bump_named_by_a_unique_line() {
    let file = "\
[[package]]
name = \"alpha\"
version = \"1.0.0\"
source = \"registry+https://example.org/index\"
checksum = \"aaaa\"
dependencies = [
 \"itoa\",
 \"memchr\",
]

[[package]]
name = \"beta\"
version = \"2.1.0\"
source = \"registry+https://example.org/index\"
checksum = \"bbbb\"
dependencies = [
 \"itoa\",
 \"ryu\",
]

[[package]]
name = \"gamma\"
version = \"0.3.0\"
source = \"registry+https://example.org/index\"
checksum = \"cccc\"
dependencies = [
 \"itoa\",
]
";
    let snippet = "\
# ... existing packages ...
[[package]]
name = \"beta\"
version = \"2.2.0\"
source = \"registry+https://example.org/index\"
checksum = \"bbbc\"
dependencies = [
 \"itoa\",
# ... existing packages ...
";
    let expected = file
        .replace("version = \"2.1.0\"", "version = \"2.2.0\"")
        .replace("checksum = \"bbbb\"", "checksum = \"bbbc\"");
    assert_eq!(merged(file, snippet), expected);
}

// Refusal R2 in a YAML workflow: a step's `uses:` line rewritten, between its unique `- name:` and
// a weak `with:` that every step repeats. "Insert the new line after the name, keep the old one"
// was counted beside the rewrite: it would leave the step with two `uses:` keys.

#[test]
fn refusal_r2_yaml_step_rewritten_under_its_unique_name() {
    let file = "\
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Set up Node
        uses: actions/setup-node@v4
        with:
          node-version: 20
      - name: Lint Markdown files
        uses: example/markdownlint-action@v16
        with:
          globs: '**/*.md'
      - name: Spell check
        uses: example/spell-action@v2
        with:
          config: .spellcheck.yml
";
    let snippet = "\
# ... existing steps ...
      - name: Lint Markdown files
        uses: example/markdownlint-action@v17
        with:
# ... existing steps ...
";
    assert_eq!(
        merged(file, snippet),
        file.replace("markdownlint-action@v16", "markdownlint-action@v17")
    );
}

// Class 2, the rule above without its rival: a span whose anchors are common lines was left out
// because its first new line is a strong line the file holds once, elsewhere. Where the file does
// not hold that line next to the span's anchors, no reading is anchored there to take its place,
// and what was left could be placed alone, wrongly.

#[test]
fn class2_unique_line_elsewhere_without_its_rival_keeps_the_span() {
    // A README's title (`# Widget`, one short word: a weak line, but the file holds it once) and a
    // blank line, then a callout inserted above the first paragraph. The callout's first line is
    // held once by the file, further down in another section. Leaving out the span from the title
    // to the paragraph left "the head with the rest after it" alone: the paragraph written twice.
    let file = "\
# Widget

Widget is a small library that draws boxes around text in a fluent manner.

<!-- badges -->
[![build](https://example.org/badge.svg)](#)

## Notes

> [!IMPORTANT]
> Widget needs a terminal that understands colours.
";
    let snippet = "\
# Widget

> [!IMPORTANT]
> **Widget now asks companies that profit from it for a small fee.**

Widget is a small library that draws boxes around text in a fluent manner.

<!-- ... existing content ... -->
";
    let expected = file.replace(
        "# Widget\n\n",
        "# Widget\n\n> [!IMPORTANT]\n> **Widget now asks companies that profit from it for a small fee.**\n\n",
    );
    assert_eq!(merged(file, snippet), expected);
}

#[test]
fn class3_unique_tail_word_keeps_a_thin_snippet_ambiguous() {
    // An ambiguous negative: a branch inserted between a weak `}` (four copies at that depth) and
    // an `else` the file holds once. The new branch's last line before `}` is held once by the
    // file, inside the `else` block, not before a `}` and `else`. The span from an earlier `}` to
    // that tail and the insertion between the two are readings of near-equal evidence with
    // different results: refused. (The rule above, taking the lone `else` for a common line,
    // left the span out and applied the insertion.)
    let file = "\
class Converter
{
    bool TryConvert(object value, out Value result)
    {
        if (value is IDictionary dictionary)
        {
            if (dictionary.Count == 0)
            {
                result = Value.Empty;
            }
            return true;
        }
        if (value is IList list)
        {
            if (list.Count == 0)
            {
                result = Value.Empty;
            }
            else
            {
                var items = new Value[list.Count];
                for (int i = 0; i < list.Count; ++i)
                    items[i] = Create(list[i]);
                result = new SequenceValue(items);
            }
        }
        return false;
    }
}
";
    let snippet = "\
// ... unchanged ...
            }
            else if (list is Array grid && grid.Rank > 1)
            {
                var items = Flatten(grid);
                result = new SequenceValue(items);
            }
            else
// ... unchanged ...
";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

// Refusal R2, a near copy: one long line rewritten (a letter's case, a word) between a weak head
// and a strong tail. "Insert the new line before the tail" would leave the old line right after
// its near copy; the one-for-one rewrite is the reading. (A short line, `check(new(5));` beside
// `check(old(5));`, stays contested: the unit tests' "no evidence" shape.)

#[test]
fn refusal_r2_near_copy_of_a_long_line_is_a_rewrite() {
    let file = "\
fn open(path: &Path) {
    if on_windows() {
        run_windows(path);
    } else {
        // Macos, Linux and the BSDs share one launcher
        use std::process::Command;
        Command::new(\"xdg-open\").arg(path).status().ok();
    }
}

fn close() {
    if ready() {
        stop();
    } else {
        wait();
    }
}
";
    let snippet = "\
// ... existing code ...
    } else {
        // macOS, Linux and the BSDs share one launcher
        use std::process::Command;
// ... existing code ...
";
    assert_eq!(merged(file, snippet), file.replace("Macos", "macOS"));
}

// Refusal R2 with bracket evidence: a condition rewritten between a blank line (weak) and a
// unique line. "Insert before the tail" would open a block the file's brackets do not close (the
// old `if (...) {` kept after the new one), where the rewrite keeps them balanced.

#[test]
fn refusal_r2_rewrite_that_keeps_brackets_balanced() {
    let file = "\
$scriptName = \"push\"
Write-Host \"Pushing\"

if ($Env:MYGET_PACKAGE_CI_API_KEY -eq $null) {
    Write-Host \"${scriptName}: MYGET_PACKAGE_CI_API_KEY is empty or not set. Skipped pushing package(s).\"
    exit 0
}

Get-ChildItem *.nupkg | ForEach-Object { Push $_ }
";
    let snippet = "\
# ... remaining code unchanged ...

if ([string]::IsNullOrEmpty($Env:MYGET_PACKAGE_CI_API_KEY)) {
    Write-Host \"${scriptName}: MYGET_PACKAGE_CI_API_KEY is empty or not set. Skipped pushing package(s).\"
# ... remaining code unchanged ...
";
    assert_eq!(
        merged(file, snippet),
        file.replace(
            "if ($Env:MYGET_PACKAGE_CI_API_KEY -eq $null) {",
            "if ([string]::IsNullOrEmpty($Env:MYGET_PACKAGE_CI_API_KEY)) {"
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Class 3 of phase D: ambiguous snippets applied (docs/snippets-fresh.md, "Phase D fixes"). A
// reading that deletes a line the snippet does not show was the only one counted, beside places
// where the snippet fits between weak anchors and loses nothing.

/// A block the file holds once with one line more than the snippet, and twice in a short form
/// between the same weak lines (`{`, `}`): the snippet drops the long block's line, or expands a
/// short one (dapper 39b1fd5a1351).
const ELEMENT_TYPES_CS: &str = "\
static class Types
{
    static Type Element(Type type, ref bool isList)
    {
        if (type.IsArray)
        {
            type = type.GetElementType();
        }
        else if (type.IsGenericType())
        {
            var info = type.GetTypeInfo();
            bool isSequence =
                info.ImplementedInterfaces.Any(i => i.IsSequenceInterface());

            if (isSequence)
            {
                isList = true;
                type = type.GetGenericArguments()[0];
            }
        }
        return type;
    }
";

const SHORT_FORMS_CS: &str = "
    static Type First(Type type)
    {
        if (type.IsArray)
        {
            type = type.GetElementType();
        }
        else if (type.IsGenericType())
        {
            type = type.GetGenericArguments()[0];
        }
        return type;
    }

    static Type Second(Type type)
    {
        if (type.IsArray)
        {
            type = type.GetElementType();
        }
        else if (type.IsGenericType())
        {
            type = type.GetGenericArguments()[0];
        }
        return type;
    }
";

const EXPANDED_BLOCK: &str = "\
// ... existing code ...
        {
            var info = type.GetTypeInfo();
            bool isSequence =
                info.ImplementedInterfaces.Any(i => i.IsSequenceInterface());

            if (isSequence)
            {
                type = type.GetGenericArguments()[0];
            }
        }
// ... existing code ...
";

#[test]
fn class3_deletion_beside_weak_places_that_lose_nothing_is_ambiguous() {
    let file = format!("{ELEMENT_TYPES_CS}{SHORT_FORMS_CS}}}\n");
    match refused(&file, EXPANDED_BLOCK) {
        SnippetError::Ambiguous { total, .. } => assert_eq!(total, 3),
        e => panic!("{e:?}"),
    }
}

#[test]
fn class3_deletion_without_a_rival_place_is_applied() {
    // The same snippet where the file has no short form: the long block loses its line.
    let file = format!("{ELEMENT_TYPES_CS}}}\n");
    assert_eq!(
        merged(&file, EXPANDED_BLOCK),
        file.replace("                isList = true;\n", "")
    );
}

/// A Markdown page of Ruby examples: a trait added after a nested factory's `end` in the second
/// example (factory-bot 75244d8960b0). The first `    end` of the page and the second example's
/// last lines, 20 lines apart, made the only reading counted: it deleted everything between.
/// Written again right after `factory :user_with_posts do`, `end` closes that block.
#[test]
fn class3_end_after_a_do_line_is_no_closer_of_nothing() {
    let file = "\
# Associations

```ruby
FactoryBot.define do
  factory :user do
    name { \"Ann\" }

    factory :user_with_posts do
      after(:create) do |user, context|
        create_list(:post, 5, user: user)
      end
    end
  end
end
```

Or with inline associations:

```ruby
FactoryBot.define do
  factory :user do
    name { \"Ann\" }

    factory :user_with_posts do
      posts { [association(:post)] }
    end
  end
end
```
";
    let snippet = "\
<!-- ... rest of the document ... -->
    end

    # or

    trait :with_posts do
      posts { [association(:post)] }
    end
  end
<!-- ... rest of the document ... -->
";
    assert!(matches!(refused(file, snippet), SnippetError::Ambiguous { .. }));
}

// ---------------------------------------------------------------------------------------------
// Class 1' of phase D: content read as a marker. A Ruby example's own `    ...` lines, inside a
// fenced block the snippet adds, read as omission markers; the segment after them was placed far
// away, anchored by `  end`, `end`, a fence and a paragraph the file holds twice, deleting the
// lines between (factory-bot bf5164ac9bbb, ambiguous-copy).

#[test]
fn class1_prime_deletion_anchored_by_common_lines_alone_is_not_placed() {
    let file = "\
# Defining factories

```ruby
factory :admin, class: \"User\"
```

You can pass a constant as well, if it is loaded
(referring to it loads it eagerly).

## Callbacks

```ruby
class Account
  def initialize(owner)
    @owner = owner
  end
end

# factories.rb
sequence(:email) { |n| \"person#{n}@example.com\" }
```

## Another example

```ruby
factory :user do
  name { \"Ann\" }
  end
end
```

factory :admin, class: \"User\"
```

You can pass a constant as well, if it is loaded
(referring to it loads it eagerly).
";
    let snippet = "\
<!-- ... unchanged ... -->
factory :admin, class: \"User\"
```

A class nested in a module needs its full name:

```ruby
module Billing
  class Invoice
    ...
  end
end

# factories.rb
FactoryBot.define do
  factory :invoice, class: 'Billing::Invoice' do
    ...
  end
end
```

Without the module, Ruby reports an uninitialized constant.

You can pass a constant as well, if it is loaded
(referring to it loads it eagerly).
<!-- ... unchanged ... -->
";
    // Read with the `    ...` lines as markers, the last segment's only place deleted the second
    // `factory :admin` example; read as content, the snippet fits both copies. Either way: refused.
    let e = refused(file, snippet);
    assert!(
        matches!(e, SnippetError::Ambiguous { .. } | SnippetError::NotFound { .. }),
        "{e:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Class 4c: the model's indentation re-keyed to the file's. A file whose lines mostly indent with
// spaces holds some indented with tabs (a Makefile's recipes); the model's new lines are indented
// with tabs, its context lines exactly as the file's. The votes of the whole file (spaces) and
// of the snippet (tabs) differ, which alone re-keyed the snippet and wrote its tab-indented
// recipe lines with spaces: a broken Makefile. Its context lines show that it sees the file's
// indentation as it is, so its lines are written as it wrote them.

const MAKEFILE_AM: &str = "\
AUTOMAKE_OPTIONS = foreign subdir-objects
bin_PROGRAMS = tool
tool_SOURCES = src/main.c src/util.c \\
               src/parse.c src/lex.c \\
               src/print.c
tool_CFLAGS = -Wall \\
              -Wextra

if MAINTAINER_MODE
src/lex.c: src/lex.l
\t$(AM_V_LEX) flex -o src/lex.c $<
else
.y.c:
\t$(AM_V_YACC) echo \"not building the parser\"
.l.c:
\t$(AM_V_LEX) echo \"not building the lexer\"
endif

# Ask the parser generator for a header too.
AM_YFLAGS = -d
EXTRA_DIST = README.md \\
             NEWS.md \\
             COPYING
";

#[test]
fn indentation_rekeyed_makefile_recipes_keep_their_tabs() {
    // The context lines (`.y.c:`, `.l.c:`, `endif`, the comment) stand at the left margin: the
    // lines the snippet replaces (tab-indented recipes) say how that part of the file indents.
    let snippet = "\
# ... same as before ...
.y.c:
\t$(AM_V_YACC) cp $(<D)/$(@F) $@
\t$(AM_V_YACC) touch $@

.l.c:
\t$(AM_V_LEX) cp $(<D)/$(@F) $@
\t$(AM_V_LEX) touch $@
endif

# Ask the parser generator for a header too.
# ... same as before ...
";
    let expected = MAKEFILE_AM
        .replace(
            "\t$(AM_V_YACC) echo \"not building the parser\"\n",
            "\t$(AM_V_YACC) cp $(<D)/$(@F) $@\n\t$(AM_V_YACC) touch $@\n\n",
        )
        .replace(
            "\t$(AM_V_LEX) echo \"not building the lexer\"\n",
            "\t$(AM_V_LEX) cp $(<D)/$(@F) $@\n\t$(AM_V_LEX) touch $@\n",
        );
    assert_eq!(merged(MAKEFILE_AM, snippet), expected);
}

#[test]
fn indentation_rekeyed_new_tab_lines_between_space_indented_context() {
    // A script indented with spaces; the model adds tab-indented lines inside a loop whose
    // space-indented lines it shows as the file has them (four spaces, byte for byte).
    let file = "\
<?php
$dir = 'data/xml';
$n = 0;

print \"code,name,file\";

foreach (scandir($dir) as $file) if (preg_match('/^(.+)\\.xml$/', $file, $m)) {
    $xml = simplexml_load_file(\"$dir/$file\");
    $code = (string) $xml->code;
    $code = strtr($code, '_', '-');
    $name = (string) $xml->name;
    print \"\\n$code,$name,$file\";
    $n++;
}
print \"\\n$n codes\\n\";
";
    let snippet = "\
/* ... keep existing code ... */
foreach (scandir($dir) as $file) if (preg_match('/^(.+)\\.xml$/', $file, $m)) {
    /* ... keep existing code ... */
    $name = (string) $xml->name;
\t\t
\t\t# append the row to the output file
\t\t$out = fopen(\"codes.csv\", \"a\") or die(\"cannot open codes.csv\");
\t\tfwrite($out, \"\\n$code,$name,$file\");
\t\tfclose($out);
\t\t
    //print \"\\n$code,$name,$file\";
    $n++;
/* ... keep existing code ... */
";
    let expected = file.replace(
        "    print \"\\n$code,$name,$file\";\n",
        "\t\t\n\t\t# append the row to the output file\n\t\t$out = fopen(\"codes.csv\", \"a\") or die(\"cannot open codes.csv\");\n\t\tfwrite($out, \"\\n$code,$name,$file\");\n\t\tfclose($out);\n\t\t\n    //print \"\\n$code,$name,$file\";\n",
    );
    assert_eq!(merged(file, snippet), expected);
}

#[test]
fn indentation_rekeyed_only_where_the_context_shows_other_characters() {
    // The reason re-keying exists: a file indented with tabs, a snippet typed with spaces whose
    // context lines (`    if ok {`) are the file's tab-indented lines: its new line takes tabs.
    let file = "func run() {\n\tif ok {\n\t\tstart()\n\t}\n\tstop()\n}\n";
    let snippet = "func run() {\n    if ok {\n        start()\n        wait()\n    }\n    stop()\n}\n";
    assert_eq!(
        merged(file, snippet),
        file.replace("start()\n", "start()\n\t\twait()\n")
    );
    // Context at the left margin only, the lines replaced tab-indented: re-keyed as well.
    let snippet = "func run() {\n    if ready {\n        begin()\n    }\n}\n";
    assert_eq!(
        merged(file, snippet),
        "func run() {\n\tif ready {\n\t\tbegin()\n\t}\n}\n"
    );
}

// ---------------------------------------------------------------------------------------------
// Class 4d: line endings of a rewritten block. A file of mixed endings (LF lines, one CRLF line in
// a step); the model rewrites that step and adds another like it. The run of lines it writes is
// longer than the lines it replaces: its lines past them took the ending of the last line
// replaced, the odd CRLF one, and a line the model wrote that the file's history keeps (`env:`,
// taken as new by the alignment) changed its ending. The run takes the ending its kept
// neighbours share.

#[test]
fn line_endings_of_a_rewritten_block_take_the_neighbours() {
    let file = "\
jobs:
  build:
    steps:
    - name: Build
      run: make all
    - name: Test
      run: make test FLAGS=all
      env:
        DB_ONE: host=localhost;port=5432;user=tester;database=one
        DB_TWO: host=localhost;port=3306;user=tester;database=two
        DB_THREE: host=localhost;port=1433;user=tester;database=three
    - name: Pack
      run: make dist
"
    .replace("FLAGS=all\n", "FLAGS=all\r\n");
    let file = file.as_str();
    let snippet = "\
# ... existing steps ...
    - name: Build
      run: make all
    - name: Core tests
      run: make test-core FLAGS=all
      env:
        DB_ONE: host=localhost;port=5432;user=tester;database=one
        DB_TWO: host=localhost;port=3306;user=tester;database=two
        DB_THREE: host=localhost;port=1433;user=tester;database=three
    - name: Extra tests
      run: make test-extra FLAGS=all
      env:
        DB_ONE: host=localhost;port=5432;user=tester;database=one
        DB_TWO: host=localhost;port=3306;user=tester;database=two
# ... existing steps ...
";
    let out = merged(file, snippet);
    // The text is the snippet's; every line ends with LF but the file's own CRLF line, rewritten
    // by a run of new lines between two LF lines, which takes theirs.
    assert_eq!(out.replace("\r\n", "\n"), file.replace("\r\n", "\n").replace(
        "    - name: Test\n      run: make test FLAGS=all\n",
        "    - name: Core tests\n      run: make test-core FLAGS=all\n      env:\n        DB_ONE: host=localhost;port=5432;user=tester;database=one\n        DB_TWO: host=localhost;port=3306;user=tester;database=two\n        DB_THREE: host=localhost;port=1433;user=tester;database=three\n    - name: Extra tests\n      run: make test-extra FLAGS=all\n",
    ));
    assert!(!out.contains('\r'), "{out:?}");
    // A one-for-one rewrite of the CRLF line keeps its ending.
    let snippet = "# ...\n    - name: Test\n      run: make test FLAGS=fast\n      env:\n# ...\n";
    assert_eq!(merged(file, snippet), file.replace("FLAGS=all\r\n", "FLAGS=fast\r\n"));
}

// ---------------------------------------------------------------------------------------------
// Class 2: a block replaced at the wrong place. A property added after the last property's `}`
// and a blank line, before a field held once and the class's `}`; the doc comment opener the new
// property starts with (`/// <summary>`) is held by every property. That opener, a strong line
// the file holds elsewhere, left out the insertion behind the weak `}` and blank; the span from
// an earlier `}`, blank and `/// <summary>` to the field was placed alone, deleting the three
// properties between unseen.

const SETTINGS_CS: &str = "\
namespace Example
{
    public static partial class Mapper
    {
        public static class Settings
        {
            /// <summary>
            /// Resets every setting to its default value
            /// </summary>
            public static void SetDefaults()
            {
                CommandTimeout = null;
                FetchSize = -1;
            }

            /// <summary>
            /// The default command timeout for all queries
            /// </summary>
            public static int? CommandTimeout { get; set; }

            /// <summary>
            /// Whether null values in the data are applied to members
            /// </summary>
            public static bool ApplyNullValues { get; set; }

            /// <summary>
            /// The fetch size given to every command that has one; negative: left as it is
            /// </summary>
            public static long FetchSize
            {
                get => Volatile.Read(ref s_FetchSize);
                set
                {
                    Volatile.Write(ref s_FetchSize, value);
                    CommandCache.Reset();
                }
            }

            private static long s_FetchSize = -1;
        }
    }
}
";

#[test]
fn block_replaced_at_the_wrong_place_doc_opener_held_many_times() {
    let snippet = "\
// ... previous code ...
            }

            /// <summary>
            /// Whether single-character parameter tokens are detected and used where possible
            /// </summary>
            public static bool SupportLegacyTokens { get; set; } = true;

            private static long s_FetchSize = -1;
        }
    // ... previous code ...
";
    // Placed right or refused, never placed over the properties: here both readings stay (the
    // span from `SetDefaults`'s `}` has only lines the file repeats at its head), so it is
    // refused as ambiguous and lists them.
    match refused(SETTINGS_CS, snippet) {
        SnippetError::Ambiguous { readings, .. } => assert_eq!(readings.len(), 2, "{readings:?}"),
        other => panic!("{other:?}"),
    }
    // With a line of the property's body shown, the place is named: an insertion.
    let snippet = snippet.replace(
        "// ... previous code ...\n            }\n",
        "// ... previous code ...\n                    CommandCache.Reset();\n                }\n            }\n",
    );
    let expected = SETTINGS_CS.replace(
        "            private static long s_FetchSize",
        "            /// <summary>
            /// Whether single-character parameter tokens are detected and used where possible
            /// </summary>
            public static bool SupportLegacyTokens { get; set; } = true;

            private static long s_FetchSize",
    );
    assert_eq!(merged(SETTINGS_CS, &snippet), expected);
}

// ---------------------------------------------------------------------------------------------
// Class 1'': content read as a marker beside a rewrite or a deletion (the snippet property
// `a_window_with_one_change_merges_exactly_or_is_refused`, about 1 run in 10; phase E,
// swift-argument-parser `f2eda39df5cc`/deletion, a DocC article). The file holds a marker-like
// line (`// ...`, a fenced example's `    ...`) right where the snippet shows it; read as a
// marker it keeps the lines the snippet changes next to it (an insertion beside the old line,
// a deletion half done), read as the file's line it rewrites or deletes them. The two readings
// give different files: never the marker's alone.

#[test]
fn content_read_as_a_marker_beside_a_rewrite() {
    let file = "fn f() {\n    a();\n}\n\nlet old = 1;\n// ...\n";
    let snippet = "// ... existing code ...\n}\n\nlet new = 2;\n// ...\n// ... existing code ...\n";
    match apply_snippet(file.as_bytes(), snippet) {
        // The line read as the file's: `let old = 1;` rewritten.
        Ok(a) => assert_eq!(
            String::from_utf8(a.applied.text).unwrap(),
            "fn f() {\n    a();\n}\n\nlet new = 2;\n// ...\n"
        ),
        Err(e) => assert!(matches!(e, SnippetError::Ambiguous { .. }), "{e:?}"),
    }
}

#[test]
fn content_read_as_a_marker_beside_a_deletion_in_a_fenced_example() {
    use surgical_core::marker::TextKind;
    use surgical_core::snippet::apply_snippet_in;
    let file = "\
# Shell completions

Install the scripts your tool generates.

## Overview
```
$ tool --completions zsh
#compdef tool
local state line
typeset -A opts

_tool() {
    integer status=1
    local -a words
    ...
}
```

Put the script in a directory on `fpath`.
";
    let snippet = "\
# Shell completions

Install the scripts your tool generates.

## Overview
... rest of the document ...
$ tool --completions zsh
#compdef tool

_tool() {
    ...
... rest of the document ...
";
    let want = file
        .replace("local state line\ntypeset -A opts\n", "")
        .replace("    integer status=1\n    local -a words\n", "");
    match apply_snippet_in(file.as_bytes(), snippet, TextKind::of_path("guide.md")) {
        Ok(a) => assert_eq!(String::from_utf8(a.applied.text).unwrap(), want),
        Err(e) => assert!(matches!(e, SnippetError::Ambiguous { .. }), "{e:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Phase G (docs/snippets-fresh.md). Class 2': a weak head (a closer line, then a blank) whose next
// new line the file holds elsewhere was taken as "the segment belongs there" even where the
// other edge is a line the file holds once and no copy of the head precedes that line before
// it: the only reading was left out (not found), or the indentation-blind retry placed the
// segment at a wrong `}` and deleted it.

const TESTS_RS: &str = "\
#[cfg(feature = \"net\")]
#[test]
fn net_string_keys() {
    check!(a = \"one\"; \"hello\");
}

#[cfg(feature = \"net\")]
#[test]
fn net_debug() {
    check!(b = 2; \"hello\");
}

#[test]
fn logger_expr() {
    check!(logger: {
        let logger = Logger;
        logger
    }, \"hello\");
}

/// Kinds used by the macros below.
#[derive(Debug)]
enum Kind {
    First,
    Second,
}
";
const NEW_TEST_SNIPPET: &str = "\
// ... existing code ...
    }, \"hello\");
}

#[cfg(feature = \"net\")]
#[test]
fn net_addr() {
    check!(c = Addr::new(10, 0, 0, 1); \"hello\");
}

/// Kinds used by the macros below.
#[derive(Debug)]
enum Kind {
    // ... existing code ...
";

#[test]
fn stray_without_a_rival_new_test_between_a_closer_and_a_unique_doc_comment() {
    let expected = TESTS_RS.replace(
        "    }, \"hello\");\n}\n\n",
        "    }, \"hello\");\n}\n\n#[cfg(feature = \"net\")]\n#[test]\nfn net_addr() {\n    check!(c = Addr::new(10, 0, 0, 1); \"hello\");\n}\n\n",
    );
    assert_eq!(merged(TESTS_RS, NEW_TEST_SNIPPET), expected);
}

const ENDPOINTS_TF: &str = "\
resource \"aws_vpc_endpoint\" \"this\" {
  dynamic \"dns_options\" {
    for_each = try([each.value.dns_options], [])

    content {
      dns_record_ip_type = try(dns_options.value.dns_record_ip_type, null)
    }
  }

  tags = merge(var.tags, try(each.value.tags, {}))

  timeouts {
    create = try(var.timeouts.create, \"10m\")
  }
}

resource \"aws_security_group\" \"this\" {
  name = var.name

  tags = merge(
    var.tags,
    var.security_group_tags,
  )
}
";
const TAGS_SNIPPET: &str = "\
# ... omitted ...
  }

  tags = merge(
    var.tags,
    { \"Name\" = each.key },
    try(each.value.tags, {}),
  )

  timeouts {
    # ... omitted ...
";

#[test]
fn stray_without_a_rival_line_held_after_the_unique_tail() {
    let expected = ENDPOINTS_TF.replace(
        "  tags = merge(var.tags, try(each.value.tags, {}))\n",
        "  tags = merge(\n    var.tags,\n    { \"Name\" = each.key },\n    try(each.value.tags, {}),\n  )\n",
    );
    assert_eq!(merged(ENDPOINTS_TF, TAGS_SNIPPET), expected);
}

// Class 3': a natural negative placed. The snippet's context (a weak `steps:` before, a
// `- name: Checkout repository` held by every job after) fits every job; where the file holds
// the shown step once, the snippet deletes a line it does not show, elsewhere it inserts the
// step and loses nothing. A deletion of unshown lines needs more evidence: refused.

const WORKFLOW_YML: &str = "\
name: Build
on: [push]
jobs:
  package:
    runs-on: ubuntu-latest
    steps:
      - name: Install Dependencies
        run: |
          sudo apt-get update
          sudo apt-mark manual ghc  # keep the compiler out of the archive
          sudo apt-get install cabal-install

      - name: Checkout repository
        uses: actions/checkout@v3

  test:
    runs-on: ubuntu-latest
    steps:
      - name: Checkout repository
        uses: actions/checkout@v3

  deploy:
    runs-on: ubuntu-latest
    steps:
      - name: Checkout repository
        uses: actions/checkout@v3
";
const INSTALL_STEP_SNIPPET: &str = "\
# ... rest of file ...
    steps:
      - name: Install Dependencies
        run: |
          sudo apt-get update
          sudo apt-get install hub

      - name: Checkout repository
        # ... rest of file ...
";

#[test]
fn pure_insertion_beside_a_rival_that_deletes_unshown_lines() {
    let e = refused(WORKFLOW_YML, INSTALL_STEP_SNIPPET);
    assert!(matches!(e, SnippetError::Ambiguous { .. }), "{e:?}");
}

// Class 2'': a block copied right after the one it copies, the snippet showing the end of the
// original (`suffix`, `class`, blank, `tags`, `}`) then the copy, ending with the original's
// first shown lines. Read with the longest head, the copy was inserted after the original's `}`
// and the file's next block taken for the copy's end (its `tags` and `}` lost, the module left
// open); the shorter head (the lines the copy ends with) keeps the brackets balanced.

const MODULES_TF: &str = "\
module \"logs_a\" {
  source = \"../../\"

  name = \"a\"

  log_interval      = 60
  log_group_prefix  = \"/aws/logs-a/\"
  log_group_suffix  = \"test\"
  log_group_class   = \"STANDARD\"

  log_tags = local.tags
}

# Separate role
module \"logs_b\" {
  source = \"../../\"

  name = \"b\"

  create_role = true
}
";
const COPY_SNIPPET: &str = "\
# ... unchanged ...
  log_group_suffix  = \"test\"
  log_group_class   = \"STANDARD\"

  log_tags = local.tags
}

# Prefixed copy
module \"logs_prefix\" {
  source = \"../../\"

  name = \"prefix\"

  log_interval      = 60
  log_group_prefix  = \"/aws/logs-prefix/\"
  log_group_suffix  = \"test\"
  log_group_class   = \"STANDARD\"
  # ... unchanged ...
";
const MODULES_COPIED_TF: &str = "\
module \"logs_a\" {
  source = \"../../\"

  name = \"a\"

  log_interval      = 60
  log_group_prefix  = \"/aws/logs-a/\"
  log_group_suffix  = \"test\"
  log_group_class   = \"STANDARD\"

  log_tags = local.tags
}

# Prefixed copy
module \"logs_prefix\" {
  source = \"../../\"

  name = \"prefix\"

  log_interval      = 60
  log_group_prefix  = \"/aws/logs-prefix/\"
  log_group_suffix  = \"test\"
  log_group_class   = \"STANDARD\"

  log_tags = local.tags
}

# Separate role
module \"logs_b\" {
  source = \"../../\"

  name = \"b\"

  create_role = true
}
";

#[test]
fn copy_ending_with_the_heads_first_lines_keeps_the_brackets_balanced() {
    assert_eq!(merged(MODULES_TF, COPY_SNIPPET), MODULES_COPIED_TF);
}

// Refusal with one obviously right reading (toml-lang/toml 6d0c5c6c4c05's shape): a paragraph
// rewritten under a short heading the file holds once (`## Array`; `## Array of Tables` is
// another line), the fenced example after it as the tail. Behind a blank head, the span whose next
// new line is that heading would write it a second time; a short word line held once is a strong
// line the file holds elsewhere, as any long one is: only the rewrite under the heading is read.

const SPEC_MD: &str = "\
# Spec

## String

Strings are quoted.

```text
s = \"x\"
```

## Array

Arrays are values in brackets. Whitespace is ignored. Items
are separated by commas. Any value type
may be an item.

```text
integers = [ 1, 2, 3 ]
colors = [ \"red\", \"green\" ]
```

## Array of Tables

Written with double brackets.

```text
[[item]]
```
";
const ARRAY_SNIPPET: &str = "\
<!-- ... unchanged ... -->

## Array

Arrays are ordered values in square brackets. Whitespace is ignored.
Items are separated by commas. Any value type may be
an item.

```text
integers = [ 1, 2, 3 ]
<!-- ... unchanged ... -->
";
const SPEC_REWRITTEN_MD: &str = "\
# Spec

## String

Strings are quoted.

```text
s = \"x\"
```

## Array

Arrays are ordered values in square brackets. Whitespace is ignored.
Items are separated by commas. Any value type may be
an item.

```text
integers = [ 1, 2, 3 ]
colors = [ \"red\", \"green\" ]
```

## Array of Tables

Written with double brackets.

```text
[[item]]
```
";

#[test]
fn refusal_short_heading_held_once_anchors_the_rewrite_under_it() {
    assert_eq!(merged(SPEC_MD, ARRAY_SNIPPET), SPEC_REWRITTEN_MD);
}
