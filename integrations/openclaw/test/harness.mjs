// Runs OpenClaw itself: its CLI (`openclaw plugins install`, `openclaw config set`, `openclaw agent
// exec`), its plugin loader, tool policy and agent, in a private HOME, against a scripted model: a
// local OpenAI-compatible server (chat completions, by `baseUrl`) that answers each turn with the
// tool calls of a script and records every request, so the tests read the tool list the model was
// offered. Deterministic and offline: nothing leaves 127.0.0.1.
//
// What OpenClaw recorded is read from its session log: the transcript events of the run's session
// in `<state-dir>/agents/main/agent/openclaw-agent.sqlite` (`agent exec --state-dir` keeps them).
import { execFile, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

const run = promisify(execFile)

export const pluginDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const repo = path.resolve(pluginDir, '../..')
export const openclawCli = path.join(pluginDir, 'node_modules/openclaw/openclaw.mjs')
/** The `surgical` binary for the MCP route and the reference results (CI passes the debug build). */
export const surgicalBin = process.env.SURGICAL_BIN ?? path.join(repo, 'target/debug/surgical')

const made = []

/** A fresh directory, removed by removeTempDirs (each test file calls it `after` its suite). */
export function tempDir(prefix = 'openclaw-surgical-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  made.push(dir)
  return dir
}

export function removeTempDirs() {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
}

/** Writes `files` ({relative path: string | Buffer}) under `dir`, creating directories. */
export function writeFiles(dir, files) {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    fs.writeFileSync(path.join(dir, name), content)
  }
}

/** The environment OpenClaw runs in: a private HOME (so ~/.openclaw is the test's), nothing of the caller's OpenClaw settings. */
function env(home) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENCLAW_')))
  return { ...clean, HOME: home, NO_COLOR: '1', FORCE_COLOR: '0' }
}

/** Runs the `openclaw` command (this Node, which must be 24.16 or later). */
export async function openclaw(args, { home, cwd = home, timeout = 300_000 }) {
  try {
    return await run(process.execPath, [openclawCli, ...args], { cwd, env: env(home), timeout, maxBuffer: 64 << 20 })
  } catch (error) {
    error.message += `\nopenclaw ${args.join(' ')}\nstdout:\n${error.stdout}\nstderr:\n${error.stderr}`
    throw error
  }
}

/**
 * The plugin as a user installs it: `npm pack` of this package (its prepack builds dist/ and
 * vendors the native binding). Built once per test process; the tests' own `pretest` has built
 * dist/ already, so the pack skips the scripts.
 */
let packed
export function pluginTarball() {
  if (packed) return packed
  const out = tempDir('openclaw-surgical-pack-')
  const r = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', out, '--json'], { cwd: pluginDir, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`npm pack failed:\n${r.stdout}\n${r.stderr}`)
  packed = path.join(out, JSON.parse(r.stdout)[0].filename)
  return packed
}

/** A scripted model: each turn's tool calls in order, then a plain answer. Records every request. */
export async function startModel(script) {
  const requests = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model' }] }))
        return
      }
      const request = JSON.parse(body || '{}')
      requests.push(request)
      const turn = (request.messages ?? []).filter((m) => m.role === 'assistant').length
      const calls = script[turn]
      const message = calls
        ? {
            role: 'assistant',
            content: null,
            tool_calls: calls.map((c, i) => ({ id: `call_${turn}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })),
          }
        : { role: 'assistant', content: 'done' }
      const finish = calls ? 'tool_calls' : 'stop'
      const base = { id: `chatcmpl-${requests.length}`, created: Math.floor(Date.now() / 1000), model: request.model }
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }))
        return
      }
      const delta = calls ? { role: 'assistant', content: null, tool_calls: message.tool_calls.map((t, index) => ({ index, ...t })) } : message
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const send = (chunk) => res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...chunk })}\n\n`)
      send({ choices: [{ index: 0, delta, finish_reason: null }] })
      send({ choices: [{ index: 0, delta: {}, finish_reason: finish }] })
      send({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })
      res.end('data: [DONE]\n\n')
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

/** OpenClaw config for the scripted model as a custom OpenAI-compatible provider (`models.providers`). */
export function modelConfig(baseUrl) {
  return {
    models: {
      mode: 'replace',
      providers: {
        scripted: {
          baseUrl,
          apiKey: 'not-a-key',
          api: 'openai-completions',
          models: [{ id: 'scripted', name: 'Scripted', reasoning: false, input: ['text'], contextWindow: 128000, maxTokens: 4096 }],
        },
      },
    },
    agents: { defaults: { model: { primary: 'scripted/scripted' } } },
  }
}

/** Merges `patch` into ~/.openclaw/openclaw.json (for the test-only model provider; users set theirs up as they do). */
export function mergeConfig(home, patch) {
  const file = path.join(home, '.openclaw/openclaw.json')
  const config = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, JSON.stringify({ ...config, ...patch, tools: { ...config.tools, ...patch.tools } }, null, 2))
}

/**
 * One `openclaw agent exec` run in `workspace` whose model makes `calls` ([{name, args}]) in one
 * turn (or `script`, one list of calls per turn), then answers. Returns OpenClaw's JSON envelope,
 * the requests the model received and the tool results OpenClaw recorded in its session log, by
 * call id (`call_<turn>_<index>`).
 */
export async function agentExec({ home, workspace, calls, script }) {
  const model = await startModel(script ?? [calls])
  mergeConfig(home, modelConfig(model.baseUrl))
  const state = tempDir('openclaw-state-')
  try {
    const { stdout, stderr } = await openclaw(['agent', 'exec', '--cwd', workspace, '--state-dir', state, '--json', 'Make the changes.'], { home })
    return { envelope: JSON.parse(stdout), stderr, requests: model.requests, results: sessionToolResults(state) }
  } finally {
    await model.close()
  }
}

/** The toolResult messages of the session log, by tool call id. */
export function sessionToolResults(stateDir) {
  const db = new DatabaseSync(path.join(stateDir, 'agents/main/agent/openclaw-agent.sqlite'), { readOnly: true })
  try {
    const rows = db.prepare('SELECT event_json, event_zstd FROM transcript_events ORDER BY session_id, seq').all()
    const events = rows.map((r) => JSON.parse(r.event_json ?? zlib.zstdDecompressSync(r.event_zstd).toString('utf8')))
    const results = new Map()
    for (const e of events) if (e.type === 'message' && e.message?.role === 'toolResult') results.set(e.message.toolCallId, e.message)
    return results
  } finally {
    db.close()
  }
}

/** The text the model read of a tool result; for a failed call, the error's own text (OpenClaw wraps it as {status, tool, error}). */
export function resultText(result) {
  const text = (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('')
  if (result?.isError) {
    try {
      const wrapped = JSON.parse(text)
      if (typeof wrapped.error === 'string') return wrapped.error
    } catch {}
  }
  return text
}

/** The names of the tools offered to the model in each request. */
export const offeredTools = (request) => (request.tools ?? []).map((t) => t.function?.name ?? t.name)

/** `surgical call TOOL --root ROOT --no-undo` on `call`: the reference result object. */
export function surgicalCall(tool, call, root) {
  const r = spawnSync(surgicalBin, ['call', tool, '--root', root, '--no-undo'], { input: JSON.stringify(call), encoding: 'utf8' })
  if (r.status !== 0 && r.status !== 1) throw new Error(`surgical call ${tool} failed (${r.status}):\n${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** A string with what no eye can see made visible, for diagnostics. */
export const visible = (text) => JSON.stringify(text).replace(/[^\x20-\x7e]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`)

/** The core tools the plugin replaces, as the docs' `tools.deny` names them. */
export const DENY = ['edit', 'write', 'apply_patch']

/** The documented install: the packed plugin installed by OpenClaw's CLI, then the core tools denied. */
export async function installPlugin(home) {
  await openclaw(['plugins', 'install', pluginTarball(), '--force', '--accept-capabilities'], { home })
  await openclaw(['config', 'set', 'tools.deny', JSON.stringify(DENY), '--strict-json'], { home })
}
