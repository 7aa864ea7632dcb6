//! Each language's tree-sitter grammar, where its cargo feature built it in.

use crate::Language;

/// The grammar of `language`, or `None` when its feature was left out of this build.
#[cfg(feature = "parser")]
pub(crate) fn grammar(language: Language) -> Option<tree_sitter::Language> {
    let function: tree_sitter_language::LanguageFn = match language {
        #[cfg(feature = "rust")]
        Language::Rust => tree_sitter_rust::LANGUAGE,
        #[cfg(feature = "python")]
        Language::Python => tree_sitter_python::LANGUAGE,
        #[cfg(feature = "javascript")]
        Language::JavaScript => tree_sitter_javascript::LANGUAGE,
        #[cfg(feature = "typescript")]
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT,
        #[cfg(feature = "typescript")]
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX,
        #[cfg(feature = "go")]
        Language::Go => tree_sitter_go::LANGUAGE,
        #[cfg(feature = "java")]
        Language::Java => tree_sitter_java::LANGUAGE,
        #[cfg(feature = "c")]
        Language::C => tree_sitter_c::LANGUAGE,
        #[cfg(feature = "cpp")]
        Language::Cpp => tree_sitter_cpp::LANGUAGE,
        #[cfg(feature = "c-sharp")]
        Language::CSharp => tree_sitter_c_sharp::LANGUAGE,
        #[cfg(feature = "ruby")]
        Language::Ruby => tree_sitter_ruby::LANGUAGE,
        #[cfg(feature = "php")]
        Language::Php => tree_sitter_php::LANGUAGE_PHP,
        #[cfg(feature = "bash")]
        Language::Bash => tree_sitter_bash::LANGUAGE,
        #[cfg(feature = "json")]
        Language::Json => tree_sitter_json::LANGUAGE,
        #[cfg(feature = "yaml")]
        Language::Yaml => tree_sitter_yaml::LANGUAGE,
        #[cfg(feature = "toml")]
        Language::Toml => tree_sitter_toml_ng::LANGUAGE,
        #[cfg(feature = "html")]
        Language::Html => tree_sitter_html::LANGUAGE,
        #[cfg(feature = "css")]
        Language::Css => tree_sitter_css::LANGUAGE,
        #[cfg(feature = "markdown")]
        Language::Markdown => tree_sitter_md::LANGUAGE,
        #[allow(unreachable_patterns)]
        _ => return None,
    };
    Some(function.into())
}

/// Whether `language`'s grammar is in this build.
pub(crate) fn available(language: Language) -> bool {
    #[cfg(feature = "parser")]
    {
        grammar(language).is_some()
    }
    #[cfg(not(feature = "parser"))]
    {
        let _ = language;
        false
    }
}
