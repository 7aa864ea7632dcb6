/**
 * Argument preparation: what a model sends, brought to the tools' schemas before OpenClaw validates
 * it (OpenClaw calls a tool's `prepareArguments` before schema validation).
 *
 * `surgical_edit` accepts what OpenClaw's `edit` accepts (`edits[]`; `edits` sent as a JSON string;
 * a top-level `oldText`/`newText`, added as one more edit unless `edits` already holds it) and the
 * spellings other agents' edit tools use, which surgical's own call parser takes too: `file_path`,
 * `filePath`; `old_string`/`new_string`, `oldString`/`newString`, `old_str`/`new_str`;
 * `replace_all`. `surgical_apply_patch` takes OpenClaw's `input` or surgical's `patch`. Anything
 * else is passed through for the schema to refuse with OpenClaw's own message.
 */

type Args = Record<string, unknown>;

const OLD_TEXT = ["oldText", "old_string", "oldString", "old_str"] as const;
const NEW_TEXT = ["newText", "new_string", "newString", "new_str"] as const;
const REPLACE_ALL = ["replaceAll", "replace_all"] as const;
const PATH = ["path", "file_path", "filePath"] as const;

function isRecord(value: unknown): value is Args {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function first(record: Args, keys: readonly string[]): unknown {
	for (const key of keys) if (record[key] !== undefined) return record[key];
	return undefined;
}

/** One edit in the schema's spelling; a non-object is kept for the schema to refuse. */
function oneEdit(value: unknown): unknown {
	if (!isRecord(value)) return value;
	const edit: Args = { oldText: first(value, OLD_TEXT), newText: first(value, NEW_TEXT) };
	const replaceAll = first(value, REPLACE_ALL);
	if (replaceAll !== undefined) edit.replaceAll = replaceAll;
	return edit;
}

function withPath(input: Args, rest: Args): Args {
	const p = first(input, PATH);
	return p === undefined ? rest : { path: p, ...rest };
}

export function prepareEditArguments(input: unknown): unknown {
	if (!isRecord(input)) return input;
	let edits: unknown = input.edits;
	if (typeof edits === "string") {
		try {
			edits = JSON.parse(edits);
		} catch {
			// Left as a string: the schema refuses it with OpenClaw's message.
		}
	}
	const list = Array.isArray(edits) ? edits.map(oneEdit) : edits;
	const top = oneEdit(input) as Args;
	if (typeof top.oldText === "string" && typeof top.newText === "string") {
		const batch = Array.isArray(list) ? list : [];
		const already = batch.some((e) => isRecord(e) && e.oldText === top.oldText && e.newText === top.newText);
		if (!already) batch.push(top);
		return withPath(input, { edits: batch });
	}
	return withPath(input, list === undefined ? {} : { edits: list });
}

export function prepareWriteArguments(input: unknown): unknown {
	if (!isRecord(input)) return input;
	return withPath(input, input.content === undefined ? {} : { content: input.content });
}

export function prepareApplyPatchArguments(input: unknown): unknown {
	if (!isRecord(input)) return input;
	const patch = input.input ?? input.patch;
	return patch === undefined ? {} : { input: patch };
}

export function prepareSnippetArguments(input: unknown): unknown {
	if (!isRecord(input)) return input;
	const rest: Args = {};
	if (input.snippet !== undefined) rest.snippet = input.snippet;
	if (input.instructions !== undefined) rest.instructions = input.instructions;
	return withPath(input, rest);
}
