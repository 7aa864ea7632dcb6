// OpenClaw's own edit- and write-tool tests as data, run through OpenClaw's agent against the
// plugin's tools and against OpenClaw's built-in ones (agent.test.mjs).
//
// Origin: openclaw/openclaw, MIT License, Copyright (c) 2026 OpenClaw Foundation:
//   src/agents/sessions/tools/edit.test.ts (commit 0efc50000bae33f13fc8cf9cf30649c15010a183),
//   src/agents/sessions/tools/edit-diff.test.ts (commit 112ab563d66e45f6c0d4459a373d45cb6dbb54dd),
//   src/agents/sessions/tools/write.test.ts (commit 053f3136eb43fce1dec2924e3d1be832f0a3b2d1),
// the stored versions nearest the openclaw 2026.9.6 package the tests run (its npm package ships no
// tests). Ported as test data: each case keeps OpenClaw's test name, the file it writes, the call it
// makes and what OpenClaw asserts (`openclaw`). edit-diff.test.ts tests the in-memory
// applyEditsToNormalizedContent; its cases become whole-file edits with the same content and edits,
// asserting the lines it asserts. Where surgical differs by design, `surgical` holds what the plugin
// must do instead and `why` says why. Left out: tests of custom EditOperations/WriteOperations
// (post-write failure recovery of remote backends, which the plugin does not use: surgical writes
// atomically and verifies), and of the TUI preview (renderCall), which the plugin does not replace.
//
// Fields: `file` the file's content before the call (null: no file); `edits` the edit call's edits,
// or `write` the write call's content (with `fileUrl: true` the path is given as a file:// URL);
// expectations: `error` (patterns the error text must hold), `text`, `file` (exact content after),
// `lines` ({index: content} of the file after), `patchGives` (details.patch applied to the original
// gives this), `untouched` (the file keeps its bytes).

const a799 = 'a'.repeat(799)
const a1500 = 'a'.repeat(1500)

export const cases = [
  {
    name: 'adds current file contents to exact-match mismatch errors',
    file: 'actual current content', edits: [{ oldText: 'missing', newText: 'replacement' }],
    openclaw: { error: [/Current file contents:\nactual current content/] },
    surgical: { error: [/^Error \(not_found\): /], untouched: true },
    why: "surgical's not_found says what it looked for and quotes the closest region when one resembles oldText; it does not append the head of the file",
  },
  {
    name: 'truncates exact-match mismatch hints without splitting UTF-16 surrogate pairs',
    file: `${a799}\u{1F642}tail`, edits: [{ oldText: 'missing', newText: 'replacement' }],
    openclaw: { error: [`${a799}\n... (truncated)`] },
    surgical: { error: [/^Error \(not_found\): /], untouched: true },
    why: 'the same: no file head in the message, so nothing to truncate',
  },
  {
    name: 'adds nearest candidate lines to whitespace mismatch errors',
    file: 'function demo() {\n  return value;\n}\n', edits: [{ oldText: '      return value;', newText: '      return next;' }],
    openclaw: { error: [/Nearest candidate lines:\nCandidate 1 \(line 2\):\n {2}indentation: expected 6 spaces, candidate 2 spaces/] },
    surgical: { file: 'function demo() {\n  return next;\n}\n' },
    why: "surgical's indentation tier finds the one line that differs only by its indentation and writes the change at the file's indentation, where OpenClaw refuses and lists candidates",
  },
  {
    name: 'shows nearest multi-line candidate windows on mismatch',
    file: 'alpha\n  beta\n  gamma\nomega\n', edits: [{ oldText: '  beta\n    gamma', newText: '  beta\n    delta' }],
    openclaw: { error: [/Candidate 1 \(line 2\):\n {2}indentation: expected 4 spaces, candidate 2 spaces/] },
    surgical: { file: 'alpha\n  beta\n  delta\nomega\n' },
    why: 'the same: the one region that differs only in whitespace is edited, keeping the file\'s indentation on the line the model changed',
  },
  {
    name: 'limits mismatch candidates to three blocks',
    file: 'alpha 1\nalpha 2\nalpha 3\nalpha 4\nalpha 5\n', edits: [{ oldText: 'alpha 9', newText: 'alpha changed' }],
    openclaw: { error: [/Candidate 3 \(line \d+\):/], errorLacks: ['Candidate 4'] },
    surgical: { error: [/^Error \(not_found\): /], untouched: true },
    why: "surgical's not_found wording (it never lists candidates it would not take)",
  },
  {
    name: 'bounds long single-line mismatch candidate diagnostics',
    file: `alpha ${a1500} candidate-tail\n`, edits: [{ oldText: `alpha ${a1500} target-tail`, newText: 'replacement' }],
    openclaw: { error: ['Nearest candidate lines:', '... (line truncated)'], errorLacks: ['candidate-tail', 'target-tail'] },
    surgical: { error: [/^Error \(not_found\): /], errorLacks: ['target-tail'], untouched: true },
    why: "surgical's not_found wording; its message is bounded too (long lines are cut where marked)",
  },
  {
    name: 'omits candidate lines for no-op validation mismatches',
    file: 'present no-op\nnear absent tex\n',
    edits: [{ oldText: 'present no-op', newText: 'present no-op' }, { oldText: 'absent text', newText: 'replacement' }],
    openclaw: { error: ['Current file contents:'], errorLacks: ['Nearest candidate lines:'] },
    surgical: { error: [/^Error \(\w+\): /], untouched: true },
    why: "surgical's own error for the call (no file head appended); the file is untouched",
  },
  {
    name: 'omits candidate lines for indexed no-op validation mismatches',
    file: 'present no-op\nvalid real\nnear absent tex\n',
    edits: [
      { oldText: 'present no-op', newText: 'present no-op' },
      { oldText: 'valid real', newText: 'changed real' },
      { oldText: 'absent text', newText: 'replacement' },
    ],
    openclaw: { error: ['Current file contents:'], errorLacks: ['Nearest candidate lines:'] },
    surgical: { error: [/^Error \(\w+\): /], untouched: true },
    why: 'the same; no edit of a failed call applies',
  },
  {
    name: 'preserves untouched lines during fuzzy multi-edits',
    file: ['keep before  ', 'first target  ', 'first after', 'keep middle   ', 'second target  ', 'second after', 'keep after  ', ''].join('\n'),
    edits: [
      { oldText: 'first target\nfirst after', newText: 'FIRST\nFIRST2' },
      { oldText: 'second target\nsecond after', newText: 'SECOND\nSECOND2' },
    ],
    openclaw: {
      file: ['keep before  ', 'FIRST', 'FIRST2', 'keep middle   ', 'SECOND', 'SECOND2', 'keep after  ', ''].join('\n'),
      patchGives: ['keep before  ', 'FIRST', 'FIRST2', 'keep middle   ', 'SECOND', 'SECOND2', 'keep after  ', ''].join('\n'),
    },
  },
  {
    name: 'preserves the correct duplicate line after a fuzzy replacement',
    file: 'replace me   \nafter   \n', edits: [{ oldText: 'replace me\n', newText: 'after\n' }],
    openclaw: { file: 'after\nafter   \n', patchGives: 'after\nafter   \n' },
  },
  {
    name: 'strips model-added metadata while retaining the strict edit schema',
    file: 'before\n', edits: [{ oldText: 'before', newText: 'after', reason: 'why' }], extra: { reason: 'model explanation' },
    openclaw: { file: 'after\n' },
  },
  {
    name: 'returns terminal no-op when oldText equals newText',
    file: 'unchanged content\n', edits: [{ oldText: 'unchanged', newText: 'unchanged' }],
    openclaw: { text: ['No changes made'], untouched: true },
    surgical: { error: [/^Error \(no_change\): /], untouched: true },
    why: 'surgical reports an edit that changes nothing as the no_change error (the model asked for a change that is not one); OpenClaw reports success with no change',
  },
  {
    name: 'does not hide a mismatched no-op edit',
    file: 'actual content\n', edits: [{ oldText: 'missing', newText: 'missing' }],
    openclaw: { error: [/Current file contents:\nactual content/] },
    surgical: { error: [/^Error \(not_found\): /], untouched: true },
    why: "surgical's not_found wording, as above",
  },
  {
    name: 'does not rewrite fuzzy-matched no-op text',
    file: 'foo\n', edits: [{ oldText: 'foo ', newText: 'foo ' }],
    openclaw: { untouched: true },
    surgical: { error: [/^Error \(no_change\): /], untouched: true },
    why: 'the file is untouched in both; surgical says so as the no_change error, OpenClaw as a success with no change',
  },
  {
    name: 'preserves real sibling edits beside a fuzzy no-op',
    file: 'foo\u00a0bar\n',
    edits: [{ oldText: 'foo bar', newText: 'foo bar' }, { oldText: 'foo\u00a0', newText: 'baz' }],
    openclaw: { file: 'bazbar\n' },
    surgical: { error: [/^Error \(overlap\): /], untouched: true },
    why: 'the first edit (a no-op that matches the whole line only loosely) and the second overlap; surgical refuses overlapping edits of one call rather than dropping one of them',
  },
  {
    name: 'preserves unrelated whitespace beside a fuzzy-equivalent no-op',
    file: 'foo  \nkeep  \n',
    edits: [{ oldText: 'foo  ', newText: 'foo' }, { oldText: 'keep', newText: 'changed' }],
    openclaw: { file: 'foo  \nchanged  \n' },
    surgical: { file: 'foo\nchanged\n', text: [/line 2: differed from oldText and you rewrote it, so newText was written as given/] },
    why: "the first edit asks, exactly, for line 1's trailing spaces to go, and surgical makes that change (OpenClaw drops it as a no-op after its normalization); the second rewrites line 2, which surgical writes as newText gives it, without the trailing spaces oldText left out, and says so in its result",
  },
  {
    name: 'rejects duplicate no-op entries',
    file: 'foo\n', edits: [{ oldText: 'foo', newText: 'foo' }, { oldText: 'foo', newText: 'foo' }],
    openclaw: { error: [/overlap/] },
  },
  {
    name: 'rejects an exact no-op overlapping a real edit',
    file: 'foo\n', edits: [{ oldText: 'foo', newText: 'foo' }, { oldText: 'foo', newText: 'bar' }],
    openclaw: { error: [/overlap/] },
  },
  {
    name: 'preserves valid sibling edits when batch contains a no-op entry',
    file: 'alpha beta gamma\n', edits: [{ oldText: 'alpha', newText: 'alpha' }, { oldText: 'gamma', newText: 'GAMMA' }],
    openclaw: { text: ['Successfully replaced'], file: 'alpha beta GAMMA\n' },
    surgical: { error: [/^Error \(no_change\): .*edits\[0\]/], untouched: true },
    why: 'surgical refuses a call one of whose edits changes nothing (no_change names it, and the model resends the call without it); OpenClaw drops that edit and applies the others',
  },
  {
    name: 'applies real changes normally (no false positive for no-op)',
    file: 'old content\n', edits: [{ oldText: 'old', newText: 'new' }],
    openclaw: { text: ['Successfully replaced'], file: 'new content\n' },
    surgical: { text: [/^Edited .*: 1 edit applied/], file: 'new content\n' },
    why: 'wording of the success text, as above',
  },
  // edit-diff.test.ts: applyEditsToNormalizedContent's cases as whole-file edits.
  {
    name: 'exact match does not touch unrelated lines',
    file: 'line1   \nconst x = "hello";\nline3   ', edits: [{ oldText: 'const x = "hello";', newText: 'const x = "world";' }],
    openclaw: { lines: { 0: 'line1   ', 1: 'const x = "world";', 2: 'line3   ' } },
  },
  {
    name: 'fuzzy match preserves trailing whitespace on unrelated lines',
    file: ['line1   ', 'const name = \u2018Bob\u2019;', 'line3   '].join('\n'),
    edits: [{ oldText: "const name = 'Bob';", newText: "const name = 'Alice';" }],
    openclaw: { lines: { 0: 'line1   ', 1: "const name = 'Alice';", 2: 'line3   ' } },
    surgical: { lines: { 0: 'line1   ', 1: 'const name = \u2018Alice\u2019;', 2: 'line3   ' } },
    why: "the quotes are the same in oldText and newText, so they are not part of the change: surgical keeps the file's typographic quotes where OpenClaw writes the model's ASCII ones",
  },
  {
    name: 'fuzzy match preserves Unicode characters on unrelated lines',
    file: ['const a = \u201Chello\u201D;', 'const b = 42;', 'const c = \u201Cworld\u201D;'].join('\n'),
    edits: [{ oldText: 'const b = 42;', newText: 'const b = 99;' }],
    openclaw: { lines: { 0: 'const a = \u201Chello\u201D;', 1: 'const b = 99;', 2: 'const c = \u201Cworld\u201D;' } },
  },
  {
    name: 'fuzzy match preserves em dashes on unrelated lines',
    file: 'const range = \u2014;\nconst val = \u2018x\u2019;',
    edits: [{ oldText: "const val = 'x';", newText: "const val = 'y';" }],
    openclaw: { lines: { 0: 'const range = \u2014;', 1: "const val = 'y';" } },
    surgical: { lines: { 0: 'const range = \u2014;', 1: 'const val = \u2018y\u2019;' } },
    why: "the file's typographic quotes are kept, as above",
  },
  {
    name: 'fuzzy match with multi-line oldText preserves unrelated lines',
    file: ['header   ', 'const a = \u2018one\u2019;', 'const b = \u2018two\u2019;', 'footer   '].join('\n'),
    edits: [{ oldText: "const a = 'one';\nconst b = 'two';", newText: "const a = 'ONE';\nconst b = 'TWO';" }],
    openclaw: { lines: { 0: 'header   ', 1: "const a = 'ONE';", 2: "const b = 'TWO';", 3: 'footer   ' } },
    surgical: { lines: { 0: 'header   ', 1: 'const a = \u2018ONE\u2019;', 2: 'const b = \u2018TWO\u2019;', 3: 'footer   ' } },
    why: "the file's typographic quotes are kept, as above",
  },
  {
    name: 'baseContent is always the original content',
    file: 'line with smart\u2019s\nline with trailing   ', edits: [{ oldText: "line with smart's", newText: 'replaced' }],
    openclaw: { file: 'replaced\nline with trailing   ', patchGives: 'replaced\nline with trailing   ' },
  },
  // write.test.ts
  {
    name: 'writes file URL paths through the shared session path resolver',
    tool: 'write', file: null, write: 'finished\n', fileUrl: true,
    openclaw: { file: 'finished\n' },
  },
  {
    name: 'returns no-op when content already matches',
    tool: 'write', file: 'finished\n', write: 'finished\n',
    openclaw: { text: ['No changes'], untouched: true },
    surgical: { text: [/already holds exactly this content/], untouched: true },
    why: "wording: surgical's write says the file already holds the content and that nothing was written",
  },
]
