// The plugin's parts in-process (the built dist/, as OpenClaw loads it): argument preparation,
// OpenClaw's path rules, the workspace policy, the sandbox opt-out, OpenClaw's per-file queue, the
// abort signal and the invocation guard, and the load-time warning about the deny list.
import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import plugin, { coreToolsLeftOn } from '../dist/index.js'
import { prepareApplyPatchArguments, prepareEditArguments, prepareWriteArguments } from '../dist/arguments.js'
import { resolveOpenClawPath, surgicalTarget } from '../dist/paths.js'
import { fileMutationQueueKey, withFileMutationQueue } from '../dist/queue.js'
import { removeTempDirs, tempDir } from './harness.mjs'

after(removeTempDirs)

/** Registers the plugin with a stand-in of OpenClaw's api; returns its tool factory and what it logged. */
function load(config = { tools: { deny: ['edit', 'write', 'apply_patch'] } }) {
  const registered = []
  const warnings = []
  plugin.register({ config, logger: { warn: (m) => warnings.push(m), info() {}, error() {}, debug() {} }, registerTool: (factory, opts) => registered.push({ factory, opts }) })
  assert.equal(registered.length, 1)
  return { factory: registered[0].factory, names: registered[0].opts.names, warnings }
}

function tools(ctx) {
  const made = load().factory(ctx)
  return made && Object.fromEntries(made.map((t) => [t.name, t]))
}

const exec = (t, args, signal) => t.execute('call-1', t.prepareArguments ? t.prepareArguments(args) : args, signal)

describe('registration', () => {
  test('four tools, declared by name, offered directly (never only behind Tool Search)', () => {
    const { names } = load()
    assert.deepEqual(names, ['surgical_edit', 'surgical_write', 'surgical_apply_patch', 'surgical_apply_snippet'])
    const ws = tempDir()
    for (const t of Object.values(tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: true } }))) {
      assert.equal(t.catalogMode, 'direct-only', t.name)
      assert.equal(typeof t.description, 'string')
      assert.equal(t.parameters.type, 'object')
    }
    const manifest = JSON.parse(fs.readFileSync(new URL('../openclaw.plugin.json', import.meta.url), 'utf8'))
    assert.deepEqual(manifest.contracts.tools, names)
    assert.deepEqual(Object.keys(manifest.toolMetadata), names)
  })

  test("OpenClaw's edit parameters: path, edits[] of oldText/newText", () => {
    const { parameters } = tools({ workspaceDir: tempDir(), fsPolicy: { workspaceOnly: true } }).surgical_edit
    assert.deepEqual(parameters.required, ['path', 'edits'])
    assert.deepEqual(parameters.properties.edits.items.required, ['oldText', 'newText'])
  })

  test('a sandboxed run gets no tools; a run without a workspace neither', () => {
    assert.equal(load().factory({ workspaceDir: tempDir(), sandboxed: true }), null)
    assert.equal(load().factory({}), null)
  })

  test('a warning at load unless tools.deny turns off edit, write and apply_patch', () => {
    assert.deepEqual(load().warnings, [])
    assert.deepEqual(load({ tools: { deny: ['group:fs'] } }).warnings, [])
    const { warnings } = load({ tools: { deny: ['write'] } })
    assert.equal(warnings.length, 1)
    assert.match(warnings[0], /edit, apply_patch are still offered/)
    assert.deepEqual(coreToolsLeftOn(undefined), ['edit', 'write', 'apply_patch'])
    assert.deepEqual(coreToolsLeftOn(['EDIT', 'Write', 'apply_patch']), [])
  })
})

describe('arguments, as OpenClaw prepares its edit', () => {
  test('edits[] as given; edits as a JSON string; a top-level oldText/newText added once; aliases', () => {
    const edits = [{ oldText: 'a', newText: 'b' }]
    assert.deepEqual(prepareEditArguments({ path: 'x', edits }), { path: 'x', edits })
    assert.deepEqual(prepareEditArguments({ path: 'x', edits: JSON.stringify(edits) }), { path: 'x', edits })
    assert.deepEqual(prepareEditArguments({ path: 'x', oldText: 'a', newText: 'b' }), { path: 'x', edits })
    assert.deepEqual(prepareEditArguments({ path: 'x', edits, oldText: 'a', newText: 'b' }), { path: 'x', edits })
    assert.deepEqual(prepareEditArguments({ file_path: 'x', old_string: 'a', new_string: 'b', replace_all: true }), {
      path: 'x',
      edits: [{ oldText: 'a', newText: 'b', replaceAll: true }],
    })
    assert.deepEqual(prepareEditArguments({ path: 'x', reason: 'why', edits: [{ oldText: 'a', newText: 'b', note: 'n' }] }), { path: 'x', edits })
    assert.deepEqual(prepareWriteArguments({ filePath: 'x', content: '' }), { path: 'x', content: '' })
    assert.deepEqual(prepareApplyPatchArguments({ patch: 'p' }), { input: 'p' })
    assert.deepEqual(prepareApplyPatchArguments({ input: 'p' }), { input: 'p' })
  })
})

describe("paths, as OpenClaw's edit and write resolve them", () => {
  test('relative to the workspace; @ references; file:// URLs; ~; XML and Office-extension repairs', () => {
    const ws = tempDir()
    assert.equal(resolveOpenClawPath('src/a.ts', ws), path.join(ws, 'src/a.ts'))
    assert.equal(resolveOpenClawPath('@src/a.ts', ws), path.join(ws, 'src/a.ts'))
    assert.equal(resolveOpenClawPath('@@a.ts', ws), path.join(ws, '@a.ts'))
    fs.writeFileSync(path.join(ws, '@literal.txt'), '')
    assert.equal(resolveOpenClawPath('@literal.txt', ws), path.join(ws, '@literal.txt'))
    assert.equal(resolveOpenClawPath(pathToFileURL(path.join(ws, 'u r l.txt')).href, ws), path.join(ws, 'u r l.txt'))
    assert.equal(resolveOpenClawPath('~/notes.md', ws), path.join(os.homedir(), 'notes.md'))
    assert.equal(resolveOpenClawPath('/abs/x.txt', ws), '/abs/x.txt')
    assert.equal(resolveOpenClawPath('a.txt</arg_value>>', ws), path.join(ws, 'a.txt'))
    assert.equal(resolveOpenClawPath('report.docodex', ws), path.join(ws, 'report.docx'))
    // Special spaces in a path are kept (OpenClaw's edit and write do not rewrite them, unlike pi).
    assert.equal(resolveOpenClawPath('a\u00a0b.txt', ws), path.join(ws, 'a\u00a0b.txt'))
  })

  test('where surgical works: the workspace when contained; a file elsewhere from its own directory otherwise', () => {
    const ws = tempDir()
    const out = tempDir()
    assert.deepEqual(surgicalTarget(path.join(ws, 'a/b.txt'), ws, true), { root: ws, path: 'a/b.txt' })
    assert.deepEqual(surgicalTarget(path.join(out, 'c.txt'), ws, true), { root: ws, path: path.join(out, 'c.txt') })
    assert.deepEqual(surgicalTarget(path.join(out, 'c.txt'), ws, false), { root: fs.realpathSync(out), path: 'c.txt' })
    fs.writeFileSync(path.join(out, 'target.txt'), 'x')
    fs.symlinkSync(path.join(out, 'target.txt'), path.join(ws, 'link.txt'))
    assert.deepEqual(surgicalTarget(path.join(ws, 'link.txt'), ws, false), { root: fs.realpathSync(out), path: 'target.txt' })
  })
})

describe('the tools, in-process', () => {
  test('workspaceOnly (OpenClaw agent exec, guarded and workspace modes): a file outside is refused, untouched', async () => {
    const ws = tempDir()
    const out = tempDir()
    fs.writeFileSync(path.join(out, 'far.txt'), 'far\n')
    const { surgical_edit: edit, surgical_write: write } = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: true } })
    await assert.rejects(exec(edit, { path: path.join(out, 'far.txt'), edits: [{ oldText: 'far', newText: 'near' }] }), (e) => {
      assert.match(e.message, /^Error \(outside_root\): /)
      assert.match(e.message, /OpenClaw's file policy keeps file tools inside /)
      return true
    })
    await assert.rejects(exec(write, { path: '../escape.txt', content: 'x' }), /outside_root/)
    // A symlink leading out of the workspace is refused too, as OpenClaw's guard refuses it.
    fs.symlinkSync(path.join(out, 'far.txt'), path.join(ws, 'link.txt'))
    await assert.rejects(exec(edit, { path: 'link.txt', edits: [{ oldText: 'far', newText: 'near' }] }), /outside_root/)
    assert.equal(fs.readFileSync(path.join(out, 'far.txt'), 'utf8'), 'far\n')
    assert.equal(fs.existsSync(path.join(path.dirname(ws), 'escape.txt')), false)
  })

  test('without workspaceOnly a file anywhere is edited, symlinks followed; no undo journal anywhere', async () => {
    const ws = tempDir()
    const out = tempDir()
    fs.writeFileSync(path.join(out, 'far.txt'), '\uFEFFfar\r\n')
    const { surgical_edit: edit } = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: false } })
    const r = await exec(edit, { path: path.join(out, 'far.txt'), edits: [{ oldText: 'far', newText: 'near' }] })
    assert.equal(r.details.changed, true)
    assert.equal(fs.readFileSync(path.join(out, 'far.txt'), 'utf8'), '\uFEFFnear\r\n')
    fs.symlinkSync(path.join(out, 'far.txt'), path.join(ws, 'link.txt'))
    await exec(edit, { path: 'link.txt', edits: [{ oldText: 'near', newText: 'nearer' }] })
    assert.equal(fs.readFileSync(path.join(out, 'far.txt'), 'utf8'), '\uFEFFnearer\r\n')
    assert.equal(fs.lstatSync(path.join(ws, 'link.txt')).isSymbolicLink(), true)
    // A new file in directories that do not exist yet, outside the workspace: created, as OpenClaw's write does.
    const { surgical_write: write } = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: false } })
    await exec(write, { path: path.join(out, 'new/dir/f.txt'), content: 'made\n' })
    assert.equal(fs.readFileSync(path.join(out, 'new/dir/f.txt'), 'utf8'), 'made\n')
    assert.equal(fs.existsSync(path.join(ws, '.surgical')) || fs.existsSync(path.join(out, '.surgical')), false)
  })

  test('a session root (fsPolicy.root) bounds the tools, relative paths still start at the workspace', async () => {
    const root = tempDir()
    const ws = path.join(root, 'pkg')
    fs.mkdirSync(ws)
    fs.writeFileSync(path.join(root, 'top.txt'), 'top\n')
    const { surgical_edit: edit } = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: true, root } })
    await exec(edit, { path: '../top.txt', edits: [{ oldText: 'top', newText: 'TOP' }] })
    assert.equal(fs.readFileSync(path.join(root, 'top.txt'), 'utf8'), 'TOP\n')
  })

  test('an aborted signal or a stale invocation: nothing is written', async () => {
    const ws = tempDir()
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n')
    const { surgical_edit: edit } = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: true } })
    const aborted = AbortSignal.abort()
    await assert.rejects(exec(edit, { path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }] }, aborted), /Operation aborted/)
    const stale = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: true }, assertInvocationCurrent: () => { throw new Error('invocation is no longer current') } })
    await assert.rejects(exec(stale.surgical_edit, { path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }] }), /no longer current/)
    assert.equal(fs.readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'a\n')
  })

  test("write: OpenClaw's details (created; changed false for the same content); parents created", async () => {
    const ws = tempDir()
    const { surgical_write: write } = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: true } })
    const created = await exec(write, { path: 'a/b/c.txt', content: 'one\n' })
    assert.deepEqual([created.details.changed, created.details.created], [true, true])
    const same = await exec(write, { path: 'a/b/c.txt', content: 'one\n' })
    assert.equal(same.details.changed, false)
    const changed = await exec(write, { path: 'a/b/c.txt', content: 'two\n' })
    assert.deepEqual([changed.details.changed, changed.details.created, changed.details.diff], [true, false, '-1 one\n+1 two\n'])
  })

  test("apply_patch: OpenClaw's summary (a move counted as modified at its new path); a failed patch changes no file", async () => {
    const ws = tempDir()
    fs.writeFileSync(path.join(ws, 'x.txt'), 'a\n')
    fs.writeFileSync(path.join(ws, 'y.txt'), 'b\n')
    const { surgical_apply_patch: patch } = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: true } })
    const r = await exec(patch, {
      input: '*** Begin Patch\n*** Update File: x.txt\n@@\n-a\n+A\n*** Add File: z.txt\n+z\n*** Update File: y.txt\n*** Move to: w.txt\n@@\n-b\n+B\n*** End Patch\n',
    })
    assert.deepEqual(r.details.summary, { added: ['z.txt'], modified: ['x.txt', 'w.txt'], deleted: [] })
    assert.equal(r.details.files.length, 3)
    await assert.rejects(exec(patch, { input: '*** Begin Patch\n*** Update File: x.txt\n@@\n-A\n+AA\n*** Update File: w.txt\n@@\n-missing\n+x\n*** End Patch' }), /Error \(not_found\): w\.txt: hunk 0/)
    assert.equal(fs.readFileSync(path.join(ws, 'x.txt'), 'utf8'), 'A\n')
    await assert.rejects(exec(patch, { input: '*** Begin Patch\n*** Add File: ../out.txt\n+x\n*** End Patch' }), /outside_root/)
  })
})

describe("OpenClaw's per-file mutation queue", () => {
  test("a call waits for an operation OpenClaw queued on the same file, under OpenClaw's key", async () => {
    const ws = tempDir()
    fs.writeFileSync(path.join(ws, 'q.txt'), 'q\n')
    // OpenClaw's queue key: the real path of the nearest existing ancestor plus the missing rest.
    assert.equal(fileMutationQueueKey(path.join(ws, 'q.txt')), path.join(fs.realpathSync(ws), 'q.txt'))
    assert.equal(fileMutationQueueKey(path.join(ws, 'new/dir/f.txt')), path.join(fs.realpathSync(ws), 'new/dir/f.txt'))
    const tails = globalThis[Symbol.for('openclaw.fileMutationTails')] ?? new Map()
    globalThis[Symbol.for('openclaw.fileMutationTails')] = tails
    let release
    const held = new Promise((resolve) => (release = resolve))
    tails.set(fileMutationQueueKey(path.join(ws, 'q.txt')), held)
    const { surgical_edit: edit } = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: true } })
    const order = []
    const editing = exec(edit, { path: 'q.txt', edits: [{ oldText: 'q', newText: 'Q' }] }).then(() => order.push('edit'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(fs.readFileSync(path.join(ws, 'q.txt'), 'utf8'), 'q\n', 'waits for the queued operation')
    order.push('released')
    release()
    await editing
    assert.deepEqual(order, ['released', 'edit'])
    assert.equal(fs.readFileSync(path.join(ws, 'q.txt'), 'utf8'), 'Q\n')
    // And its place in the queue is released once it settles.
    await withFileMutationQueue([path.join(ws, 'q.txt')], async () => {})
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(tails.has(fileMutationQueueKey(path.join(ws, 'q.txt'))), false)
  })

  test('eight edits of one file in one turn all land', async () => {
    const ws = tempDir()
    fs.writeFileSync(path.join(ws, 's.txt'), Array.from({ length: 8 }, (_, i) => `line ${i}\n`).join(''))
    const { surgical_edit: edit } = tools({ workspaceDir: ws, fsPolicy: { workspaceOnly: true } })
    await Promise.all(Array.from({ length: 8 }, (_, i) => exec(edit, { path: 's.txt', edits: [{ oldText: `line ${i}\n`, newText: `LINE ${i}\n` }] })))
    assert.equal(fs.readFileSync(path.join(ws, 's.txt'), 'utf8'), Array.from({ length: 8 }, (_, i) => `LINE ${i}\n`).join(''))
  })
})
