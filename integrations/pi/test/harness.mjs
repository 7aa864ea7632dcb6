// Runs pi itself through its SDK (createAgentSession) with pi-ai's scripted faux provider: the
// model's turn is a list of tool calls, pi executes them with its real tool pipeline, and the tool
// results pi recorded in its session come back. The extension, when asked for, is loaded by pi's
// own loader (DefaultResourceLoader, additionalExtensionPaths), as `pi -e <path>` loads it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from '@earendil-works/pi-ai'
import {
  createAgentSession,
  DefaultResourceLoader,
  ModelRuntime,
  SessionManager,
  SettingsManager,
} from '@earendil-works/pi-coding-agent'

export const extensionDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const repo = path.resolve(extensionDir, '../..')

export function tempDir(t, prefix = 'pi-surgical-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Runs one pi session in `cwd` whose model makes `calls` ([{name, args}]) in one turn, then ends.
 * Returns the toolResult messages pi recorded, in call order, and the tool names pi had active.
 */
export async function runPi(t, { cwd, calls, withExtension }) {
  const agentDir = tempDir(t, 'pi-agent-')
  const faux = fauxProvider()
  const modelRuntime = await ModelRuntime.create({
    authPath: path.join(agentDir, 'auth.json'),
    modelsPath: null,
    refreshOnCreate: false,
  })
  modelRuntime.registerNativeProvider(faux.provider)
  faux.setResponses([
    fauxAssistantMessage(
      calls.map((c, i) => fauxToolCall(c.name, c.args, { id: `call_${i}` })),
      { stopReason: 'toolUse' },
    ),
    fauxAssistantMessage(fauxText('done')),
  ])
  const settingsManager = SettingsManager.inMemory()
  const resourceLoader = new DefaultResourceLoader({
    cwd,
    agentDir,
    settingsManager,
    additionalExtensionPaths: withExtension ? [extensionDir] : [],
    noSkills: true,
    noPromptTemplates: true,
    noThemes: true,
    noContextFiles: true,
  })
  await resourceLoader.reload()
  const loaded = resourceLoader.getExtensions()
  if (loaded.errors?.length) throw new Error(`pi could not load the extension: ${JSON.stringify(loaded.errors)}`)
  const { session } = await createAgentSession({
    cwd,
    agentDir,
    modelRuntime,
    model: faux.getModel(),
    resourceLoader,
    settingsManager,
    sessionManager: SessionManager.inMemory(),
  })
  try {
    await session.prompt('Make the edits.')
    const results = session.messages.filter((m) => m.role === 'toolResult')
    const byId = new Map(results.map((r) => [r.toolCallId, r]))
    return {
      results: calls.map((_, i) => byId.get(`call_${i}`)),
      extensions: loaded.extensions.map((e) => e.path ?? e.resolvedPath ?? e.name),
    }
  } finally {
    session.dispose()
  }
}

export const resultText = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('')
