// Runs the determinism report in the wasm build under Node.js and prints
// it (see src/selftest.rs; tests/web.rs compares it with the native one):
//
//     node web/selftest.mjs target/web/flockstep.wasm            > report
//     node web/selftest.mjs target/web/flockstep.wasm bench N T  (ticks/s)
//
// The viewer's imports (WebGL, the page) are stubs that throw: the
// exported functions called here never draw.
import { readFileSync } from "node:fs";

const [file, mode, ...args] = process.argv.slice(2);
if (!file) {
    console.error("usage: node web/selftest.mjs FLOCKSTEP.wasm [bench BOIDS TICKS]");
    process.exit(2);
}
const module = new WebAssembly.Module(readFileSync(file));
const imports = {};
for (const i of WebAssembly.Module.imports(module)) {
    imports[i.module] ??= {};
    imports[i.module][i.name] = () => {
        throw new Error(`the selftest called the page import ${i.module}.${i.name}`);
    };
}
const { exports } = new WebAssembly.Instance(module, imports);
const out = (len) =>
    new TextDecoder().decode(new Uint8Array(exports.memory.buffer, exports.flockstep_out_ptr(), len));

if (mode === "bench") {
    const boids = Number(args[0] ?? 1000);
    const ticks = Number(args[1] ?? 100);
    const rounds = Number(args[2] ?? 10);
    exports.flockstep_bench_flock(boids, ticks); // warm-up
    const times = [];
    let hash = 0n;
    for (let r = 0; r < rounds; r++) {
        const t0 = performance.now();
        hash = exports.flockstep_bench_flock(boids, ticks);
        times.push(performance.now() - t0);
    }
    if (hash === 0n) {
        console.error(out(4096));
        process.exit(1);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    // One line, read by benches/wasm.rs.
    console.log(
        `wasm boids ${boids} ticks ${ticks} median_ms ${median.toFixed(3)} ` +
            `ticks_per_s ${((ticks * 1000) / median).toFixed(1)} hash ${BigInt.asUintN(64, hash).toString(16).padStart(16, "0")}`,
    );
} else {
    const len = exports.flockstep_selftest();
    const text = out(len);
    process.stdout.write(text);
    if (text.startsWith("error:")) process.exit(1);
}
