//! Prints the parts of a file's syntax tree that hold errors: `cargo run -p surgical-syntax
//! --example tree -- FILE [TEXT]` (TEXT instead of FILE's content; FILE still names the language).

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: tree FILE [TEXT]");
    let text = match args.next() {
        Some(text) => text.into_bytes(),
        None => std::fs::read(&path).expect("FILE readable"),
    };
    let language = surgical_syntax::Language::detect(&path, &text).expect("a known language");
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&surgical_syntax::tree_sitter_language(language).expect("built in"))
        .expect("a compatible grammar");
    let tree = parser.parse(&text, None).expect("parsed");
    show(tree.root_node(), &text, 0);
}

fn show(node: tree_sitter::Node, text: &[u8], depth: usize) {
    let (s, e) = (node.start_position(), node.end_position());
    let shown: String = String::from_utf8_lossy(&text[node.start_byte()..node.end_byte().min(node.start_byte() + 40)])
        .replace('\n', "\\n");
    let tag = if node.is_error() {
        "ERROR "
    } else if node.is_missing() {
        "MISSING "
    } else {
        ""
    };
    println!(
        "{}{tag}{} {}:{}-{}:{} {shown:?}",
        "  ".repeat(depth),
        node.kind(),
        s.row + 1,
        s.column,
        e.row + 1,
        e.column
    );
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if depth == 0 || child.has_error() || child.is_missing() || node.is_error() || node.has_error() {
            show(child, text, depth + 1);
        }
    }
}
