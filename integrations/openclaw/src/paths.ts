/**
 * File paths as OpenClaw's own file tools read them, and where surgical works for a path under
 * OpenClaw's workspace policy.
 *
 * OpenClaw (2026.9) resolves a model's path for `edit`/`write` like this: a trailing
 * `</arg_value>>` left by XML tool-call formats is cut, a hallucinated Office extension
 * (`.docodex`) is repaired, a leading `@` (a file reference) is dropped unless a file literally
 * named `@...` exists, `file://` URLs become paths, `~` is the home directory, and a relative path
 * is taken from the workspace. Unlike pi it does not rewrite special spaces in paths.
 */
import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const XML_ARG_VALUE_SUFFIX = /<\/arg_value>>+$/;
const HALLUCINATED_OFFICE_EXTENSION = /\.(doc|ppt|xls)(?:odex|codex|xodex|xcodex)$/i;
const OFFICE_EXTENSION: Record<string, string> = { doc: ".docx", ppt: ".pptx", xls: ".xlsx" };

/** OpenClaw's repairs of a path argument (agent-tools.params: normalizeFileToolPathParam). */
export function repairPathArgument(given: string): string {
	const cut = given.includes("</arg_value>") ? given.replace(XML_ARG_VALUE_SUFFIX, "") : given;
	return cut.replace(HALLUCINATED_OFFICE_EXTENSION, (match, family: string) => OFFICE_EXTENSION[family.toLowerCase()] ?? match);
}

/**
 * A leading `@` names a file reference (`@src/a.ts`); it is kept only when `./@...` (or its
 * top-level directory) exists, as OpenClaw's path-policy does, so a real file named `@x` stays
 * reachable.
 */
function keepLiteralAt(given: string, base: string): string {
	if (!given.startsWith("@")) return given;
	const stripped = given.slice(1);
	if (
		!stripped ||
		stripped === "~" ||
		stripped.startsWith("~/") ||
		/^file:\/\//i.test(stripped) ||
		path.posix.isAbsolute(stripped) ||
		path.win32.isAbsolute(stripped)
	) {
		return given;
	}
	let topLevel = given;
	for (;;) {
		const parent = path.dirname(topLevel);
		if (parent === "." || parent === topLevel) break;
		topLevel = parent;
	}
	const literal = `./${given}`;
	const ancestor = topLevel === given ? undefined : path.resolve(base, `./${topLevel}`);
	return existsSync(path.resolve(base, literal)) || (ancestor !== undefined && existsSync(ancestor)) ? literal : given;
}

/** The absolute path OpenClaw's host `edit`/`write` would touch for `given`, relative paths taken from `base`. */
export function resolveOpenClawPath(given: string, base: string): string {
	let p = keepLiteralAt(repairPathArgument(given), base);
	if (p.startsWith("@")) {
		p = p.slice(1);
		if (p.startsWith("@")) p = `./${p}`;
	}
	if (p.startsWith("file://")) {
		try {
			p = fileURLToPath(p);
		} catch {
			// Not a local file URL: left as written, as OpenClaw leaves it.
		}
	}
	if (p === "~") p = homedir();
	else if (p.startsWith("~/")) p = path.join(homedir(), p.slice(2));
	return path.isAbsolute(p) ? path.resolve(p) : path.resolve(base, p);
}

/** True when `absolute` is `root` itself or lies below it (lexically). */
export function isInside(absolute: string, root: string): boolean {
	const relative = path.relative(root, absolute);
	return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}

/** The real path of `absolute` when it exists (symlinks followed), else `absolute`. */
function realOrSelf(absolute: string): string {
	try {
		return realpathSync.native(absolute);
	} catch {
		return absolute;
	}
}

/** Where surgical works for one file: its root, and the path to give it inside that root. */
export interface Target {
	root: string;
	path: string;
}

/**
 * The surgical root and path for `absolute` under OpenClaw's file policy.
 *
 * With `workspaceOnly` (OpenClaw's `tools.fs.workspaceOnly`, on in `agent exec` and in the guarded
 * and workspace permission modes) surgical works in the workspace root and refuses anything that
 * leads out of it, symlinks included (`outside_root`), as OpenClaw's guard does. Without it
 * OpenClaw edits any file the process may write: a file inside the workspace keeps its
 * workspace-relative name, one outside it (or a symlink leading out) is edited from its own
 * directory, whose symlinks are then followed first.
 */
export function surgicalTarget(absolute: string, workspace: string, workspaceOnly: boolean): Target {
	const relativeTo = (root: string, file: string) => path.relative(root, file).split(path.sep).join("/") || ".";
	if (workspaceOnly) {
		return { root: workspace, path: isInside(absolute, workspace) ? relativeTo(workspace, absolute) : absolute };
	}
	const real = realOrSelf(absolute);
	const realWorkspace = realOrSelf(workspace);
	if (isInside(real, realWorkspace) && real !== realWorkspace) return { root: realWorkspace, path: relativeTo(realWorkspace, real) };
	// A new file may lie in directories that do not exist yet (write creates them, as OpenClaw's
	// does): surgical then works from the nearest directory that exists.
	let root = path.dirname(real);
	while (!existsSync(root) && path.dirname(root) !== root) root = path.dirname(root);
	return { root, path: relativeTo(root, real) };
}
