//! The lesson player: a thin macroquad window ([`window`]) over pure,
//! window-free parts that tests drive directly — the clock
//! ([`timeline`]), what is being watched ([`session`]) and the app's state
//! machine ([`app`]), which turns commands into timeline, session and view
//! changes. What is drawn comes from [`crate::scene`] and is put
//! together as data by [`draw`] into a [`canvas::Canvas`] (whose text the
//! tests read); floating point exists only in [`window`] and its mesh
//! batcher, to hand pixels to macroquad. The web build
//! adds `web` (wasm32 only): files, downloads and links from the page.

pub mod app;
mod batch;
pub mod canvas;
#[cfg(not(target_arch = "wasm32"))]
pub mod clip;
pub mod compare;
pub mod draw;
pub mod layout;
pub mod link;
pub mod panel;
pub mod session;
pub use crate::scene::text;
pub mod timeline;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod window;
