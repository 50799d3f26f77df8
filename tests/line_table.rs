//! The error-term table of lines in every octant, on the axes, on the
//! diagonals, and of zero length: what `flockstep line` prints.

use flockstep::cli;
use flockstep::sim::Cell;

#[test]
fn error_term_tables_in_every_octant() {
    let o = Cell::new(0, 0);
    let ends = [
        (7, 3),
        (3, 7),
        (-3, 7),
        (-7, 3),
        (-7, -3),
        (-3, -7),
        (3, -7),
        (7, -3),
        (5, 0),
        (0, 5),
        (-5, 0),
        (0, -5),
        (4, 4),
        (-4, 4),
        (4, 2),
        (0, 0),
    ];
    let mut out = String::new();
    for (x, y) in ends {
        out.push_str(&cli::line(o, Cell::new(x, y), false, 1000).unwrap());
        out.push('\n');
    }
    insta::assert_snapshot!("error_term_tables", out);
}

#[test]
fn json_is_exactly_the_documented_shape() {
    let s = cli::line(Cell::new(0, 0), Cell::new(4, 2), true, 1000).unwrap();
    assert_eq!(
        s,
        "{\"cells\": [[1,1],[2,1],[3,2],[4,2]], \"errors\": [0,-4,0,-4]}\n"
    );
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    assert_eq!(v["cells"].as_array().unwrap().len(), 4);
    let empty = cli::line(Cell::new(3, 3), Cell::new(3, 3), true, 1000).unwrap();
    assert_eq!(empty, "{\"cells\": [], \"errors\": []}\n");
}

#[test]
fn overlong_lines_are_refused() {
    let e = cli::line(
        Cell::new(i32::MIN, 0),
        Cell::new(i32::MAX, 0),
        true,
        1_000_000,
    )
    .unwrap_err();
    assert_eq!(e.code, 2);
    assert!(e.message.contains("4294967295 cells"), "{}", e.message);
}
