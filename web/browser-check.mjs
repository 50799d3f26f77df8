// Opens the web build in headless Chromium and drives it the way a user
// would, through the DevTools protocol (tests/web.rs runs it and checks
// what it saves):
//
//     node web/browser-check.mjs SITE OUT [FILE...]
//     node web/browser-check.mjs --open SITE OUT FILE
//
// With --open it only drops FILE (a lesson or replay) on the page, waits
// for it to play, lets it run a second, saves OUT/opened.png and prints
// the viewer's status: a site built for a user's sim opening its lesson.
//
// 1. serves SITE on 127.0.0.1 (a port the system picks) and opens it in
//    Chromium with a fresh profile; waits for the first frame and saves
//    OUT/picker.png;
// 2. presses Down, Enter (the second lesson opens; the page title names
//    it), saving every frame shown meanwhile in OUT/frames/ (screencast),
//    waits a moment and saves OUT/lesson.png, presses Ctrl+S and waits
//    for the replay download in OUT/downloads/;
// 3. clicks the line-error-term row of the picker with the mouse (the
//    lesson opens), then the scrub bar at three quarters (the tick moves);
// 4. opens each FILE in turn by dropping it on the canvas and by choosing
//    it in the page's file picker (the downloaded replay, dropped back,
//    plays first), and collects the error the viewer
//    shows; saves OUT/error.png after the last;
// 5. opens ?lesson=…&lang=ja; then a what-if: a brush stroke and a
//    slider click, its download and its share link opened afresh;
// 6. prints one JSON object: timings, titles, the download, the errors.
//
// The protocol runs over Chromium's --remote-debugging-pipe (no port, no
// WebSocket). CHROMIUM names the browser binary (default: chromium).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, extname, join, resolve } from "node:path";

const openOnly = process.argv[2] === "--open";
const [site, out, ...files] = process.argv.slice(openOnly ? 3 : 2);
if (!site || !out) {
    console.error("usage: node web/browser-check.mjs SITE OUT [FILE...]");
    process.exit(2);
}
mkdirSync(join(out, "downloads"), { recursive: true });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fail = (m) => {
    throw new Error(m);
};

// ------------------------------------------------------------ the server
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = resolve(site, "." + (path === "/" ? "/index.html" : path));
    if (!file.startsWith(resolve(site))) {
        res.writeHead(403).end();
        return;
    }
    try {
        const body = readFileSync(file);
        res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
        res.writeHead(404).end();
    }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${server.address().port}/`;

// ----------------------------------------------------------- the browser
const profile = mkdtempSync(join(tmpdir(), "flockstep-chromium-"));
const browser = spawn(
    process.env.CHROMIUM ?? "chromium",
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--enable-unsafe-swiftshader",
        `--user-data-dir=${profile}`,
        "--remote-debugging-pipe",
        "--window-size=1280,720",
        "about:blank",
    ],
    // fd 3: commands to the browser; fd 4: its replies and events, each a
    // JSON message ended by a NUL byte.
    { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
);
let log = "";
browser.stderr.on("data", (d) => (log += d));
let exited = null;
browser.on("exit", (code) => (exited = `Chromium exited (${code}):\n${log}`));

// Closes Chromium and removes its profile. Killed outright, its helper
// processes went on writing into the profile while it was being removed,
// and each run left megabytes in the temp dir: so it is asked to close
// (the protocol's Browser.close), waited for, killed only if it hangs,
// and the removal retried.
async function cleanup() {
    const gone = new Promise((r) => (exited ? r() : browser.on("exit", r)));
    const within = (ms) => Promise.race([gone.then(() => true), sleep(ms).then(() => false)]);
    if (!exited) {
        send("Browser.close").catch(() => {});
        if (!(await within(5000))) {
            try {
                browser.kill("SIGKILL");
            } catch {}
            await within(5000);
        }
    }
    server.close();
    try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch {}
}

let next = 1;
const pending = new Map();
const listeners = [];
// Bytes, not text, until a whole message is in: a chunk may end inside
// a UTF-8 sequence.
let inbox = Buffer.alloc(0);
browser.stdio[4].on("data", (chunk) => {
    inbox = Buffer.concat([inbox, chunk]);
    let end;
    while ((end = inbox.indexOf(0)) >= 0) {
        const msg = JSON.parse(inbox.subarray(0, end).toString("utf8"));
        inbox = inbox.subarray(end + 1);
        if (msg.id && pending.has(msg.id)) {
            const { res, rej, method } = pending.get(msg.id);
            pending.delete(msg.id);
            msg.error ? rej(new Error(`${method}: ${msg.error.message}`)) : res(msg.result);
        } else if (msg.method) {
            for (const l of listeners) l(msg);
        }
    }
});
const send = (method, params = {}, sessionId) =>
    new Promise((res, rej) => {
        if (exited) return rej(new Error(exited));
        const id = next++;
        const timer = setTimeout(() => rej(new Error(`${method}: no reply in 60 s\n${log}`)), 60000);
        pending.set(id, {
            res: (v) => (clearTimeout(timer), res(v)),
            rej: (e) => (clearTimeout(timer), rej(e)),
            method,
        });
        browser.stdio[3].write(JSON.stringify({ id, method, params, sessionId }) + "\0");
    });

const result = { url, errors: [], console: [] };
try {
    const { targetId } = await send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    const page = (method, params) => send(method, params, sessionId);
    listeners.push((m) => {
        if (m.method === "Runtime.consoleAPICalled" && m.sessionId === sessionId) {
            result.console.push(m.params.args.map((a) => a.value ?? a.description ?? "").join(" "));
        }
        if (m.method === "Runtime.exceptionThrown" && m.sessionId === sessionId) {
            result.console.push("exception: " + (m.params.exceptionDetails.exception?.description ?? m.params.exceptionDetails.text));
        }
    });
    const downloads = resolve(out, "downloads");
    await send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads, eventsEnabled: true });
    await page("Runtime.enable");
    await page("Page.enable");
    await page("DOM.enable");
    const js = async (expression) => {
        const r = await page("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
        if (r.exceptionDetails) fail(`${expression}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
        return r.result.value;
    };
    const waitFor = async (expression, what, ms = 60000) => {
        const t0 = Date.now();
        for (;;) {
            const v = await js(expression);
            if (v) return v;
            const panic = await js("window.flockstep && window.flockstep.panic");
            if (panic) fail(`the viewer panicked while waiting for ${what}: ${panic}`);
            if (Date.now() - t0 > ms) fail(`timed out after ${ms / 1000} s waiting for ${what}`);
            await sleep(100);
        }
    };
    const shot = async (name) => {
        const { data } = await page("Page.captureScreenshot", { format: "png" });
        writeFileSync(join(out, name), Buffer.from(data, "base64"));
    };
    // A key press as a keyboard makes it: with Ctrl, the Control key goes
    // down first (the viewer asks whether Control is held).
    const key = async (code, key, vk, ctrl = false) => {
        const modifiers = ctrl ? 2 : 0;
        const ev = (type, code, key, vk) =>
            page("Input.dispatchKeyEvent", { type, code, key, windowsVirtualKeyCode: vk, modifiers });
        if (ctrl) await ev("rawKeyDown", "ControlLeft", "Control", 17);
        await ev("rawKeyDown", code, key, vk);
        await sleep(150); // a few frames: the viewer reads keys once per frame
        await ev("keyUp", code, key, vk);
        if (ctrl) await ev("keyUp", "ControlLeft", "Control", 17);
        await sleep(150);
    };

    const t0 = Date.now();
    await page("Page.navigate", { url });
    await waitFor("document.body && document.body.dataset.flockstep === 'ready'", "the first frame");
    result.firstFrameWallMs = Date.now() - t0;
    result.firstFrameMs = await js("window.flockstep.firstFrameMs");
    await sleep(500);
    result.pickerTitle = await js("document.title");
    await shot("picker.png");

    if (openOnly) {
        const [cx, cy] = await js(
            "(() => { const b = document.getElementById('glcanvas').getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; })()",
        );
        const data = { items: [], files: [resolve(files[0])], dragOperationsMask: 1 };
        for (const type of ["dragEnter", "dragOver", "drop"]) {
            await page("Input.dispatchDragEvent", { type, x: cx, y: cy, data });
        }
        await waitFor(
            "(s => s.screen === 'player' && s.lesson)(window.flockstep.status())",
            `${basename(files[0])} to open`,
            30000,
        );
        await key("Space", " ", 32);
        await sleep(1000);
        result.opened = await js("window.flockstep.status()");
        result.title = await js("document.title");
        result.lastError = await js("window.flockstep.lastError");
        await shot("opened.png");
        throw { done: true };
    }

    await js("document.getElementById('glcanvas').focus()");
    await key("ArrowDown", "ArrowDown", 40);
    // Every frame the page shows while the lesson opens, as a user would
    // see them (the first frame of a lesson brings many new glyphs): into
    // OUT/frames/, each as the compositor delivered it.
    const frames = join(out, "frames");
    mkdirSync(frames, { recursive: true });
    let shown = 0;
    listeners.push((m) => {
        if (m.method === "Page.screencastFrame" && m.sessionId === sessionId) {
            writeFileSync(join(frames, `${String(shown++).padStart(3, "0")}.png`), Buffer.from(m.params.data, "base64"));
            page("Page.screencastFrameAck", { sessionId: m.params.sessionId }).catch(() => {});
        }
    });
    await page("Page.startScreencast", { format: "png", everyNthFrame: 1 });
    await key("Enter", "Enter", 13);
    result.lessonTitle = await waitFor(
        "document.title.endsWith('— flockstep') && document.title",
        "the lesson to open",
        30000,
    );
    await sleep(1000);
    await page("Page.stopScreencast");
    result.framesShown = shown;
    await shot("lesson.png");
    await key("KeyS", "s", 83, true);
    result.download = await waitFor("window.flockstep.lastDownload", "the replay download", 30000);
    for (let i = 0; ; i++) {
        const done = readdirSync(downloads).filter((f) => f.endsWith(".fsr"));
        if (done.length) {
            result.downloadFile = join(downloads, done[0]);
            break;
        }
        if (i > 100) fail("the download never reached " + downloads);
        await sleep(100);
    }
    await key("Escape", "Escape", 27);
    result.backTitle = await waitFor(
        "document.title.startsWith('flockstep — pick') && document.title",
        "Esc to go back to the picker",
        30000,
    );

    // Files arrive the real ways: dropped on the canvas (a drag the
    // browser carries out), or chosen in the page's file picker.
    const [cx, cy] = await js(
        "(() => { const b = document.getElementById('glcanvas').getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2]; })()",
    );
    const drop = async (...fs) => {
        const data = { items: [], files: fs.map((f) => resolve(f)), dragOperationsMask: 1 };
        for (const type of ["dragEnter", "dragOver", "drop"]) {
            await page("Input.dispatchDragEvent", { type, x: cx, y: cy, data });
        }
    };
    const pick = async (f) => {
        const { result: input } = await page("Runtime.evaluate", { expression: "document.getElementById('file')" });
        await page("DOM.setFileInputFiles", { files: [resolve(f)], objectId: input.objectId });
    };

    // The downloaded replay, dropped back on the page, plays.
    await drop(result.downloadFile);
    result.droppedReplay = await waitFor(
        "(s => s.screen === 'player' && s.lesson)(window.flockstep.status())",
        "the dropped replay to open",
        30000,
    );
    await key("Escape", "Escape", 27);
    await waitFor("window.flockstep.status().screen === 'picker'", "Esc back to the picker", 30000);

    // Two replays dropped together open side by side (the same run twice:
    // no tick parts them), and D (to the first divergence) has nowhere to go.
    await drop(result.downloadFile, result.downloadFile);
    result.compared = await waitFor(
        "(s => s.screen === 'player' && s.compare && s)(window.flockstep.status())",
        "two dropped replays to open side by side",
        30000,
    );
    if (result.compared.compare.names.length !== 2 || result.compared.compare.first !== null)
        fail("two copies of one run compare as identical: " + JSON.stringify(result.compared.compare));
    await key("Escape", "Escape", 27);
    await waitFor("window.flockstep.status().screen === 'picker'", "Esc back to the picker", 30000);

    // The mouse: click a lesson in the picker, then the scrub bar at
    // three quarters (positions from the viewer's own status).
    const status = () => js("window.flockstep.status()");
    const click = async (x, y) => {
        const [left, top] = await js(
            "(() => { const b = document.getElementById('glcanvas').getBoundingClientRect(); return [b.left, b.top]; })()",
        );
        const at = { x: left + x, y: top + y };
        await page("Input.dispatchMouseEvent", { type: "mouseMoved", ...at, button: "none" });
        await sleep(150);
        await page("Input.dispatchMouseEvent", { type: "mousePressed", ...at, button: "left", buttons: 1, clickCount: 1 });
        await sleep(150);
        await page("Input.dispatchMouseEvent", { type: "mouseReleased", ...at, button: "left", buttons: 0, clickCount: 1 });
        await sleep(150);
    };
    // The wheel scrolls the picker (when it does not fit the page) and
    // scrolls back.
    const wheel = async (dy) => {
        const [left, top] = await js(
            "(() => { const b = document.getElementById('glcanvas').getBoundingClientRect(); return [b.left, b.top]; })()",
        );
        await page("Input.dispatchMouseEvent", { type: "mouseWheel", x: left + 200, y: top + 200, deltaX: 0, deltaY: dy });
        await sleep(300);
    };
    const before = (await status()).rows.map((r) => r.id || r.sim);
    result.pickerGroups = (await status()).rows.filter((r) => r.sim).map((r) => r.sim);
    await wheel(400);
    const after = (await status()).rows.map((r) => r.id || r.sim);
    result.wheel = { shown: before.length, scrolled: before[0] !== after[0], first: after[0] };
    await wheel(-400);
    await wheel(-400);
    const row = (await status()).rows.find((r) => r.id === "line-error-term");
    if (!row) fail("the picker's status lists no line-error-term row");
    await click(row.x + 40, row.y - 4);
    result.mouseTitle = await waitFor(
        "document.title.startsWith('line-error-term') && document.title",
        "a click on a picker row to open its lesson",
        30000,
    );
    await sleep(300);
    const [bx, by, bw, bh] = (await status()).scrub;
    await click(bx + Math.round((bw * 3) / 4), by + Math.round(bh / 2));
    await sleep(500);
    const scrubbed = await status();
    result.scrubbed = { tick: scrubbed.tick, last: scrubbed.last };
    // A click on beat tab 3 goes to beat 3 (which shares tick 0 with
    // beats 1, 2 and 4).
    const [tx, ty, tw, th] = scrubbed.tabs[2];
    await click(tx + Math.round(tw / 2), ty + Math.round(th / 2));
    await sleep(300);
    const tabbed = await status();
    result.tab = { beat: tabbed.beat, tick: tabbed.tick };
    await key("Escape", "Escape", 27);
    await waitFor("window.flockstep.status().screen === 'picker'", "Esc back to the picker", 30000);

    // Bad files, dropped and picked in turn.
    for (const [i, f] of files.entries()) {
        await js("window.flockstep.lastError = null");
        const how = i % 2 === 0 ? "dropped" : "picked";
        await (how === "dropped" ? drop(f) : pick(f));
        const error = await waitFor("window.flockstep.lastError", `the error for ${basename(f)} (${how})`, 30000);
        result.errors.push({ file: basename(f), how, error });
    }
    await sleep(500);
    await shot("error.png");
    result.panic = await js("window.flockstep.panic");

    // A link with ?lesson=…&lang=ja opens the lesson narrated in Japanese.
    await page("Page.navigate", { url: url + "?lesson=line-error-term&lang=ja" });
    await waitFor("document.body && document.body.dataset.flockstep === 'ready'", "the page with ?lang=ja");
    await waitFor("(s => s && s.screen === 'player')(window.flockstep.status())", "the lesson of the link", 30000);
    await sleep(800);
    const ja = await status();
    result.ja = {
        lesson: ja.lesson,
        lang: ja.lang,
        firstFrameMs: await js("window.flockstep.firstFrameMs"),
        open: await js("document.getElementById('open').textContent"),
        hint: await js("document.querySelector('header .hint').textContent"),
        htmlLang: await js("document.documentElement.lang"),
        // The header's Japanese drawn in the viewer's font where the
        // system has none: the face is fetched only when text needs it.
        headerFont: await js(
            "document.fonts.ready.then(() => [...document.fonts].filter(f => f.family.replace(/\"/g, '') === 'flockstep-sans').map(f => f.status).join())",
        ),
    };
    await shot("ja.png");

    // 6. A what-if with the mouse: a brush stroke (M, then a drag over
    // the first search's map) paints walls, a click at the far end of a
    // parameter slider (P) changes the heuristic; the state hash moves
    // and the input count grows; Ctrl+S downloads the run; Share makes a
    // link that, opened afresh, reopens the same run.
    await page("Page.navigate", { url: url + "?lesson=path-heuristics&lang=en" });
    await waitFor("document.body && document.body.dataset.flockstep === 'ready'", "the page for a what-if");
    await waitFor("(s => s && s.screen === 'player' && s.map)(window.flockstep.status())", "path-heuristics", 30000);
    await js("document.getElementById('glcanvas').focus()");
    await sleep(500);
    const steps = async (code, name, vk, n) => {
        for (let i = 0; i < n; i++) await key(code, name, vk);
    };
    await steps("ArrowRight", "ArrowRight", 39, 5);
    const plain = await status();
    await steps("ArrowLeft", "ArrowLeft", 37, 2);
    await key("KeyM", "m", 77);
    const [mx, my, cell] = (await status()).map;
    const at = (cx, cy) => [mx + cx * cell + Math.floor(cell / 2), my + cy * cell + Math.floor(cell / 2)];
    const [left, top] = await js(
        "(() => { const b = document.getElementById('glcanvas').getBoundingClientRect(); return [b.left, b.top]; })()",
    );
    const mouse = (type, [x, y], buttons) =>
        page("Input.dispatchMouseEvent", { type, x: left + x, y: top + y, button: buttons ? "left" : "none", buttons, clickCount: 1 });
    await mouse("mouseMoved", at(12, 5), 0);
    await sleep(150);
    await mouse("mousePressed", at(12, 5), 1);
    for (let y = 5; y <= 9; y++) {
        await mouse("mouseMoved", at(12, y), 1);
        await sleep(200);
    }
    await mouse("mouseReleased", at(12, 9), 0);
    await sleep(300);
    await key("KeyM", "m", 77);
    await steps("ArrowRight", "ArrowRight", 39, 2);
    const painted = await status();
    await key("KeyP", "p", 80);
    const slider = (await status()).panel.sliders.find((s) => s.key === "heuristic");
    if (!slider) fail("the panel shows no heuristic slider: " + JSON.stringify((await status()).panel));
    const [sx, sy, sw, sh] = slider.track;
    await click(sx + sw - 1, sy + Math.floor(sh / 2));
    await sleep(400);
    await steps("ArrowRight", "ArrowRight", 39, 2);
    const changed = await status();
    await steps("ArrowLeft", "ArrowLeft", 37, 2);
    const back = await status();
    await steps("ArrowRight", "ArrowRight", 39, 2);
    const again = await status();
    result.whatif = {
        plain: [plain.tick, plain.hash],
        painted: [painted.tick, painted.hash, painted.inputs],
        slider: { values: slider.values, was: slider.now },
        now: changed.panel.sliders.find((s) => s.key === "heuristic").now,
        changed: [changed.tick, changed.hash, changed.inputs],
        back: [back.tick, back.hash],
        again: [again.tick, again.hash],
    };
    await shot("whatif.png");
    // Tab picks the panel's pane and keeps the keyboard on the canvas
    // (the browser would move the focus); Ctrl+L downloads the what-if
    // as a lesson without taking the focus to the address bar.
    await key("Tab", "Tab", 9);
    const toPane = await status();
    await js("window.flockstep.lastDownload = null");
    await key("KeyL", "l", 76, true);
    const lessonName = (await waitFor("window.flockstep.lastDownload", "the what-if lesson's download", 30000)).name;
    result.whatif.tab = {
        pane: [changed.panel.pane, toPane.panel.pane],
        focus: await js("document.activeElement && document.activeElement.id"),
        lesson: lessonName,
    };
    await js("window.flockstep.lastDownload = null");
    await key("KeyS", "s", 83, true);
    const name = (await waitFor("window.flockstep.lastDownload", "the what-if's download", 30000)).name;
    for (let i = 0; ; i++) {
        if (readdirSync(downloads).includes(name)) {
            result.whatif.download = join(downloads, name);
            break;
        }
        if (i > 100) fail("the what-if download never reached " + downloads);
        await sleep(100);
    }
    await js("document.getElementById('share').click()");
    const link = await waitFor("window.flockstep.lastLink", "the share link", 30000);
    result.whatif.link = link;
    await page("Page.navigate", { url: "about:blank" });
    await page("Page.navigate", { url: link });
    await waitFor("document.body && document.body.dataset.flockstep === 'ready'", "the shared link's page");
    await waitFor(
        `(s => s && s.screen === 'player' && s.inputs === ${changed.inputs})(window.flockstep.status())`,
        "the shared what-if with its inputs",
        30000,
    );
    await sleep(300);
    const reopened = await status();
    result.whatif.reopened = [reopened.tick, reopened.hash, reopened.inputs, reopened.error];
} catch (e) {
    if (!e.done) result.failure = String(e.message ?? e);
} finally {
    await cleanup();
}
console.log(JSON.stringify(result, null, 2));
process.exit(result.failure ? 1 : 0);
