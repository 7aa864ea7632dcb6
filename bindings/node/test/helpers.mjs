// Shared by the tests: the binding, temporary directories, the `surgical` binary, the fixtures.
import { createRequire } from 'node:module'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
export const repo = path.resolve(here, '../../..')
export const surgical = createRequire(import.meta.url)('../index.js')

export function tempDir(t, name = 'surgical-node-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), name))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

// The `surgical` command the results are compared with: $SURGICAL_BIN, or the workspace's debug
// build. Under CI=true a missing binary fails the test instead of skipping it.
export function surgicalBin(t) {
  const bin = process.env.SURGICAL_BIN ?? path.join(repo, 'target/debug/surgical')
  if (fs.existsSync(bin)) return bin
  const why = `no surgical binary at ${bin} (build it with cargo build -p surgical-cli, or set SURGICAL_BIN)`
  if (process.env.CI === 'true') throw new Error(why)
  t.skip(why)
  return null
}

// `surgical call TOOL --root ROOT [...flags]` with `call` on stdin: the parsed result object.
export function cliCall(bin, tool, call, root, flags = ['--no-undo']) {
  let out
  try {
    out = execFileSync(bin, ['call', tool, '--root', root, ...flags], { input: JSON.stringify(call) })
  } catch (e) {
    out = e.stdout // a failed tool call exits 1 and still prints its result
  }
  return JSON.parse(out.toString('utf8'))
}

// The data-driven cases in tests/fixtures/NAME: input bytes, edit.json (the call without path),
// and expected (bytes after) or error (the code).
export function fixtures() {
  const dir = path.join(repo, 'tests/fixtures')
  return fs.readdirSync(dir).sort().map((name) => {
    const at = (f) => path.join(dir, name, f)
    return {
      name,
      input: fs.readFileSync(at('input')),
      call: JSON.parse(fs.readFileSync(at('edit.json'), 'utf8')),
      expected: fs.existsSync(at('expected')) ? fs.readFileSync(at('expected')) : null,
      error: fs.existsSync(at('error')) ? fs.readFileSync(at('error'), 'utf8').trim() : null,
    }
  })
}
