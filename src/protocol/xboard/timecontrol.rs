//! Time controls as XBoard sets them (`level MPS BASE INC`, `st TIME`) and the engine's game
//! clock between `time` commands.

use crate::engine::Clock;
use std::time::Duration;
use thiserror::Error;

/// Longest time value accepted anywhere (about 115 days): keeps all clock arithmetic far from
/// overflow.
const MAX_SECONDS: f64 = 1e7;

/// A malformed time value.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TimeError {
    /// Not a non-negative decimal number of seconds.
    #[error("bad time {0:?}")]
    BadSeconds(String),
    /// The base time of `level` is not `MIN`, `MIN.FRACTION` or `MIN:SEC`.
    #[error("bad base time {0:?}")]
    BadBase(String),
    /// The moves-per-session count of `level` is not a number.
    #[error("bad moves per session {0:?}")]
    BadMoves(String),
    /// `level` needs exactly three arguments.
    #[error("level needs MPS BASE INC")]
    LevelArguments,
}

/// `level MPS BASE INC`: `moves` per session (0 = the whole game), `base` time per session,
/// `increment` added after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per session; 0 means one session for the whole game (incremental or sudden death).
    pub moves: u32,
    /// Time for a session.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// Parses the three arguments of `level`. BASE is minutes (`5`, `0.5`) or minutes and seconds
/// (`0:30`); characters after that are ignored, as the protocol asks. INC is seconds (`0.05`).
pub fn parse_level(args: &[&str]) -> Result<Level, TimeError> {
    let [moves, base, increment] = args else {
        return Err(TimeError::LevelArguments);
    };
    let moves = moves
        .parse::<u32>()
        .map_err(|_| TimeError::BadMoves(moves.to_string()))?;
    Ok(Level {
        moves,
        base: parse_base(base)?,
        increment: parse_seconds(increment)?,
    })
}

/// Parses a non-negative decimal number of seconds (`30`, `0.05`).
pub fn parse_seconds(text: &str) -> Result<Duration, TimeError> {
    let bad = || TimeError::BadSeconds(text.to_string());
    if decimal_prefix(text) != text.len() {
        return Err(bad());
    }
    seconds(text).ok_or_else(bad)
}

/// Length of the leading `DIGITS[.DIGITS]` part of `text` (0 if it does not start with one).
fn decimal_prefix(text: &str) -> usize {
    let b = text.as_bytes();
    let int = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if int == 0 {
        return 0;
    }
    if b.get(int) == Some(&b'.') {
        let frac = b[int + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if frac > 0 {
            return int + 1 + frac;
        }
    }
    int
}

/// Seconds from a string already known to be `DIGITS[.DIGITS]`.
fn seconds(text: &str) -> Option<Duration> {
    let value = text.parse::<f64>().ok()?;
    (value.is_finite() && (0.0..=MAX_SECONDS).contains(&value))
        .then(|| Duration::from_secs_f64(value))
}

fn parse_base(text: &str) -> Result<Duration, TimeError> {
    let bad = || TimeError::BadBase(text.to_string());
    let min_len = decimal_prefix(text);
    if min_len == 0 {
        return Err(bad());
    }
    let minutes = seconds(&text[..min_len]).ok_or_else(bad)?;
    let mut total = minutes.checked_mul(60).ok_or_else(bad)?;
    if let Some(after) = text[min_len..].strip_prefix(':') {
        let sec_len = decimal_prefix(after);
        if sec_len > 0 {
            total += seconds(&after[..sec_len]).ok_or_else(bad)?;
        }
    }
    if total.as_secs_f64() > MAX_SECONDS {
        return Err(bad());
    }
    Ok(total)
}

/// The time a move takes when the interface never set a time control (no `level` or `st`) and
/// never sent the engine's clock (`time`): GNOME Chess 43 drives CECP engines so and keeps its own
/// clock, which the engine cannot see. A move within a few seconds cannot lose on any clock a
/// person plays on, as engines without a clock do.
pub const NO_CLOCK_MOVE_TIME: Duration = Duration::from_secs(2);

/// How the engine's time is limited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// A game clock (`level`): conventional or incremental.
    Level(Level),
    /// At most this long for every move (`st`); unused time does not carry over.
    PerMove(Duration),
    /// Neither `level` nor `st` received: the clock `time` sends, as sudden death, once one has
    /// come; before that [`NO_CLOCK_MOVE_TIME`] a move.
    #[default]
    Unset,
}

/// The engine's and the opponent's clocks: set by `time`/`otim`, and kept up to date by the
/// engine itself (time used, increment, new session) for interfaces that do not send them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    control: TimeControl,
    engine_ms: i64,
    opponent_ms: i64,
    /// The engine's clock as the interface should report it after the engine's last move.
    expected_ms: Option<i64>,
    /// Measured delay the interface adds to every engine move (smoothed), in milliseconds.
    lag_ms: i64,
    /// Whether a `time` command has set the engine's clock since the game started.
    engine_clock_sent: bool,
}

/// Largest interface delay believed (a bigger difference is a clock change, not a delay).
const MAX_LAG_MS: i64 = 2_000;

impl Default for GameClock {
    fn default() -> GameClock {
        GameClock::new(TimeControl::default())
    }
}

impl GameClock {
    /// Clocks at the start of a game under `control`.
    pub fn new(control: TimeControl) -> GameClock {
        let mut clock = GameClock {
            control,
            engine_ms: 0,
            opponent_ms: 0,
            expected_ms: None,
            lag_ms: 0,
            engine_clock_sent: false,
        };
        clock.reset();
        clock
    }

    /// The time control in force.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Sets a new time control and resets both clocks to its start.
    pub fn set_control(&mut self, control: TimeControl) {
        self.control = control;
        self.reset();
    }

    /// Both clocks back to the start of a game.
    pub fn reset(&mut self) {
        let base = match self.control {
            TimeControl::Level(level) => duration_ms(level.base),
            TimeControl::PerMove(_) | TimeControl::Unset => 0,
        };
        self.engine_ms = base;
        self.opponent_ms = base;
        self.expected_ms = None;
        self.engine_clock_sent = false;
    }

    /// `time N`: the engine's clock in centiseconds (may be negative). The first `time` after
    /// an engine move also measures the interface's delay: how much more it charged for that
    /// move than the engine itself measured.
    pub fn set_engine_centis(&mut self, centis: i64) {
        self.engine_ms = centis.saturating_mul(10);
        self.engine_clock_sent = true;
        if let Some(expected) = self.expected_ms.take() {
            let lag = expected.saturating_sub(self.engine_ms);
            if lag <= MAX_LAG_MS {
                let lag = lag.max(0);
                self.lag_ms = if lag >= self.lag_ms {
                    lag
                } else {
                    self.lag_ms - (self.lag_ms - lag) / 4
                };
            }
        }
    }

    /// The interface's measured delay per engine move (zero until measured).
    pub fn lag(&self) -> Duration {
        Duration::from_millis(self.lag_ms.max(0) as u64)
    }

    /// `otim N`: the opponent's clock in centiseconds.
    pub fn set_opponent_centis(&mut self, centis: i64) {
        self.opponent_ms = centis.saturating_mul(10);
    }

    /// Time left on the engine's clock (zero when it has run out).
    pub fn engine_remaining(&self) -> Duration {
        Duration::from_millis(self.engine_ms.max(0) as u64)
    }

    /// Moves to make before the next session, when `moves_made` moves of the engine's colour
    /// have been played (`None` in sudden death, incremental and per-move controls).
    pub fn moves_to_go(&self, moves_made: usize) -> Option<u32> {
        match self.control {
            TimeControl::Level(level) if level.moves > 0 => {
                let done = (moves_made % level.moves as usize) as u32;
                Some(level.moves - done)
            }
            _ => None,
        }
    }

    /// What the interface has told the engine about its time for the next move, after
    /// `moves_made` moves of its colour: a per-move time (`st`) or the game clock. What to keep
    /// back from it for delays is decided by the time manager ([`crate::search::time`]).
    pub fn limits(&self, moves_made: usize) -> (Option<Duration>, Option<Clock>) {
        match self.control {
            TimeControl::PerMove(time) => (Some(time), None),
            TimeControl::Unset if !self.engine_clock_sent => (Some(NO_CLOCK_MOVE_TIME), None),
            TimeControl::Unset => (
                None,
                Some(Clock {
                    remaining: self.engine_remaining(),
                    increment: Duration::ZERO,
                    moves_to_go: None,
                }),
            ),
            TimeControl::Level(level) => (
                None,
                Some(Clock {
                    remaining: self.engine_remaining(),
                    increment: level.increment,
                    moves_to_go: self.moves_to_go(moves_made),
                }),
            ),
        }
    }

    /// Takes `used` off the engine's clock (thinking interrupted by `pause`).
    pub fn spend_engine(&mut self, used: Duration) {
        self.engine_ms = self.engine_ms.saturating_sub(duration_ms(used));
    }

    /// Books an engine move that took `used`, after which the engine's colour has made
    /// `moves_made` moves: time off, increment on, and a new session's time when one starts.
    pub fn charge_engine(&mut self, used: Duration, moves_made: usize) {
        if self.control == TimeControl::Unset && self.engine_clock_sent {
            self.engine_ms = self.engine_ms.saturating_sub(duration_ms(used));
            self.expected_ms = Some(self.engine_ms);
        }
        if let TimeControl::Level(level) = self.control {
            self.engine_ms = self
                .engine_ms
                .saturating_sub(duration_ms(used))
                .saturating_add(duration_ms(level.increment));
            if level.moves > 0 && moves_made > 0 && moves_made.is_multiple_of(level.moves as usize)
            {
                self.engine_ms = self.engine_ms.saturating_add(duration_ms(level.base));
            }
            self.expected_ms = Some(self.engine_ms);
        }
    }
}

fn duration_ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(args: &str) -> Result<Level, TimeError> {
        parse_level(&args.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn level_forms() {
        assert_eq!(
            level("40 5 0"),
            Ok(Level {
                moves: 40,
                base: Duration::from_secs(300),
                increment: Duration::ZERO
            })
        );
        assert_eq!(
            level("40 0:30 0").map(|l| l.base),
            Ok(Duration::from_secs(30))
        );
        assert_eq!(
            level("0 2 12").map(|l| (l.moves, l.base, l.increment)),
            Ok((0, Duration::from_secs(120), Duration::from_secs(12)))
        );
        assert_eq!(
            level("0 0:01 0.01").map(|l| (l.base, l.increment)),
            Ok((Duration::from_secs(1), Duration::from_millis(10)))
        );
        assert_eq!(
            level("0 1:05 0").map(|l| l.base),
            Ok(Duration::from_secs(65))
        );
        assert_eq!(
            level("0 0.5 0").map(|l| l.base),
            Ok(Duration::from_secs(30))
        );
        // Trailing characters after MIN or MIN:SEC are ignored (protocol note).
        assert_eq!(
            level("40 25+5 0").map(|l| l.base),
            Ok(Duration::from_secs(1500))
        );
        assert!(level("40 5").is_err());
        assert!(level("x 5 0").is_err());
        assert!(level("40 :30 0").is_err());
        assert!(level("40 5 -1").is_err());
        assert!(level("40 5 inf").is_err());
        assert!(level("0 99999999999 0").is_err());
    }

    #[test]
    fn seconds() {
        assert_eq!(parse_seconds("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_seconds("0.05"), Ok(Duration::from_millis(50)));
        for bad in ["", "-1", "1e3", "NaN", "1.", ".5", "1.2.3", "99999999999"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn conventional_sessions() {
        let mut clock = GameClock::new(TimeControl::Level(Level {
            moves: 40,
            base: Duration::from_secs(10),
            increment: Duration::ZERO,
        }));
        assert_eq!(clock.moves_to_go(0), Some(40));
        assert_eq!(clock.moves_to_go(39), Some(1));
        assert_eq!(clock.moves_to_go(40), Some(40));
        clock.charge_engine(Duration::from_millis(300), 39);
        assert_eq!(clock.engine_remaining(), Duration::from_millis(9_700));
        clock.charge_engine(Duration::from_millis(700), 40);
        assert_eq!(clock.engine_remaining(), Duration::from_millis(19_000));
        let (_, game) = clock.limits(40);
        assert_eq!(
            game.map(|c| (c.remaining, c.moves_to_go)),
            Some((Duration::from_millis(19_000), Some(40)))
        );
        clock.set_engine_centis(-5);
        assert_eq!(clock.engine_remaining(), Duration::ZERO);
    }

    #[test]
    fn interface_delay_is_measured_from_time_commands() {
        let mut clock = GameClock::new(TimeControl::Level(Level {
            moves: 0,
            base: Duration::from_secs(2),
            increment: Duration::from_millis(50),
        }));
        assert_eq!(clock.lag(), Duration::ZERO);
        // The engine measured 100 ms; the GUI charged 180 ms.
        clock.charge_engine(Duration::from_millis(100), 1);
        clock.set_engine_centis(187);
        assert_eq!(clock.lag(), Duration::from_millis(80));
        // Only the first time after a move measures.
        clock.set_engine_centis(100);
        assert_eq!(clock.lag(), Duration::from_millis(80));
        clock.set_control(TimeControl::Level(Level {
            moves: 0,
            base: Duration::from_secs(2),
            increment: Duration::from_millis(50),
        }));
        clock.set_engine_centis(100);
        // A smaller delay lowers the estimate slowly.
        clock.charge_engine(Duration::from_millis(100), 2);
        clock.set_engine_centis(95);
        assert_eq!(clock.lag(), Duration::from_millis(60));
        // A new time control (larger clock) is no delay.
        clock.charge_engine(Duration::from_millis(100), 3);
        clock.set_engine_centis(100_000);
        assert_eq!(clock.lag(), Duration::from_millis(45));
    }

    #[test]
    fn without_a_time_control_a_move_takes_seconds_until_a_clock_comes() {
        let mut clock = GameClock::default();
        assert_eq!(clock.control(), TimeControl::Unset);
        // GNOME Chess: no `level`, `st` or `time`: a fixed time a move, never a planned session.
        for moves_made in [0, 20, 39, 40, 100] {
            assert_eq!(clock.limits(moves_made), (Some(NO_CLOCK_MOVE_TIME), None));
            clock.charge_engine(Duration::from_secs(2), moves_made + 1);
        }
        assert!(NO_CLOCK_MOVE_TIME <= Duration::from_secs(5));
        // A `time` without `level`: that clock, as sudden death, and counted down between them.
        clock.set_engine_centis(6_000);
        let (movetime, game) = clock.limits(3);
        assert_eq!(movetime, None);
        assert_eq!(
            game.map(|c| (c.remaining, c.increment, c.moves_to_go)),
            Some((Duration::from_secs(60), Duration::ZERO, None))
        );
        clock.charge_engine(Duration::from_secs(1), 4);
        assert_eq!(clock.engine_remaining(), Duration::from_secs(59));
        // A new game forgets the clock until the next `time`.
        clock.reset();
        assert_eq!(clock.limits(0), (Some(NO_CLOCK_MOVE_TIME), None));
        // `level` and `st` replace it.
        clock.set_control(TimeControl::PerMove(Duration::from_millis(500)));
        assert_eq!(clock.limits(0), (Some(Duration::from_millis(500)), None));
    }

    #[test]
    fn incremental_and_per_move() {
        let mut clock = GameClock::new(TimeControl::Level(Level {
            moves: 0,
            base: Duration::from_secs(1),
            increment: Duration::from_millis(10),
        }));
        assert_eq!(clock.moves_to_go(5), None);
        clock.charge_engine(Duration::from_millis(100), 1);
        assert_eq!(clock.engine_remaining(), Duration::from_millis(910));
        let (movetime, game) = clock.limits(1);
        assert_eq!(movetime, None);
        assert_eq!(
            game.map(|c| (c.remaining, c.increment)),
            Some((Duration::from_millis(910), Duration::from_millis(10)))
        );
        clock.set_control(TimeControl::PerMove(Duration::from_secs(2)));
        assert_eq!(clock.limits(3), (Some(Duration::from_secs(2)), None));
    }
}
