//! Issue 10's engine classes, each pinned by the input that exposed it.

use surgical_core::{apply, Edit, EditError, Options, Tier};

fn edit(text: &str, old: &str, new: &str) -> Result<String, EditError> {
    edit_up_to(text, old, new, Tier::Escapes)
}

fn edit_up_to(text: &str, old: &str, new: &str, loosest: Tier) -> Result<String, EditError> {
    apply(
        text.as_bytes(),
        &[Edit::new(old, new)],
        &Options::new().loosest_tier(loosest),
    )
    .map(|a| String::from_utf8(a.text).unwrap())
}

fn tier_of(text: &str, old: &str, new: &str) -> Tier {
    apply(
        text.as_bytes(),
        &[Edit::new(old, new)],
        &Options::new().loosest_tier(Tier::Similar),
    )
    .unwrap()
    .edits[0]
        .tier
}

#[test]
fn escapes_unescape_dollar_and_backtick() {
    let file = "echo \"$HOME\"\nconst s = `${a}`;\n";
    let old = "echo \\\"\\$HOME\\\"\\nconst s = \\`${a}\\`;";
    let new = "echo \\\"\\$USER\\\"\\nconst s = \\`${b}\\`;";
    assert_eq!(edit(file, old, new).unwrap(), "echo \"$USER\"\nconst s = `${b}`;\n");
    assert_eq!(tier_of(file, old, new), Tier::Escapes);
}

#[test]
fn omission_placeholders_are_refused() {
    let file = "fn a() {\n    one();\n    two();\n    three();\n}\n";
    for new in [
        "fn a() {\n    one();\n    // ... existing code ...\n}\n",
        "fn a() {\n    one();\n    ...\n}\n",
        "fn a() {\n    # ... rest of the file ...\n}\n",
        "fn a() {\n    (rest of methods ...)\n}\n",
    ] {
        let err = edit(file, file, new).unwrap_err();
        assert!(matches!(err, EditError::Placeholder { index: 0, .. }), "{new}: {err:?}");
        assert_eq!(err.code(), "placeholder");
    }
    // The marker kept in oldText is the file's text; spread syntax is code.
    let file = "a();\n// ... existing code ...\nb();\n";
    assert_eq!(
        edit(file, "a();\n// ... existing code ...", "z();\n// ... existing code ...").unwrap(),
        "z();\n// ... existing code ...\nb();\n"
    );
    assert_eq!(edit("f(a);\n", "f(a);", "f(...args);").unwrap(), "f(...args);\n");
}
