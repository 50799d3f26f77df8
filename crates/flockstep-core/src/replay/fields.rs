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
