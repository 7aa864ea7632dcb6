// A test-only pi extension for `pi -e`: registers pi-ai's faux provider (model faux/faux-1) whose
// first turn makes the tool calls in $SURGICAL_PI_CALLS ([{name, args}]) and whose second ends.
import { fauxAssistantMessage, fauxProvider, fauxText, fauxToolCall } from '@earendil-works/pi-ai'

export default function (pi) {
  const calls = JSON.parse(process.env.SURGICAL_PI_CALLS ?? '[]')
  const faux = fauxProvider()
  faux.setResponses([
    fauxAssistantMessage(calls.map((c, i) => fauxToolCall(c.name, c.args, { id: `call_${i}` })), { stopReason: 'toolUse' }),
    fauxAssistantMessage(fauxText('done')),
  ])
  pi.registerProvider(faux.provider)
}
