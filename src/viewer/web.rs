//! The page side of the web build (wasm32 only): what the page sends in —
//! files opened with the file picker or dropped on the page, a lesson named
//! in the address (`?lesson=ID`), the Save button — and what the viewer
//! sends out: a replay to download, and word that a frame was drawn.
//!
//! The JavaScript half is `web/flockstep.js`, a plugin of macroquad's own
//! loader (`mq_js_bundle.js`). Bytes cross by the usual route: the page
//! asks [`flockstep_alloc`] for a buffer in the module's memory, fills it,
//! and hands it back with [`flockstep_file`] or [`flockstep_open_lesson`],
//! which take ownership.

use std::cell::RefCell;

/// Something the page asked for.
#[derive(Debug)]
pub enum PageEvent {
    /// A file opened with the file picker or dropped on the page.
    File {
        /// Its name, for messages.
        name: String,
        /// Its contents.
        bytes: Vec<u8>,
    },
    /// Two files opened or dropped together: their runs side by side.
    Pair {
        /// Run a's name and contents.
        a: (String, Vec<u8>),
        /// Run b's.
        b: (String, Vec<u8>),
    },
    /// Open a bundled lesson by id.
    Lesson(String),
    /// Narrate in this language: asked for in the address (`?lang=ja`),
    /// or the browser's language (`asked` false: used only if a lesson
    /// has it).
    Language {
        /// The language tag.
        tag: String,
        /// Whether the address asked for it.
        asked: bool,
    },
    /// Download the session as a replay.
    Save,
    /// Download the what-if as a lesson.
    SaveLesson,
    /// Make a link to the what-if and hand it to the page.
    Share,
    /// Open what a link names (the address's query: `?lesson=…&i=…`).
    Link(String),
}

thread_local! {
    static INBOX: RefCell<Vec<PageEvent>> = const { RefCell::new(Vec::new()) };
    static STATUS: RefCell<String> = const { RefCell::new(String::new()) };
    static TITLE: RefCell<String> = const { RefCell::new(String::new()) };
    static DRAWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Keeps what the viewer shows, as JSON, for the page to read with
/// [`flockstep_status_ptr`] / [`flockstep_status_len`] (the page's
/// `flockstep.status()`; the browser test uses it to find what to click
/// and to check what happened).
pub fn publish_status(json: String) {
    STATUS.with(|s| {
        if *s.borrow() != json {
            *s.borrow_mut() = json;
        }
    });
}

/// Where the status JSON starts in the module's memory.
#[unsafe(no_mangle)]
pub extern "C" fn flockstep_status_ptr() -> *const u8 {
    STATUS.with(|s| s.borrow().as_ptr())
}

/// The status JSON's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn flockstep_status_len() -> usize {
    STATUS.with(|s| s.borrow().len())
}

/// The page's requests since the last call, oldest first.
pub fn take_events() -> Vec<PageEvent> {
    INBOX.with(|i| std::mem::take(&mut *i.borrow_mut()))
}

fn push(e: PageEvent) {
    INBOX.with(|i| i.borrow_mut().push(e));
}

unsafe extern "C" {
    fn flockstep_js_download(name: *const u8, name_len: usize, data: *const u8, data_len: usize);
    fn flockstep_js_frame_drawn();
    fn flockstep_js_message(kind: u32, text: *const u8, len: usize);
}

/// Sets the page's title (the tab shows what is open); the page is told
/// only when it changes.
pub fn set_title(text: &str) {
    TITLE.with(|t| {
        if *t.borrow() != text {
            // SAFETY: as in `report_error`.
            unsafe { flockstep_js_message(2, text.as_ptr(), text.len()) }
            *t.borrow_mut() = text.to_owned();
        }
    });
}

/// The version of the page/module interface; `web/flockstep.js` states
/// the same number and the loader compares them.
#[unsafe(no_mangle)]
pub extern "C" fn flockstep_crate_version() -> u32 {
    1
}

/// Shows an error the viewer also shows in the window on the page's
/// console (and keeps the last one for the browser test).
pub fn report_error(text: &str) {
    // SAFETY: the slice is valid for the call; the page copies it.
    unsafe { flockstep_js_message(0, text.as_ptr(), text.len()) }
}

/// Installs a panic hook that tells the page the viewer stopped, and why:
/// without it a panic in wasm only halts the animation, silently.
pub fn report_panics() {
    std::panic::set_hook(Box::new(|info| {
        let text = info.to_string();
        // SAFETY: as in `report_error`.
        unsafe { flockstep_js_message(1, text.as_ptr(), text.len()) }
    }));
}

/// Offers `bytes` to the user as a file download called `name`.
pub fn download(name: &str, bytes: &[u8]) {
    // SAFETY: both slices are valid for the call; the page copies them
    // before returning.
    unsafe { flockstep_js_download(name.as_ptr(), name.len(), bytes.as_ptr(), bytes.len()) }
}

/// Called after every frame; tells the page when the first one is on
/// screen (it records the time and marks the page ready: the browser test
/// waits for it).
pub fn frame_drawn() {
    if !DRAWN.replace(true) {
        // SAFETY: no arguments; the page only records a time.
        unsafe { flockstep_js_frame_drawn() }
    }
}

/// A zeroed buffer of `len` bytes for the page to fill; ownership passes
/// back with [`flockstep_file`] or [`flockstep_open_lesson`].
#[unsafe(no_mangle)]
pub extern "C" fn flockstep_alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast::<u8>()
}

/// Takes back a buffer made by [`flockstep_alloc`].
///
/// # Safety
/// `ptr` and `len` must come from one [`flockstep_alloc`] call, and the
/// buffer must not be used afterwards.
unsafe fn reclaim(ptr: *mut u8, len: usize) -> Vec<u8> {
    // SAFETY: the caller's promise: a boxed slice of exactly `len` bytes.
    unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) }.into_vec()
}

/// A file from the page: its name (UTF-8) and contents, both in buffers
/// from [`flockstep_alloc`], which this takes.
///
/// # Safety
/// Both buffers must come from [`flockstep_alloc`] with these lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flockstep_file(
    name: *mut u8,
    name_len: usize,
    data: *mut u8,
    data_len: usize,
) {
    // SAFETY: forwarded from the caller.
    let (name, bytes) = unsafe { (reclaim(name, name_len), reclaim(data, data_len)) };
    push(PageEvent::File {
        name: String::from_utf8_lossy(&name).into_owned(),
        bytes,
    });
}

/// Two files from the page, to compare side by side: each its name
/// (UTF-8) and contents, in buffers from [`flockstep_alloc`], which this
/// takes.
///
/// # Safety
/// Every buffer must come from [`flockstep_alloc`] with its length.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flockstep_file_pair(
    a_name: *mut u8,
    a_name_len: usize,
    a_data: *mut u8,
    a_data_len: usize,
    b_name: *mut u8,
    b_name_len: usize,
    b_data: *mut u8,
    b_data_len: usize,
) {
    // SAFETY: forwarded from the caller.
    let (an, ad, bn, bd) = unsafe {
        (
            reclaim(a_name, a_name_len),
            reclaim(a_data, a_data_len),
            reclaim(b_name, b_name_len),
            reclaim(b_data, b_data_len),
        )
    };
    push(PageEvent::Pair {
        a: (String::from_utf8_lossy(&an).into_owned(), ad),
        b: (String::from_utf8_lossy(&bn).into_owned(), bd),
    });
}

/// A bundled lesson to open, by id (UTF-8, in a buffer from
/// [`flockstep_alloc`], which this takes).
///
/// # Safety
/// The buffer must come from [`flockstep_alloc`] with this length.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flockstep_open_lesson(id: *mut u8, id_len: usize) {
    // SAFETY: forwarded from the caller.
    let id = unsafe { reclaim(id, id_len) };
    push(PageEvent::Lesson(String::from_utf8_lossy(&id).into_owned()));
}

/// The narration language (UTF-8, in a buffer from [`flockstep_alloc`],
/// which this takes): `asked` 1 for `?lang=`, 0 for the browser's
/// language.
///
/// # Safety
/// The buffer must come from [`flockstep_alloc`] with this length.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flockstep_set_lang(tag: *mut u8, tag_len: usize, asked: u32) {
    // SAFETY: forwarded from the caller.
    let tag = unsafe { reclaim(tag, tag_len) };
    push(PageEvent::Language {
        tag: String::from_utf8_lossy(&tag).into_owned(),
        asked: asked != 0,
    });
}

/// The page's Save button: download the session as a replay.
#[unsafe(no_mangle)]
pub extern "C" fn flockstep_save() {
    push(PageEvent::Save);
}

/// The page's Save-as-lesson button: download the what-if as a lesson.
#[unsafe(no_mangle)]
pub extern "C" fn flockstep_save_lesson() {
    push(PageEvent::SaveLesson);
}

/// The page's Share button: make a link to the what-if.
#[unsafe(no_mangle)]
pub extern "C" fn flockstep_share() {
    push(PageEvent::Share);
}

/// The address's query (UTF-8, in a buffer from [`flockstep_alloc`],
/// which this takes), to open what it names.
///
/// # Safety
/// The buffer must come from [`flockstep_alloc`] with this length.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn flockstep_open_link(query: *mut u8, len: usize) {
    // SAFETY: forwarded from the caller.
    let q = unsafe { reclaim(query, len) };
    push(PageEvent::Link(String::from_utf8_lossy(&q).into_owned()));
}

/// Hands the page a link's query to show and copy.
pub fn shared(query: &str) {
    // SAFETY: as in `report_error`.
    unsafe { flockstep_js_message(3, query.as_ptr(), query.len()) }
}
