//! The one table renderer: a suite's rows as a Markdown table, its columns given as data.

use std::fmt::Write as _;

use super::outcome::Tally;
use super::run::Row;

/// One column of a suite's table.
pub struct Column<K> {
    /// The header.
    pub header: &'static str,
    /// A row's cell.
    pub cell: fn(&Row<K>) -> String,
    /// The cell of the total row (`None`: empty); the first column's is always `**total**`.
    pub total: Option<fn(&Tally) -> String>,
}

/// The rows as a Markdown table: the headers, a row per kind, and a total row (the counts added
/// up by [`Tally::sum`]) when `with_total`.
pub fn render<K>(columns: &[Column<K>], rows: &[Row<K>], with_total: bool) -> String {
    let mut out = String::from("|");
    for c in columns {
        let _ = write!(out, " {} |", c.header);
    }
    out.push_str("\n|");
    for _ in columns {
        out.push_str("---|");
    }
    out.push('\n');
    for row in rows {
        out.push('|');
        for c in columns {
            let _ = write!(out, " {} |", (c.cell)(row));
        }
        out.push('\n');
    }
    if with_total {
        let total = Tally::sum(rows.iter().map(|r| &r.tally));
        out.push_str("| **total** |");
        for c in &columns[1..] {
            match c.total {
                Some(cell) => {
                    let _ = write!(out, " {} |", cell(&total));
                }
                None => out.push_str(" |"),
            }
        }
        out.push('\n');
    }
    out
}

/// The placed count, marked when refusing is the right answer for the row.
pub fn placed(placed: usize, must_refuse: bool) -> String {
    if must_refuse {
        format!("{placed} (refusal expected)")
    } else {
        format!("{placed}")
    }
}

/// The tiers that placed a row's cases: `exact 200, indentation 3`.
pub fn tiers(t: &Tally) -> String {
    let tiers: Vec<String> = t.tiers.iter().map(|(s, n)| format!("{} {n}", s.name())).collect();
    tiers.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Outcome;

    const COLUMNS: [Column<&str>; 4] = [
        Column {
            header: "kind",
            cell: |r| r.kind.to_string(),
            total: None,
        },
        Column {
            header: "cases",
            cell: |r| r.tally.cases.to_string(),
            total: Some(|t| t.cases.to_string()),
        },
        Column {
            header: "wrong",
            cell: |r| r.tally.wrong.to_string(),
            total: Some(|t| format!("**{}**", t.wrong)),
        },
        Column {
            header: "tiers",
            cell: |r| tiers(&r.tally),
            total: None,
        },
    ];

    #[test]
    fn a_table_with_its_total_row() {
        let mut a = Tally::default();
        a.add(&Outcome::Placed {
            ideal: true,
            tier: Some(surgical_core::Tier::Exact),
        });
        let mut b = Tally::default();
        b.add(&Outcome::Wrong {
            tier: None,
            damaged: true,
            outside_bytes: 3,
            why: String::new(),
        });
        let rows = [Row { kind: "a", tally: a }, Row { kind: "b", tally: b }];
        assert_eq!(
            render(&COLUMNS, &rows, true),
            "| kind | cases | wrong | tiers |\n|---|---|---|---|\n| a | 1 | 0 | exact 1 |\n| b | 1 | 1 |  |\n\
             | **total** | 2 | **1** | |\n"
        );
        assert!(!render(&COLUMNS, &rows, false).contains("total"));
    }
}
