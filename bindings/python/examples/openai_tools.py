"""A generic OpenAI function-calling loop over every surgical tool, with strict-mode schemas.

    pip install openai ./bindings/python
    OPENAI_API_KEY=... python openai_tools.py "Rename fetch_user to load_user in app.py" path/to/project
"""

from __future__ import annotations

import json
import sys

import openai

import surgical

# Every tool (read, edit, write, apply_patch, apply_snippet, undo, text_editor), strict mode: the
# model sends every argument, null for those it leaves out, which the tools take as absent.
TOOLS = surgical.tool_definitions("openai", strict=True)


def run(client: openai.OpenAI, prompt: str, *, root: str = ".", model: str = "gpt-5", max_turns: int = 25):
    """Asks `prompt` with surgical's tools, runs each tool call inside `root`, and returns the
    model's last message."""
    messages = [{"role": "user", "content": prompt}]
    for _ in range(max_turns):
        completion = client.chat.completions.create(model=model, messages=messages, tools=TOOLS)
        message = completion.choices[0].message
        messages.append(message.model_dump(exclude_none=True))
        if not message.tool_calls:
            return message
        for call in message.tool_calls:
            result = surgical.call(call.function.name, json.loads(call.function.arguments), root=root)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result["text"]})
    raise RuntimeError(f"no answer after {max_turns} turns")


if __name__ == "__main__":
    print(run(openai.OpenAI(), sys.argv[1], root=sys.argv[2] if len(sys.argv) > 2 else ".").content)
