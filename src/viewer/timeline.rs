//! The lesson player's clock: which tick is shown, and how commands and the
//! passing of real time move it. A pure state machine — no window, no
//! clock of its own, no floating point — so it is tested without a screen
//! and behaves the same under any sequence of frame times.
//!
//! Real time arrives in whole microseconds ([`Timeline::advance`]); the
//! timeline turns it into whole ticks at the current speed and keeps the
//! remainder for the next frame, so ten frames of 10 ms and one frame of
//! 100 ms reach the same tick. The simulation behind it only ever moves in
//! whole ticks; the frame rate decides how often it is looked at, never what
//! it computes.
//!
//! Beats are *steps*, not only ticks: several beats may share a tick, and
//! the clock keeps which beat is shown beside which tick. Every beat is
//! reached by [`Command::NextBeat`] / [`Command::PrevBeat`] and by
//! [`Command::Beat`] (the scrub bar's numbered beat tabs), also when beats
//! share a tick. Arriving at a tick going forward shows its first beat;
//! arriving going backward shows its last (the one in force when the
//! lesson moved on from it).
//!
//! Beats with `pause = true` hold the clock when playback reaches them,
//! however large the frame: the tick shown is exactly the beat's, and
//! playing on (Space or [`Command::Continue`]) releases it — to the next
//! beat of the same tick if there is one (held again if it pauses), else
//! into the ticks after it. The lesson loader makes every beat that shares
//! its tick with a later one pause, so playback never skips a beat unseen.

/// The playback speeds, in thousandths (0.1× … 100×).
pub const SPEEDS: [u32; 10] = [
    100, 250, 500, 1_000, 2_000, 5_000, 10_000, 25_000, 50_000, 100_000,
];

/// The index of 1× in [`SPEEDS`].
const NORMAL: usize = 3;

/// At most this many ticks per frame, whatever the speed and frame time
/// (a stalled frame does not make the player jump far ahead).
pub const MAX_TICKS_PER_FRAME: u64 = 1_000;

/// What a teacher can ask of the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play or pause (Space); playing on releases a held pause beat.
    TogglePlay,
    /// Release a pause beat and play on.
    Continue,
    /// One tick forward (→); pauses.
    StepForward,
    /// One tick back (←); pauses.
    StepBack,
    /// To the next beat (PgDn), which may share the tick; past the last
    /// beat, to the last tick. Pauses.
    NextBeat,
    /// To the current beat's start, or the beat before if already there
    /// (PgUp); pauses.
    PrevBeat,
    /// To a tick (the scrub bar); pauses. Clamped to the available ticks.
    Scrub(u64),
    /// To beat `i` (0-based; a beat tab of the scrub bar, `render --beat`);
    /// pauses, and holds if the beat pauses.
    Beat(usize),
    /// The next faster speed (+).
    Faster,
    /// The next slower speed (−).
    Slower,
    /// Back to tick 0 and the first beat if it is there, paused, at 1×
    /// (Home).
    Restart,
}

/// A beat as the clock sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The tick it applies from.
    pub at: u64,
    /// Whether playback stops there.
    pub pause: bool,
}

/// The clock of one lesson or replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    tick: u64,
    last: u64,
    playing: bool,
    speed: usize,
    tick_us: u64,
    carry: u64,
    marks: Vec<Mark>,
    /// The beat shown, by index into `marks`.
    beat: Option<usize>,
    /// The pause beat holding the clock, by index into `marks`.
    held: Option<usize>,
    /// Pause beats already released (each holds once per pass; going back
    /// before one re-arms it).
    released: Vec<bool>,
}

impl Timeline {
    /// A paused clock at tick 0 over ticks `0..=last`, where one tick lasts
    /// `tick_us` microseconds at 1× (at least 1), with the lesson's beats
    /// (in lesson order, which is tick order; a stable sort keeps the
    /// order of beats that share a tick).
    pub fn new(last: u64, tick_us: u64, marks: &[Mark]) -> Timeline {
        let mut marks = marks.to_vec();
        marks.sort_by_key(|m| m.at);
        let mut t = Timeline {
            beat: None,
            tick: 0,
            last,
            playing: false,
            speed: NORMAL,
            tick_us: tick_us.max(1),
            carry: 0,
            released: vec![false; marks.len()],
            marks,
            held: None,
        };
        t.beat = t.arriving(0, true);
        t.hold_if_due();
        t
    }

    /// The tick shown.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The last tick available.
    pub fn last(&self) -> u64 {
        self.last
    }

    /// Makes more ticks available (a live lesson simulated further).
    pub fn extend_to(&mut self, last: u64) {
        self.last = self.last.max(last);
    }

    /// Whether the clock runs.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// The speed in thousandths (1000 = 1×).
    pub fn speed_milli(&self) -> u32 {
        SPEEDS[self.speed]
    }

    /// The beat shown (`None` before the first beat's tick).
    pub fn beat(&self) -> Option<usize> {
        self.beat
    }

    /// The beats, in order.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// The pause beat holding the clock, if any.
    pub fn held(&self) -> Option<usize> {
        self.held
    }

    /// Applies a command.
    pub fn apply(&mut self, cmd: Command) {
        match cmd {
            Command::TogglePlay if self.playing => self.pause(),
            Command::TogglePlay | Command::Continue => self.play_on(),
            Command::StepForward => {
                let t = self.tick.saturating_add(1);
                self.go(t);
            }
            Command::StepBack => {
                let t = self.tick.saturating_sub(1);
                self.go(t);
            }
            Command::NextBeat => match self.beat.map_or(0, |b| b + 1) {
                i if i < self.marks.len() => self.go_beat(i),
                _ => self.go(self.last),
            },
            Command::PrevBeat => match self.beat {
                Some(b) if self.marks[b].at < self.tick => self.go_beat(b),
                Some(b) if b > 0 => self.go_beat(b - 1),
                _ => self.go(0),
            },
            Command::Beat(i) if i < self.marks.len() => self.go_beat(i),
            Command::Beat(_) => {}
            Command::Scrub(t) => self.go(t),
            Command::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Command::Slower => self.speed = self.speed.saturating_sub(1),
            Command::Restart => {
                self.speed = NORMAL;
                self.go(0);
                if self.marks.first().is_some_and(|m| m.at == 0) {
                    self.go_beat(0);
                }
            }
        }
    }

    /// Releases a held beat and plays on: to the next beat of the same
    /// tick if there is one (held if it pauses), else through the ticks.
    fn play_on(&mut self) {
        if let Some(h) = self.held.take() {
            self.released[h] = true;
        }
        self.carry = 0;
        let next = self.beat.map_or(0, |b| b + 1);
        if self.marks.get(next).is_some_and(|m| m.at == self.tick)
            && self.beat.is_some_and(|b| self.marks[b].at == self.tick)
        {
            self.beat = Some(next);
            self.playing = false;
            self.hold_if_due();
            if self.held.is_none() {
                self.playing = self.tick < self.last;
            }
            return;
        }
        self.playing = self.tick < self.last;
    }

    /// Lets `frame_us` microseconds of real time pass; returns the tick
    /// shown afterwards.
    pub fn advance(&mut self, frame_us: u64) -> u64 {
        if !self.playing {
            return self.tick;
        }
        // carry is in microseconds × thousandths of speed.
        self.carry = self
            .carry
            .saturating_add(frame_us.saturating_mul(u64::from(SPEEDS[self.speed])));
        let per_tick = self.tick_us.saturating_mul(1_000);
        let due = (self.carry / per_tick).min(MAX_TICKS_PER_FRAME);
        self.carry -= due * per_tick;
        if due == MAX_TICKS_PER_FRAME {
            self.carry = 0;
        }
        let mut target = self.tick.saturating_add(due).min(self.last);
        // Stop at the first unreleased pause beat on the way.
        let stop = self
            .marks
            .iter()
            .enumerate()
            .find(|(i, m)| m.pause && !self.released[*i] && m.at > self.tick && m.at <= target)
            .map(|(i, m)| (i, m.at));
        if let Some((_, at)) = stop {
            target = at;
        }
        if target != self.tick {
            self.tick = target;
            self.beat = match stop {
                Some((i, _)) => Some(i),
                None => self.marks.iter().rposition(|m| m.at <= target),
            };
        }
        if self.tick >= self.last {
            self.pause();
        }
        self.hold_if_due();
        self.tick
    }

    fn pause(&mut self) {
        self.playing = false;
        self.carry = 0;
    }

    /// Moves to tick `t` (clamped), paused; the beat shown is the one
    /// [`Timeline::arriving`] there. Pause beats from `t` on are re-armed
    /// (arriving on one shows it held).
    fn go(&mut self, t: u64) {
        let from = self.tick;
        self.settle(t.min(self.last));
        if self.tick != from {
            self.beat = self.arriving(self.tick, self.tick > from);
        }
        self.hold_if_due();
    }

    /// Moves to beat `i` at its tick, paused (held if it pauses).
    fn go_beat(&mut self, i: usize) {
        self.settle(self.marks[i].at.min(self.last));
        self.beat = Some(i);
        self.hold_if_due();
    }

    /// Pauses at tick `t`, re-arming the pause beats from `t` on.
    fn settle(&mut self, t: u64) {
        self.pause();
        self.held = None;
        self.tick = t;
        for (i, m) in self.marks.iter().enumerate() {
            if m.at >= t {
                self.released[i] = false;
            }
        }
    }

    /// The beat shown on arriving at tick `t`: going forward, the first
    /// beat of the tick; going backward (or to a tick without beats), the
    /// last beat at or before it.
    fn arriving(&self, t: u64, forward: bool) -> Option<usize> {
        match self.marks.iter().position(|m| m.at == t) {
            Some(first) if forward => Some(first),
            _ => self.marks.iter().rposition(|m| m.at <= t),
        }
    }

    /// Holds the clock at the beat shown if it pauses, is at this tick
    /// and was not released.
    fn hold_if_due(&mut self) {
        if let Some(i) = self.beat
            && self.marks[i].pause
            && self.marks[i].at == self.tick
            && !self.released[i]
        {
            self.held = Some(i);
            self.pause();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::Pcg32;

    fn marks() -> Vec<Mark> {
        vec![
            Mark { at: 0, pause: true },
            Mark {
                at: 30,
                pause: false,
            },
            Mark {
                at: 60,
                pause: true,
            },
            Mark {
                at: 90,
                pause: false,
            },
        ]
    }

    /// A timeline at 1× where a tick lasts 10 ms.
    fn timeline() -> Timeline {
        Timeline::new(120, 10_000, &marks())
    }

    #[test]
    fn a_pause_beat_at_tick_0_holds_until_play() {
        let mut t = timeline();
        assert_eq!(t.held(), Some(0));
        assert_eq!(t.advance(1_000_000), 0, "paused: time does nothing");
        t.apply(Command::TogglePlay);
        assert!(t.playing());
        assert_eq!(t.advance(95_000), 9, "9.5 ticks: 9, the half carried");
        assert_eq!(t.advance(5_000), 10);
        assert_eq!(t.beat(), Some(0));
    }

    #[test]
    fn any_frame_sequence_reaches_the_same_ticks() {
        let mut rng = Pcg32::new(3, 4);
        for _ in 0..200 {
            let mut a = timeline();
            let mut b = timeline();
            a.apply(Command::TogglePlay);
            b.apply(Command::TogglePlay);
            if rng.chance(1, 2) {
                a.apply(Command::Faster);
                b.apply(Command::Faster);
            }
            // One big frame versus many small ones summing to the same time.
            let total = u64::from(rng.below(500_000));
            let mut left = total;
            while left > 0 {
                let f = u64::from(rng.below(40_000)).min(left).max(1);
                b.advance(f);
                left -= f;
            }
            a.advance(total);
            assert_eq!(a.tick(), b.tick(), "after {total} µs");
            assert_eq!(a.held(), b.held());
        }
    }

    #[test]
    fn playback_stops_exactly_at_a_pause_beat_and_plays_on() {
        let mut t = timeline();
        t.apply(Command::Continue);
        assert_eq!(t.advance(10_000_000), 60, "a 10 s frame still stops at 60");
        assert_eq!(t.held(), Some(2));
        assert!(!t.playing());
        assert_eq!(t.beat(), Some(2));
        t.apply(Command::TogglePlay);
        assert_eq!(t.advance(100_000), 70);
        // Going back before the beat re-arms it.
        t.apply(Command::Scrub(50));
        t.apply(Command::TogglePlay);
        assert_eq!(t.advance(1_000_000), 60);
        // The end pauses.
        t.apply(Command::Continue);
        assert_eq!(t.advance(100_000_000), 120);
        assert!(!t.playing());
    }

    #[test]
    fn steps_beats_scrub_speed_and_restart() {
        let mut t = timeline();
        t.apply(Command::StepBack);
        assert_eq!(t.tick(), 0);
        t.apply(Command::StepForward);
        assert_eq!(t.tick(), 1);
        assert_eq!(t.held(), None);
        t.apply(Command::NextBeat);
        assert_eq!(t.tick(), 30);
        t.apply(Command::NextBeat);
        assert_eq!((t.tick(), t.held()), (60, Some(2)));
        t.apply(Command::StepForward);
        t.apply(Command::PrevBeat);
        assert_eq!(t.tick(), 60, "back to the start of the current beat");
        t.apply(Command::PrevBeat);
        assert_eq!(t.tick(), 30, "already there: the beat before");
        t.apply(Command::Scrub(10_000));
        assert_eq!(t.tick(), 120, "clamped to the last tick");
        t.apply(Command::NextBeat);
        assert_eq!(t.tick(), 120);
        for _ in 0..20 {
            t.apply(Command::Faster);
        }
        assert_eq!(t.speed_milli(), 100_000);
        for _ in 0..20 {
            t.apply(Command::Slower);
        }
        assert_eq!(t.speed_milli(), 100);
        t.apply(Command::Restart);
        assert_eq!((t.tick(), t.speed_milli(), t.held()), (0, 1_000, Some(0)));
    }

    #[test]
    fn speed_scales_time_and_a_stalled_frame_is_bounded() {
        let mut t = Timeline::new(1_000_000, 10_000, &[]);
        t.apply(Command::TogglePlay);
        t.apply(Command::Slower);
        t.apply(Command::Slower);
        t.apply(Command::Slower); // 0.1×
        assert_eq!(t.advance(100_000), 1, "100 ms at 0.1× is one 10 ms tick");
        for _ in 0..10 {
            t.apply(Command::Faster);
        }
        assert_eq!(t.speed_milli(), 100_000);
        assert_eq!(t.advance(10_000), 101, "10 ms at 100× is 100 ticks");
        assert_eq!(t.advance(60_000_000), 101 + MAX_TICKS_PER_FRAME);
        t.extend_to(2_000_000);
        assert_eq!(t.last(), 2_000_000);
    }

    /// `line-error-term`'s shape: three pause beats and a plain one at
    /// tick 0, then beats at 1, 7 and 13.
    fn shared() -> Timeline {
        let m = |at, pause| Mark { at, pause };
        Timeline::new(
            13,
            10_000,
            &[
                m(0, true),
                m(0, true),
                m(0, true),
                m(0, false),
                m(1, false),
                m(7, false),
                m(13, true),
            ],
        )
    }

    #[test]
    fn beats_that_share_a_tick_are_each_a_step() {
        let mut t = shared();
        assert_eq!((t.tick(), t.beat(), t.held()), (0, Some(0), Some(0)));
        // PgDn walks the beats of tick 0 one by one, then on.
        for b in 1..=3 {
            t.apply(Command::NextBeat);
            assert_eq!((t.tick(), t.beat()), (0, Some(b)));
        }
        assert_eq!(t.held(), None, "beat 4 does not pause");
        t.apply(Command::NextBeat);
        assert_eq!((t.tick(), t.beat()), (1, Some(4)));
        // PgUp walks back through them, and Home is beat 1.
        for b in (0..=3).rev() {
            t.apply(Command::PrevBeat);
            assert_eq!((t.tick(), t.beat()), (0, Some(b)));
        }
        t.apply(Command::Beat(5));
        assert_eq!((t.tick(), t.beat()), (7, Some(5)));
        t.apply(Command::Beat(99));
        assert_eq!(t.beat(), Some(5), "no such beat: nothing happens");
        t.apply(Command::Restart);
        assert_eq!((t.tick(), t.beat(), t.held()), (0, Some(0), Some(0)));
    }

    #[test]
    fn space_shows_each_beat_of_a_tick_before_playing_on() {
        let mut t = shared();
        for b in 1..=2 {
            t.apply(Command::TogglePlay);
            assert_eq!((t.tick(), t.beat(), t.held()), (0, Some(b), Some(b)));
            assert!(!t.playing());
            assert_eq!(t.advance(1_000_000), 0, "held: time does nothing");
        }
        t.apply(Command::TogglePlay);
        assert_eq!((t.beat(), t.held()), (Some(3), None));
        assert!(t.playing(), "beat 4 does not pause: play on");
        assert_eq!(t.advance(20_000), 2);
        assert_eq!(t.beat(), Some(4));
        assert_eq!(
            t.advance(1_000_000),
            13,
            "stops at the pause beat at the end"
        );
        assert_eq!((t.beat(), t.held()), (Some(6), Some(6)));
    }

    #[test]
    fn arriving_forward_shows_a_ticks_first_beat_and_backward_its_last() {
        let mut t = shared();
        t.apply(Command::Scrub(5));
        assert_eq!(t.beat(), Some(4));
        t.apply(Command::Scrub(0));
        assert_eq!(
            t.beat(),
            Some(3),
            "backward: the beat in force when leaving tick 0"
        );
        t.apply(Command::StepForward);
        assert_eq!(t.beat(), Some(4));
        t.apply(Command::StepBack);
        assert_eq!((t.beat(), t.held()), (Some(3), None));
        t.apply(Command::Scrub(0));
        assert_eq!(
            t.beat(),
            Some(3),
            "scrubbing to the same tick keeps the beat"
        );
    }
}
