// What pi's edit and write accept, through pi itself with the extension: the legacy top-level
// oldText/newText, edits sent as a JSON string, a leading `@`, a path outside pi's working
// directory, several edits of one file in one turn (pi's per-file mutation queue and surgical's
// lock serialize them), write into new directories, and a failed edit given to the model as
// pi gives its own (a tool error carrying surgical's explanation; the file untouched).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { runPi, tempDir, resultText } from './harness.mjs'

test('the call shapes pi accepts, through pi with the extension', async (t) => {
  const cwd = tempDir(t)
  const outside = tempDir(t, 'pi-outside-')
  fs.writeFileSync(path.join(cwd, 'legacy.txt'), 'one\r\ntwo\r\n')
  fs.writeFileSync(path.join(cwd, 'json.txt'), 'alpha  \nbeta\n')
  fs.writeFileSync(path.join(outside, 'far.txt'), '\uFEFFfar\r\n')
  fs.writeFileSync(path.join(cwd, 'shared.txt'), Array.from({ length: 8 }, (_, i) => `line ${i}\n`).join(''))
  fs.writeFileSync(path.join(cwd, 'fail.txt'), 'keep me\n')
  const calls = [
    { name: 'edit', args: { path: '@legacy.txt', oldText: 'two\n', newText: 'TWO\n' } },
    { name: 'edit', args: { path: 'json.txt', edits: JSON.stringify([{ oldText: 'alpha\nbeta', newText: 'ALPHA\nbeta' }]) } },
    { name: 'edit', args: { path: path.join(outside, 'far.txt'), edits: [{ oldText: 'far', newText: 'near' }] } },
    ...Array.from({ length: 8 }, (_, i) => ({
      name: 'edit',
      args: { path: 'shared.txt', edits: [{ oldText: `line ${i}\n`, newText: `LINE ${i}\n` }] },
    })),
    { name: 'write', args: { path: 'new/dir/file.txt', content: 'hello\n' } },
    { name: 'edit', args: { path: 'fail.txt', edits: [{ oldText: 'not there', newText: 'x' }] } },
  ]
  const { results } = await runPi(t, { cwd, withExtension: true, calls })
  for (const r of results.slice(0, -1)) assert.equal(r.isError, false, resultText(r))
  assert.equal(fs.readFileSync(path.join(cwd, 'legacy.txt'), 'utf8'), 'one\r\nTWO\r\n')
  // The line the model rewrote is written as its newText gives it (surgical reports the trailing
  // spaces it dropped); the untouched line keeps its bytes.
  assert.equal(fs.readFileSync(path.join(cwd, 'json.txt'), 'utf8'), 'ALPHA\nbeta\n')
  assert.equal(fs.readFileSync(path.join(outside, 'far.txt'), 'utf8'), '\uFEFFnear\r\n')
  assert.equal(
    fs.readFileSync(path.join(cwd, 'shared.txt'), 'utf8'),
    Array.from({ length: 8 }, (_, i) => `LINE ${i}\n`).join(''),
  )
  assert.equal(fs.readFileSync(path.join(cwd, 'new/dir/file.txt'), 'utf8'), 'hello\n')
  const failed = results.at(-1)
  assert.equal(failed.isError, true)
  assert.match(resultText(failed), /^Error \(not_found\): fail\.txt: edits\[0\]: oldText was not found/)
  assert.equal(fs.readFileSync(path.join(cwd, 'fail.txt'), 'utf8'), 'keep me\n')
  assert.equal(fs.existsSync(path.join(cwd, '.surgical')), false, 'no undo journal in the project')
})
