// The seed report's scenario (docs/seed-bug-report.md; replayed by
// `surgical demo`, crates/surgical-cli/src/demo.rs) through pi itself: a model copies oldText from
// rendered output with no-break spaces where the file has plain ones, so only a loose match finds
// it. With the extension the file is byte-faithful and pi's recorded result shows the real diff;
// pi's built-in tool is run on the same scenario to show what the extension fixes.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { runPi, tempDir, resultText } from './harness.mjs'

// The file of the demo: an em dash in a string, trailing spaces, a function.
const SAMPLE = 'const label = "a \u2014 b";\nlet x = 1;   \n\nfunction bar() {\n  return 2;\n}\n'
const EXPECTED = SAMPLE.replace('return 2;', 'return 3;')
const CALL = { path: 'sample.ts', edits: [{ oldText: '\u00a0\u00a0return 2;', newText: '\u00a0\u00a0return 3;' }] }

test('seed scenario through pi with the extension: byte-faithful, the real diff recorded', async (t) => {
  const cwd = tempDir(t)
  fs.writeFileSync(path.join(cwd, 'sample.ts'), SAMPLE)
  const { results, extensions } = await runPi(t, { cwd, withExtension: true, calls: [{ name: 'edit', args: CALL }] })
  t.diagnostic(`extensions loaded by pi: ${JSON.stringify(extensions)}`)
  const [r] = results
  assert.equal(r.isError, false, resultText(r))
  assert.equal(fs.readFileSync(path.join(cwd, 'sample.ts'), 'utf8'), EXPECTED)
  // The diff pi recorded (details, which its UI renders) and gave the model (content) is the one
  // change, nothing else.
  assert.equal(r.details.firstChangedLine, 5)
  assert.match(r.details.diff, /^-5 {3}return 2;$/m)
  assert.match(r.details.diff, /^\+5 {3}return 3;$/m)
  assert.equal(r.details.diff.split('\n').filter((l) => /^[+-]\d/.test(l)).length, 2, r.details.diff)
  assert.equal(
    r.details.patch,
    '--- a/sample.ts\n+++ b/sample.ts\n@@ -2,5 +2,5 @@\n let x = 1;   \n \n function bar() {\n-  return 2;\n+  return 3;\n }\n',
  )
  assert.match(resultText(r), /-5 {3}return 2;/)
})

test('seed scenario through pi built-in edit: what the extension fixes', async (t) => {
  const cwd = tempDir(t)
  fs.writeFileSync(path.join(cwd, 'sample.ts'), SAMPLE)
  const { results } = await runPi(t, { cwd, withExtension: false, calls: [{ name: 'edit', args: CALL }] })
  const [r] = results
  const after = fs.readFileSync(path.join(cwd, 'sample.ts'), 'utf8')
  const visible = (text) => text.replace(/[^\x20-\x7e\n]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`)
  t.diagnostic(`pi built-in: error ${r.isError}; file now ${JSON.stringify(visible(after))}; diff shown ${JSON.stringify(visible(r.details?.diff ?? ''))}`)
  // pi 1.6 splices into the original (the seed's whole-file normalization is gone) but writes the
  // model's no-break spaces, which the file never had; its diff carries them, and they render as
  // plain spaces, so neither the model nor the user sees the difference. The extension writes the file's own indentation (the test above).
  assert.equal(r.isError, false, resultText(r))
  assert.equal(after, SAMPLE.replace('  return 2;', '\u00a0\u00a0return 3;'))
  assert.notEqual(after, EXPECTED)
})
