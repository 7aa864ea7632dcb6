// Every case of tests/fixtures through pi with the extension (one session, one edit call per
// fixture, each on its own file) gives the bytes `surgical call edit` gives, and the same errors.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { runPi, tempDir, repo, resultText } from './harness.mjs'

const surgical = createRequire(import.meta.url)('@surgical/node')
const dir = path.join(repo, 'tests/fixtures')

// The fixture's call in pi's schema: edits[] (a top-level oldText/newText becomes one edit).
function piCall(call, file) {
  const { oldText, newText, replaceAll, edits, ...rest } = call
  return { ...rest, path: file, edits: edits ?? [{ oldText, newText, ...(replaceAll ? { replaceAll } : {}) }] }
}

test('every fixture: pi with the extension writes what surgical call edit writes', async (t) => {
  const names = fs.readdirSync(dir).sort()
  const piDir = tempDir(t)
  const refDir = tempDir(t)
  const calls = names.map((name) => {
    const input = fs.readFileSync(path.join(dir, name, 'input'))
    fs.writeFileSync(path.join(piDir, name), input)
    fs.writeFileSync(path.join(refDir, name), input)
    return { name: 'edit', args: piCall(JSON.parse(fs.readFileSync(path.join(dir, name, 'edit.json'), 'utf8')), name) }
  })
  const { results } = await runPi(t, { cwd: piDir, withExtension: true, calls })
  let applied = 0
  for (const [i, name] of names.entries()) {
    const expected = surgical.editSync(calls[i].args, { root: refDir, undo: false })
    const r = results[i]
    assert.ok(r, `${name}: pi recorded no result`)
    assert.deepEqual(fs.readFileSync(path.join(piDir, name)), fs.readFileSync(path.join(refDir, name)), name)
    if (expected.ok) {
      applied++
      assert.equal(r.isError, false, `${name}: ${resultText(r)}`)
      assert.equal(resultText(r), expected.text, name)
      assert.equal(r.details.diff, expected.diff, name)
      assert.equal(r.details.patch, expected.patch, name)
      assert.equal(r.details.firstChangedLine, expected.firstChangedLine ?? undefined, name)
    } else {
      assert.equal(r.isError, true, name)
      assert.equal(resultText(r), expected.text, name)
    }
  }
  t.diagnostic(`${names.length} fixtures, ${applied} applied, ${names.length - applied} refused, all identical`)
})
