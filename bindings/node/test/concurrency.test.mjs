// 1,000 concurrent async edits on 1,000 files: none lost, and the event loop keeps running while
// they run on the thread pool (its longest stall is measured and printed, never asserted: speed is
// measured, not asserted).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { surgical, tempDir } from './helpers.mjs'

const FILES = 1000

// Submits the calls `submit` makes, then measures the event loop until they settle: the longest
// gap between ticks of a 1 ms timer, and monitorEventLoopDelay's maximum, in ms. Submitting is
// timed apart: it is the caller's own synchronous loop.
async function measured(submit) {
  const started = performance.now()
  const pending = submit()
  const submitted = performance.now()
  let last = submitted
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 1)
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  try {
    const value = await pending
    longest = Math.max(longest, performance.now() - last)
    return {
      value,
      submitMs: submitted - started,
      totalMs: performance.now() - started,
      longest,
      histogramMaxMs: histogram.max / 1e6,
    }
  } finally {
    clearInterval(timer)
    histogram.disable()
  }
}

test(`${FILES} concurrent async edits on different files lose nothing`, async (t) => {
  const root = tempDir(t)
  const body = (i) => `// file ${i}\r\nconst value = "old";\r\n\tother();   \r\n`.repeat(20)
  for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(root, `f${i}.ts`), body(i))
  const run = await measured(() =>
    Promise.all(
      Array.from({ length: FILES }, (_, i) =>
        surgical.edit(
          { path: `f${i}.ts`, edits: [{ oldText: 'const value = "old";', newText: `const value = ${i};`, replaceAll: true }] },
          { root, undo: false },
        ),
      ),
    ),
  )
  const results = run.value
  // The same measurement with the loop idle for as long, for the noise of a shared machine.
  const idle = await measured(() => new Promise((resolve) => setTimeout(resolve, Math.min(run.totalMs, 5000))))
  for (let i = 0; i < FILES; i++) {
    assert.equal(results[i].ok, true, results[i].text)
    assert.equal(results[i].path, `f${i}.ts`)
    assert.equal(results[i].edits[0].occurrences, 20)
    const expected = body(i).replaceAll('const value = "old";', `const value = ${i};`)
    assert.equal(fs.readFileSync(path.join(root, `f${i}.ts`), 'utf8'), expected, `f${i}.ts`)
  }
  const line =
    `${FILES} edits in ${run.totalMs.toFixed(0)} ms (submitting them: ${run.submitMs.toFixed(1)} ms of synchronous JS); ` +
    `longest event-loop stall while they ran: ${run.longest.toFixed(1)} ms (1 ms timer), ` +
    `${run.histogramMaxMs.toFixed(1)} ms (monitorEventLoopDelay); ` +
    `idle loop over ${Math.min(run.totalMs, 5000).toFixed(0)} ms: ${idle.longest.toFixed(1)} ms`
  t.diagnostic(line)
  console.log(`# stall: ${line}`)
})

test('concurrent async edits of one file: each lands, none overwrites another', async (t) => {
  const root = tempDir(t)
  const N = 50
  fs.writeFileSync(path.join(root, 'shared.txt'), Array.from({ length: N }, (_, i) => `line ${i}\n`).join(''))
  const results = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      surgical.edit({ path: 'shared.txt', oldText: `line ${i}\n`, newText: `LINE ${i}\n` }, { root, undo: false }),
    ),
  )
  for (const r of results) assert.equal(r.ok, true, r.text)
  assert.equal(
    fs.readFileSync(path.join(root, 'shared.txt'), 'utf8'),
    Array.from({ length: N }, (_, i) => `LINE ${i}\n`).join(''),
  )
})
