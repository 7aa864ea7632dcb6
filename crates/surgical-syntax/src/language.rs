//! The languages the check knows, and which one a file is in: from its name (extension or whole
//! name), else from a modeline (Vim's `vim: ft=python`, Emacs' `-*- mode: ruby -*-`), else from
//! its shebang (`#!/usr/bin/env python3`).

/// A language the syntax check knows. Whether its grammar is in this build is
/// [`Language::available`] (each has a cargo feature; the default build has them all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Language {
    /// Rust (`.rs`).
    Rust,
    /// Python (`.py`, `.pyi`, `.pyw`).
    Python,
    /// JavaScript (`.js`, `.mjs`, `.cjs`, `.jsx`).
    JavaScript,
    /// TypeScript (`.ts`, `.mts`, `.cts`).
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    /// Go (`.go`).
    Go,
    /// Java (`.java`).
    Java,
    /// C (`.c`; `.h` too: a header is read as C).
    C,
    /// C++ (`.cc`, `.cpp`, `.cxx`, `.hpp`, `.hh`, ...).
    Cpp,
    /// C# (`.cs`).
    CSharp,
    /// Ruby (`.rb`, `Gemfile`, `Rakefile`, ...).
    Ruby,
    /// PHP (`.php`: HTML with `<?php` blocks).
    Php,
    /// Bash and POSIX shell (`.sh`, `.bash`, `.bashrc`, ...).
    Bash,
    /// JSON (`.json`, and files JSON by convention such as `.babelrc`); not JSON with comments.
    Json,
    /// YAML (`.yaml`, `.yml`).
    Yaml,
    /// TOML (`.toml`, `Cargo.lock`, ...).
    Toml,
    /// HTML (`.html`, `.htm`, `.xhtml`).
    Html,
    /// CSS (`.css`).
    Css,
    /// Markdown (`.md`, `.markdown`).
    Markdown,
}

impl Language {
    /// Every language, in the order of the enum.
    pub const ALL: [Language; 19] = [
        Language::Rust,
        Language::Python,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Go,
        Language::Java,
        Language::C,
        Language::Cpp,
        Language::CSharp,
        Language::Ruby,
        Language::Php,
        Language::Bash,
        Language::Json,
        Language::Yaml,
        Language::Toml,
        Language::Html,
        Language::Css,
        Language::Markdown,
    ];

    /// The language's name as the result reports it (`rust`, `python`, `javascript`,
    /// `typescript`, `tsx`, `go`, `java`, `c`, `cpp`, `csharp`, `ruby`, `php`, `bash`, `json`,
    /// `yaml`, `toml`, `html`, `css`, `markdown`).
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Go => "go",
            Language::Java => "java",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::CSharp => "csharp",
            Language::Ruby => "ruby",
            Language::Php => "php",
            Language::Bash => "bash",
            Language::Json => "json",
            Language::Yaml => "yaml",
            Language::Toml => "toml",
            Language::Html => "html",
            Language::Css => "css",
            Language::Markdown => "markdown",
        }
    }

    /// The language named `name` (one of [`Language::name`]'s, or a common alias such as `py`,
    /// `js`, `ts`, `c++`, `cs`, `sh`, `yml`, `md`), ignoring ASCII case.
    pub fn from_name(name: &str) -> Option<Language> {
        let name = name.trim().to_ascii_lowercase();
        Some(match name.as_str() {
            "rust" | "rs" => Language::Rust,
            "python" | "py" | "python3" | "python2" => Language::Python,
            "javascript" | "js" | "node" | "jsx" | "javascriptreact" => Language::JavaScript,
            "typescript" | "ts" => Language::TypeScript,
            "tsx" | "typescriptreact" => Language::Tsx,
            "go" | "golang" => Language::Go,
            "java" => Language::Java,
            "c" => Language::C,
            "cpp" | "c++" | "cxx" | "cc" => Language::Cpp,
            "csharp" | "c#" | "cs" => Language::CSharp,
            "ruby" | "rb" => Language::Ruby,
            "php" => Language::Php,
            "bash" | "sh" | "shell" | "zsh" | "ksh" | "dash" => Language::Bash,
            "json" => Language::Json,
            "yaml" | "yml" => Language::Yaml,
            "toml" | "conf-toml" => Language::Toml,
            "html" | "htm" | "xhtml" => Language::Html,
            "css" => Language::Css,
            "markdown" | "md" | "gfm" => Language::Markdown,
            _ => return None,
        })
    }

    /// The language of a file named `path` (its extension, else its whole name), else the one a
    /// modeline or shebang near the start of `text` names; `None` when neither tells, or when the
    /// name says a format the check does not know (`.jsonc`, `.ipynb`, ...), whatever the text
    /// claims.
    pub fn detect(path: &str, text: &[u8]) -> Option<Language> {
        match by_name(path) {
            // A header is C++ when it reads as C++.
            Named::Is(Language::C) if header(path) && reads_as_cpp(text) => Some(Language::Cpp),
            Named::Is(language) => Some(language),
            Named::Unknown => None,
            Named::Silent => by_modeline(text).or_else(|| by_shebang(text)),
        }
    }
}

fn header(path: &str) -> bool {
    path.len() > 2 && path[path.len() - 2..].eq_ignore_ascii_case(".h")
}

/// Whether a header holds what only C++ has: a namespace, a class with access specifiers, a
/// template, `std::`, a C++ standard header.
fn reads_as_cpp(text: &[u8]) -> bool {
    const MARKERS: [&[u8]; 10] = [
        b"namespace ",
        b"template <",
        b"template<",
        b"std::",
        b"public:",
        b"private:",
        b"protected:",
        b"constexpr ",
        b"#include <string>",
        b"#include <vector>",
    ];
    let head = &text[..text.len().min(256 * 1024)];
    MARKERS.iter().any(|m| memchr::memmem::find(head, m).is_some())
}

/// What a file's name says about its language.
enum Named {
    Is(Language),
    /// A name the check knows to be of a format it does not check (JSON with comments, say).
    Unknown,
    /// A name that says nothing (no extension, or one the table does not have).
    Silent,
}

fn by_name(path: &str) -> Named {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    let whole = match lower.as_str() {
        "gemfile" | "rakefile" | "guardfile" | "podfile" | "vagrantfile" | "brewfile" | "fastfile" | "appfile"
        | "capfile" | "berksfile" | "dangerfile" => Some(Language::Ruby),
        ".bashrc" | ".bash_profile" | ".bash_login" | ".bash_logout" | ".profile" | ".zshrc" | ".zprofile"
        | ".zshenv" | "pkgbuild" | "apkbuild" | ".envrc" => Some(Language::Bash),
        "cargo.lock" | "poetry.lock" | "pipfile" | "uv.lock" | ".cargo-ok" => Some(Language::Toml),
        ".babelrc" | ".prettierrc" | ".eslintrc" | "composer.lock" | ".watchmanconfig" => Some(Language::Json),
        ".clang-format" | ".clang-tidy" | ".gemrc" => Some(Language::Yaml),
        _ => None,
    };
    if let Some(language) = whole {
        return Named::Is(language);
    }
    let Some((stem, ext)) = lower.rsplit_once('.') else {
        return Named::Silent;
    };
    if stem.is_empty() {
        // A dot file: its name is not an extension.
        return Named::Silent;
    }
    let language = match ext {
        "rs" => Language::Rust,
        "py" | "pyi" | "pyw" => Language::Python,
        "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
        "ts" | "mts" | "cts" => Language::TypeScript,
        "tsx" => Language::Tsx,
        "go" => Language::Go,
        "java" => Language::Java,
        "c" | "h" => Language::C,
        "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "tpp" | "inl" => Language::Cpp,
        "cs" => Language::CSharp,
        "rb" | "rake" | "gemspec" | "ru" | "podspec" | "jbuilder" | "thor" => Language::Ruby,
        "php" | "phtml" | "php3" | "php4" | "php5" | "php7" | "php8" | "phps" => Language::Php,
        "sh" | "bash" | "zsh" | "ksh" | "bats" | "command" => Language::Bash,
        "json" | "geojson" | "webmanifest" | "har" | "avsc" => Language::Json,
        "yaml" | "yml" => Language::Yaml,
        "toml" => Language::Toml,
        "html" | "htm" | "xhtml" | "shtml" => Language::Html,
        "css" => Language::Css,
        "md" | "markdown" | "mdown" | "mkd" | "mkdn" => Language::Markdown,
        // Formats that look like a known one but are not it: JSON with comments or trailing
        // commas (editors' settings, TypeScript's configuration), notebooks, templates.
        "jsonc" | "json5" | "ipynb" | "mdx" | "vue" | "svelte" | "erb" | "j2" | "jinja" | "tmpl" | "tpl" => {
            return Named::Unknown
        }
        _ => return Named::Silent,
    };
    // `tsconfig.json`, `jsconfig.json` and VS Code's settings are JSON with comments.
    if language == Language::Json
        && (stem.starts_with("tsconfig") || stem.starts_with("jsconfig") || path_has_vscode(path))
    {
        return Named::Unknown;
    }
    Named::Is(language)
}

fn path_has_vscode(path: &str) -> bool {
    path.split(['/', '\\'])
        .any(|part| part == ".vscode" || part == ".devcontainer")
}

/// How much of the start (and end) of a text a modeline or shebang is looked for in.
const HEAD: usize = 1024;
/// Vim reads modelines on the first and last five lines.
const MODELINE_LINES: usize = 5;

/// The first lines of `text` (up to [`MODELINE_LINES`] and [`HEAD`] bytes), then its last ones.
fn head_and_tail(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let head = &text[..text.len().min(HEAD)];
    let tail_start = text.len().saturating_sub(HEAD);
    let tail = &text[tail_start..];
    let first = head.split(|&b| b == b'\n').take(MODELINE_LINES);
    let mut last: Vec<&[u8]> = tail.split(|&b| b == b'\n').collect();
    if tail_start > 0 && !last.is_empty() {
        // The tail's first piece may be the middle of a line.
        last.remove(0);
    }
    let skip = last.len().saturating_sub(MODELINE_LINES + 1);
    first.chain(last.into_iter().skip(skip))
}

/// The language a Vim (`vim: set ft=python:`, `vi: filetype=sh`, `ex:`) or Emacs (`-*- mode: ruby
/// -*-`, `-*- python -*-`) modeline names.
fn by_modeline(text: &[u8]) -> Option<Language> {
    for line in head_and_tail(text) {
        let line = String::from_utf8_lossy(line);
        if let Some(found) = emacs(&line).or_else(|| vim(&line)) {
            return Some(found);
        }
    }
    None
}

fn emacs(line: &str) -> Option<Language> {
    let start = line.find("-*-")? + 3;
    let end = start + line[start..].find("-*-")?;
    let inside = line[start..end].trim();
    if !inside.contains(':') {
        return Language::from_name(inside);
    }
    inside.split(';').find_map(|setting| {
        let (key, value) = setting.split_once(':')?;
        key.trim()
            .eq_ignore_ascii_case("mode")
            .then(|| Language::from_name(value))?
    })
}

fn vim(line: &str) -> Option<Language> {
    for marker in ["vim:", "vi:", "ex:", "Vim:"] {
        let Some(at) = line.find(marker) else { continue };
        // `vi:` must start the line or follow a blank (so `navi:` is not one).
        if at > 0 && !line[..at].ends_with([' ', '\t']) {
            continue;
        }
        let rest = &line[at + marker.len()..];
        let rest = rest.trim_start().strip_prefix("set ").unwrap_or(rest);
        for option in rest.split([' ', ':', '\t']) {
            if let Some((key, value)) = option.split_once('=') {
                if matches!(key, "ft" | "filetype" | "syntax" | "syn") {
                    return Language::from_name(value);
                }
            }
        }
    }
    None
}

/// The language of an interpreter named on a `#!` first line: its program's name, or the program
/// `env` runs (`#!/usr/bin/env -S python3 -u`).
fn by_shebang(text: &[u8]) -> Option<Language> {
    let line = text.strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        program = words.find(|w| !w.starts_with('-'))?;
    }
    let program = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match program {
        "python" | "pypy" => Language::Python,
        "node" | "nodejs" | "deno" | "bun" => Language::JavaScript,
        "ts-node" | "tsx" => Language::TypeScript,
        "ruby" => Language::Ruby,
        "php" => Language::Php,
        "bash" | "sh" | "dash" | "zsh" | "ksh" | "ash" => Language::Bash,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_extension_and_whole_name() {
        assert_eq!(Language::detect("src/a.rs", b""), Some(Language::Rust));
        assert_eq!(Language::detect("A.PY", b""), Some(Language::Python));
        assert_eq!(Language::detect("x/y/App.tsx", b""), Some(Language::Tsx));
        assert_eq!(Language::detect("x\\y\\inc.hpp", b""), Some(Language::Cpp));
        assert_eq!(Language::detect("Gemfile", b""), Some(Language::Ruby));
        assert_eq!(Language::detect("home/.bashrc", b""), Some(Language::Bash));
        assert_eq!(Language::detect("Cargo.lock", b""), Some(Language::Toml));
        assert_eq!(Language::detect("README", b""), None);
        assert_eq!(Language::detect(".gitignore", b""), None);
    }

    #[test]
    fn a_header_is_cpp_when_it_reads_as_cpp() {
        assert_eq!(Language::detect("a.h", b"int f(void);\n"), Some(Language::C));
        assert_eq!(Language::detect("a.h", b"namespace fmt {\n}\n"), Some(Language::Cpp));
        assert_eq!(
            Language::detect("a.h", b"template <typename T> T f();\n"),
            Some(Language::Cpp)
        );
    }

    #[test]
    fn json_with_comments_is_not_json() {
        assert_eq!(Language::detect("tsconfig.json", b"{}"), None);
        assert_eq!(Language::detect("tsconfig.base.json", b"{}"), None);
        assert_eq!(Language::detect(".vscode/settings.json", b"{}"), None);
        assert_eq!(Language::detect("a.jsonc", b"#!/usr/bin/env node\n"), None);
        assert_eq!(Language::detect("package.json", b"{}"), Some(Language::Json));
    }

    #[test]
    fn by_shebang() {
        assert_eq!(
            Language::detect("run", b"#!/usr/bin/env python3\nprint(1)\n"),
            Some(Language::Python)
        );
        assert_eq!(
            Language::detect("run", b"#!/usr/bin/env -S python3.12 -u\n"),
            Some(Language::Python)
        );
        assert_eq!(Language::detect("run", b"#!/bin/sh\n"), Some(Language::Bash));
        assert_eq!(
            Language::detect("run", b"#!/usr/bin/node\n"),
            Some(Language::JavaScript)
        );
        assert_eq!(Language::detect("run", b"#!/usr/bin/perl\n"), None);
        assert_eq!(Language::detect("run", b"# not a shebang #!/bin/sh\n"), None);
        // The name wins over the text.
        assert_eq!(Language::detect("a.rb", b"#!/bin/sh\n"), Some(Language::Ruby));
    }

    #[test]
    fn by_modeline() {
        assert_eq!(
            Language::detect("x", b"# -*- mode: ruby; coding: utf-8 -*-\n"),
            Some(Language::Ruby)
        );
        assert_eq!(Language::detect("x", b"# -*- python -*-\n"), Some(Language::Python));
        assert_eq!(
            Language::detect("x", b"a\nb\n# vim: set ft=yaml:\n"),
            Some(Language::Yaml)
        );
        assert_eq!(Language::detect("x", b"# vi: filetype=sh\n"), Some(Language::Bash));
        assert_eq!(Language::detect("x", b"navi: ft=sh\n"), None);
        // A modeline wins over a shebang, as in Vim.
        assert_eq!(
            Language::detect("x", b"#!/bin/sh\n# vim: ft=python\n"),
            Some(Language::Python)
        );
        // Only near the start or the end.
        let mut long = b"x\n".repeat(100);
        long.extend_from_slice(b"# vim: ft=python\n");
        assert_eq!(Language::detect("x", &long), Some(Language::Python));
        let mut middle = b"x\n".repeat(100);
        middle.extend_from_slice(b"# vim: ft=python\n");
        middle.extend_from_slice(&b"x\n".repeat(100));
        assert_eq!(Language::detect("x", &middle), None);
    }

    #[test]
    fn names_round_trip() {
        for language in Language::ALL {
            assert_eq!(Language::from_name(language.name()), Some(language));
        }
    }
}
