// Copies @surgical/node's loader and native addon into dist/native/, so the built plugin is one
// self-contained package with no dependency to install: OpenClaw installs plugins into its own
// directory and refuses a plugin whose node_modules link outside it, and @surgical/node is built
// from this repository, not fetched from a registry. Run after tsc (npm run build).
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const pkg = path.dirname(createRequire(import.meta.url).resolve('@surgical/node/package.json'))
const addons = fs.readdirSync(pkg).filter((f) => f.endsWith('.node'))
if (addons.length === 0) {
  console.error(`no native addon in ${pkg}: build bindings/node first (npm run build there)`)
  process.exit(1)
}
const out = path.join(here, '..', 'dist', 'native')
fs.rmSync(out, { recursive: true, force: true })
fs.mkdirSync(out, { recursive: true })
// The loader is CommonJS; dist/ is an ES module package, hence .cjs.
fs.copyFileSync(path.join(pkg, 'index.js'), path.join(out, 'surgical.cjs'))
for (const f of addons) fs.copyFileSync(path.join(pkg, f), path.join(out, f))
console.log(`dist/native: ${addons.join(', ')} from ${path.relative(process.cwd(), pkg)}`)
