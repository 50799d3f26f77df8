//! States as named fields: the generic flattener ([`crate::fields`], which
//! knows no sim) and the leaves of a recorded state of any sim.

pub use crate::fields::*;

/// The leaves of a recorded state. A state of variants names each pane's
/// fields under `panes[i]`, after its `tick` (the panes share it) and the
/// pane count `panes.len`.
pub fn state_leaves(state: &crate::sim::AnyState) -> Vec<Leaf> {
    use crate::sim::AnyState;
    match state {
        AnyState::Line(s) => leaves(s),
        AnyState::Flock(s) => leaves(s),
        AnyState::Path(s) => leaves(s),
        AnyState::Custom(c) => crate::sim::custom::type_of(c.sim)
            .ok_or_else(|| format!("sim {} is not registered", c.sim.0))
            .and_then(|t| t.leaves(&c.bytes).map_err(String::from))
            .unwrap_or_else(|m| {
                vec![Leaf {
                    path: "<error>".into(),
                    value: Value::Str(m),
                }]
            }),
        AnyState::Panes(p) => {
            let mut out = vec![Leaf {
                path: "panes.len".into(),
                value: Value::Uint(p.len() as u128),
            }];
            for (i, s) in p.iter().enumerate() {
                let pane = state_leaves(s);
                // The panes step in lockstep: the first pane's tick is
                // the state's, so `--field tick` reads every replay.
                if i == 0
                    && let Some(t) = pane.iter().find(|l| l.path == "tick")
                {
                    out.insert(0, t.clone());
                }
                out.extend(pane.into_iter().map(|l| Leaf {
                    path: format!("panes[{i}].{}", l.path),
                    value: l.value,
                }));
            }
            out
        }
    }
}

/// The entity a field belongs to, as the viewer names entities
/// (`boids[13].pos.x` → `boid:13`; a flock model's own per-boid state,
/// `model.acc[3]`, → `boid:3`; under `panes[i].`, the pane's entity).
/// `None` for a field of no entity (`tick`, `rng`), and for a user's sim,
/// whose state's lists the viewer cannot tell apart.
pub fn entity_of(path: &str) -> Option<String> {
    let path = match path.strip_prefix("panes[") {
        Some(rest) => rest.split_once("].")?.1,
        None => path,
    };
    let (list, rest) = path.split_once('[')?;
    let id: u32 = rest.split_once(']')?.0.parse().ok()?;
    let kind = match list {
        l if l.starts_with("model.") => "boid",
        "boids" => "boid",
        "chasers" => "chaser",
        "searches" => "search",
        "targets" => "target",
        _ => return None,
    };
    Some(format!("{kind}:{id}"))
}

/// The path of a boid's fields, as [`state_leaves`] names them
/// (`boids[3]`, or `panes[1].boids[3]` in a state of variants).
pub fn boid_path(pane: Option<usize>, id: u32) -> String {
    match pane {
        Some(p) => format!("panes[{p}].boids[{id}]"),
        None => format!("boids[{id}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::entity_of;

    #[test]
    fn a_field_names_its_entity() {
        assert_eq!(entity_of("boids[13].pos.x").as_deref(), Some("boid:13"));
        assert_eq!(
            entity_of("panes[1].chasers[0].pos.x").as_deref(),
            Some("chaser:0")
        );
        assert_eq!(entity_of("searches[2].open").as_deref(), Some("search:2"));
        assert_eq!(entity_of("tick"), None);
        assert_eq!(entity_of("rng.state"), None);
        assert_eq!(entity_of("model.acc[3].x").as_deref(), Some("boid:3"));
        assert_eq!(
            entity_of("panes[0].model.acc[3]").as_deref(),
            Some("boid:3")
        );
        assert_eq!(entity_of("things[2].x"), None);
    }
}
