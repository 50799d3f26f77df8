//! Unit tests of lesson parsing: every rejection names its place.

use super::*;

const GOOD: &str = r#"[lesson]
id = "tiny"
title = "Tiny"
summary = "A tiny lesson."
ticks = 10

[scenario]
sim = "line"
width = 8
height = 4
targets = [[6, 2]]

[[scenario.chasers]]
at = [1, 1]

[[beat]]
at = 0
text = "Hello."
translations = { ja = "こんにちは。" }
overlays = ["grid"]
highlight = ["chaser:0"]
pause = true
"#;

fn err(src: &str) -> LessonError {
    Lesson::parse(src, "t.toml").unwrap_err()
}

fn err_set(src: &str, sets: &[&str]) -> LessonError {
    let o: Vec<Override> = sets.iter().map(|s| Override::parse(s).unwrap()).collect();
    Lesson::parse_with(src, "t.toml", &o).unwrap_err()
}

#[test]
fn a_good_lesson_loads() {
    let l = Lesson::parse(GOOD, "t.toml").unwrap();
    assert_eq!(l.id, "tiny");
    assert_eq!(l.beats.len(), 1);
    assert_eq!(l.beats[0].text_in(Some("ja")), "こんにちは。");
    assert_eq!(l.beats[0].text_in(Some("fr")), "Hello.");
    assert_eq!(l.beat_at(5), Some(0));
    assert_eq!(l.languages(), ["ja"]);
}

#[test]
fn misspelt_scenario_key_names_line_and_column() {
    // A misspelt required key is first of all a missing one.
    let e = err(&GOOD.replace("height = 4", "hieght = 4"));
    assert_eq!(e.file, "t.toml");
    assert!(e.message.contains("missing `height`"), "{e}");
    assert_eq!(
        e.kind,
        LessonErrorKind::Missing {
            key: "height".into()
        }
    );
    let e = err(&GOOD.replace("targets = [[6, 2]]", "targets = [[6, 2]]\nrecompute = true"));
    assert_eq!((e.line, e.column), (12, 1), "{e}");
    assert!(e.message.contains("unknown key `recompute`"), "{e}");
    let key = "recompute".into();
    assert_eq!(
        e.kind,
        LessonErrorKind::UnknownKey {
            key,
            suggestion: None
        }
    );
}

#[test]
fn misspelt_meta_and_beat_keys_are_errors() {
    let e = err(&GOOD.replace("summary =", "sumary ="));
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.contains("sumary"), "{e}");
    let e = err(&GOOD.replace("pause = true", "pauze = true"));
    assert_eq!(e.line, 22, "{e}");
}

#[test]
fn unknown_key_gets_a_hint() {
    let e = err(&GOOD.replace("width = 8", "width = 8\nmax_pth = 3"));
    assert!(e.message.contains("did you mean `max_path`?"), "{e}");
    let (key, suggestion) = ("max_pth".into(), Some("max_path".into()));
    assert_eq!(e.kind, LessonErrorKind::UnknownKey { key, suggestion });
}

#[test]
fn ticks_in_the_scenario_gets_a_pointer_to_lesson() {
    let e = err(&GOOD.replace("width = 8", "width = 8\nticks = 3"));
    assert!(e.message.contains("(`ticks` belongs in [lesson])"), "{e}");
}

#[test]
fn unknown_sim_is_named() {
    let e = err(&GOOD.replace("sim = \"line\"", "sim = \"lyne\""));
    assert_eq!((e.line, e.column), (8, 7), "{e}");
    assert!(
        e.message
            .contains("unknown sim `lyne` (did you mean `line`?)"),
        "{e}"
    );
    let name = "lyne".into();
    assert_eq!(e.kind, LessonErrorKind::UnknownSim { name });
    let e = err(&GOOD.replace("sim = \"line\"\n", ""));
    assert!(e.message.contains("missing `sim`"), "{e}");
    assert_eq!(e.kind, LessonErrorKind::Missing { key: "sim".into() });
}

#[test]
fn out_of_range_and_wrong_types() {
    let e = err(&GOOD.replace("ticks = 10", "ticks = -5"));
    assert_eq!(e.line, 5, "{e}");
    let e = err(&GOOD.replace("width = 8", "width = 0"));
    assert!(e.message.contains("out of range"), "{e}");
    assert_eq!((e.line, e.column), (9, 9), "{e}");
    assert_eq!(
        e.kind,
        LessonErrorKind::OutOfRange {
            key: "width".into()
        }
    );
    let e = err(&GOOD.replace("width = 8", "width = \"8\""));
    assert!(e.message.contains("must be an integer"), "{e}");
    assert_eq!(
        e.kind,
        LessonErrorKind::WrongType {
            key: "width".into()
        }
    );
    let e = err(&GOOD.replace("targets = [[6, 2]]", "targets = [[60, 2]]"));
    assert!(e.message.contains("off the 8×4 grid"), "{e}");
    assert_eq!(e.kind, LessonErrorKind::Invalid);
    let e = err(&GOOD.replace("at = [1, 1]", "at = [1, 99999999999]"));
    assert!(e.message.contains("does not fit in i32"), "{e}");
}

#[test]
fn beats_are_checked() {
    let e = err(&GOOD.replace("at = 0\ntext", "at = 11\ntext"));
    assert!(e.message.contains("after the lesson's 10 ticks"), "{e}");
    let e = err(&GOOD.replace("overlays = [\"grid\"]", "overlays = [\"gird\"]"));
    assert!(e.message.contains("unknown overlay `gird`"), "{e}");
    assert_eq!(e.line, 20);
    let e = err(&GOOD.replace("highlight = [\"chaser:0\"]", "highlight = [\"chaser\"]"));
    assert!(e.message.contains("unknown highlight"), "{e}");
}

#[test]
fn map_errors_point_into_the_file() {
    let src = GOOD.replace(
        "width = 8\nheight = 4\n",
        "map = \"\"\"\n00000000\n0000000\n00000000\n\"\"\"\n",
    );
    let e = err(&src);
    assert_eq!((e.line, e.column), (11, 8), "{e}");
    assert!(e.message.contains("ragged"), "{e}");
    assert_eq!(
        e.kind,
        LessonErrorKind::Map(crate::sim::GridErrorKind::Ragged)
    );
    let e = err(&src.replace("map = \"\"\"", "width = 3\nmap = \"\"\""));
    assert!(e.message.contains("cannot be used with `map`"), "{e}");
}

#[test]
fn a_wall_under_a_chaser_is_refused() {
    let e = err(&GOOD.replace("targets = [[6, 2]]", "targets = [[6, 2]]\nwalls = [[1, 1]]"));
    assert!(e.message.contains("chaser 0 (1,1) is inside a wall"), "{e}");
}

#[test]
fn overrides_apply_and_report_their_argument() {
    let o = [
        Override::parse("chasers.0.recompute_every_tick=true").unwrap(),
        Override::parse("seed=9").unwrap(),
    ];
    let l = Lesson::parse_with(GOOD, "t.toml", &o).unwrap();
    let crate::sim::Scenario::Line(c) = &l.scenario else {
        panic!("a line lesson")
    };
    assert!(c.chasers[0].recompute_every_tick);
    assert_eq!(c.seed, 9);

    let e = err_set(GOOD, &["recompute_every_tick=ture"]);
    assert!(
        e.message
            .starts_with("--set recompute_every_tick=ture: unknown key"),
        "{e}"
    );
    let e = err_set(GOOD, &["chasers.0.recompute_every_tick=ture"]);
    assert!(e.message.contains("must be true or false"), "{e}");
    assert_eq!(e.line, 0);
    let e = err_set(GOOD, &["chasers.3.at=[1,1]"]);
    assert!(e.message.contains("index 3 is past the end"), "{e}");
    assert_eq!(e.kind, LessonErrorKind::Set);
    let e = err_set(GOOD, &["width=99999"]);
    assert!(e.message.contains("out of range"), "{e}");
    let e = Override::parse("novalue").unwrap_err();
    assert_eq!(e.kind, LessonErrorKind::Set);
    assert_eq!(e.to_string(), "--set: `novalue` is not KEY=VALUE");
    let e = Override::parse("bad key=1").unwrap_err();
    assert_eq!((e.kind, e.line), (LessonErrorKind::Set, 0));
}

#[test]
fn not_toml_at_all() {
    let e = err("[lesson\nid = 3");
    assert_eq!((e.line, &e.kind), (1, &LessonErrorKind::Syntax), "{e}");
    let e = err("");
    assert!(e.message.contains("missing field"), "{e}");
    assert_eq!(e.kind, LessonErrorKind::Syntax);
}

#[test]
fn a_question_pauses_and_needs_an_answer_and_every_language() {
    let asked = GOOD.replace(
        "pause = true\n",
        "question = \"Left or right?\"\nquestion_translations = { ja = \"左か右か?\" }\n",
    );
    let two = format!(
        "{asked}\n[[beat]]\nat = 1\ntext = \"Right.\"\ntranslations = {{ ja = \"右。\" }}\n"
    );
    let l = Lesson::parse(&two, "t.toml").unwrap();
    assert!(l.beats[0].pause, "a question always pauses");
    assert_eq!(l.beats[0].question_in(Some("ja")), Some("左か右か?"));
    assert_eq!(l.beats[0].question_in(None), Some("Left or right?"));
    assert_eq!(l.beats[1].question_in(None), None);
    // The last beat cannot ask: nothing would answer.
    let e = err(&asked);
    assert!(e.message.contains("no beat follows"), "{e}");
    assert_eq!(e.line, 17, "at the asking beat's `at`");
    // A question in fewer or other languages than its narration.
    let e = err(&two.replace("question_translations = { ja = \"左か右か?\" }\n", ""));
    assert!(e.message.contains("its question is not"), "{e}");
    let e = err(&two.replace(
        "question_translations = { ja",
        "question_translations = { fr",
    ));
    assert!(e.message.contains("its narration is not"), "{e}");
    let e = err(&two.replace("question = \"Left or right?\"\n", ""));
    assert!(
        e.message.contains("translates a question it does not ask"),
        "{e}"
    );
}

/// `GOOD` with `tables` (variants) before its beat.
fn with_variants(tables: &str) -> String {
    GOOD.replacen("[[beat]]", &format!("{tables}\n[[beat]]"), 1)
}

const TWO: &str = r#"
[[scenario.variants]]
name = "once"
name_translations = { ja = "一度" }

[[scenario.variants]]
name = "every tick"
chasers = [{ at = [1, 2], recompute_every_tick = true }]
"#;

#[test]
fn variants_load_as_panes_with_their_names() {
    let l = Lesson::parse(&with_variants(TWO), "t.toml").unwrap();
    let Scenario::Panes(p) = &l.scenario else {
        panic!("variants make panes")
    };
    assert_eq!(p.len(), 2);
    assert_eq!(l.panes[0].name_in(Some("ja")), "一度");
    assert_eq!(l.panes[1].name_in(Some("ja")), "every tick");
    let (Scenario::Line(a), Scenario::Line(b)) = (&p[0], &p[1]) else {
        panic!("both panes are line scenarios")
    };
    // The variant's key replaced the scenario's; the rest is shared.
    assert_eq!(a.chasers[0].start, crate::sim::Cell::new(1, 1));
    assert_eq!(b.chasers[0].start, crate::sim::Cell::new(1, 2));
    assert!(b.chasers[0].recompute_every_tick && !a.chasers[0].recompute_every_tick);
    assert_eq!(a.grid, b.grid);
}

#[test]
fn overrides_reach_every_pane_or_one() {
    let sets =
        |s: &[&str]| -> Vec<Override> { s.iter().map(|s| Override::parse(s).unwrap()).collect() };
    let src = with_variants(TWO);
    let l = Lesson::parse_with(&src, "t.toml", &sets(&["targets=[[5,3]]"])).unwrap();
    for p in l.scenario.panes() {
        let Scenario::Line(c) = p else { panic!() };
        assert_eq!(c.targets, vec![crate::sim::Cell::new(5, 3)]);
    }
    let l = Lesson::parse_with(&src, "t.toml", &sets(&["variants.0.targets=[[5,3]]"])).unwrap();
    let [Scenario::Line(a), Scenario::Line(b)] = l.scenario.panes() else {
        panic!()
    };
    assert_eq!(a.targets, vec![crate::sim::Cell::new(5, 3)]);
    assert_eq!(b.targets, vec![crate::sim::Cell::new(6, 2)]);
}

#[test]
fn bad_variants_are_refused_at_their_place() {
    let one = "[[scenario.variants]]\nname = \"alone\"\n";
    let e = err(&with_variants(one));
    assert!(e.message.contains("2 to 4 variants"), "{e}");
    assert!(e.line > 0, "{e}");
    let five = one.repeat(5);
    assert!(err(&with_variants(&five)).message.contains("declares 5"));
    let unnamed = "[[scenario.variants]]\nwidth = 9\n[[scenario.variants]]\nname = \"b\"\n";
    let e = err(&with_variants(unnamed));
    assert!(e.message.contains("has no `name`"), "{e}");
    let sim = "[[scenario.variants]]\nname = \"a\"\nsim = \"path\"\n[[scenario.variants]]\nname = \"b\"\n";
    let e = err(&with_variants(sim));
    assert!(e.message.contains("cannot set `sim`"), "{e}");
    assert_eq!(e.line, 18, "{e}");
    let long = format!(
        "[[scenario.variants]]\nname = \"{}\"\n[[scenario.variants]]\nname = \"b\"\n",
        "x".repeat(41)
    );
    assert!(
        err(&with_variants(&long))
            .message
            .contains("1-40 characters")
    );
    let typo =
        "[[scenario.variants]]\nname = \"a\"\nwidht = 9\n[[scenario.variants]]\nname = \"b\"\n";
    let e = err(&with_variants(typo));
    assert!(e.message.contains("widht") && e.line == 18, "{e}");
    let out = "[[scenario.variants]]\nname = \"a\"\ntargets = [[50, 1]]\n[[scenario.variants]]\nname = \"b\"\n";
    assert_eq!(err(&with_variants(out)).line, 18);
}

#[test]
fn variants_share_a_sim_and_a_tick_length() {
    let flock = r#"[lesson]
id = "f"
title = "F"
summary = "F."
ticks = 10

[scenario]
sim = "flock"
model = "weighted"
boids = 3

[[scenario.variants]]
name = "a"

[[scenario.variants]]
name = "b"
dt = 0.5

[[beat]]
at = 0
text = "x"
"#;
    let e = err(flock);
    assert!(e.message.contains("tick length"), "{e}");
    assert_eq!(e.line, 15, "{e}");
    assert!(Lesson::parse(&flock.replace("dt = 0.5", "dt_jitter = 0.5"), "f.toml").is_ok());
    let path = r#"[lesson]
id = "p"
title = "P"
summary = "P."
ticks = 10

[scenario]
sim = "path"
map = """
000
000
"""
start = [0, 0]
goal = [2, 1]

[[scenario.variants]]
name = "a"

[[scenario.variants]]
name = "b"

[[beat]]
at = 0
text = "x"
"#;
    let e = err(path);
    assert!(e.message.contains("[[scenario.searches]]"), "{e}");
}

#[test]
fn a_pane_focus_names_a_variant() {
    let focus = |f: &str, src: &str| {
        src.replace("pause = true", &format!("pause = true\nfocus = [\"{f}\"]"))
    };
    let src = with_variants(TWO);
    assert!(Lesson::parse(&focus("pane:1", &src), "t.toml").is_ok());
    let e = err(&focus("pane:2", &src));
    assert!(e.message.contains("2 variants"), "{e}");
    let e = err(&focus("pane:0", GOOD));
    assert!(e.message.contains("declares no variants"), "{e}");
    // An entity must be in every pane.
    let e = err(&focus("chaser:1", &src));
    assert!(e.message.contains("1 chaser"), "{e}");
}

#[test]
fn titles_and_summaries_translate() {
    let src = GOOD.replace(
        "ticks = 10\n",
        "ticks = 10\ntitle_translations = { ja = \"小さい\" }\nsummary_translations = { ja = \"小さなレッスン。\" }\n",
    );
    let l = Lesson::parse(&src, "t.toml").unwrap();
    assert_eq!(l.title_in(Some("ja")), "小さい");
    assert_eq!(l.title_in(Some("fr")), "Tiny");
    assert_eq!(l.title_in(None), "Tiny");
    assert_eq!(l.summary_in(Some("ja")), "小さなレッスン。");
    assert_eq!(l.summary_in(None), "A tiny lesson.");
    // A bad tag is refused where it stands.
    let e = err(&src.replace("title_translations = { ja", "title_translations = { j"));
    assert!(e.message.contains("`j` is not a language tag"), "{e}");
    assert_eq!(e.line, 6, "{e}");
}

#[test]
fn search_labels_translate() {
    let src = r#"[lesson]
id = "tiny-path"
title = "Tiny path"
summary = "Two searches."
ticks = 10

[scenario]
sim = "path"
map = """
000
000
"""
start = [0, 0]
goal = [2, 1]
label = "plain"
label_translations = { ja = "ふつう" }

[[scenario.searches]]

[[scenario.searches]]
label = "lifo"
tie_break = "lifo"

[[beat]]
at = 0
text = "Hello."
"#;
    let l = Lesson::parse(src, "t.toml").unwrap();
    // The first keeps the top-level label and its translations; the
    // second has its own label and none.
    assert_eq!(l.panes.len(), 2);
    assert_eq!(l.panes[0].name_in(Some("ja")), "ふつう");
    assert_eq!(l.panes[1].name_in(Some("ja")), "lifo");
    let e = err(&src.replace(
        "label_translations = { ja",
        "label_translations = { \"no way\"",
    ));
    assert!(e.message.contains("not a language tag"), "{e}");
    let e = err(&src.replace(
        "label_translations = { ja = \"ふつう\" }",
        "label_translations = 3",
    ));
    assert!(e.message.contains("table of language tag"), "{e}");
}

#[test]
fn moves_are_four_or_eight_per_search() {
    let src = r#"[lesson]
id = "tiny-path"
title = "Tiny path"
summary = "Two searches."
ticks = 10

[scenario]
sim = "path"
map = """
000
000
"""
start = [0, 0]
goal = [2, 1]

[[scenario.searches]]

[[scenario.searches]]
moves = 8
heuristic = "octile"

[[beat]]
at = 0
text = "Hello."
"#;
    let l = Lesson::parse(src, "t.toml").unwrap();
    let Scenario::Path(cfg) = &l.scenario else {
        panic!("not a path scenario");
    };
    let moves: Vec<crate::sim::path::Moves> = cfg.searches.iter().map(|s| s.moves).collect();
    assert_eq!(
        moves,
        [
            crate::sim::path::Moves::Four,
            crate::sim::path::Moves::Eight
        ]
    );
    let e = err(&src.replace("moves = 8", "moves = 6"));
    assert!(
        e.message.contains("`moves` = 6: a cell has 4 or 8 moves"),
        "{e}"
    );
    assert_eq!((e.line, e.column), (19, 9), "{e}");
    let e = err(&src.replace("moves = 8", "moves = 9"));
    assert!(e.message.contains("out of range"), "{e}");
    let e = err(&src.replace("moves = 8", "moves = \"8\""));
    assert!(e.message.contains("must be an integer"), "{e}");
    // At the top level, every search inherits it.
    let top = src.replace("goal = [2, 1]", "goal = [2, 1]\nmoves = 8");
    let l = Lesson::parse(&top, "t.toml").unwrap();
    let Scenario::Path(cfg) = &l.scenario else {
        panic!("not a path scenario");
    };
    assert!(
        cfg.searches
            .iter()
            .all(|s| s.moves == crate::sim::path::Moves::Eight)
    );
}

#[test]
fn a_beat_invites_a_what_if_on_a_varied_key() {
    let invite = "pause = true\ntry = \"eye_height\"\nafter = \"Look.\"\nafter_translations = { ja = \"見て。\" }\n";
    let src = GOOD.replace("pause = true\n", invite);
    let l = Lesson::parse(&src, "t.toml").unwrap();
    assert_eq!(l.beats[0].try_key.as_deref(), Some("eye_height"));
    assert_eq!(l.beats[0].after_in(Some("ja")), Some("見て。"));
    assert_eq!(l.beats[0].after_in(None), Some("Look."));
    for (bad, says, line) in [
        (
            "try = \"seed\"\n",
            "`try = \"seed\"` is not a parameter a class can change while a line sim runs; these are: chasers.N.recompute_every_tick, eye_height",
            "try",
        ),
        (
            "after = \"Look.\"\n",
            "says what to see `after` but names nothing to `try`",
            "after",
        ),
        (
            "try = \"eye_height\"\nafter = \"Look.\"\n",
            "narration is in `ja` but its `after` is not",
            "after",
        ),
        (
            "try = \"eye_height\"\nafter = \" \"\n",
            "beat 1's `after` is empty",
            "after",
        ),
    ] {
        let src = GOOD.replace("pause = true\n", &format!("pause = true\n{bad}"));
        let e = err(&src);
        assert!(e.message.contains(says), "{bad}: {e}");
        let at = src.lines().position(|l| l.starts_with(line)).unwrap() + 1;
        assert_eq!(e.line, at, "{bad}: the line of `{line}`: {e}");
    }
}

#[test]
fn a_lessons_own_inputs_are_read_in_tick_order_and_checked_where_written() {
    let with =
        |list: &str| GOOD.replace("ticks = 10\n", &format!("ticks = 10\ninputs = [{list}]\n"));
    let l = Lesson::parse(
        &with(r#""3:set:eye_height=2", "3:wall:4,0", "7:target:0:5,1""#),
        "t.toml",
    )
    .unwrap();
    assert_eq!(
        l.inputs
            .iter()
            .map(|s| (s.tick, s.input.to_string(), s.line, s.column))
            .collect::<Vec<_>>(),
        [
            (3, "set:eye_height=2".to_owned(), 6, 11),
            (3, "wall:4,0".to_owned(), 6, 33),
            (7, "target:0:5,1".to_owned(), 6, 47),
        ]
    );
    assert_eq!(l.scripted()[&3].len(), 2);
    for (list, says, column) in [
        (
            r#""0:wall:1,1""#,
            "input 1: `0:wall:1,1`: an input comes before a tick's step, so at tick 1 or later",
            11,
        ),
        (
            r#""11:wall:1,1""#,
            "input 1 leads into tick 11, after the lesson's last (`ticks` = 10)",
            11,
        ),
        (
            r#""5:wall:1,1", "4:wall:1,2""#,
            "input 2 is at tick 4, before the previous input (tick 5): inputs go in tick order",
            25,
        ),
        (
            r#""5:paint:1,1""#,
            "input 1: `paint:1,1`: `paint` is not an input (set, wall",
            11,
        ),
        (
            r#""5:set:eye_height=99""#,
            "input `5:set:eye_height=99`: --set eye_height=99: `eye_height` = 99 is out of range: expected 0..=9",
            11,
        ),
        (
            r#""5:set:seed=2""#,
            "input `5:set:seed=2`: `seed` does not change while a line sim runs; the keys that do: chasers.N.recompute_every_tick, eye_height",
            11,
        ),
    ] {
        let e = err(&with(list));
        assert!(
            e.message.starts_with(says) || e.message.contains(says),
            "{list}: {e}"
        );
        assert_eq!((e.line, e.column), (6, column), "{list}: {e}");
    }
    // Each change is checked with the ones before it, and with --set.
    let o = [Override::parse("eye_height=1").unwrap()];
    assert!(Lesson::parse_with(&with(r#""5:set:eye_height=3""#), "t.toml", &o).is_ok());
}
