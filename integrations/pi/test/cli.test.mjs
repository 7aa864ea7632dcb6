// The extension through pi's own command line, the way a user loads it: `pi -e <path>` for one
// run, and `pi install <path>` then a plain `pi` run. The model is pi-ai's faux provider, loaded
// by the test-only extension faux-provider.mjs, replaying the seed report's edit.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { extensionDir, tempDir } from './harness.mjs'

// pi's `pi` command: the package's bin (dist/bundle/cli.js), run by this node (pi needs Node >= 22.19).
const piCli = path.join(extensionDir, 'node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js')
const fauxExtension = path.join(extensionDir, 'test/faux-provider.mjs')
const SAMPLE = 'const label = "a \u2014 b";\nlet x = 1;   \n\nfunction bar() {\n  return 2;\n}\n'
const CALLS = [{ name: 'edit', args: { path: 'sample.ts', edits: [{ oldText: '\u00a0\u00a0return 2;', newText: '\u00a0\u00a0return 3;' }] } }]

function pi(args, { cwd, agentDir }) {
  return execFileSync(process.execPath, [piCli, ...args], {
    cwd,
    env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, SURGICAL_PI_CALLS: JSON.stringify(CALLS) },
    encoding: 'utf8',
    timeout: 120_000,
  })
}

// The toolResult message of the JSON event stream of `pi --mode json`.
function toolResult(output) {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue
    const event = JSON.parse(line)
    const found = (event.messages ?? []).find((m) => m.role === 'toolResult')
    if (found) return found
  }
  throw new Error(`no tool result in pi's output:\n${output}`)
}

for (const how of ['pi -e <path>', 'pi install <path>']) {
  test(`${how}: pi's edit is surgical's`, async (t) => {
    const cwd = tempDir(t)
    const agentDir = tempDir(t, 'pi-agent-')
    fs.writeFileSync(path.join(cwd, 'sample.ts'), SAMPLE)
    const run = ['-e', fauxExtension, '--model', 'faux/faux-1', '--no-session', '--mode', 'json', '-p', 'Make the edit.']
    if (how === 'pi install <path>') {
      pi(['install', extensionDir], { cwd, agentDir })
    } else {
      run.unshift('-e', extensionDir)
    }
    const result = toolResult(pi(run, { cwd, agentDir }))
    assert.equal(result.isError, false)
    assert.equal(fs.readFileSync(path.join(cwd, 'sample.ts'), 'utf8'), SAMPLE.replace('return 2;', 'return 3;'))
    assert.match(result.content[0].text, /^Edited sample\.ts: 1 edit applied\.\nedits\[0\]: now at line 5 \(matched unicode\)/)
    assert.equal(result.details.firstChangedLine, 5)
  })
}
