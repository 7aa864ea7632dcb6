/* The call objects and result objects of `surgical call` (see the repository's docs/tools.md, "The
 * machine interface"); fields are added, never renamed. */

/** One replacement: `oldText` copied from the file, `newText` what it becomes. */
export interface Edit {
  oldText: string
  newText: string
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean
}

export interface EditCall {
  path: string
  edits?: Edit[]
  /** A single edit given at the top level instead of `edits`. */
  oldText?: string
  newText?: string
  replaceAll?: boolean
  dryRun?: boolean
  /** The loosest matching tier allowed. */
  maxStrategy?: 'exact' | 'trailing_whitespace' | 'unicode' | 'indentation' | 'whitespace_runs' | 'escapes' | 'similar'
  /** The file's SHA-256 (hex) as last seen; the edit fails with `stale` if it changed. */
  expectedHash?: string
  /** What to do if the call would introduce syntax errors: write and report them (default), refuse (`syntax_error`, nothing written), or not check. */
  onSyntaxError?: 'report' | 'refuse' | 'off'
}

export interface PatchCall {
  /** An apply_patch envelope, SEARCH/REPLACE blocks, or a unified diff. */
  patch: string
  /** The file for SEARCH/REPLACE blocks or hunks that name none. */
  path?: string
  format?: 'apply_patch' | 'search_replace' | 'unified_diff' | 'auto'
  dryRun?: boolean
  maxStrategy?: EditCall['maxStrategy']
  onSyntaxError?: EditCall['onSyntaxError']
}

export interface ReadCall {
  path: string
  startLine?: number
  endLine?: number
  limit?: number
}

export interface WriteCall {
  path: string
  content: string
  onSyntaxError?: EditCall['onSyntaxError']
}

/** A syntax error a call introduced (the file parsed before and after in its language). */
export interface SyntaxError {
  line: number
  column: number
  endLine: number
  endColumn: number
  /** In plain words, e.g. "`{` opened here is never closed (its `}` probably belongs before line 57)". */
  message: string
}

/** Where one edit landed. */
export interface EditReport {
  index: number
  strategy: string
  startLine: number
  endLine: number
  oldStartLine: number
  oldEndLine: number
  occurrences: number
  normalized?: string[]
  /** Present (true) when a coarser alignment was used past the work budget. */
  coarseAlignment?: boolean
}

export interface EditResult {
  ok: true
  /** What the model reads. */
  text: string
  path: string
  /** Numbered diff for display. */
  diff: string
  /** Unified diff of the real bytes. */
  patch: string
  firstChangedLine: number | null
  edits: EditReport[]
  encoding: 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be'
  hashBefore: string
  hashAfter: string
  dryRun: boolean
  undoAvailable: boolean
  /** True when `patch` was cut to fit a model's context; it then no longer applies with `git apply`. */
  patchTruncated: boolean
  /** The syntax errors the call introduced (empty when none); absent when the file was not checked. */
  syntaxErrors?: SyntaxError[]
  /** `checked: LANGUAGE` or `skipped: WHY`; absent when checks are off. */
  syntaxCheck?: string
}

export interface SnippetCall {
  path: string
  /** The changed code, unchanged code left out behind marker lines (`// ... existing code ...`). */
  snippet: string
  /** What the snippet changes: recorded in the result, not needed. */
  instructions?: string
  dryRun?: boolean
  expectedHash?: string
  onSyntaxError?: EditCall['onSyntaxError']
}

export interface SnippetSegment {
  /** One-based lines of the segment in the file after the call. */
  startLine: number
  endLine: number
  /** File lines the segment replaced without showing them as they are (a rewritten line counts). */
  deletedLines: number
  oldStartLine: number
  oldEndLine: number
  snippetStartLine: number
  snippetEndLine: number
  changed: boolean
}

export interface SnippetResult extends EditResult {
  segments: SnippetSegment[]
  /** File lines kept before the first segment, the snippet having no marker there. */
  keptBefore?: [number, number]
  keptAfter?: [number, number]
  indentationIgnored?: boolean
  instructions?: string
}

export interface ErrorResult {
  ok: false
  /** What the model reads: `Error (code): message`. */
  text: string
  error: {
    code: string
    message: string
    editIndex?: number
    hunkIndex?: number
    patchLine?: number
    path?: string
    lines?: number[]
    /** For `syntax_error`: the errors the call would have introduced into `path`. */
    syntaxErrors?: SyntaxError[]
    /** For `apply_patch`'s `syntax_error`: each file the patch would have broken. */
    files?: { path: string; syntaxErrors: SyntaxError[] }[]
  }
}

/** Anthropic's text-editor input (text_editor_20250728 and text_editor_20250124), as Claude sends it. */
export interface TextEditorCall {
  command: 'view' | 'create' | 'str_replace' | 'insert' | 'undo_edit'
  path: string
  /** `view`: first and last line, 1-based; -1 as the last means the end of the file. */
  view_range?: [number, number]
  /** `view`: show at most this many characters of the file. */
  max_characters?: number
  /** `create`: the new file's content. */
  file_text?: string
  /** `str_replace`: the text to replace. */
  old_str?: string
  /** `str_replace`: what replaces it; `insert` in text_editor_20250124: the text to insert. */
  new_str?: string
  /** `insert`: the line after which the text goes (0: the start). */
  insert_line?: number
  /** `insert` in text_editor_20250728: the text to insert. */
  insert_text?: string
}

/** A successful text_editor call: the fields of the tool that did the work (read's for a file, edit's
 * for str_replace/insert/undo_edit, write's for create, or a directory listing's), with `command`. */
export type TextEditorResult = { ok: true; text: string; command: TextEditorCall['command']; path: string } & Record<string, unknown>

/** The result of any tool: `ok` tells which; the other fields are those of `surgical call`. */
export type ToolResult = EditResult | ErrorResult | ({ ok: true; text: string } & Record<string, unknown>)

