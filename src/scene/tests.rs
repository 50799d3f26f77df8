use super::*;

#[test]
fn places_round_half_away_from_zero() {
    let v = Fx::from_ratio(5, 8).unwrap();
    assert_eq!(fx_places(v, 2), "0.63");
    assert_eq!(fx_places(-v, 2), "-0.63");
    assert_eq!(fx_places(v, 0), "1");
    assert_eq!(fx_places(Fx::from_int(3), 3), "3.000");
}

#[test]
fn near_numbers_keep_the_decimals_that_matter() {
    // 1.9999 is below a limit of 2: two decimals would hide it.
    let v = Fx::from_ratio(19_999, 10_000).unwrap();
    assert_eq!(fx2(v), "2.00");
    assert_eq!(fx_near(v, Lang::En), "1.9999");
    assert_eq!(fx_near(Fx::from_int(2), Lang::En), "2.00");
    assert_eq!(fx_near(Fx::from_ratio(5, 2).unwrap(), Lang::En), "2.50");
    let hair = Fx::from_bits(1);
    assert_eq!(fx_near(Fx::from_int(2) - hair, Lang::En), "just under 2");
    assert_eq!(fx_near(Fx::from_int(2) + hair, Lang::En), "just over 2");
    assert_eq!(
        fx_near(Fx::from_int(2) + hair, Lang::Ja),
        "2 をわずかに超える"
    );
}

#[test]
fn labels_have_a_backing_box_as_wide_as_their_text() {
    let mut s = Scene::default();
    s.label([100, 50], 20, color::TEXT, "boid 0");
    let [Shape::Rect { at, size, .. }, Shape::Text { at: t, .. }] = &s.shapes[..] else {
        panic!("a box then the text: {:?}", s.shapes);
    };
    assert_eq!(*t, [100, 50]);
    assert!(at[0] < 100 && at[1] < 50 - 14 && at[1] + size[1] > 50);
    assert!(size[0] >= text::width("boid 0", 20));
}

#[test]
fn labels_in_a_viewport_stay_inside_it() {
    let vp = Viewport {
        x: 10,
        y: 20,
        w: 300,
        h: 200,
    };
    let mut s = Scene::default();
    s.label_in(vp, [290, 5], 20, color::TEXT, "a long name here");
    let Shape::Rect { at, size, .. } = s.shapes[0] else {
        panic!("a box first");
    };
    assert!(
        at[0] >= vp.x && at[0] + size[0] <= vp.x + vp.w,
        "{at:?} {size:?}"
    );
    assert!(
        at[1] >= vp.y && at[1] + size[1] <= vp.y + vp.h,
        "{at:?} {size:?}"
    );
}

#[test]
fn large_numbers_group_their_thousands() {
    assert_eq!(grouped("100000.00"), "100,000.00");
    assert_eq!(grouped("-62500.00"), "-62,500.00");
    assert_eq!(grouped("4000.00"), "4,000.00");
    assert_eq!(grouped("999.50"), "999.50");
    assert_eq!(grouped("1234567"), "1,234,567");
    assert_eq!(grouped("0.05"), "0.05");
}
