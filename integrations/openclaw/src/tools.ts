/**
 * The four tools, built for one OpenClaw tool context (one run of one agent).
 *
 * Each call: the path resolved as OpenClaw resolves it, from the run's workspace; surgical given the
 * root OpenClaw's file policy allows (see paths.ts); OpenClaw's per-file queue joined for every file
 * the call may touch (see queue.ts); OpenClaw's invocation guard checked right before surgical
 * starts; the abort signal handed to surgical, which cancels a call that has not started writing
 * (the file is then untouched). No undo journal is kept: no `.surgical/` directory appears in the
 * user's project.
 */
import { createRequire } from "node:module";
import path from "node:path";
import type { AnyAgentTool, OpenClawPluginToolContext } from "openclaw/plugin-sdk/plugin-entry";
import { prepareApplyPatchArguments, prepareEditArguments, prepareSnippetArguments, prepareWriteArguments } from "./arguments.js";
import { withFileMutationQueue } from "./queue.js";
import { isInside, resolveOpenClawPath, surgicalTarget, type Target } from "./paths.js";
import { applyPatchResult, editResult, orThrow, writeResult, type ToolResult } from "./results.js";
import { DESCRIPTIONS, LABELS, PARAMETERS, type ToolName } from "./schemas.js";

type Surgical = typeof import("@surgical/node");
// The binding is vendored into dist/native/ by the build (scripts/vendor-native.mjs).
const surgical: Surgical = createRequire(import.meta.url)("./native/surgical.cjs");

type SurgicalResult = { ok: boolean; text: string } & Record<string, unknown>;
type Args = Record<string, unknown>;

/** What the tools need of OpenClaw's context, resolved once per run. */
export interface Scope {
	/** Where relative paths start: the run's workspace. */
	workspace: string;
	/** The directory file tools may not leave when `workspaceOnly` (a session's root, else the workspace). */
	containmentRoot: string;
	workspaceOnly: boolean;
	assertInvocationCurrent?: () => void;
}

export function scopeOf(ctx: OpenClawPluginToolContext): Scope | undefined {
	const workspace = ctx.workspaceDir ?? ctx.fsPolicy?.root;
	if (!workspace) return undefined;
	return {
		workspace: path.resolve(workspace),
		containmentRoot: path.resolve(ctx.fsPolicy?.root ?? workspace),
		workspaceOnly: ctx.fsPolicy?.workspaceOnly === true,
		assertInvocationCurrent: ctx.assertInvocationCurrent,
	};
}

/** A result object of `@surgical/node`, read by field name (the contract of `surgical call`). */
function loose(result: Promise<unknown>): Promise<SurgicalResult> {
	return result as Promise<SurgicalResult>;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error("Operation aborted");
}

/** The target of a one-file call, or an error in OpenClaw's words when the path argument is missing. */
function fileTarget(scope: Scope, args: Args, tool: string): { absolute: string; target: Target } {
	const given = args.path;
	if (typeof given !== "string" || !given.trim()) {
		throw new Error(`Missing required parameter: path (${tool}). Supply correct parameters before retrying.`);
	}
	const absolute = resolveOpenClawPath(given, scope.workspace);
	const root = scope.workspaceOnly ? scope.containmentRoot : scope.workspace;
	return { absolute, target: surgicalTarget(absolute, root, scope.workspaceOnly) };
}

/** surgical's `outside_root` under OpenClaw's workspace rule, said as OpenClaw's policy. */
function explainRefusal(result: SurgicalResult, scope: Scope): SurgicalResult {
	const code = (result.error as { code?: string } | undefined)?.code;
	if (result.ok || code !== "outside_root" || !scope.workspaceOnly) return result;
	return {
		...result,
		text: `${result.text}\nOpenClaw's file policy keeps file tools inside ${scope.containmentRoot} (tools.fs.workspaceOnly, or the session's permission mode).`,
	};
}

async function run(
	scope: Scope,
	files: readonly string[],
	signal: AbortSignal | undefined,
	call: () => Promise<SurgicalResult>,
): Promise<SurgicalResult> {
	return withFileMutationQueue(files, async () => {
		throwIfAborted(signal);
		scope.assertInvocationCurrent?.();
		return explainRefusal(await call(), scope);
	});
}

function tool(
	name: ToolName,
	prepareArguments: (input: unknown) => unknown,
	execute: (args: Args, signal: AbortSignal | undefined) => Promise<ToolResult>,
): AnyAgentTool {
	return {
		name,
		label: LABELS[name],
		description: DESCRIPTIONS[name],
		parameters: PARAMETERS[name] as never,
		// Offered to the model in the tool list itself, never only behind Tool Search.
		catalogMode: "direct-only",
		prepareArguments,
		execute: (_toolCallId: string, params: unknown, signal?: AbortSignal) => execute((params ?? {}) as Args, signal),
	} as AnyAgentTool;
}

/**
 * Where a patch's relative paths start and which directory it may not leave: the workspace, as
 * OpenClaw's apply_patch (workspace-contained by default, `tools.exec.applyPatch.workspaceOnly`);
 * under a session root that does not hold the workspace, that root.
 */
function patchRoot(scope: Scope): string {
	return !scope.workspaceOnly || isInside(scope.workspace, scope.containmentRoot) ? scope.workspace : scope.containmentRoot;
}

export function createTools(scope: Scope): AnyAgentTool[] {
	const options = (root: string) => ({ root, undo: false });
	return [
		tool("surgical_edit", prepareEditArguments, async (args, signal) => {
			const { absolute, target } = fileTarget(scope, args, "surgical_edit");
			const call = { path: target.path, edits: args.edits as never };
			const result = await run(scope, [absolute], signal, () => loose(surgical.edit(call, options(target.root), signal)));
			return editResult(orThrow(result));
		}),
		tool("surgical_write", prepareWriteArguments, async (args, signal) => {
			const { absolute, target } = fileTarget(scope, args, "surgical_write");
			if (typeof args.content !== "string") {
				throw new Error("Missing required parameter: content (surgical_write). Supply correct parameters before retrying.");
			}
			const call = { path: target.path, content: args.content };
			const result = await run(scope, [absolute], signal, () => loose(surgical.write(call, options(target.root), signal)));
			return writeResult(orThrow(result));
		}),
		tool("surgical_apply_patch", prepareApplyPatchArguments, async (args, signal) => {
			const input = args.input;
			if (typeof input !== "string" || !input.trim()) throw new Error("Provide a patch input.");
			// A patch's files are only known once it is parsed: a dry run names them (and refuses a
			// bad patch before any queue is joined); the real call then runs with all of them queued.
			const root = patchRoot(scope);
			const dry = explainRefusal(await loose(surgical.applyPatch({ patch: input, dryRun: true }, options(root), signal)), scope);
			orThrow(dry);
			const files = ((dry.files ?? []) as { path: string; movedTo?: string }[]).flatMap((f) =>
				[f.path, f.movedTo].filter((p): p is string => typeof p === "string").map((p) => path.resolve(root, p)),
			);
			const result = await run(scope, files, signal, () => loose(surgical.applyPatch({ patch: input }, options(root), signal)));
			return applyPatchResult(orThrow(result));
		}),
		tool("surgical_apply_snippet", prepareSnippetArguments, async (args, signal) => {
			const { absolute, target } = fileTarget(scope, args, "surgical_apply_snippet");
			const call = {
				path: target.path,
				snippet: args.snippet as string,
				...(typeof args.instructions === "string" ? { instructions: args.instructions } : {}),
			};
			const result = await run(scope, [absolute], signal, () => loose(surgical.applySnippet(call, options(target.root), signal)));
			return editResult(orThrow(result));
		}),
	];
}
