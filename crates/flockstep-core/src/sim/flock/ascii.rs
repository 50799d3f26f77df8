//! A plain-text picture of a flock, for terminals and for snapshot tests a
//! person can review.
//!
//! The world box seen from above (2-D: x right, y up; 3-D tanks: x right,
//! z up the page, height not shown), 60 × 20 characters. A boid is an
//! arrow pointing where it flies (`→ ↗ ↑ ↖ ← ↙ ↓ ↘`); a character cell with
//! several boids shows their count (`2`–`9`, `*` for more); obstacles'
//! centres are `O`. Below the picture, the first boids' numbers.

use super::{FlockSim, ModelState};
use crate::num::{Angle, Fx};
use crate::sim::Sim;
use std::fmt::Write as _;

const W: i64 = 60;
const H: i64 = 20;
/// How many boids get a line of numbers.
const LISTED: usize = 6;

fn column(v: Fx, lo: Fx, hi: Fx, n: i64) -> Option<usize> {
    let span = hi.to_bits() as i128 - lo.to_bits() as i128;
    let c = (v.to_bits() as i128 - lo.to_bits() as i128) * n as i128 / span;
    (0..n as i128).contains(&c).then_some(c as usize)
}

fn arrow(a: Angle) -> char {
    // Eight sectors centred on the axes and diagonals.
    let sector = (a.0.wrapping_add(1 << 28) >> 29) as usize;
    ['→', '↗', '↑', '↖', '←', '↙', '↓', '↘'][sector]
}

/// The picture and the first boids' numbers.
pub fn render(sim: &FlockSim) -> String {
    let cfg = sim.config();
    let st = sim.state();
    let d3 = cfg.dims == 3;
    // (horizontal, vertical) axes of the picture.
    let (lo_v, hi_v) = if d3 {
        (cfg.world_min.z, cfg.world_max.z)
    } else {
        (cfg.world_min.y, cfg.world_max.y)
    };
    let mut count = vec![0u32; (W * H) as usize];
    let mut dir = vec![' '; (W * H) as usize];
    let mut obstacle = vec![false; (W * H) as usize];
    let place = |x: Fx, v: Fx| -> Option<usize> {
        let c = column(x, cfg.world_min.x, cfg.world_max.x, W)?;
        let r = column(v, lo_v, hi_v, H)?;
        Some((H as usize - 1 - r) * W as usize + c)
    };
    for o in &cfg.obstacles {
        if let Some(i) = place(o.center.x, if d3 { o.center.z } else { o.center.y }) {
            obstacle[i] = true;
        }
    }
    for (id, b) in st.boids.iter().enumerate() {
        let vert = if d3 { b.pos.z } else { b.pos.y };
        let Some(i) = place(b.pos.x, vert) else {
            continue;
        };
        count[i] += 1;
        let a = match &st.model {
            ModelState::Heading { heading } => heading[id],
            _ => Angle::atan2(if d3 { b.vel.z } else { b.vel.y }, b.vel.x),
        };
        dir[i] = arrow(a);
    }
    let mut out = String::new();
    let border = format!("+{}+\n", "-".repeat(W as usize));
    out.push_str(&border);
    for r in 0..H as usize {
        out.push('|');
        for c in 0..W as usize {
            let i = r * W as usize + c;
            out.push(match count[i] {
                0 if obstacle[i] => 'O',
                0 => ' ',
                1 => dir[i],
                n @ 2..=9 => char::from_digit(n, 10).expect("digit"),
                _ => '*',
            });
        }
        out.push_str("|\n");
    }
    out.push_str(&border);
    let _ = writeln!(
        out,
        "tick {}  dt {}  model {}  boids {}  hash {:#018x}",
        st.tick,
        st.dt,
        cfg.model.name(),
        st.boids.len(),
        sim.state_hash()
    );
    for (id, b) in st.boids.iter().take(LISTED).enumerate() {
        let _ = write!(out, "boid {id}: pos ({}, {}", b.pos.x, b.pos.y);
        if d3 {
            let _ = write!(out, ", {}", b.pos.z);
        }
        let _ = write!(out, ") vel ({}, {}", b.vel.x, b.vel.y);
        if d3 {
            let _ = write!(out, ", {}", b.vel.z);
        }
        out.push(')');
        match &st.model {
            ModelState::Heading { heading } => {
                let _ = write!(out, " heading {}", heading[id]);
            }
            ModelState::Gems { attitude } => {
                let a = attitude[id];
                let _ = write!(out, " pitch {} yaw {} roll {}", a.pitch, a.yaw, a.roll);
            }
            ModelState::Weighted { acc } => {
                let a = acc[id];
                let _ = write!(out, " acc ({}, {}", a.x, a.y);
                if d3 {
                    let _ = write!(out, ", {}", a.z);
                }
                out.push(')');
            }
        }
        out.push('\n');
    }
    out
}
