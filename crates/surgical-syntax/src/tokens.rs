//! Which tokens open and close what, per language: the brackets every grammar has, the quotes
//! that start strings, and the keywords that open blocks closed by a keyword (Ruby's `def` ...
//! `end`, the shell's `if` ... `fi`).

use crate::Language;

/// What a leaf token does in the bracket matching of a stretch the parser could not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Opens something closed by the token named.
    Opens(&'static str),
    /// Closes something.
    Closes,
    /// Starts a string literal (a quote: a lone one in such a stretch is a string left open),
    /// closed by the token named.
    Quote(&'static str),
    /// Nothing to match.
    Plain,
}

/// The role of a leaf of kind `kind` in `language`.
pub(crate) fn role(language: Language, kind: &str) -> Role {
    match kind {
        "(" => return Role::Opens(")"),
        "[" => return Role::Opens("]"),
        "{" => return Role::Opens("}"),
        ")" | "]" | "}" => return Role::Closes,
        _ => {}
    }
    match language {
        Language::Ruby => match kind {
            "def" | "class" | "module" | "if" | "unless" | "while" | "until" | "case" | "begin" | "do" | "for" => {
                Role::Opens("end")
            }
            "end" => Role::Closes,
            "#{" => Role::Opens("}"),
            "\"" | "'" | "`" => Role::Quote(quote_closer(kind)),
            "%w(" | "%i(" => Role::Opens(")"),
            _ => Role::Plain,
        },
        Language::Bash => match kind {
            "if" => Role::Opens("fi"),
            "case" => Role::Opens("esac"),
            "do" => Role::Opens("done"),
            "fi" | "esac" | "done" => Role::Closes,
            "$(" | "((" | "$((" => Role::Opens(")"),
            "))" => Role::Closes,
            "${" => Role::Opens("}"),
            "[[" => Role::Opens("]]"),
            "]]" => Role::Closes,
            "\"" | "'" | "`" | "$'" | "$\"" => Role::Quote(quote_closer(kind)),
            _ => Role::Plain,
        },
        Language::Python => match kind {
            "string_start" => Role::Quote("string_end"),
            "string_end" => Role::Closes,
            _ => Role::Plain,
        },
        Language::JavaScript | Language::TypeScript | Language::Tsx => match kind {
            "${" => Role::Opens("}"),
            "\"" | "'" | "`" => Role::Quote(quote_closer(kind)),
            _ => Role::Plain,
        },
        Language::Php => match kind {
            "\"" | "'" | "`" => Role::Quote(quote_closer(kind)),
            "<<<" => Role::Quote("heredoc_end"),
            _ => Role::Plain,
        },
        Language::Html => match kind {
            "\"" | "'" => Role::Quote(quote_closer(kind)),
            "<!--" => Role::Quote("-->"),
            _ => Role::Plain,
        },
        Language::Toml => match kind {
            "\"" | "'" | "\"\"\"" | "'''" => Role::Quote(quote_closer(kind)),
            "[[" => Role::Opens("]]"),
            "]]" => Role::Closes,
            _ => Role::Plain,
        },
        Language::CSharp => match kind {
            "\"" | "'" | "$\"" | "@\"" | "$@\"" | "@$\"" | "\"\"\"" => Role::Quote(quote_closer(kind)),
            "interpolation_start" | "interpolation_quote" => Role::Quote("\""),
            _ => Role::Plain,
        },
        _ => match kind {
            "\"" | "'" | "`" => Role::Quote(quote_closer(kind)),
            _ => Role::Plain,
        },
    }
}

/// The quote that ends a string begun by `quote` (its last character, or the triple itself).
fn quote_closer(quote: &str) -> &'static str {
    if quote.ends_with("\"\"\"") {
        "\"\"\""
    } else if quote.ends_with("'''") {
        "'''"
    } else if quote.ends_with('\'') {
        "'"
    } else if quote.ends_with('`') {
        "`"
    } else {
        "\""
    }
}

/// Whether `kind` closes what `closer` names (a closer's kind is its text; Python's strings end
/// with a `string_end`).
pub(crate) fn closes(kind: &str, closer: &str) -> bool {
    kind == closer
}

/// A named node kind in words, with its article, for something the parser expected and did not
/// find: `identifier` → `a name`, `_expression` → `an expression`, `number` → `a number`.
pub(crate) fn in_words(kind: &str) -> String {
    let bare = kind.trim_start_matches('_');
    let words = match bare {
        "identifier"
        | "field_identifier"
        | "property_identifier"
        | "type_identifier"
        | "name"
        | "bare_key"
        | "variable_name"
        | "simple_identifier" => "name".to_string(),
        "expression" | "primary_expression" | "simple_expression" | "expr" => "expression".to_string(),
        "number"
        | "integer"
        | "float"
        | "int_literal"
        | "integer_literal"
        | "float_literal"
        | "decimal_integer_literal" => "number".to_string(),
        "string" | "string_literal" | "interpreted_string_literal" | "raw_string_literal" => "string".to_string(),
        "value" | "_value" => "value".to_string(),
        "statement" | "statements" => "statement".to_string(),
        "type" | "primitive_type" => "type".to_string(),
        "block" | "statement_block" | "compound_statement" => "block".to_string(),
        other => other.replace('_', " "),
    };
    let article = match words.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    };
    format!("{article} {words}")
}
