/**
 * The tools' names, descriptions and parameter schemas (plain JSON Schema, which OpenClaw's TypeBox
 * validation takes as it is).
 *
 * A plugin may not take a core tool's name (OpenClaw skips it even when the core tool is denied),
 * so the tools are `surgical_edit`, `surgical_write`, `surgical_apply_patch` and
 * `surgical_apply_snippet`. Their parameters are OpenClaw's own where OpenClaw has the tool (edit:
 * `path`, `edits[]` of `oldText`/`newText`; write: `path`, `content`; apply_patch: `input`, in
 * Codex's `*** Begin Patch` format) with the same descriptions, so a model used to OpenClaw's tools
 * calls them the same way; `replaceAll` is the one addition, because surgical's ambiguity errors
 * offer it.
 */

export const TOOL_NAMES = ["surgical_edit", "surgical_write", "surgical_apply_patch", "surgical_apply_snippet"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const LABELS: Record<ToolName, string> = {
	surgical_edit: "edit",
	surgical_write: "write",
	surgical_apply_patch: "apply_patch",
	surgical_apply_snippet: "apply_snippet",
};

export const DESCRIPTIONS: Record<ToolName, string> = {
	surgical_edit:
		"Exact single-file replacements (this session's edit tool). oldText unique/non-overlapping against original; " +
		"several disjoint changes: one call, several edits[]. Merge nearby changes; omit large unchanged spans. " +
		"Differences you cannot see (line endings, trailing spaces, special spaces, typographic quotes and dashes) are " +
		"tolerated when finding oldText, and the file keeps its own characters: every byte your edits do not target is " +
		"written back unchanged. All edits apply or none; an error says what to fix and leaves the file untouched. " +
		"The result shows where each edit landed and the real diff.",
	surgical_write:
		"Create a file or replace its whole content (this session's write tool); missing parent directories are created. " +
		"An existing file keeps its encoding (BOM, UTF-16) and line-ending style; the result shows the diff. " +
		"To change part of a file use surgical_edit.",
	surgical_apply_patch:
		"Patch one/many files (this session's apply_patch tool). Input requires *** Begin Patch and *** End Patch " +
		"(*** Add File: / *** Update File: / *** Delete File: / *** Move to:, @@ context lines, -/+/space lines). " +
		"Paths are relative to the workspace. All files change or none does; the result shows a diff per file.",
	surgical_apply_snippet:
		"Change one file by sending only the changed code: write the new version of each changed part, leave out " +
		"unchanged code behind one marker line such as `// ... existing code ...` (`# ...`, `<!-- ... -->`, or a bare `...`), " +
		"and begin and end each part with one to three lines copied unchanged from the file. Parts in file order. " +
		"Refused, never guessed, when the snippet fits more than one place. For a change inside one spot, surgical_edit is more precise.",
};

const PATH = { type: "string", description: "File path; relative/absolute." } as const;

export const PARAMETERS: Record<ToolName, Record<string, unknown>> = {
	surgical_edit: {
		type: "object",
		properties: {
			path: PATH,
			edits: {
				type: "array",
				description: "Targeted replacements against original file; no overlap/nesting. Merge nearby changes.",
				items: {
					type: "object",
					properties: {
						oldText: { type: "string", description: "Exact original text; unique and non-overlapping in this call." },
						newText: { type: "string", description: "Replacement text." },
						replaceAll: {
							type: "boolean",
							description: "Replace every occurrence of oldText instead of requiring exactly one. Default false.",
						},
					},
					required: ["oldText", "newText"],
				},
			},
		},
		required: ["path", "edits"],
	},
	surgical_write: {
		type: "object",
		properties: { path: PATH, content: { type: "string", description: "File content." } },
		required: ["path", "content"],
	},
	surgical_apply_patch: {
		type: "object",
		properties: { input: { type: "string", description: "Patch content using the *** Begin Patch/End Patch format." } },
		required: ["input"],
	},
	surgical_apply_snippet: {
		type: "object",
		properties: {
			path: PATH,
			snippet: {
				type: "string",
				description:
					"The changed code, in file order, each unchanged stretch left out behind one marker line such as " +
					"`// ... existing code ...`. Begin and end each changed part with one to three unchanged lines from the file.",
			},
			instructions: { type: "string", description: "One sentence on what the snippet changes (optional)." },
		},
		required: ["path", "snippet"],
	},
};
