/**
 * pi-surgical: pi's `edit` and `write` tools, run by surgical.
 *
 * Same names, parameters and argument preparation as pi's built-in tools (pi's own edit schema and
 * `prepareArguments`, so `edits[]`, the legacy top-level oldText/newText and edits sent as a JSON
 * string are accepted as pi accepts them), the same result shape (`content` text; for edit,
 * `details` with the display diff, the unified patch and the first changed line, so pi's renderer
 * and session work unchanged), pi's per-file mutation queue, and paths resolved as pi resolves
 * them. What changes: the file is edited by surgical (every byte no edit targets is written back
 * identical, and the model is shown the diff of the real bytes), and a failed edit is a thrown
 * error carrying surgical's explanation, as pi's edit errors are. pi's abort signal cancels a
 * call that has not started writing (the file is then untouched).
 */
import { createRequire } from "node:module";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
	createEditToolDefinition,
	createWriteToolDefinition,
	type ExtensionAPI,
	withFileMutationQueue,
} from "@earendil-works/pi-coding-agent";

type Surgical = typeof import("@surgical/node");
const surgical: Surgical = createRequire(import.meta.url)("@surgical/node");

/** Spaces pi turns into plain ones in paths (models copy paths from rendered text). */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * The absolute path pi's tools would use for `given`: unicode spaces made plain, a leading `@`
 * stripped, `~` expanded, `file://` URLs converted, relative paths resolved against `cwd`.
 */
export function resolvePiPath(given: string, cwd: string): string {
	let p = given.replace(UNICODE_SPACES, " ");
	if (p.startsWith("@")) p = p.slice(1);
	if (p === "~") p = homedir();
	else if (p.startsWith("~/")) p = path.join(homedir(), p.slice(2));
	else if (p.startsWith("file://")) p = fileURLToPath(p);
	return path.resolve(cwd, p);
}

/**
 * Where surgical works for `absolute`: relative to `cwd` when the file is inside it, else to the
 * file's own directory (pi edits files anywhere; surgical refuses paths outside its root). No undo
 * journal is kept, so no `.surgical/` directory appears in the user's project.
 */
function target(absolute: string, cwd: string): { call: { path: string }; options: { root: string; undo: boolean } } {
	const relative = path.relative(cwd, absolute);
	const inside = relative !== "" && !relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative);
	return inside
		? { call: { path: relative.split(path.sep).join("/") }, options: { root: cwd, undo: false } }
		: { call: { path: path.basename(absolute) }, options: { root: path.dirname(absolute), undo: false } };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error("Operation aborted");
}

export default function surgicalTools(pi: ExtensionAPI): void {
	const builtinEdit = createEditToolDefinition(process.cwd());
	const builtinWrite = createWriteToolDefinition(process.cwd());

	pi.registerTool({
		name: "edit",
		label: builtinEdit.label,
		description: builtinEdit.description,
		promptSnippet: builtinEdit.promptSnippet,
		promptGuidelines: builtinEdit.promptGuidelines,
		parameters: builtinEdit.parameters,
		prepareArguments: builtinEdit.prepareArguments,
		renderShell: builtinEdit.renderShell,
		async execute(_toolCallId, input, signal, _onUpdate, ctx) {
			const { path: given, edits } = input as { path: string; edits?: unknown };
			if (!Array.isArray(edits) || edits.length === 0) {
				throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
			}
			const cwd = ctx?.cwd || process.cwd();
			const absolute = resolvePiPath(given, cwd);
			const { call, options } = target(absolute, cwd);
			return withFileMutationQueue(absolute, async () => {
				throwIfAborted(signal);
				const result = await surgical.edit({ ...call, edits: edits as never }, options, signal);
				if (!result.ok) throw new Error(result.text);
				return {
					content: [{ type: "text" as const, text: result.text }],
					details: {
						diff: result.diff,
						patch: result.patch,
						firstChangedLine: result.firstChangedLine ?? undefined,
					},
				};
			});
		},
	});

	pi.registerTool({
		name: "write",
		label: builtinWrite.label,
		description: builtinWrite.description,
		promptSnippet: builtinWrite.promptSnippet,
		promptGuidelines: builtinWrite.promptGuidelines,
		parameters: builtinWrite.parameters,
		async execute(_toolCallId, input, signal, _onUpdate, ctx) {
			const { path: given, content } = input as { path: string; content: string };
			const cwd = ctx?.cwd || process.cwd();
			const absolute = resolvePiPath(given, cwd);
			const { call, options } = target(absolute, cwd);
			return withFileMutationQueue(absolute, async () => {
				throwIfAborted(signal);
				// pi's write creates missing parent directories; surgical's refuses a missing one.
				await mkdir(path.dirname(absolute), { recursive: true });
				throwIfAborted(signal);
				const result = await surgical.write({ ...call, content }, options, signal);
				if (!result.ok) throw new Error(result.text);
				return { content: [{ type: "text" as const, text: result.text }], details: undefined };
			});
		},
	});
}
