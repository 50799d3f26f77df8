//! A scene's shapes as a few large meshes: every shape becomes triangles
//! in one buffer, handed to macroquad a chunk at a time. Flat shapes are
//! drawn with a material that only colours (no texture lookup, unlike
//! macroquad's default); discs and rings with one whose fragment shader
//! cuts them out of a single quad — 4 vertices where macroquad's
//! `draw_poly_lines` takes 48 — and only they pay for its extra
//! arithmetic. No shape costs a call of its own: llvmpipe pays for every
//! vertex, every call and every fragment. Floating point, as in the rest of the window's
//! drawing code, only hands pixels to macroquad.

use macroquad::miniquad::{BlendFactor, BlendState, BlendValue, Equation};
use macroquad::models::Vertex;
use macroquad::prelude::*;

/// The most vertices and indices handed to macroquad at once (under its
/// per-draw-call capacities, 10,000 and 5,000).
const CHUNK_VERTICES: usize = 8_000;
const CHUNK_INDICES: usize = 4_800;

/// The vertex shaders' common start: macroquad's vertex layout, its two
/// matrices, and the colour passed on.
macro_rules! vertex_head {
    () => {
        r#"#version 100
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;
attribute vec4 normal;
varying lowp vec4 color;
uniform mat4 Model;
uniform mat4 Projection;
"#
    };
}

/// Flat shapes: position and colour.
const FLAT_VERTEX: &str = concat!(
    vertex_head!(),
    r#"void main() {
    gl_Position = Projection * Model * vec4(position, 1);
    color = color0 / 255.0;
}"#
);

/// Flat shapes: their colour, nothing else.
const FLAT_FRAGMENT: &str = r#"#version 100
varying lowp vec4 color;
void main() {
    gl_FragColor = color;
}"#;

/// Round shapes: passes the quad's own coordinates (`uv`, from −1 to 1 across a round
/// shape, 0 for a flat one) and the squared inner radius (`normal.x`, as
/// a fraction of the outer) on to the fragment shader.
const VERTEX: &str = concat!(
    vertex_head!(),
    r#"varying mediump vec2 uv;
varying mediump float inner;
void main() {
    gl_Position = Projection * Model * vec4(position, 1);
    color = color0 / 255.0;
    uv = texcoord;
    inner = normal.x;
}"#
);

/// Round shapes: keeps the pixels whose centre lies inside the unit
/// circle and outside the inner one, by their alpha (a `discard` would
/// cost llvmpipe its fast path for whole blocks: measured 21.4 against
/// 19.9 ms a frame).
const FRAGMENT: &str = r#"#version 100
precision mediump float;
varying lowp vec4 color;
varying mediump vec2 uv;
varying mediump float inner;
void main() {
    float d = dot(uv, uv);
    gl_FragColor = vec4(color.rgb, color.a * step(inner, d) * step(d, 1.0));
}"#;

/// A shape material (made once per thread, on first use): round or flat.
fn material(round: bool) -> Material {
    thread_local! {
        static FLAT: Material = shapes(FLAT_VERTEX, FLAT_FRAGMENT);
        static ROUND: Material = shapes(VERTEX, FRAGMENT);
    }
    if round { &ROUND } else { &FLAT }.with(Material::clone)
}

/// A material from shaders, blending as macroquad's own shapes do.
fn shapes(vertex: &str, fragment: &str) -> Material {
    load_material(
        ShaderSource::Glsl { vertex, fragment },
        MaterialParams {
            pipeline_params: PipelineParams {
                // As macroquad's own shapes: alpha over what is there.
                color_blend: Some(BlendState::new(
                    Equation::Add,
                    BlendFactor::Value(BlendValue::SourceAlpha),
                    BlendFactor::OneMinusValue(BlendValue::SourceAlpha),
                )),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    // in English: a panic message
    .expect("the shape shaders are GLSL 100, which every backend compiles")
}

/// Triangles waiting to be drawn.
#[derive(Default)]
pub struct Batch {
    vertices: Vec<Vertex>,
    indices: Vec<u16>,
    /// Whether what waits is round (discs, rings) or flat.
    round: bool,
}

/// A pixel position.
type Xy = [f32; 2];

fn vertex([x, y]: Xy, [u, v]: Xy, inner: f32, color: Color) -> Vertex {
    Vertex {
        position: vec3(x, y, 0.0),
        uv: vec2(u, v),
        color: color.into(),
        normal: vec4(inner, 0.0, 0.0, 0.0),
    }
}

impl Batch {
    /// Room for `v` more vertices and `i` more indices of a round or
    /// flat shape, drawing what is waiting first if need be.
    fn room(&mut self, v: usize, i: usize, round: bool) {
        if self.vertices.len() + v > CHUNK_VERTICES
            || self.indices.len() + i > CHUNK_INDICES
            || round != self.round
        {
            self.flush();
            self.round = round;
        }
    }

    /// Draws what is waiting, with the shapes' material, and leaves
    /// macroquad's default material in use (text needs it).
    pub fn flush(&mut self) {
        if self.indices.is_empty() {
            return;
        }
        gl_use_material(&material(self.round));
        {
            // SAFETY: the context is macroquad's own, used on its thread
            // between its frame's start and end, as every draw_* call does.
            let gl = unsafe { get_internal_gl() };
            gl.quad_gl.texture(None);
            gl.quad_gl.draw_mode(DrawMode::Triangles);
            gl.quad_gl.geometry(&self.vertices, &self.indices);
        }
        gl_use_default_material();
        self.vertices.clear();
        self.indices.clear();
    }

    /// A triangle.
    pub fn tri(&mut self, p: [Xy; 3], color: Color) {
        self.room(3, 3, false);
        let n = self.vertices.len() as u16;
        for q in p {
            self.vertices.push(vertex(q, [0.0, 0.0], 0.0, color));
        }
        self.indices.extend([n, n + 1, n + 2]);
    }

    /// A quad from its corners in order round it: flat, or round
    /// (`Some(inner)`: the corners are those of the square round a circle,
    /// `inner` the squared fraction of the hole).
    fn quad(&mut self, p: [Xy; 4], round: Option<f32>, color: Color) {
        self.room(4, 6, round.is_some());
        let n = self.vertices.len() as u16;
        let uv = match round {
            Some(_) => [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]],
            None => [[0.0; 2]; 4],
        };
        for (q, t) in p.into_iter().zip(uv) {
            self.vertices
                .push(vertex(q, t, round.unwrap_or(0.0), color));
        }
        self.indices.extend([n, n + 1, n + 2, n, n + 2, n + 3]);
    }

    /// A filled axis-aligned rectangle.
    pub fn rect(&mut self, [x, y]: Xy, [w, h]: Xy, color: Color) {
        self.quad(
            [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
            None,
            color,
        );
    }

    /// A rectangle's outline, `thickness / 2` wide inside its edges (as
    /// macroquad's `draw_rectangle_lines` draws it).
    pub fn outline(&mut self, [x, y]: Xy, [w, h]: Xy, thickness: f32, color: Color) {
        let t = thickness / 2.0;
        self.rect([x, y], [w, t], color);
        self.rect([x, y + h - t], [w, t], color);
        self.rect([x, y + t], [t, h - 2.0 * t], color);
        self.rect([x + w - t, y + t], [t, h - 2.0 * t], color);
    }

    /// A line `thickness` wide from `a` to `b` (square ends at the points).
    pub fn line(&mut self, a: Xy, b: Xy, thickness: f32, color: Color) {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = (dx * dx + dy * dy).sqrt();
        if len < f32::EPSILON {
            return;
        }
        let (tx, ty) = (-dy / len * thickness / 2.0, dx / len * thickness / 2.0);
        self.quad(
            [
                [a[0] + tx, a[1] + ty],
                [b[0] + tx, b[1] + ty],
                [b[0] - tx, b[1] - ty],
                [a[0] - tx, a[1] - ty],
            ],
            None,
            color,
        );
    }

    /// A disc of radius `r` round `c`.
    pub fn disc(&mut self, c: Xy, r: f32, color: Color) {
        self.round(c, r, 0.0, color);
    }

    /// A ring from radius `r` out to `r + thickness` (as macroquad's
    /// `draw_poly_lines` draws it).
    pub fn ring(&mut self, c: Xy, r: f32, thickness: f32, color: Color) {
        let outer = r + thickness;
        let q = r.max(0.0) / outer;
        self.round(c, outer, q * q, color);
    }

    /// The square round a circle of radius `r`, the shader keeping what
    /// lies between the inner circle (`inner` its squared fraction) and
    /// this one.
    fn round(&mut self, [x, y]: Xy, r: f32, inner: f32, color: Color) {
        if r <= 0.0 {
            return;
        }
        self.quad(
            [
                [x - r, y - r],
                [x + r, y - r],
                [x + r, y + r],
                [x - r, y + r],
            ],
            Some(inner),
            color,
        );
    }
}
