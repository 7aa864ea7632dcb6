// The MCP route: `surgical mcp` configured as an OpenClaw MCP server (`mcp.servers`), OpenClaw's
// edit, write and apply_patch denied, and Tool Search turned off so the server's tools are offered
// directly; the same scenarios through OpenClaw's agent and its MCP client, bytes and result
// objects checked against `surgical call`'s. Then the default (Tool Search on): the tools are not
// offered, and reachable only through `tool_call`.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { agentExec, DENY, mergeConfig, offeredTools, openclaw, removeTempDirs, resultText, surgicalBin, tempDir, writeFiles } from './harness.mjs'
import { FILES, SAMPLE, routeCalls, referenceResults } from './scenarios.mjs'

const server = (workspace) => ({ command: surgicalBin, args: ['mcp', '--root', workspace, '--no-undo'] })

/** The documented MCP setup, with OpenClaw's CLI. */
async function configureMcp(home, workspace) {
  await openclaw(['config', 'set', 'mcp.servers.surgical', JSON.stringify(server(workspace)), '--strict-json'], { home })
  await openclaw(['config', 'set', 'tools.deny', JSON.stringify(DENY), '--strict-json'], { home })
  await openclaw(['config', 'set', 'tools.toolSearch', 'false', '--strict-json'], { home })
}

describe('surgical mcp as an OpenClaw MCP server', () => {
  const direct = {}
  const searched = {}
  let reference

  before(async () => {
    direct.home = tempDir('openclaw-home-mcp-')
    direct.workspace = tempDir('openclaw-ws-mcp-')
    writeFiles(direct.workspace, FILES)
    await configureMcp(direct.home, direct.workspace)
    direct.calls = routeCalls('mcp')
    direct.run = await agentExec({ home: direct.home, workspace: direct.workspace, calls: direct.calls })

    searched.home = tempDir('openclaw-home-mcp-search-')
    searched.workspace = tempDir('openclaw-ws-mcp-search-')
    writeFiles(searched.workspace, FILES)
    // The same setup without `tools.toolSearch: false`, written straight into the config file.
    mergeConfig(searched.home, { mcp: { servers: { surgical: server(searched.workspace) } }, tools: { deny: DENY } })
    const seed = direct.calls.find((c) => c.scenario.id === 'seed')
    searched.calls = [
      { name: seed.name, args: seed.args },
      { name: 'tool_call', args: { id: seed.name, args: seed.args } },
    ]
    searched.run = await agentExec({ home: searched.home, workspace: searched.workspace, calls: searched.calls })

    reference = referenceResults(tempDir('openclaw-ref-mcp-'))
  })
  after(removeTempDirs)

  const resultOf = (run, i) => run.results.get(`call_0_${i}`)

  test("with tools.toolSearch false the server's tools are offered directly, OpenClaw's edit, write and apply_patch not", () => {
    assert.equal(direct.run.envelope.status, 'ok', JSON.stringify(direct.run.envelope))
    for (const request of direct.run.requests) {
      const tools = offeredTools(request)
      for (const name of ['surgical__edit', 'surgical__write', 'surgical__apply_patch', 'surgical__apply_snippet']) assert.ok(tools.includes(name), `${name}: ${tools}`)
      for (const name of ['edit', 'write', 'apply_patch']) assert.ok(!tools.includes(name), `${name}: ${tools}`)
    }
  })

  test("every scenario: the bytes and result object of `surgical call`", () => {
    for (const [i, call] of direct.calls.entries()) {
      const s = call.scenario
      const { result: ref, bytes } = reference.get(s.id)
      const r = resultOf(direct.run, i)
      for (const [file, want] of Object.entries(bytes)) {
        const got = fs.existsSync(path.join(direct.workspace, file)) ? fs.readFileSync(path.join(direct.workspace, file)) : null
        assert.deepEqual(got, want, `${s.id}: ${file}`)
      }
      assert.equal(r.isError, !ref.ok, `${s.id}: ${resultText(r)}`)
      // OpenClaw keeps the server's structured result in details and shows the model its JSON, then the text.
      assert.deepEqual(r.details.structuredContent, ref, s.id)
      assert.ok(resultText(r).endsWith(ref.text), `${s.id}: ${resultText(r)}`)
    }
    assert.equal(fs.readFileSync(path.join(direct.workspace, 'sample.ts'), 'utf8'), SAMPLE.replace('return 2;', 'return 3;'))
    assert.equal(fs.readFileSync(path.join(direct.workspace, 'dup.txt'), 'utf8'), FILES['dup.txt'])
    assert.equal(fs.existsSync(path.join(direct.workspace, '.surgical')), false, 'no undo journal (--no-undo)')
  })

  test('with Tool Search on (the default) the tools are not offered: a direct call fails, tool_call reaches them', () => {
    assert.equal(searched.run.envelope.status, 'ok', JSON.stringify(searched.run.envelope))
    const tools = offeredTools(searched.run.requests[0])
    assert.ok(!tools.includes('surgical__edit'), String(tools))
    assert.ok(tools.includes('tool_call'), String(tools))
    assert.equal(resultOf(searched.run, 0).isError, true)
    const viaSearch = resultOf(searched.run, 1)
    assert.equal(viaSearch.isError, false, resultText(viaSearch))
    assert.equal(fs.readFileSync(path.join(searched.workspace, 'sample.ts'), 'utf8'), SAMPLE.replace('return 2;', 'return 3;'))
  })
})
