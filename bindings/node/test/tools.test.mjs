// read, write, applyPatch and undo: sync and async give the result object of `surgical call`;
// options are checked.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { surgical, tempDir, surgicalBin, cliCall } from './helpers.mjs'

// The result with its root's path replaced by <root>, and the root's parent by <tmp> (error
// messages name them).
const rooted = (result, root) =>
  JSON.parse(JSON.stringify(result).replaceAll(root, '<root>').replaceAll(path.dirname(root), '<tmp>'))

// Runs `call` of `tool` through the CLI, the sync and the async binding, each in its own copy of
// `files`; returns the three results and the three roots.
async function threeWays(t, tool, call, files, flags = ['--no-undo'], options = { undo: false }) {
  const bin = surgicalBin(t)
  if (!bin) return null
  const roots = ['cli', 'sync', 'async'].map((name) => {
    const root = path.join(tempDir(t), name)
    fs.mkdirSync(root)
    for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(root, name), bytes)
    return root
  })
  const sync = surgical[`${camel(tool)}Sync`]
  const async = surgical[camel(tool)]
  return {
    results: [
      cliCall(bin, tool, call, roots[0], flags),
      sync(call, { ...options, root: roots[1] }),
      await async(call, { ...options, root: roots[2] }),
    ],
    roots,
  }
}

const camel = (tool) => tool.replace(/_(.)/g, (_, c) => c.toUpperCase())

for (const [tool, call, files] of [
  ['read', { path: 'a.txt', startLine: 2, endLine: 3 }, { 'a.txt': 'one\r\ntwo\r\nthree\r\nfour\r\n' }],
  ['read', { path: 'missing.txt' }, {}],
  ['write', { path: 'new/b.txt', content: 'hello\nworld\n' }, {}],
  ['write', { path: 'a.txt', content: 'x\ny\n' }, { 'a.txt': 'x\r\nz\r\n' }],
  ['write', { path: '../outside.txt', content: 'no' }, {}],
  [
    'apply_patch',
    { patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** End Patch\n' },
    { 'a.txt': 'one\r\ntwo\r\nthree\r\n' },
  ],
  ['apply_patch', { patch: 'not a patch' }, { 'a.txt': 'one\n' }],
  ['edit', { path: 'a.txt', edits: 'not json' }, { 'a.txt': 'one\n' }],
  [
    'apply_snippet',
    { path: 'a.txt', snippet: '// ... existing code ...\nfn b() {\n    two();\n}\n' },
    { 'a.txt': 'fn a() {\r\n    one();\r\n}\r\nfn b() {\r\n    zwei();\r\n}\r\n' },
  ],
  ['apply_snippet', { path: 'a.txt', snippet: '// ...\n}\n// ...\n' }, { 'a.txt': 'f {\n}\ng {\n}\n' }],
  ['text_editor', { command: 'view', path: 'a.txt', view_range: [2, -1] }, { 'a.txt': 'one\r\ntwo\r\nthree\r\n' }],
  [
    'text_editor',
    { command: 'str_replace', path: 'a.txt', old_str: 'return "hi"', new_str: 'return "hello"' },
    { 'a.txt': '\ufeffdef f():\r\n    return \u201chi\u201d   \r\n' },
  ],
  ['text_editor', { command: 'insert', path: 'a.txt', insert_line: 1, insert_text: 'x' }, { 'a.txt': 'one\r\ntwo\r\n' }],
  ['text_editor', { command: 'create', path: 'a.txt', file_text: 'x' }, { 'a.txt': 'keep' }],
  ['text_editor', { command: 'view', path: 'missing.txt' }, {}],
]) {
  test(`${tool} ${JSON.stringify(call).slice(0, 60)}: the same result as surgical call`, async (t) => {
    const run = await threeWays(t, tool, call, files)
    if (!run) return
    const [cli, sync, async] = run.results.map((r, i) => rooted(r, run.roots[i]))
    assert.deepEqual(sync, cli)
    assert.deepEqual(async, cli)
    for (const name of ['a.txt', 'new/b.txt']) {
      const at = run.roots.map((r) => path.join(r, name))
      if (!fs.existsSync(at[0])) continue
      const bytes = at.map((p) => fs.readFileSync(p))
      assert.deepEqual(bytes[1], bytes[0])
      assert.deepEqual(bytes[2], bytes[0])
    }
  })
}

test('undo restores what edit changed, sync and async', async (t) => {
  const root = tempDir(t)
  const file = path.join(root, 'u.txt')
  fs.writeFileSync(file, 'a\r\nb\r\n')
  const done = await surgical.edit({ path: 'u.txt', oldText: 'b', newText: 'c' }, { root })
  assert.equal(done.ok, true)
  assert.equal(done.undoAvailable, true)
  const undone = await surgical.undo({ path: 'u.txt' }, { root })
  assert.equal(undone.ok, true, undone.text)
  assert.equal(fs.readFileSync(file, 'utf8'), 'a\r\nb\r\n')
  surgical.editSync({ path: 'u.txt', oldText: 'a', newText: 'z' }, { root })
  assert.equal(surgical.undoSync({ path: 'u.txt' }, { root }).ok, true)
  assert.equal(fs.readFileSync(file, 'utf8'), 'a\r\nb\r\n')
  const nothing = surgical.undoSync({ path: 'u.txt' }, { root: tempDir(t) })
  assert.equal(nothing.ok, false)
})

test('options: maxFileSize refuses larger files; a bad value throws', async (t) => {
  const root = tempDir(t)
  fs.writeFileSync(path.join(root, 'big.txt'), 'x'.repeat(100))
  const r = await surgical.edit({ path: 'big.txt', oldText: 'x', newText: 'y', replaceAll: true }, { root, maxFileSize: 10 })
  assert.equal(r.ok, false)
  assert.equal(r.error.code, 'too_large')
  assert.throws(() => surgical.editSync({ path: 'big.txt', oldText: 'x', newText: 'y' }, { root, maxFileSize: -1 }), /maxFileSize/)
  assert.throws(() => surgical.editSync({ path: 'big.txt', oldText: 'x', newText: 'y' }, { root, maxFileSize: 1.5 }), /maxFileSize/)
})

test('options: undo false keeps no journal; paths outside the root are refused', async (t) => {
  const root = tempDir(t)
  fs.writeFileSync(path.join(root, 'a.txt'), 'a\n')
  const r = surgical.editSync({ path: 'a.txt', oldText: 'a', newText: 'b' }, { root, undo: false })
  assert.equal(r.undoAvailable, false)
  assert.equal(fs.existsSync(path.join(root, '.surgical')), false)
  const outside = await surgical.read({ path: '../../etc/passwd' }, { root })
  assert.equal(outside.ok, false)
  assert.equal(outside.error.code, 'outside_root')
})

test('a call that is not an object is an invalid_input result, not an exception', async () => {
  const r = await surgical.edit('nope', { root: '.' })
  assert.equal(r.ok, false)
  assert.equal(r.error.code, 'invalid_input')
})

test('an AbortSignal cancels calls that have not written: aborted before, or while queued', async (t) => {
  const root = tempDir(t)
  fs.writeFileSync(path.join(root, 'a.txt'), 'a\n')
  const before = new AbortController()
  before.abort()
  const r = await surgical.edit({ path: 'a.txt', oldText: 'a', newText: 'b' }, { root, undo: false }, before.signal)
  assert.equal(r.ok, false)
  assert.equal(r.error.code, 'cancelled')
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'a\n')

  // 64 calls queue behind the thread pool's 4 threads; aborting right away cancels those not yet
  // past their last check, and every call either wrote its edit or none.
  const files = Array.from({ length: 64 }, (_, i) => `q${i}.txt`)
  for (const f of files) fs.writeFileSync(path.join(root, f), 'x\n')
  const queued = new AbortController()
  const pending = files.map((f) => surgical.edit({ path: f, oldText: 'x', newText: 'y' }, { root, undo: false }, queued.signal))
  queued.abort()
  const results = await Promise.all(pending)
  const cancelled = results.filter((r) => !r.ok)
  for (const r of cancelled) assert.equal(r.error.code, 'cancelled')
  assert.ok(cancelled.length > 0, 'no call was cancelled')
  files.forEach((f, i) => assert.equal(fs.readFileSync(path.join(root, f), 'utf8'), results[i].ok ? 'y\n' : 'x\n', f))
  t.diagnostic(`${cancelled.length} of ${files.length} queued calls cancelled`)

  const unused = new AbortController()
  assert.equal((await surgical.edit({ path: 'a.txt', oldText: 'a', newText: 'c' }, { root, undo: false }, unused.signal)).ok, true)
})

test('options: onSyntaxError refuses an edit that breaks the syntax; a call says otherwise; a bad value throws', async (t) => {
  const root = tempDir(t)
  const file = path.join(root, 'x.rs')
  const before = 'fn a() {\n    let x = 1;\n}\n\nfn b() {}\n'
  fs.writeFileSync(file, before)
  const call = { path: 'x.rs', oldText: '    let x = 1;\n}', newText: '    let x = 2;' }
  const refused = await surgical.edit(call, { root, onSyntaxError: 'refuse' })
  assert.equal(refused.ok, false)
  assert.equal(refused.error.code, 'syntax_error')
  assert.deepEqual(refused.error.lines, [1])
  assert.equal(fs.readFileSync(file, 'utf8'), before)
  const reported = surgical.editSync({ ...call, onSyntaxError: 'report' }, { root, onSyntaxError: 'refuse' })
  assert.equal(reported.ok, true, reported.text)
  assert.equal(reported.syntaxCheck, 'checked: rust')
  assert.equal(reported.syntaxErrors.length, 1)
  assert.match(reported.syntaxErrors[0].message, /`\{` opened here is never closed/)
  assert.throws(() => surgical.editSync(call, { root, onSyntaxError: 'warn' }), /onSyntaxError/)
})
