/**
 * OpenClaw's per-file mutation queue, joined.
 *
 * OpenClaw serializes its file tools per real file (`read` included: a read queued after an edit of
 * the same file sees the edit) through a process-wide map of promise tails kept on `globalThis`
 * under `Symbol.for("openclaw.fileMutationTails")` (agents/sessions/tools/file-mutation-queue.ts),
 * keyed by the file's identity path: the real path of its nearest existing ancestor, joined with the
 * segments that do not exist yet. The SDK exports no helper for it, so the plugin uses the same map
 * and key: its calls wait for OpenClaw's queued reads and writes of the same files and theirs wait
 * for the plugin's. (surgical also locks each file's directory itself, so two of its own calls on
 * one file never interleave even without the queue.)
 */
import { realpathSync } from "node:fs";
import path from "node:path";

const TAILS = Symbol.for("openclaw.fileMutationTails");

function tails(): Map<string, Promise<void>> {
	const store = globalThis as unknown as Record<symbol, unknown>;
	const existing = store[TAILS];
	if (existing instanceof Map) return existing as Map<string, Promise<void>>;
	const created = new Map<string, Promise<void>>();
	store[TAILS] = created;
	return created;
}

/** OpenClaw's queue key for `absolute` (boundary-path: resolveIdentityPathViaExistingAncestorSync). */
export function fileMutationQueueKey(absolute: string): string {
	const fallback = path.resolve(absolute);
	const missing: string[] = [];
	let cursor = fallback;
	for (;;) {
		try {
			return path.join(realpathSync.native(cursor), ...missing.toReversed());
		} catch {
			const parent = path.dirname(cursor);
			if (parent === cursor) return fallback;
			missing.push(path.basename(cursor));
			cursor = parent;
		}
	}
}

/**
 * Runs `fn` once every earlier queued operation on any of `files` has settled, and holds those files'
 * places in the queue until it settles. Files are keyed as OpenClaw keys them; keys are taken in
 * sorted order, so two calls on overlapping sets cannot wait on each other.
 */
export function withFileMutationQueue<T>(files: readonly string[], fn: () => Promise<T>): Promise<T> {
	const map = tails();
	const keys = [...new Set(files.map(fileMutationQueueKey))].toSorted();
	const current = Promise.all(keys.map((key) => (map.get(key) ?? Promise.resolve()).catch(() => undefined))).then(fn);
	const tail = current.then(
		() => undefined,
		() => undefined,
	);
	for (const key of keys) map.set(key, tail);
	const cleanup = () => {
		for (const key of keys) if (map.get(key) === tail) map.delete(key);
	};
	void tail.then(cleanup, cleanup);
	return current;
}
