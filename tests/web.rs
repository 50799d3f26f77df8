#[test]
fn tmp() {
    let t = std::time::Instant::now();
    let r = flockstep::selftest::report().unwrap();
    eprintln!("{} lines {:?}", r.lines().count(), t.elapsed());
    let t = std::time::Instant::now();
    let h = flockstep::selftest::bench_flock(1000, 100).unwrap();
    eprintln!("{h:x} {:?}", t.elapsed());
}
