//! The lesson player. So far its clock ([`timeline`]), a pure state
//! machine; the macroquad window that drives it and draws a scene is the
//! viewer issue's.

pub mod timeline;
