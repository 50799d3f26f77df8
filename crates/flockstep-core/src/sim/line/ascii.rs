//! A plain-text picture of a line scenario's state, for terminals and for
//! snapshot tests a person can review.
//!
//! Legend: `.` open ground at height 0, `1`–`9` heights, `#` walls, `+` the
//! cells a chaser still plans to walk, lowercase letters targets (`a` is
//! target 0), uppercase letters chasers (`A` is chaser 0). Later layers draw
//! over earlier ones in that order.

use super::{LineSim, Status};
use crate::sim::{Cell, Sim};
use std::fmt::Write as _;

fn letter(base: u8, i: usize) -> char {
    if i < 26 {
        (base + i as u8) as char
    } else {
        '?'
    }
}

/// The grid with everyone on it, then one line per chaser.
pub fn render(sim: &LineSim) -> String {
    let cfg = sim.config();
    let st = sim.state();
    let (w, h) = (cfg.grid.width() as usize, cfg.grid.height() as usize);
    let mut rows: Vec<Vec<char>> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let c = Cell::new(x as i32, y as i32);
                    match cfg.grid.height_at(c) {
                        None => '#',
                        Some(0) => '.',
                        Some(v) => (b'0' + v) as char,
                    }
                })
                .collect()
        })
        .collect();
    let mut put = |c: Cell, ch: char| {
        if cfg.grid.contains(c) {
            rows[c.y as usize][c.x as usize] = ch;
        }
    };
    for c in &st.chasers {
        if let Some(plan) = c.plan {
            let left = (cfg.max_path as u64).saturating_sub(plan.done()) as usize;
            for s in plan.take(left) {
                put(s.cell, '+');
            }
        }
    }
    for (i, t) in st.targets.iter().enumerate() {
        put(*t, letter(b'a', i));
    }
    for (i, c) in st.chasers.iter().enumerate().rev() {
        put(c.pos, letter(b'A', i));
    }
    let mut out = format!("tick {}  hash {:#018x}\n", st.tick, sim.state_hash());
    for r in rows {
        out.extend(r);
        out.push('\n');
    }
    for (i, (c, cc)) in st.chasers.iter().zip(&cfg.chasers).enumerate() {
        let t = st.targets[cc.target as usize];
        let status = match c.status {
            Status::Ready => "ready".to_owned(),
            Status::Walking => "walking".to_owned(),
            Status::Arrived => "arrived".to_owned(),
            Status::Blocked { wall } => format!("blocked by the wall at {wall}"),
            Status::PlanExhausted => format!("stopped after {} cells of one plan", cfg.max_path),
        };
        let _ = write!(
            out,
            "{} at {} -> {} {}: {status}",
            letter(b'A', i),
            c.pos,
            letter(b'a', cc.target as usize),
            t
        );
        if let Some(p) = &c.plan {
            let l = p.line();
            let _ = write!(out, "; plan {l} step {}/{} f={}", p.done(), l.len(), p.f());
        }
        let sight = |s: &super::Sight| match s.blocker {
            None => "yes".to_owned(),
            Some(b) => format!("no ({b})"),
        };
        let _ = writeln!(
            out,
            "; sees target: {}; seen by it: {}",
            sight(&c.sight),
            sight(&c.sight_back)
        );
    }
    out
}
