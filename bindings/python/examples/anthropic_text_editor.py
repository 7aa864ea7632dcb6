"""Claude edits files with Anthropic's text-editor tool; surgical executes its tool_use blocks.

    pip install anthropic ./bindings/python
    ANTHROPIC_API_KEY=... python anthropic_text_editor.py "Fix the syntax error in primes.py" path/to/project
"""

from __future__ import annotations

import sys

import anthropic

import surgical

MAX_CHARACTERS = 20_000


def run(client: anthropic.Anthropic, prompt: str, *, root: str = ".", model: str = "claude-sonnet-4-5", max_turns: int = 25):
    """Asks Claude `prompt` with the text-editor tool, runs each tool_use block with
    surgical.text_editor inside `root`, and returns Claude's last message."""
    # max_characters in the tool's definition tells Claude views are limited; the host applies the
    # limit, so it goes into each call too (only `view` reads it).
    tools = [surgical.anthropic_text_editor_tool("text_editor_20250728", max_characters=MAX_CHARACTERS)]
    messages = [{"role": "user", "content": prompt}]
    for _ in range(max_turns):
        response = client.messages.create(model=model, max_tokens=4096, tools=tools, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return response
        results = []
        for block in response.content:
            if block.type == "tool_use":
                result = surgical.text_editor({**block.input, "max_characters": MAX_CHARACTERS}, root=root)
                results.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": block.id,
                        "content": result["text"],
                        "is_error": not result["ok"],
                    }
                )
        messages.append({"role": "user", "content": results})
    raise RuntimeError(f"no answer after {max_turns} turns")


if __name__ == "__main__":
    answer = run(anthropic.Anthropic(), sys.argv[1], root=sys.argv[2] if len(sys.argv) > 2 else ".")
    print("".join(block.text for block in answer.content if block.type == "text"))
