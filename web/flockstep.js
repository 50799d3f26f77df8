// flockstep's page side: a plugin of macroquad's own loader
// (mq_js_bundle.js, copied from the macroquad crate by web/build.sh).
//
// In:  files opened with the Open button or Ctrl+O, or dropped anywhere on
//      the page; `?lesson=ID` and `?lang=TAG` in the address (else the
//      browser's language); the Download button.
// Out: replays to download (Ctrl+S or the button), errors and panics to
//      the console and the page, and the time of the first frame.
//
// The module's side is src/viewer/web.rs. Bytes go in through buffers the
// module allocates (flockstep_alloc) and hands back (flockstep_file,
// flockstep_open_lesson), which take ownership.
"use strict";

(function () {
    const state = {
        // performance.now() when the first frame was on screen.
        firstFrameMs: null,
        // The last error the viewer showed, and a panic if one happened.
        lastError: null,
        panic: null,
        // The last download offered: { name, size }.
        lastDownload: null,
        // The last link made with the Share button.
        lastLink: null,
    };
    window.flockstep = state;

    const $ = (id) => document.getElementById(id);
    // Until the viewer runs (and says its words itself), the loading line
    // in the language the address or the browser asks for.
    {
        const asked = new URLSearchParams(location.search).get("lang") || navigator.language || "";
        const m = $("message");
        if (m && asked.startsWith("ja")) m.textContent = "ビューアーを読み込み中…";
    }
    const text = (ptr, len) =>
        new TextDecoder().decode(new Uint8Array(wasm_memory.buffer, ptr, len));

    // Copies bytes into a fresh buffer in the module's memory. The view is
    // made after the allocation: allocating may grow (and move) memory.
    function put(bytes) {
        const ptr = wasm_exports.flockstep_alloc(bytes.length);
        new Uint8Array(wasm_memory.buffer, ptr, bytes.length).set(bytes);
        return ptr;
    }

    // What the viewer shows: { screen, lesson, tick, last, scrub, rows,
    // error } (see status_json in src/viewer/window.rs).
    state.status = function () {
        const len = wasm_exports.flockstep_status_len();
        return len ? JSON.parse(text(wasm_exports.flockstep_status_ptr(), len)) : null;
    };

    // The page's own words (buttons, hint) in the viewer's language: the
    // viewer's status carries them from its catalogue; applied when the
    // language changes.
    let pageLang = null;
    function pageWords() {
        const page = state.status()?.page;
        if (!page || page.lang === pageLang) return;
        pageLang = page.lang;
        document.documentElement.lang = page.lang;
        const set = (id, text, tip) => {
            const el = $(id);
            if (!el) return;
            el.textContent = text;
            if (tip) el.title = tip;
        };
        set("open", page.open, page.open_tip);
        set("save", page.save, page.save_tip);
        set("save-lesson", page.save_lesson, page.save_lesson_tip);
        set("share", page.share, page.share_tip);
        const hint = document.querySelector("header .hint");
        if (hint) hint.textContent = page.hint;
    }

    function say(message, kind) {
        const el = $("message");
        if (!el) return;
        el.textContent = message;
        el.className = kind || "";
    }

    // Opens a file's bytes in the viewer: a replay or a lesson, told apart
    // and checked by the module exactly as the desktop does.
    state.openFile = function (name, bytes) {
        const n = new TextEncoder().encode(name);
        const np = put(n);
        const dp = put(bytes);
        wasm_exports.flockstep_file(np, n.length, dp, bytes.length);
        focusCanvas();
    };

    // Two files side by side: run a, then run b (the viewer marks where
    // they part).
    state.openPair = function (a, b) {
        const args = [];
        for (const [name, bytes] of [a, b]) {
            const n = new TextEncoder().encode(name);
            args.push(put(n), n.length, put(bytes), bytes.length);
        }
        wasm_exports.flockstep_file_pair(...args);
        focusCanvas();
    };

    async function openFiles(files) {
        if (!files || files.length === 0) return;
        const f = files[0];
        const bytes = new Uint8Array(await f.arrayBuffer());
        if (files.length > 1) {
            const g = files[1];
            state.openPair([f.name, bytes], [g.name, new Uint8Array(await g.arrayBuffer())]);
            if (files.length > 2) say(`compared ${f.name} and ${g.name}; two files at a time`, "");
            return;
        }
        state.openFile(f.name, bytes);
    }

    function focusCanvas() {
        const c = $("glcanvas");
        if (c) c.focus();
    }

    function download(name, bytes) {
        const blob = new Blob([bytes], { type: "application/octet-stream" });
        const a = document.createElement("a");
        a.href = URL.createObjectURL(blob);
        a.download = name;
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(a.href), 60000);
        state.lastDownload = { name, size: bytes.length };
    }

    function register_plugin(importObject) {
        importObject.env.flockstep_js_download = function (np, nl, dp, dl) {
            // Copied out: the module's memory may move after this call.
            download(text(np, nl), new Uint8Array(wasm_memory.buffer, dp, dl).slice());
        };
        importObject.env.flockstep_js_frame_drawn = function () {
            state.firstFrameMs = performance.now();
            document.body.dataset.flockstep = "ready";
            say("", "");
            pageWords();
        };
        importObject.env.flockstep_js_message = function (kind, ptr, len) {
            const m = text(ptr, len);
            if (kind === 2) {
                document.title = m;
            } else if (kind === 3) {
                // A link to the what-if: shown, and copied where allowed.
                const link = location.origin + location.pathname + m;
                state.lastLink = link;
                say(link, "");
                if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
            } else if (kind === 1) {
                state.panic = m;
                document.body.dataset.flockstep = "stopped";
                console.error("flockstep stopped: " + m);
                say("flockstep stopped: " + m + " — reload the page to start again.", "error");
            } else {
                state.lastError = m;
                console.error("flockstep: " + m);
            }
        };
    }

    function on_init() {
        const picker = $("file");
        if (picker) {
            picker.addEventListener("change", () => {
                openFiles(picker.files);
                picker.value = "";
            });
        }
        const open = $("open");
        if (open && picker) open.addEventListener("click", () => picker.click());
        const save = $("save");
        if (save) {
            save.addEventListener("click", () => {
                wasm_exports.flockstep_save();
                focusCanvas();
            });
        }
        for (const [id, call] of [
            ["save-lesson", "flockstep_save_lesson"],
            ["share", "flockstep_share"],
        ]) {
            const b = $(id);
            if (b)
                b.addEventListener("click", () => {
                    wasm_exports[call]();
                    focusCanvas();
                });
        }
        // Right-drag orbits the 3-D tank, as on the desktop: no context
        // menu over the canvas.
        const canvas = $("glcanvas");
        if (canvas) canvas.addEventListener("contextmenu", (e) => e.preventDefault());
        // Dropped files: taken here, in the capture phase, so that the
        // loader's own drop handler (which would truncate non-ASCII names)
        // never sees them.
        window.addEventListener("dragover", (e) => e.preventDefault(), true);
        window.addEventListener(
            "drop",
            (e) => {
                e.preventDefault();
                e.stopPropagation();
                openFiles(e.dataTransfer && e.dataTransfer.files);
            },
            true,
        );
        // Ctrl+O opens the file picker; Ctrl+S, Ctrl+L, Ctrl+ and Ctrl-
        // are the viewer's, as on the desktop, not the browser's (Ctrl+L
        // would take the focus to the address bar).
        window.addEventListener(
            "keydown",
            (e) => {
                if (!(e.ctrlKey || e.metaKey)) return;
                if (e.code === "KeyO") {
                    e.preventDefault();
                    if (picker) picker.click();
                } else if (["KeyS", "KeyL", "Equal", "Minus", "NumpadAdd", "NumpadSubtract"].includes(e.code)) {
                    // Ctrl+S saves the run and Ctrl+L the what-if lesson by
                    // download; Ctrl+ / Ctrl- are the viewer's presenter
                    // mode, not the browser's zoom.
                    e.preventDefault();
                }
            },
            true,
        );
        // The narration language: ?lang=ja, else the browser's own
        // (used only when a lesson is narrated in it).
        const asked = new URLSearchParams(location.search).get("lang");
        const tag = asked || (navigator.language || "").split("-")[0];
        if (tag) {
            const t = new TextEncoder().encode(tag);
            wasm_exports.flockstep_set_lang(put(t), t.length, asked ? 1 : 0);
        }
        // ?lesson=ID, with what-ifs (set=, i=, w=) and a beat: the viewer
        // reads the whole query (src/viewer/link.rs).
        if (new URLSearchParams(location.search).get("lesson")) {
            const q = new TextEncoder().encode(location.search);
            wasm_exports.flockstep_open_link(put(q), q.length);
        }
        focusCanvas();
    }

    miniquad_add_plugin({ register_plugin, on_init, name: "flockstep", version: 1 });

    if (location.protocol === "file:") {
        window.addEventListener("DOMContentLoaded", () =>
            say(
                "Browsers do not load WebAssembly from file:// pages. Serve this folder instead: " +
                    "python3 -m http.server, then open http://127.0.0.1:8000/",
                "error",
            ),
        );
    }
})();
