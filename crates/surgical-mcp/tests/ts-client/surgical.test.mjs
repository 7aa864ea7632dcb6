// Drives the real `surgical mcp` server with the official TypeScript MCP SDK client
// (`@modelcontextprotocol/sdk`, pinned in package-lock.json) and the MCP Inspector's CLI mode.
//
// Every call goes through the SDK's own `client.callTool`, the call hosts make, after `listTools`
// (so the SDK validates each structuredContent against the tool's outputSchema). Files are compared
// byte for byte after each call; a failed call must leave them untouched.
//
// Run by crates/surgical-cli/tests/mcp_client.rs (and so by `cargo test` and .ci/run):
//   SURGICAL_BIN=target/debug/surgical node --test crates/surgical-mcp/tests/ts-client/
// Needs `npm ci` in this directory first.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const SDK_VERSION = require("@modelcontextprotocol/sdk/package.json").version;
const BIN = process.env.SURGICAL_BIN;
const PYTHON = process.env.SURGICAL_MCP_PYTHON || "python3";
const TOOLS = ["read", "edit", "write", "apply_patch", "apply_snippet", "undo", "text_editor"];

let tmp, root, client, serverLog;

const sha256 = (data) => createHash("sha256").update(data).digest("hex");
const put = (name, data) => {
  const p = path.join(root, name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
};
const bytesOf = (name) => fs.readFileSync(path.join(root, name));
const b = (s) => Buffer.from(s, "latin1");
const u8 = (s) => Buffer.from(s, "utf8");

/** Calls a tool through the SDK; checks the text and the structured result agree. */
async function call(name, args, options) {
  const result = await client.callTool({ name, arguments: args }, CallToolResultSchema, options);
  assert.equal(result.content.length, 1, JSON.stringify(result));
  assert.equal(result.content[0].type, "text");
  const text = result.content[0].text;
  assert.equal(typeof result.structuredContent, "object", JSON.stringify(result));
  assert.equal(result.structuredContent.text, text);
  return { text, structured: result.structuredContent, isError: result.isError === true };
}

async function ok(name, args) {
  const r = await call(name, args);
  assert.equal(r.isError, false, r.text);
  assert.equal(r.structured.ok, true);
  return r;
}

/** The call is a tool error with `code` (isError, code and guidance in the text); `untouched` is unchanged. */
async function fails(name, args, code, untouched) {
  const before = untouched ? bytesOf(untouched) : null;
  const r = await call(name, args);
  assert.equal(r.isError, true, `expected isError for ${name} ${JSON.stringify(args)}: ${r.text}`);
  assert.equal(r.structured.ok, false);
  assert.equal(r.structured.error.code, code, r.text);
  assert.ok(r.text.startsWith(`Error (${code}): `), r.text);
  assert.ok(r.text.length > `Error (${code}): `.length + 20, `guidance expected: ${r.text}`);
  if (untouched) assert.deepEqual(bytesOf(untouched), before, `${untouched} changed on a failed ${name}`);
  return r.structured.error;
}

before(async () => {
  assert.ok(BIN, "set SURGICAL_BIN to the surgical binary");
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "surgical-ts-"));
  root = path.join(tmp, "workspace");
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(tmp, "outside.txt"), "outside the root\n");
  const transport = new StdioClientTransport({ command: BIN, args: ["mcp", "--root", root], cwd: tmp, stderr: "pipe" });
  serverLog = "";
  transport.stderr.on("data", (d) => (serverLog += d.toString()));
  client = new Client({ name: "surgical-ts-test", version: "1.0.0" });
  await client.connect(transport);
  console.log(`TypeScript SDK @modelcontextprotocol/sdk ${SDK_VERSION}`);
});

after(async () => {
  await client?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test("initialize: server, capabilities, instructions with the absolute root and every tool", () => {
  assert.equal(client.getServerVersion().name, "surgical");
  assert.ok(client.getServerCapabilities().tools);
  const instructions = client.getInstructions();
  assert.ok(instructions.includes(fs.realpathSync(root)), instructions);
  for (const tool of TOOLS) assert.ok(instructions.includes(tool), tool);
});

test("tools/list: every tool, object input and output schemas covering both result shapes", async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), TOOLS);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object");
    assert.equal(tool.outputSchema.type, "object");
    assert.deepEqual(tool.outputSchema.required, ["ok", "text"]);
    assert.equal(tool.outputSchema.oneOf[0].properties.ok.const, true);
    assert.equal(tool.outputSchema.oneOf[1].properties.ok.const, false);
    assert.equal(tool.annotations.openWorldHint, false);
  }
  assert.deepEqual(tools[0].inputSchema.properties.startLine.minimum, 1);
});

test("read: CRLF + BOM, paging", async () => {
  const data = b("\xef\xbb\xbffn main() {\r\n    let x = 1;   \r\n}\r\n");
  put("src/main.rs", data);
  const { text, structured: r } = await ok("read", { path: "src/main.rs" });
  assert.ok(text.includes("1\tfn main() {\n2\t    let x = 1;   \n3\t}\n"), text);
  assert.equal(r.hash, sha256(data));
  assert.deepEqual([r.encoding, r.bom, r.lineEnding], ["utf-8-bom", true, "crlf"]);
  assert.deepEqual(bytesOf("src/main.rs"), data);
  put("long.txt", Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join(""));
  const { structured: page } = await ok("read", { path: "long.txt", startLine: 10, limit: 5 });
  assert.deepEqual([page.startLine, page.endLine, page.nextLine], [10, 14, 15]);
});

test("read errors", async () => {
  put("bin.dat", b("\x7fELF\x00\x01\x02\x00"));
  await fails("read", { path: "bin.dat" }, "binary_file", "bin.dat");
  await fails("read", { path: "missing.txt" }, "file_not_found");
  fs.mkdirSync(path.join(root, "adir"), { recursive: true });
  await fails("read", { path: "adir" }, "not_a_file");
  await fails("read", { path: "../outside.txt" }, "outside_root");
  await fails("read", {}, "invalid_input");
  await fails("read", { path: "long.txt", startLine: 0 }, "invalid_input", "long.txt");
  await fails("read", { path: "long.txt", limit: 0 }, "invalid_input", "long.txt");
  await fails("read", { path: "long.txt", startLine: 31 }, "invalid_input", "long.txt");
});

test("edit: exact on a CRLF + BOM file, fuzzy, dry run", async () => {
  const data = b('\xef\xbb\xbffn main() {\r\n    let greeting = "hello";\r\n}\r\n');
  put("exact.rs", data);
  const { structured: read } = await ok("read", { path: "exact.rs" });
  const { text, structured: r } = await ok("edit", {
    path: "exact.rs",
    edits: [{ oldText: '    let greeting = "hello";', newText: '    let greeting = "hi";' }],
    expectedHash: read.hash,
  });
  const expected = b('\xef\xbb\xbffn main() {\r\n    let greeting = "hi";\r\n}\r\n');
  assert.deepEqual(bytesOf("exact.rs"), expected);
  assert.equal(r.hashAfter, sha256(expected));
  assert.equal(r.edits[0].strategy, "exact");
  assert.ok(text.includes("Edited exact.rs"), text);

  const fuzzy = u8("const label = \u201cred\u201d;\nlet\u00a0x = 1;   \nreturn x;\n");
  put("fuzzy.ts", fuzzy);
  const { structured: f } = await ok("edit", { path: "fuzzy.ts", oldText: "let x = 1;\nreturn x;", newText: "let x = 2;\nreturn x;" });
  assert.deepEqual(bytesOf("fuzzy.ts"), u8("const label = \u201cred\u201d;\nlet\u00a0x = 2;   \nreturn x;\n"));
  assert.equal(f.edits[0].strategy, "unicode");

  const before = bytesOf("fuzzy.ts");
  const { structured: dry } = await ok("edit", { path: "fuzzy.ts", oldText: "return x;", newText: "return 0;", dryRun: true });
  assert.equal(dry.dryRun, true);
  assert.deepEqual(bytesOf("fuzzy.ts"), before);
});

test("edit errors: every code, file untouched", async () => {
  put("dup.txt", "x = 1\r\ny = 2\r\nx = 1\r\n");
  const err = await fails("edit", { path: "dup.txt", oldText: "x = 1", newText: "x = 3" }, "ambiguous", "dup.txt");
  assert.deepEqual(err.lines, [1, 3]);
  await fails("edit", { path: "dup.txt", oldText: "z = 9", newText: "z = 8" }, "not_found", "dup.txt");
  await fails("edit", { path: "dup.txt", oldText: "y = 2", newText: "y = 2" }, "no_change", "dup.txt");
  await fails("edit", { path: "dup.txt", oldText: "", newText: "a" }, "empty_old_text", "dup.txt");
  await fails(
    "edit",
    { path: "dup.txt", edits: [{ oldText: "y = 2\nx", newText: "a" }, { oldText: "2\nx = 1", newText: "b" }] },
    "overlap",
    "dup.txt",
  );
  await fails("edit", { path: "dup.txt", oldText: "y = 2", newText: "y = 5", expectedHash: "0".repeat(64) }, "stale", "dup.txt");
  await fails("edit", { path: "dup.txt" }, "invalid_input", "dup.txt");
  await fails("edit", { path: "dup.txt", oldText: "y = 2", newText: "y = 5", maxStrategy: "loose" }, "invalid_input", "dup.txt");
  await fails("edit", { path: "nope.txt", oldText: "a", newText: "b" }, "file_not_found");
  await fails("edit", { path: "../outside.txt", oldText: "outside", newText: "inside" }, "outside_root");
  assert.equal(fs.readFileSync(path.join(tmp, "outside.txt"), "utf8"), "outside the root\n");
  put("bin2.dat", b("ab\x00cd"));
  await fails("edit", { path: "bin2.dat", oldText: "ab", newText: "xy" }, "binary_file", "bin2.dat");
});

test("write: new file, overwrite keeping BOM and CRLF, errors", async () => {
  const { structured: created } = await ok("write", { path: "new/deep/file.py", content: "def f():\n    return 1\n" });
  assert.equal(created.created, true);
  assert.deepEqual(bytesOf("new/deep/file.py"), u8("def f():\n    return 1\n"));
  put("keep.txt", b("\xef\xbb\xbfone\r\ntwo\r\n"));
  const { structured: read } = await ok("read", { path: "keep.txt" });
  await ok("write", { path: "keep.txt", content: "one\n2\nthree\n", expectedHash: read.hash });
  assert.deepEqual(bytesOf("keep.txt"), b("\xef\xbb\xbfone\r\n2\r\nthree\r\n"));
  await fails("write", { path: "keep.txt", content: "x", expectedHash: "f".repeat(64) }, "stale", "keep.txt");
  await fails("write", { path: "keep.txt", content: "x", lineEnding: "native" }, "invalid_input", "keep.txt");
  await fails("write", { path: "keep.txt", content: "x", lineEnding: "CRLF" }, "invalid_input", "keep.txt");
  await fails("write", { path: "keep.txt" }, "invalid_input", "keep.txt");
  await fails("write", { path: "../escape.txt", content: "x" }, "outside_root");
  assert.ok(!fs.existsSync(path.join(tmp, "escape.txt")));
  await fails("write", { path: "bin.dat", content: "text" }, "binary_file", "bin.dat");
  await fails("write", { path: "adir", content: "x" }, "not_a_file");
});

test("undo: puts back the bytes; nothing left to undo", async () => {
  put("u.txt", b("\xef\xbb\xbfa\r\nb\r\n"));
  await ok("edit", { path: "u.txt", oldText: "b", newText: "c" });
  assert.deepEqual(bytesOf("u.txt"), b("\xef\xbb\xbfa\r\nc\r\n"));
  await ok("undo", { path: "u.txt" });
  assert.deepEqual(bytesOf("u.txt"), b("\xef\xbb\xbfa\r\nb\r\n"));
  await fails("undo", { path: "u.txt" }, "no_undo", "u.txt");
  await fails("undo", {}, "invalid_input");
});

test("apply_patch: two files all or nothing", async () => {
  const a = b("def greet():\r\n    return \xe2\x80\x9chello\xe2\x80\x9d   \r\n");
  put("p/a.py", a);
  put("p/b.py", "x = 1\ny = 2\n");
  const patch =
    '*** Begin Patch\n*** Update File: p/a.py\n@@ def greet():\n-    return "hello"\n+    return "hello, world"\n' +
    "*** Update File: p/b.py\n@@\n x = 1\n-y = 2\n+y = 3\n*** End Patch\n";
  const { structured: r } = await ok("apply_patch", { patch });
  assert.deepEqual(r.files.map((f) => f.path), ["p/a.py", "p/b.py"]);
  assert.deepEqual(bytesOf("p/a.py"), b("def greet():\r\n    return \xe2\x80\x9chello, world\xe2\x80\x9d   \r\n"));
  assert.deepEqual(bytesOf("p/b.py"), u8("x = 1\ny = 3\n"));
  const bad = patch.replace("y = 2", "y = 99").replace("hello, world", "bye");
  const beforeA = bytesOf("p/a.py");
  await fails("apply_patch", { patch: bad }, "not_found", "p/b.py");
  assert.deepEqual(bytesOf("p/a.py"), beforeA);
  await fails("apply_patch", { patch: "x", format: "git" }, "invalid_input");
  await fails("apply_patch", {}, "invalid_input");
});

test("text_editor: Anthropic's commands on a CRLF + BOM file, results validated by the SDK", async () => {
  const data = b("\xef\xbb\xbfdef f():\r\n    return \xe2\x80\x9chi\xe2\x80\x9d   \r\n");
  put("te/a.py", data);
  const view = await ok("text_editor", { command: "view", path: "te/a.py" });
  assert.equal(view.structured.command, "view");
  assert.ok(view.text.includes("     1\tdef f():\n"), view.text);
  const replaced = await ok("text_editor", { command: "str_replace", path: "te/a.py", old_str: 'return "hi"', new_str: 'return "hello"' });
  assert.ok(replaced.text.startsWith("The file te/a.py has been edited."), replaced.text);
  assert.deepEqual(bytesOf("te/a.py"), b("\xef\xbb\xbfdef f():\r\n    return \xe2\x80\x9chello\xe2\x80\x9d   \r\n"));
  await ok("text_editor", { command: "insert", path: "te/a.py", insert_line: 0, insert_text: "# top" });
  assert.deepEqual(bytesOf("te/a.py").subarray(0, 10), b("\xef\xbb\xbf# top\r\n"));
  const listing = await ok("text_editor", { command: "view", path: "te" });
  assert.deepEqual(listing.structured.entries, ["a.py"]);
  await ok("text_editor", { command: "create", path: "te/new.txt", file_text: "x\n" });
  await ok("text_editor", { command: "undo_edit", path: "te/new.txt" });
  assert.ok(!fs.existsSync(path.join(root, "te/new.txt")));
  await fails("text_editor", { command: "create", path: "te/a.py", file_text: "x" }, "invalid_input", "te/a.py");
  await fails("text_editor", { command: "view", path: "te/a.py", view_range: [9, 10] }, "invalid_input");
});

test("protocol errors: unknown tool and arguments that are not an object are -32602", async () => {
  await assert.rejects(client.callTool({ name: "delete_everything", arguments: { path: "x" } }), (e) => {
    assert.ok(e instanceof McpError, String(e));
    assert.equal(e.code, -32602);
    assert.match(e.message, /unknown tool/);
    return true;
  });
  for (const args of [[1, 2], "path=a.txt", 7]) {
    await assert.rejects(
      client.request({ method: "tools/call", params: { name: "read", arguments: args } }, CallToolResultSchema),
      (e) => {
        assert.equal(e.code, -32602, String(e));
        assert.match(e.message, /arguments a JSON object/);
        return true;
      },
    );
  }
});

test("progress: notifications from the SDK's onprogress, in order", async () => {
  // The SDK hands notifications to onprogress a microtask late and forgets a call's progress
  // token as soon as its response is read, so notifications that arrive in the same read as the
  // response are dropped on the client's side: only their order is checked here. The whole
  // sequence, start to end, is checked on the wire (raw stdio test below); progress while a call
  // waits and runs is what the cancellation test relies on.
  const seen = [];
  put("prog.txt", "a\nb\n");
  const r = await call("edit", { path: "prog.txt", oldText: "b", newText: "c" }, { onprogress: (p) => seen.push(p) });
  assert.equal(r.isError, false, r.text);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, JSON.stringify(seen));
  if (seen.length > 0) assert.match(seen[0].message, /^edit prog\.txt: /);
  assert.deepEqual(bytesOf("prog.txt"), u8("a\nc\n"));
});

// A helper process holding surgical's own lock on the workspace directory `dir` (the lock that
// processes editing one directory take), until its stdin is closed.
async function holdDirectoryLock(dir) {
  const holder = spawn(
    PYTHON,
    ["-c", "import fcntl,os,sys\nfd=os.open(sys.argv[1],os.O_RDONLY)\nfcntl.flock(fd,fcntl.LOCK_EX)\nprint('locked',flush=True)\nsys.stdin.read()", path.join(root, dir)],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  await new Promise((resolve, reject) => {
    holder.stdout.once("data", (d) => (String(d).includes("locked") ? resolve() : reject(new Error(String(d)))));
    holder.once("error", reject);
  });
  return holder;
}

test("progress: a call that runs for more than a second says it still runs", async () => {
  // The edit waits inside the tool for the directory lock, which a helper process holds until a
  // heartbeat has been seen: however loaded the machine, one comes.
  put("slow/s.txt", "s = 1\n");
  const holder = await holdDirectoryLock("slow");
  let beat;
  const beats = new Promise((resolve) => (beat = resolve));
  const seen = [];
  const s = call("edit", { path: "slow/s.txt", oldText: "s = 1", newText: "s = 2" }, {
    onprogress: (p) => {
      seen.push(p);
      if (/^edit slow\/s\.txt: still running \(\d+\.\d s\)$/.test(p.message)) beat();
    },
  });
  await beats;
  holder.stdin.end();
  const r = await s;
  assert.equal(r.isError, false, r.text);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, JSON.stringify(seen));
  assert.deepEqual(bytesOf("slow/s.txt"), u8("s = 2\n"));
});

test("cancellation: a call cancelled while it waits for its turn changes nothing", async () => {
  // A holds the turn: its edit waits for the directory lock, which a helper process holds
  // (surgical's own lock between processes editing one directory).
  put("locked/a.txt", "a = 1\n");
  put("b.txt", "b = 1\r\n");
  const holder = await holdDirectoryLock("locked");
  let aRunning;
  const aRuns = new Promise((resolve) => (aRunning = resolve));
  const a = call("edit", { path: "locked/a.txt", oldText: "a = 1", newText: "a = 2" }, {
    onprogress: (p) => p.message.endsWith(": running") && aRunning(),
  });
  await aRuns;
  // B waits for A's turn; the client gives up on it.
  const abort = new AbortController();
  let bWaiting;
  const bWaits = new Promise((resolve) => (bWaiting = resolve));
  const bBefore = bytesOf("b.txt");
  const bCall = call("edit", { path: "b.txt", oldText: "b = 1", newText: "b = 2" }, {
    signal: abort.signal,
    onprogress: (p) => p.message.includes("waiting for earlier calls") && bWaiting(),
  });
  await bWaits;
  abort.abort("the user pressed stop");
  await assert.rejects(bCall);
  // The server reads messages in order: once the ping is answered, it has seen the cancellation.
  await client.ping();
  holder.stdin.end();
  const ra = await a;
  assert.equal(ra.isError, false, ra.text);
  assert.deepEqual(bytesOf("locked/a.txt"), u8("a = 2\n"));
  assert.deepEqual(bytesOf("b.txt"), bBefore);
  // The server is still serving, and B was never run.
  const { structured } = await ok("read", { path: "b.txt" });
  assert.equal(structured.hash, sha256(bBefore));
});

test("cancellation: a call cancelled while it runs, before it writes, changes nothing", async () => {
  // C is running (it has its turn and waits inside the tool for the directory lock, which a helper
  // process holds) when the client gives up on it; once the lock is free, C reads and matches, and
  // stops at its last check before writing.
  put("held/c.txt", "c = 1\r\n");
  const cBefore = bytesOf("held/c.txt");
  const holder = await holdDirectoryLock("held");
  const abort = new AbortController();
  let cRunning;
  const cRuns = new Promise((resolve) => (cRunning = resolve));
  const cCall = call("edit", { path: "held/c.txt", oldText: "c = 1", newText: "c = 2" }, {
    signal: abort.signal,
    onprogress: (p) => p.message.endsWith(": running") && cRunning(),
  });
  await cRuns;
  abort.abort("the user pressed stop");
  await assert.rejects(cCall);
  // The server reads messages in order: once the ping is answered, it has seen the cancellation.
  await client.ping();
  holder.stdin.end();
  // Calls that may write run one at a time: when this one returns, C has finished.
  put("after.txt", "d = 1\n");
  const rd = await call("edit", { path: "after.txt", oldText: "d = 1", newText: "d = 2" });
  assert.equal(rd.isError, false, rd.text);
  assert.deepEqual(bytesOf("held/c.txt"), cBefore);
});

test("raw stdio: parse error (-32700), invalid params (-32602), progress on the wire", () => {
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
  const input =
    [
      JSON.stringify(init),
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      "this is not json",
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read", arguments: { path: "long.txt", startLine: 0 } } }),
      JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "read", arguments: { path: "long.txt" }, _meta: { progressToken: "p5" } } }),
      // A request whose params are not an object, and one rmcp cannot read (answered -32600,
      // without an id): stdin's end still stops the server once everything is answered.
      '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":5}',
      '{"jsonrpc":"1.0","id":3,"method":"ping"}',
    ].join("\n") + "\n";
  // The timeout only stops a server that would never exit; the test does not depend on it.
  const out = execFileSync(BIN, ["mcp", "--root", root], { input, stdio: ["pipe", "pipe", "ignore"], timeout: 120000 }).toString();
  const messages = out.trim().split("\n").map((l) => JSON.parse(l));
  // params that are not an object: invalid params, with the request's id.
  assert.equal(messages.find((m) => m.id === 9)?.error?.code, -32602, out);
  assert.equal(messages.filter((m) => m.error?.code === -32600).length, 1, out);
  const parse = messages.find((m) => m.error && m.id === null);
  assert.equal(parse?.error.code, -32700, out);
  // Progress for the call with a token: started, running, done (total = progress), then the result;
  // a call running past a second also says it still runs (a heartbeat), so those are set aside.
  const all = messages.filter((m) => m.method === "notifications/progress");
  assert.ok(all.every((m) => m.params.progressToken === "p5"), out);
  assert.deepEqual(all.map((m) => m.params.progress), all.map((_, i) => i + 1));
  const progress = all.filter((m) => !/: still running \(\d+\.\d s\)$/.test(m.params.message));
  assert.deepEqual(progress.map((m) => m.params.message), ["read long.txt: started", "read long.txt: running", "read long.txt: done"]);
  assert.equal(progress[2].params.total, all.length);
  assert.equal(all[all.length - 1], progress[2]);
  const result5 = messages.findIndex((m) => m.id === 5);
  assert.ok(result5 > messages.indexOf(progress[2]), out);
  assert.equal(messages[result5].result.isError, false, out);
  const read = messages.find((m) => m.id === 2);
  assert.equal(read.result.isError, true, out);
  assert.equal(read.result.structuredContent.error.code, "invalid_input");
});

test("MCP Inspector CLI (--cli): tools/list and tool errors as results", () => {
  const cliDir = path.join(path.dirname(require.resolve("@modelcontextprotocol/inspector-cli/package.json")), "build");
  const version = require("@modelcontextprotocol/inspector-cli/package.json").version;
  console.log(`MCP Inspector CLI @modelcontextprotocol/inspector-cli ${version}`);
  const inspector = (...args) =>
    JSON.parse(
      execFileSync(process.execPath, ["cli.js", "--cli", BIN, "mcp", "--root", root, ...args], {
        // The CLI finds its own package.json relative to the working directory.
        cwd: cliDir,
        stdio: ["ignore", "pipe", "pipe"],
      }).toString(),
    );
  const listed = inspector("--method", "tools/list");
  assert.deepEqual(listed.tools.map((t) => t.name), TOOLS);
  put("insp.txt", "x = 1\r\nx = 1\r\n");
  const before = bytesOf("insp.txt");
  const amb = inspector("--method", "tools/call", "--tool-name", "edit", "--tool-arg", "path=insp.txt", "oldText=x = 1", "newText=x = 2");
  assert.equal(amb.isError, true, JSON.stringify(amb));
  assert.equal(amb.structuredContent.error.code, "ambiguous");
  assert.deepEqual(bytesOf("insp.txt"), before);
  const read = inspector("--method", "tools/call", "--tool-name", "read", "--tool-arg", "path=insp.txt");
  assert.equal(read.isError, false, JSON.stringify(read));
  assert.equal(read.structuredContent.totalLines, 2);
});

test("server logs one line per call on stderr (read once the server has exited)", async () => {
  // close() ends stdin and waits for the process to close: its stderr has been read to the end.
  await client.close();
  client = undefined;
  assert.match(serverLog, /surgical mcp: edit exact\.rs: ok/);
  assert.match(serverLog, /surgical mcp: edit dup\.txt: ambiguous/);
  assert.match(serverLog, /surgical mcp: edit b\.txt: cancelled/);
  assert.doesNotMatch(serverLog, /surgical mcp: edit b\.txt: ok/);
  assert.match(serverLog, /surgical mcp: edit locked\/a\.txt: ok/);
  // The call cancelled while it ran stopped before writing.
  assert.match(serverLog, /surgical mcp: edit held\/c\.txt: cancelled/);
  assert.doesNotMatch(serverLog, /surgical mcp: edit held\/c\.txt: ok/);
});
