// The scenarios every route runs (the plugin, the MCP server, OpenClaw's own tools): the files of a
// workspace and the calls a model makes on them, in each route's tool names and parameters, with
// the same call for `surgical call` (the reference bytes and result objects).
import fs from 'node:fs'
import path from 'node:path'
import { surgicalCall, writeFiles } from './harness.mjs'

// The seed report's file (docs/seed-bug-report.md): an em dash in a string, trailing spaces, a
// function; the model copies `return 2;` with two no-break spaces where the file has spaces.
export const SAMPLE = 'const label = "a \u2014 b";\nlet x = 1;   \n\nfunction bar() {\n  return 2;\n}\n'

export const FILES = {
  'sample.ts': SAMPLE,
  // UTF-8 BOM, CRLF, typographic quotes and trailing spaces on the edited line.
  'crlf-bom.txt': '\uFEFFfirst line\r\n  \u201Cquoted\u201D value  \r\nlast line\r\n',
  'dup.txt': 'x = 1\ny = 2\nx = 1\n',
  // A CRLF Python file with typographic quotes, and a Markdown file with an em dash and trailing
  // spaces, both changed by one Codex patch.
  'src/greet.py': 'def greet():\r\n    return \u201Chello\u201D\r\n\r\ndef leave():\r\n    return "bye"\r\n',
  'notes.md': '# Notes \u2014 draft\nold note   \nkeep this\n',
  'snippet.js': 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n\nfunction c() {\n  return 3;\n}\n',
}

const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/greet.py',
  '@@ def greet():',
  '-    return "hello"',
  '+    return "hello, world"',
  '*** Update File: notes.md',
  '@@',
  '-old note',
  '+new note',
  '*** End Patch',
].join('\n')

/**
 * The scenarios: `kind` is the tool (edit, write, apply_patch, apply_snippet), `call` its surgical
 * call object, `files` the files it touches.
 */
export const SCENARIOS = [
  {
    id: 'seed',
    kind: 'edit',
    call: { path: 'sample.ts', edits: [{ oldText: '\u00a0\u00a0return 2;', newText: '\u00a0\u00a0return 3;' }] },
    files: ['sample.ts'],
  },
  {
    id: 'crlf-bom',
    kind: 'edit',
    call: { path: 'crlf-bom.txt', edits: [{ oldText: '  "quoted" value\nlast line', newText: '  "quoted" VALUE\nlast line' }] },
    files: ['crlf-bom.txt'],
  },
  { id: 'ambiguous', kind: 'edit', call: { path: 'dup.txt', edits: [{ oldText: 'x = 1', newText: 'x = 9' }] }, files: ['dup.txt'] },
  { id: 'patch', kind: 'apply_patch', call: { patch: PATCH }, files: ['src/greet.py', 'notes.md'] },
  { id: 'write', kind: 'write', call: { path: 'gen/deep/new.ts', content: 'export const made = "by write";\n' }, files: ['gen/deep/new.ts'] },
  {
    id: 'snippet',
    kind: 'apply_snippet',
    call: { path: 'snippet.js', snippet: '// ... existing code ...\nfunction b() {\n  return 20;\n}\n// ... existing code ...' },
    files: ['snippet.js'],
  },
]

/** Each route's tool names, and how a surgical call becomes the route's arguments. */
export const ROUTES = {
  plugin: {
    edit: (c) => ({ name: 'surgical_edit', args: c }),
    write: (c) => ({ name: 'surgical_write', args: c }),
    apply_patch: (c) => ({ name: 'surgical_apply_patch', args: { input: c.patch } }),
    apply_snippet: (c) => ({ name: 'surgical_apply_snippet', args: c }),
  },
  mcp: {
    edit: (c) => ({ name: 'surgical__edit', args: c }),
    write: (c) => ({ name: 'surgical__write', args: c }),
    apply_patch: (c) => ({ name: 'surgical__apply_patch', args: c }),
    apply_snippet: (c) => ({ name: 'surgical__apply_snippet', args: c }),
  },
  core: {
    edit: (c) => ({ name: 'edit', args: c }),
    write: (c) => ({ name: 'write', args: c }),
    apply_patch: (c) => ({ name: 'apply_patch', args: { input: c.patch } }),
  },
}

/** The calls of `scenarios` for `route` (scenarios the route has no tool for are left out). */
export function routeCalls(route, scenarios = SCENARIOS) {
  return scenarios.filter((s) => ROUTES[route][s.kind]).map((s) => ({ scenario: s, ...ROUTES[route][s.kind](s.call) }))
}

/** Runs every scenario through `surgical call` in a fresh copy of FILES: each one's result object and the bytes it left. */
export function referenceResults(dir) {
  writeFiles(dir, FILES)
  const out = new Map()
  for (const s of SCENARIOS) {
    const result = surgicalCall(s.kind, s.call, dir)
    const bytes = Object.fromEntries(s.files.map((f) => [f, fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f)) : null]))
    out.set(s.id, { result, bytes })
  }
  return out
}
