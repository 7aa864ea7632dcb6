/**
 * surgical's result objects in the shapes OpenClaw's UI and session log expect.
 *
 * OpenClaw's `edit` returns `details: {changed: true, diff, patch, firstChangedLine?}` (its renderer
 * shows `details.diff`), its `write` the same plus `created`, its `apply_patch`
 * `details: {summary: {added, modified, deleted}}`, and the model reads `content`'s text. The
 * plugin fills these with surgical's own: `diff` is surgical's numbered diff of the real bytes
 * (what no eye could see marked), `patch` its unified diff of the bytes on disk. What surgical
 * reports beyond that (where each edit landed, which tier matched, encodings, hashes) is kept under
 * `details.surgical`, out of the keys OpenClaw grades a call by (`ok`, `status`, `error`, ...).
 * A failure is thrown, as OpenClaw's file tools throw theirs: the session records a tool error whose
 * text is surgical's explanation (`Error (code): ...`), and the file is untouched.
 */

export interface Text {
	type: "text";
	text: string;
}

export interface ToolResult {
	content: Text[];
	details: Record<string, unknown>;
}

type SurgicalResult = { ok: boolean; text: string } & Record<string, unknown>;

const text = (t: string): Text[] => [{ type: "text", text: t }];

/** Throws surgical's error text; returns the result object when it succeeded. */
export function orThrow(result: SurgicalResult): SurgicalResult {
	if (!result.ok) throw new Error(result.text);
	return result;
}

function changedLine(result: SurgicalResult): { firstChangedLine?: number } {
	return typeof result.firstChangedLine === "number" ? { firstChangedLine: result.firstChangedLine } : {};
}

function pick(result: SurgicalResult, keys: readonly string[]): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const key of keys) if (result[key] !== undefined) out[key] = result[key];
	return out;
}

/** `surgical_edit` and `surgical_apply_snippet`: OpenClaw's edit details. */
export function editResult(result: SurgicalResult): ToolResult {
	return {
		content: text(result.text),
		details: {
			changed: true,
			diff: result.diff,
			patch: result.patch,
			...changedLine(result),
			surgical: pick(result, ["path", "edits", "segments", "keptBefore", "keptAfter", "encoding", "hashBefore", "hashAfter", "patchTruncated"]),
		},
	};
}

/**
 * `surgical_write`: OpenClaw's write details. A created file has no diff (surgical reports none;
 * OpenClaw also leaves it out past its size limits); a write of the content the file already holds
 * is `changed: false`, as OpenClaw reports it.
 */
export function writeResult(result: SurgicalResult): ToolResult {
	const surgical = pick(result, ["path", "encoding", "bom", "lineEnding", "totalLines", "hashBefore", "hashAfter", "patchTruncated"]);
	let details: Record<string, unknown>;
	if (result.created === true) details = { changed: true, created: true, surgical };
	else if (typeof result.diff !== "string" || result.diff === "") details = { changed: false, surgical };
	else details = { changed: true, created: false, diff: result.diff, patch: result.patch, ...changedLine(result), surgical };
	return { content: text(result.text), details };
}

interface PatchFile {
	path: string;
	action: "add" | "update" | "delete" | "move";
	movedTo?: string;
	diff?: string;
	patch?: string;
	firstChangedLine?: number | null;
}

/** `surgical_apply_patch`: OpenClaw's summary (added/modified/deleted, a move counted as modified at its new path), plus each file's diff. */
export function applyPatchResult(result: SurgicalResult): ToolResult {
	const files = (Array.isArray(result.files) ? result.files : []) as PatchFile[];
	const summary = { added: [] as string[], modified: [] as string[], deleted: [] as string[] };
	for (const file of files) {
		if (file.action === "add") summary.added.push(file.path);
		else if (file.action === "delete") summary.deleted.push(file.path);
		else summary.modified.push(file.action === "move" && file.movedTo ? file.movedTo : file.path);
	}
	return {
		content: text(result.text),
		details: {
			summary,
			patch: result.patch,
			files: files.map((f) => ({
				path: f.path,
				action: f.action,
				...(f.movedTo ? { movedTo: f.movedTo } : {}),
				diff: f.diff ?? "",
				...(typeof f.firstChangedLine === "number" ? { firstChangedLine: f.firstChangedLine } : {}),
			})),
			surgical: pick(result, ["format", "patchTruncated"]),
		},
	};
}
