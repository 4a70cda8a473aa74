//! Evaluation weights, indexed as laid out in `params.rs`.
//!
//! Hand-made starting values (material near common textbook figures, simple centralisation
//! tables); to be replaced by the output of `betacut tune`.

use super::packed::S;
use super::params::NUM_PARAMS;

/// The weights, section by section (see `params::SECTIONS`).
#[rustfmt::skip]
pub const WEIGHTS: [S; NUM_PARAMS] = [
    // material
    S::new(80, 100), S::new(320, 300), S::new(330, 310), S::new(460, 520), S::new(950, 950),
    // psqt pawn
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(3, 8), S::new(3, 8),
    S::new(3, 8), S::new(3, 8), S::new(6, 16), S::new(6, 16), S::new(11, 16), S::new(21, 16),
    S::new(9, 24), S::new(9, 24), S::new(14, 24), S::new(24, 24), S::new(12, 32), S::new(12, 32),
    S::new(17, 32), S::new(27, 32), S::new(15, 40), S::new(15, 40), S::new(15, 40), S::new(15, 40),
    S::new(18, 48), S::new(18, 48), S::new(18, 48), S::new(18, 48), S::new(0, 0), S::new(0, 0),
    S::new(0, 0), S::new(0, 0),
    // psqt knight
    S::new(-32, -24), S::new(-24, -18), S::new(-16, -12), S::new(-8, -6), S::new(-24, -18),
    S::new(-16, -12), S::new(-8, -6), S::new(0, 0), S::new(-16, -12), S::new(-8, -6), S::new(0, 0),
    S::new(8, 6), S::new(-8, -6), S::new(0, 0), S::new(8, 6), S::new(16, 12), S::new(-8, -6),
    S::new(0, 0), S::new(8, 6), S::new(16, 12), S::new(-16, -12), S::new(-8, -6), S::new(0, 0),
    S::new(8, 6), S::new(-24, -18), S::new(-16, -12), S::new(-8, -6), S::new(0, 0),
    S::new(-32, -24), S::new(-24, -18), S::new(-16, -12), S::new(-8, -6),
    // psqt bishop
    S::new(-16, -16), S::new(-12, -12), S::new(-8, -8), S::new(-4, -4), S::new(-12, -12),
    S::new(-8, -8), S::new(-4, -4), S::new(0, 0), S::new(-8, -8), S::new(-4, -4), S::new(0, 0),
    S::new(4, 4), S::new(-4, -4), S::new(0, 0), S::new(4, 4), S::new(8, 8), S::new(-4, -4),
    S::new(0, 0), S::new(4, 4), S::new(8, 8), S::new(-8, -8), S::new(-4, -4), S::new(0, 0),
    S::new(4, 4), S::new(-12, -12), S::new(-8, -8), S::new(-4, -4), S::new(0, 0), S::new(-16, -16),
    S::new(-12, -12), S::new(-8, -8), S::new(-4, -4),
    // psqt rook
    S::new(0, 0), S::new(2, 0), S::new(4, 0), S::new(6, 0), S::new(0, 0), S::new(2, 0),
    S::new(4, 0), S::new(6, 0), S::new(0, 0), S::new(2, 0), S::new(4, 0), S::new(6, 0),
    S::new(0, 0), S::new(2, 0), S::new(4, 0), S::new(6, 0), S::new(0, 0), S::new(2, 0),
    S::new(4, 0), S::new(6, 0), S::new(0, 0), S::new(2, 0), S::new(4, 0), S::new(6, 0),
    S::new(15, 10), S::new(17, 10), S::new(19, 10), S::new(21, 10), S::new(0, 0), S::new(2, 0),
    S::new(4, 0), S::new(6, 0),
    // psqt queen
    S::new(-8, -16), S::new(-6, -12), S::new(-4, -8), S::new(-2, -4), S::new(-6, -12),
    S::new(-4, -8), S::new(-2, -4), S::new(0, 0), S::new(-4, -8), S::new(-2, -4), S::new(0, 0),
    S::new(2, 4), S::new(-2, -4), S::new(0, 0), S::new(2, 4), S::new(4, 8), S::new(-2, -4),
    S::new(0, 0), S::new(2, 4), S::new(4, 8), S::new(-4, -8), S::new(-2, -4), S::new(0, 0),
    S::new(2, 4), S::new(-6, -12), S::new(-4, -8), S::new(-2, -4), S::new(0, 0), S::new(-8, -16),
    S::new(-6, -12), S::new(-4, -8), S::new(-2, -4),
    // psqt king
    S::new(10, -40), S::new(20, -30), S::new(5, -20), S::new(-10, -10), S::new(0, -30),
    S::new(0, -20), S::new(-10, -10), S::new(-20, 0), S::new(-50, -20), S::new(-50, -10),
    S::new(-50, 0), S::new(-50, 10), S::new(-60, -10), S::new(-60, 0), S::new(-60, 10),
    S::new(-60, 20), S::new(-70, -10), S::new(-70, 0), S::new(-70, 10), S::new(-70, 20),
    S::new(-80, -20), S::new(-80, -10), S::new(-80, 0), S::new(-80, 10), S::new(-90, -30),
    S::new(-90, -20), S::new(-90, -10), S::new(-90, 0), S::new(-100, -40), S::new(-100, -30),
    S::new(-100, -20), S::new(-100, -10),
    // knight mobility
    S::new(-16, -16), S::new(-12, -12), S::new(-8, -8), S::new(-4, -4), S::new(0, 0), S::new(4, 4),
    S::new(8, 8), S::new(12, 12), S::new(16, 16),
    // bishop mobility
    S::new(-24, -30), S::new(-20, -25), S::new(-16, -20), S::new(-12, -15), S::new(-8, -10),
    S::new(-4, -5), S::new(0, 0), S::new(4, 5), S::new(8, 10), S::new(12, 15), S::new(16, 20),
    S::new(20, 25), S::new(24, 30), S::new(28, 35),
    // rook mobility
    S::new(-14, -28), S::new(-12, -24), S::new(-10, -20), S::new(-8, -16), S::new(-6, -12),
    S::new(-4, -8), S::new(-2, -4), S::new(0, 0), S::new(2, 4), S::new(4, 8), S::new(6, 12),
    S::new(8, 16), S::new(10, 20), S::new(12, 24), S::new(14, 28),
    // queen mobility
    S::new(-13, -26), S::new(-12, -24), S::new(-11, -22), S::new(-10, -20), S::new(-9, -18),
    S::new(-8, -16), S::new(-7, -14), S::new(-6, -12), S::new(-5, -10), S::new(-4, -8),
    S::new(-3, -6), S::new(-2, -4), S::new(-1, -2), S::new(0, 0), S::new(1, 2), S::new(2, 4),
    S::new(3, 6), S::new(4, 8), S::new(5, 10), S::new(6, 12), S::new(7, 14), S::new(8, 16),
    S::new(9, 18), S::new(10, 20), S::new(11, 22), S::new(12, 24), S::new(13, 26), S::new(14, 28),
    // bishop pair
    S::new(30, 50),
    // rook open file
    S::new(25, 10),
    // rook semi-open file
    S::new(12, 6),
    // knight outpost
    S::new(20, 10),
    // bishop outpost
    S::new(10, 5),
    // doubled pawn
    S::new(-10, -20),
    // isolated pawn
    S::new(-10, -10),
    // backward pawn
    S::new(-8, -8),
    // connected pawn
    S::new(0, 0), S::new(5, 4), S::new(7, 6), S::new(10, 8), S::new(15, 12), S::new(25, 20),
    S::new(40, 32), S::new(0, 0),
    // passed pawn
    S::new(0, 0), S::new(5, 10), S::new(10, 15), S::new(15, 25), S::new(30, 45), S::new(50, 75),
    S::new(80, 120), S::new(0, 0),
    // passed pawn free
    S::new(0, 0), S::new(0, 0), S::new(1, 2), S::new(2, 4), S::new(4, 8), S::new(8, 15),
    S::new(12, 25), S::new(0, 0),
    // passed pawn own king distance
    S::new(0, 0), S::new(0, 0), S::new(0, -2), S::new(0, -3), S::new(0, -5), S::new(0, -8),
    S::new(0, -10), S::new(0, 0),
    // passed pawn enemy king distance
    S::new(0, 0), S::new(0, 0), S::new(0, 2), S::new(0, 4), S::new(0, 8), S::new(0, 12),
    S::new(0, 16), S::new(0, 0),
    // king shield
    S::new(10, 0), S::new(5, 0), S::new(-15, 0),
    // king open file
    S::new(-20, 0),
    // king semi-open file
    S::new(-10, 0),
    // king attack
    S::new(0, 0), S::new(1, 2), S::new(6, 4), S::new(13, 6), S::new(24, 8), S::new(37, 10),
    S::new(54, 12), S::new(73, 14), S::new(96, 16), S::new(121, 18), S::new(150, 20),
    S::new(181, 22), S::new(216, 24), S::new(253, 26), S::new(294, 28), S::new(337, 30),
    S::new(384, 32), S::new(433, 34), S::new(486, 36), S::new(541, 38), S::new(600, 40),
    S::new(600, 42), S::new(600, 44), S::new(600, 46), S::new(600, 48), S::new(600, 50),
    S::new(600, 52), S::new(600, 54), S::new(600, 56), S::new(600, 58), S::new(600, 60),
    S::new(600, 62),
    // threat by pawn
    S::new(40, 30),
    // threat by minor
    S::new(30, 20),
    // threat by rook
    S::new(30, 15),
    // tempo
    S::new(15, 5),
];
