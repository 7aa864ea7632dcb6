//! The core's modules import one another only downward: no file imports a file that imports it back
//! (directly or through others), and the stage folders import only the stages below them, in the
//! order of [`STAGES`].
//!
//! The test reads `src/` as text: every module file reachable from `lib.rs` through `mod` items that
//! are not `#[cfg(test)]`, and in each, the `use` declarations and the `crate::`, `super::` and
//! `self::` paths of its code (comments, doc links, string literals and `#[cfg(test)]` items are not
//! imports). A path is followed to the file that defines the item it names: through module files,
//! then through the re-exports (`use`, `pub use`) of the module it lands in, so an import through a
//! folder's `mod.rs` counts as an import of the file that defines the item. What it cannot see: a
//! method call on a type defined elsewhere (an inherent `impl` split across files), which is why a
//! tier that searches again takes the search as a parameter instead of calling the ladder itself.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// The stages, lowest first: a file of a stage may import its own stage and the stages before it.
/// `lib.rs` (the crate's facade: docs and re-exports) is outside the order.
const STAGES: [&str; 7] = ["text", "find", "error", "diff", "changes", "snippet", "edit"];

#[test]
fn no_import_circles_and_stages_import_only_downward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = read_tree(&src);
    let graph = Graph::of(&files);
    assert!(
        graph.edges.len() > 20,
        "the reader found almost no imports: {:?}",
        graph.edges
    );
    let problems = graph.problems(&STAGES);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The graph itself, for a reader: `cargo test -p surgical-core --test layering -- --ignored
/// --nocapture`.
#[test]
#[ignore = "prints the module graph"]
fn print_the_graph() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (a, b) in Graph::of(&read_tree(&src)).edges {
        println!("{a} -> {b}");
    }
}

#[test]
fn a_circle_between_files_is_found_and_named() {
    let files = tree(&[
        ("lib.rs", "mod text;\nmod find;\n"),
        ("text/mod.rs", "pub(crate) mod lines;\npub(crate) mod fold;\n"),
        (
            "text/lines.rs",
            "use crate::text::fold::is_blank;\npub(crate) fn line() {}\n",
        ),
        (
            "text/fold.rs",
            "pub(crate) fn is_blank() -> bool {\n    crate::text::lines::line();\n    true\n}\n",
        ),
        ("find/mod.rs", "use crate::text::lines::line;\n"),
    ]);
    let problems = Graph::of(&files).problems(&["text", "find"]);
    assert_eq!(
        problems,
        vec!["import circle between files: text/fold.rs → text/lines.rs → text/fold.rs".to_string()]
    );
}

#[test]
fn a_circle_between_stages_and_an_upward_import_are_found() {
    let files = tree(&[
        ("lib.rs", "mod text;\nmod find;\n"),
        ("text/mod.rs", "pub(crate) mod lines;\npub(crate) mod budget;\n"),
        // No circle between files: budget imports find's haystack, which imports lines.
        ("text/lines.rs", "pub(crate) fn line() {}\n"),
        ("text/budget.rs", "use crate::find::Haystack;\n"),
        ("find/mod.rs", "mod haystack;\npub(crate) use haystack::Haystack;\n"),
        (
            "find/haystack.rs",
            "use super::super::text::lines::line;\npub(crate) struct Haystack;\n",
        ),
    ]);
    let problems = Graph::of(&files).problems(&["text", "find"]);
    assert_eq!(
        problems,
        vec![
            "import circle between stages: find → text → find".to_string(),
            "upward import: text/budget.rs imports find/haystack.rs (stage find is above text)".to_string(),
        ]
    );
}

#[test]
fn what_is_not_an_import_is_not_counted() {
    let files = tree(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            concat!(
                "//! See [`crate::b`].\n",
                "/// Not an import: `crate::b::f`.\n",
                "pub(crate) fn f() -> &'static str {\n",
                "    let _c = '\"'; /* crate::b::f() */\n",
                "    \"crate::b::f\"\n",
                "}\n",
                "#[cfg(test)]\n",
                "mod tests {\n    use crate::b::g;\n}\n",
            ),
        ),
        ("b.rs", "use crate::a::f;\npub(crate) fn g() {\n    f();\n}\n"),
    ]);
    let graph = Graph::of(&files);
    assert_eq!(graph.edges, BTreeSet::from([("b.rs".to_string(), "a.rs".to_string())]));
    assert!(graph.problems(&["a", "b"]).is_empty());
}

#[test]
fn imports_through_re_exports_reach_the_defining_file() {
    let files = tree(&[
        ("lib.rs", "mod find;\nmod changes;\npub use find::Found as Match;\n"),
        (
            "find/mod.rs",
            "mod needle;\nmod ladder;\npub use needle::{Match as Found, Miss};\n",
        ),
        ("find/needle.rs", "pub struct Match;\npub struct Miss;\n"),
        ("find/ladder.rs", "use super::{Found, Miss};\n"),
        (
            "changes/mod.rs",
            "use crate::{find::Found, Match};\nfn f() -> crate::find::Miss { todo!() }\n",
        ),
    ]);
    let graph = Graph::of(&files);
    assert_eq!(
        graph.edges,
        BTreeSet::from([
            ("changes/mod.rs".to_string(), "find/needle.rs".to_string()),
            ("find/ladder.rs".to_string(), "find/needle.rs".to_string()),
            ("find/mod.rs".to_string(), "find/needle.rs".to_string()),
            ("lib.rs".to_string(), "find/needle.rs".to_string()),
        ])
    );
}

fn tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files.iter().map(|(p, s)| (p.to_string(), s.to_string())).collect()
}

/// Every `.rs` file under `src`, by path relative to it (with `/`).
fn read_tree(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).expect("under src");
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.insert(rel.join("/"), std::fs::read_to_string(&path).expect("a source file"));
            }
        }
    }
    out
}

/// The module graph: which module file imports which.
struct Graph {
    /// `(importer, imported)` file pairs, each file a path under `src/`.
    edges: BTreeSet<(String, String)>,
}

/// One module: its file, its code (what is not an import removed), its child modules.
struct Module {
    file: String,
    code: String,
    children: Vec<String>,
}

impl Graph {
    fn of(files: &BTreeMap<String, String>) -> Graph {
        let modules = modules(files);
        // Each module's names bound by `use` (re-exports included), as absolute paths.
        let mut bindings: HashMap<Vec<String>, HashMap<String, Vec<String>>> = HashMap::new();
        let mut imports: Vec<(Vec<String>, Vec<String>)> = Vec::new();
        for (path, module) in &modules {
            let mut names = HashMap::new();
            for (tree, is_use) in paths(&module.code) {
                let Some(absolute) = absolute(path, &module.children, &tree.segments) else {
                    continue;
                };
                if is_use {
                    if let Some(name) = &tree.binds {
                        names.insert(name.clone(), absolute.clone());
                    }
                }
                imports.push((path.clone(), absolute));
            }
            bindings.insert(path.clone(), names);
        }
        let mut edges = BTreeSet::new();
        for (from, target) in imports {
            if let Some(file) = resolve(&modules, &bindings, &target, 0) {
                if file != modules[&from].file {
                    edges.insert((modules[&from].file.clone(), file));
                }
            }
        }
        Graph { edges }
    }

    /// Every import circle (between files, then between stages) and every upward import, in words.
    fn problems(&self, stages: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        for (cycle, component) in cycles(&self.edges) {
            out.push(format!(
                "import circle between files: {}{}",
                cycle.join(" → "),
                among(&cycle, &component)
            ));
        }
        let stage_of = |file: &str| -> Option<String> {
            let first = file.split('/').next().unwrap_or(file);
            (file != "lib.rs").then(|| first.trim_end_matches(".rs").to_string())
        };
        let stage_edges: BTreeSet<(String, String)> = self
            .edges
            .iter()
            .filter_map(|(a, b)| Some((stage_of(a)?, stage_of(b)?)))
            .filter(|(a, b)| a != b)
            .collect();
        for (cycle, component) in cycles(&stage_edges) {
            out.push(format!(
                "import circle between stages: {}{}",
                cycle.join(" → "),
                among(&cycle, &component)
            ));
        }
        let rank = |stage: &str| stages.iter().position(|s| *s == stage);
        for (a, b) in &self.edges {
            let (Some(sa), Some(sb)) = (stage_of(a), stage_of(b)) else {
                continue;
            };
            match (rank(&sa), rank(&sb)) {
                (Some(ra), Some(rb)) if rb > ra => {
                    out.push(format!("upward import: {a} imports {b} (stage {sb} is above {sa})"));
                }
                (None, _) => out.push(format!("{a}: stage {sa} is not in the stage order")),
                (_, None) => out.push(format!("{b}: stage {sb} is not in the stage order")),
                _ => {}
            }
        }
        out.dedup();
        out
    }
}

/// When a circle's component holds more than the circle: the others, which are in circles with it.
fn among(cycle: &[String], component: &[String]) -> String {
    let others: Vec<&str> = component
        .iter()
        .filter(|n| !cycle.contains(n))
        .map(String::as_str)
        .collect();
    match others.is_empty() {
        true => String::new(),
        false => format!(" (in circles with it: {})", others.join(", ")),
    }
}

/// The modules reachable from `lib.rs` through `mod` items that are not `#[cfg(test)]`, by path.
fn modules(files: &BTreeMap<String, String>) -> BTreeMap<Vec<String>, Module> {
    let mut out = BTreeMap::new();
    let mut todo: Vec<(Vec<String>, String)> = vec![(Vec::new(), "lib.rs".to_string())];
    while let Some((path, file)) = todo.pop() {
        let source = files
            .get(&file)
            .unwrap_or_else(|| panic!("{file} is declared but missing"));
        let code = code_of(source);
        let dir = match file.rsplit_once('/') {
            _ if file == "lib.rs" => String::new(),
            Some((dir, "mod.rs")) => format!("{dir}/"),
            Some((dir, name)) => format!("{dir}/{}/", name.trim_end_matches(".rs")),
            None => format!("{}/", file.trim_end_matches(".rs")),
        };
        let mut children = Vec::new();
        let words = words(&code);
        for (i, w) in words.iter().enumerate() {
            if w == "mod" {
                let name = words.get(i + 1).cloned().unwrap_or_default();
                match words.get(i + 2).map(String::as_str) {
                    Some(";") => {}
                    _ => panic!("{file}: inline module `{name}` (only file modules are read; move it to a file)"),
                }
                let own = format!("{dir}{name}.rs");
                let child = if files.contains_key(&own) {
                    own
                } else {
                    format!("{dir}{name}/mod.rs")
                };
                let mut child_path = path.clone();
                child_path.push(name.clone());
                children.push(name);
                todo.push((child_path, child));
            }
        }
        out.insert(path, Module { file, code, children });
    }
    out
}

/// The source without comments, string and character literals, and `#[cfg(test)]` items.
fn code_of(source: &str) -> String {
    let plain = without_comments_and_literals(source);
    let mut out = String::with_capacity(plain.len());
    let mut rest = plain.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "#[cfg(test)]".len()..];
        // The item the attribute gates: up to its `;`, or to the brace closing its body.
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn without_comments_and_literals(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('#') || next == Some('"')) && !ident_before(&chars, i) {
            // A raw string: r"…", r#"…"#.
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            let open = i + 1 + hashes;
            if chars.get(open) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            i = open + 1;
            while i < chars.len() {
                if chars[i] == '"' && chars[i + 1..].iter().take(hashes).filter(|&&h| h == '#').count() == hashes {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{…}'), or a lifetime ('a), which stays.
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// The code as words: identifiers, `::`, and single punctuation characters.
fn words(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_alphanumeric() || d == '_') {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            out.push(code[i..end].to_string());
        } else if c == ':' && chars.peek().is_some_and(|&(_, d)| d == ':') {
            chars.next();
            out.push("::".to_string());
        } else if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    out
}

/// A path named in the code, and for a `use`, the name it binds.
struct Named {
    segments: Vec<String>,
    binds: Option<String>,
}

/// Every path in `code` worth resolving: each leaf of every `use` tree (`true`), and every path of
/// the code that starts with `crate`, `super` or `self` (`false`).
fn paths(code: &str) -> Vec<(Named, bool)> {
    let words = words(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let after_path = i > 0 && words[i - 1] == "::";
        if words[i] == "use" && !after_path {
            let end = (i..words.len()).find(|&k| words[k] == ";").unwrap_or(words.len());
            use_tree(&words[i + 1..end], &[], &mut out);
            i = end + 1;
            continue;
        }
        if matches!(words[i].as_str(), "crate" | "super" | "self") && !after_path {
            let mut segments = vec![words[i].clone()];
            let mut k = i + 1;
            while k + 1 < words.len() && words[k] == "::" && is_ident(&words[k + 1]) {
                segments.push(words[k + 1].clone());
                k += 2;
            }
            if segments.len() > 1 {
                out.push((Named { segments, binds: None }, false));
            }
            i = k;
            continue;
        }
        i += 1;
    }
    out
}

fn is_ident(w: &str) -> bool {
    w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The leaves of a `use` tree (`a::b::{c, d::e as f, self, *}`) under `prefix`.
fn use_tree(words: &[String], prefix: &[String], out: &mut Vec<(Named, bool)>) {
    let mut segments = prefix.to_vec();
    let mut i = 0;
    while i < words.len() {
        match words[i].as_str() {
            "::" => i += 1,
            "{" => {
                // Each comma-separated branch at depth one, under the path so far.
                let mut depth = 0;
                let mut start = i + 1;
                for k in i..words.len() {
                    match words[k].as_str() {
                        "{" => depth += 1,
                        "}" | "," if depth == 1 => {
                            use_tree(&words[start..k], &segments, out);
                            start = k + 1;
                            if words[k] == "}" {
                                return;
                            }
                        }
                        "}" => depth -= 1,
                        _ => {}
                    }
                }
                return;
            }
            "*" => {
                out.push((Named { segments, binds: None }, true));
                return;
            }
            "as" => {
                let alias = words.get(i + 1).cloned();
                out.push((Named { segments, binds: alias }, true));
                return;
            }
            "self" if !segments.is_empty() => i += 1,
            w => {
                segments.push(w.to_string());
                i += 1;
            }
        }
    }
    if !segments.is_empty() {
        let binds = segments.last().cloned();
        out.push((Named { segments, binds }, true));
    }
}

/// `segments`, named in module `at` (whose child modules are `children`), from the crate root; `None`
/// for a path outside the crate (`std::…`, a dependency).
fn absolute(at: &[String], children: &[String], segments: &[String]) -> Option<Vec<String>> {
    let first = segments.first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => at.to_vec(),
        "super" => at[..at.len().checked_sub(1)?].to_vec(),
        name if children.iter().any(|c| c == name) => {
            let mut p = at.to_vec();
            p.push(name.to_string());
            return Some(p.into_iter().chain(segments[1..].iter().cloned()).collect());
        }
        _ => return None,
    };
    let mut rest = &segments[1..];
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The file defining what `path` names: down through module files, then through the bindings of the
/// module it lands in.
fn resolve(
    modules: &BTreeMap<Vec<String>, Module>,
    bindings: &HashMap<Vec<String>, HashMap<String, Vec<String>>>,
    path: &[String],
    depth: usize,
) -> Option<String> {
    let mut module: Vec<String> = Vec::new();
    for (k, segment) in path.iter().enumerate() {
        let mut child = module.clone();
        child.push(segment.clone());
        if modules.contains_key(&child) {
            module = child;
            continue;
        }
        // An item of `module`: its own, or one it imports (follow that, at most a few hops).
        if let Some(target) = bindings.get(&module).and_then(|b| b.get(segment)) {
            if depth < 8 {
                let mut target = target.clone();
                target.extend(path[k + 1..].iter().cloned());
                return resolve(modules, bindings, &target, depth + 1);
            }
        }
        break;
    }
    modules.get(&module).map(|m| m.file.clone())
}

/// The circles of a directed graph: per strongly connected component of more than one node, its
/// shortest circle through its smallest node (from that node back to it), and the component.
fn cycles(edges: &BTreeSet<(String, String)>) -> Vec<(Vec<String>, Vec<String>)> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges {
        next.entry(a).or_default().push(b);
    }
    let reach = |from: &str| -> BTreeMap<String, String> {
        // Breadth-first, with each node's predecessor.
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([from.to_string()]);
        while let Some(n) = queue.pop_front() {
            for &m in next.get(n.as_str()).into_iter().flatten() {
                if !seen.contains_key(m) {
                    seen.insert(m.to_string(), n.clone());
                    queue.push_back(m.to_string());
                }
            }
        }
        seen
    };
    let nodes: BTreeSet<&str> = edges.iter().flat_map(|(a, b)| [a.as_str(), b.as_str()]).collect();
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for &n in &nodes {
        if done.contains(n) {
            continue;
        }
        let from_n = reach(n);
        if !from_n.contains_key(n) {
            continue;
        }
        // Its component: the nodes it reaches that reach it back.
        let mut component = Vec::new();
        for m in from_n.keys() {
            if reach(m).contains_key(n) {
                done.insert(m.clone());
                component.push(m.clone());
            }
        }
        // Back from `n` along the predecessors of a shortest path from `n` to itself.
        let mut back = Vec::new();
        let mut at = from_n[n].clone();
        while at != n {
            let before = from_n[&at].clone();
            back.push(at);
            at = before;
        }
        let mut ordered = vec![n.to_string()];
        ordered.extend(back.into_iter().rev());
        ordered.push(n.to_string());
        out.push((ordered, component));
    }
    out
}
