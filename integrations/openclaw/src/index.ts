/**
 * openclaw-surgical: OpenClaw's file-mutating tools, run by surgical.
 *
 * Registers `surgical_edit`, `surgical_write`, `surgical_apply_patch` and `surgical_apply_snippet`
 * (see schemas.ts for why the names differ from OpenClaw's and what stays the same), offered to the
 * model directly, outside Tool Search. OpenClaw's own `edit`, `write` and `apply_patch` are turned
 * off by the user's `tools.deny` (docs/openclaw.md); the plugin warns at load when they are not.
 *
 * In a sandboxed run the plugin offers nothing: OpenClaw's file tools then go through the sandbox's
 * filesystem bridge (a container, a remote host), which a plugin cannot reach, and editing the
 * gateway's own files instead would bypass the sandbox.
 */
import type { OpenClawPluginApi, OpenClawPluginToolContext } from "openclaw/plugin-sdk/plugin-entry";
import { TOOL_NAMES } from "./schemas.js";
import { createTools, scopeOf } from "./tools.js";

/** The core tools the plugin replaces; `tools.deny` must name them (or `group:fs`). */
export const REPLACED_CORE_TOOLS = ["edit", "write", "apply_patch"] as const;

/** The replaced core tools a deny list leaves on. */
export function coreToolsLeftOn(deny: unknown): string[] {
	const denied = new Set((Array.isArray(deny) ? deny : []).map((entry) => String(entry).trim().toLowerCase()));
	if (denied.has("group:fs") || denied.has("*")) return [];
	return REPLACED_CORE_TOOLS.filter((name) => !denied.has(name));
}

const plugin = {
	id: "surgical",
	name: "surgical",
	description: "OpenClaw's edit, write and apply_patch run by surgical: every byte an edit does not target is written back identical, and the model sees the real diff.",
	register(api: OpenClawPluginApi): void {
		const left = coreToolsLeftOn((api.config as { tools?: { deny?: unknown } } | undefined)?.tools?.deny);
		if (left.length > 0) {
			api.logger.warn?.(
				`surgical: OpenClaw's own ${left.join(", ")} ${left.length === 1 ? "is" : "are"} still offered beside surgical's tools; ` +
					`turn ${left.length === 1 ? "it" : "them"} off with: openclaw config set tools.deny '["edit","write","apply_patch"]' --strict-json`,
			);
		}
		api.registerTool(
			(ctx: OpenClawPluginToolContext) => {
				if (ctx.sandboxed) return null;
				const scope = scopeOf(ctx);
				return scope ? createTools(scope) : null;
			},
			{ names: [...TOOL_NAMES] },
		);
	},
};

export default plugin;
