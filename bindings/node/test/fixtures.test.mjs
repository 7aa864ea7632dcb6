// Every fixture through `surgical call edit`, the binding's edit and editSync, and applyEdits:
// the same result object and the same bytes on disk.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { surgical, tempDir, surgicalBin, cliCall, fixtures } from './helpers.mjs'

for (const fx of fixtures()) {
  test(`fixture ${fx.name}: the binding gives what surgical call edit gives`, async (t) => {
    const bin = surgicalBin(t)
    if (!bin) return
    const call = { path: 'f', ...fx.call }
    const roots = ['cli', 'sync', 'async'].map((name) => {
      const root = path.join(tempDir(t), name)
      fs.mkdirSync(root)
      fs.writeFileSync(path.join(root, 'f'), fx.input)
      return root
    })
    const results = [
      cliCall(bin, 'edit', call, roots[0]),
      surgical.editSync(call, { root: roots[1], undo: false }),
      await surgical.edit(call, { root: roots[2], undo: false }),
    ]
    assert.deepEqual(results[1], results[0], 'editSync')
    assert.deepEqual(results[2], results[0], 'edit')
    const bytes = roots.map((root) => fs.readFileSync(path.join(root, 'f')))
    assert.deepEqual(bytes[1], bytes[0])
    assert.deepEqual(bytes[2], bytes[0])
    if (fx.expected) {
      assert.equal(results[0].ok, true, results[0].text)
      assert.deepEqual(bytes[0], fx.expected)
    } else {
      assert.equal(results[0].ok, false)
      assert.equal(results[0].error.code, fx.error)
      assert.deepEqual(bytes[0], fx.input, 'a failed edit leaves the file untouched')
    }

    // The in-memory engine: same bytes, diff, patch and reports; the same error.
    const edits = call.edits ?? [{ oldText: call.oldText, newText: call.newText, replaceAll: call.replaceAll }]
    const options = { path: 'f', maxStrategy: call.maxStrategy }
    if (fx.expected) {
      const done = surgical.applyEdits(fx.input, edits, options)
      assert.ok(Buffer.isBuffer(done.text))
      assert.deepEqual(done.text, fx.expected)
      assert.equal(done.diff, results[0].diff)
      assert.equal(done.patch, results[0].patch)
      assert.deepEqual(done.edits, results[0].edits)
      assert.equal(done.firstChangedLine, results[0].firstChangedLine)
      assert.equal(done.encoding, results[0].encoding)
    } else {
      assert.throws(() => surgical.applyEdits(fx.input, edits, options), (e) => {
        assert.equal(e.code, fx.error)
        assert.equal(e.message, results[0].text)
        return true
      })
    }
  })
}

test('applyEdits: a string in gives a string out', () => {
  const done = surgical.applyEdits('a\r\nb\r\n', [{ oldText: 'b\n', newText: 'c\n' }])
  assert.equal(done.text, 'a\r\nc\r\n')
  assert.equal(done.firstChangedLine, 2)
  assert.match(done.patch, /^--- a\/file\n\+\+\+ b\/file\n/)
})

test('applyEdits: invalid UTF-8 survives in a Buffer', () => {
  const input = Buffer.from([0x66, 0xff, 0x0a, 0x78, 0x0a, 0xc3, 0x28, 0x0a])
  const done = surgical.applyEdits(input, [{ oldText: 'x', newText: 'y' }])
  assert.deepEqual(done.text, Buffer.from([0x66, 0xff, 0x0a, 0x79, 0x0a, 0xc3, 0x28, 0x0a]))
})

test('applyEdits: a bad call throws invalid_input', () => {
  assert.throws(() => surgical.applyEdits('x', []), { code: 'invalid_input' })
  assert.throws(() => surgical.applyEdits('x', [{ oldText: 'x', newText: 'y' }], { maxStrategy: 'psychic' }), {
    code: 'invalid_input',
  })
})
