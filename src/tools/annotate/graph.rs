//! The evaluation graph of a game as SVG, written by hand (no dependency): White's expected
//! score before the first analysed move and after each one, from 0 (Black wins) to 100 % (White wins), the area under
//! it shaded as White's share; inaccuracies, mistakes and blunders marked in yellow, orange and
//! red; book moves on a blue band; a title with the players, event, date and result, and both
//! axes labelled, so that it reads without the PGN.

use super::analyse::PlyReport;
use super::game::Game;
use super::judge::Verdict;
use crate::board::Color;
use std::fmt::Write;

const WIDTH: f64 = 900.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 55.0;

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The graph's title: `White – Black, Event, Date, Result`, leaving out unknown (`?`) parts.
pub fn title(game: &Game) -> String {
    let known = |name: &str| {
        game.tag(name)
            .filter(|v| !v.is_empty() && !v.starts_with('?'))
            .map(str::to_string)
    };
    let mut parts = vec![format!(
        "{} \u{2013} {}",
        known("White").unwrap_or_else(|| "White".to_string()),
        known("Black").unwrap_or_else(|| "Black".to_string())
    )];
    parts.extend(known("Event"));
    // `1858.??.??` reads as `1858`.
    parts.extend(known("Date").map(|d| d.replace(".??", "")));
    parts.push(game.result.clone());
    parts.join(", ")
}

/// The SVG of `game`'s graph from its analysis `plies` (one per main-line move).
pub fn svg(game: &Game, plies: &[Option<PlyReport>]) -> String {
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let count = plies.len().max(1) as f64;
    // Move i (0-based) is drawn at x of ply i + 1; the start is at ply 0.
    let x = |ply: f64| LEFT + plot_w * ply / count;
    let y = |share: f64| TOP + plot_h * (1.0 - share.clamp(0.0, 1.0));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{}" y="28" text-anchor="middle" font-size="18" font-weight="bold">{}</text>"##,
        WIDTH / 2.0,
        escape(&title(game))
    );
    let _ = writeln!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#3a3a3a"/>"##
    );
    // Book moves.
    let book: Vec<usize> = (0..plies.len())
        .filter(|&i| plies[i].as_ref().is_some_and(|p| p.book))
        .collect();
    if let (Some(&first), Some(&last)) = (book.first(), book.last()) {
        let _ = writeln!(
            s,
            r##"<rect x="{:.1}" y="{}" width="{:.1}" height="8" fill="#4a90d9"/>"##,
            x(first as f64 + 0.5),
            TOP + plot_h + 2.0,
            x(last as f64 + 1.5) - x(first as f64 + 0.5)
        );
    }
    // White's share: the area under the curve.
    let mut points: Vec<(f64, f64)> = Vec::with_capacity(plies.len() + 1);
    if let Some((i, p)) = plies
        .iter()
        .enumerate()
        .find_map(|(i, p)| Some((i, p.as_ref()?)))
    {
        points.push((x(i as f64), y(p.white_before)));
    }
    points.extend(
        plies
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().map(|p| (x(i as f64 + 1.0), y(p.white_expected)))),
    );
    if let (Some(first), Some(last)) = (points.first(), points.last()) {
        let mut path = format!("M {:.1} {:.1}", first.0, y(0.0));
        for (px, py) in &points {
            let _ = write!(path, " L {px:.1} {py:.1}");
        }
        let _ = write!(path, " L {:.1} {:.1} Z", last.0, y(0.0));
        let _ = writeln!(s, r##"<path d="{path}" fill="#f0f0f0"/>"##);
        let line: Vec<String> = points
            .iter()
            .map(|(px, py)| format!("{px:.1},{py:.1}"))
            .collect();
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#d08020" stroke-width="2"/>"##,
            line.join(" ")
        );
    }
    // Grid and y axis: 0, 25, 50, 75, 100 %.
    for step in 0..=4 {
        let share = f64::from(step) / 4.0;
        let dash = if step == 2 {
            ""
        } else {
            r#" stroke-dasharray="4 4""#
        };
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#888888" stroke-width="1"{dash}/>"##,
            LEFT + plot_w,
            yy = y(share)
        );
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{:.1}" text-anchor="end" font-size="12">{}%</text>"##,
            LEFT - 6.0,
            y(share) + 4.0,
            step * 25
        );
    }
    let _ = writeln!(
        s,
        r##"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle" font-size="13">White's expected score</text>"##,
        TOP + plot_h / 2.0
    );
    // x axis: move numbers at White's moves every 5 (every 10 in long games).
    let every = if plies.len() > 120 { 10 } else { 5 };
    for (i, p) in plies.iter().enumerate() {
        let Some(p) = p else { continue };
        if p.mover == Color::White && p.fullmove % every == 0 {
            let xx = x(i as f64 + 1.0);
            let _ = writeln!(
                s,
                r##"<line x1="{xx:.1}" y1="{}" x2="{xx:.1}" y2="{}" stroke="#000000"/><text x="{xx:.1}" y="{}" text-anchor="middle" font-size="12">{}</text>"##,
                TOP + plot_h,
                TOP + plot_h + 12.0,
                TOP + plot_h + 26.0,
                p.fullmove
            );
        }
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{}" text-anchor="middle" font-size="13">move</text>"##,
        LEFT + plot_w / 2.0,
        HEIGHT - 10.0
    );
    // Marks.
    for (i, p) in plies.iter().enumerate() {
        let Some(p) = p else { continue };
        let Some(verdict) = p.judgement.as_ref().and_then(|j| j.verdict) else {
            continue;
        };
        let (colour, radius) = match verdict {
            Verdict::Blunder => ("#e02020", 6.0),
            Verdict::Mistake => ("#f08c00", 5.0),
            Verdict::Inaccuracy => ("#f0d000", 4.0),
            Verdict::Only => continue,
        };
        let _ = writeln!(
            s,
            r##"<g><title>{2}{3} {4}</title><circle cx="{0:.1}" cy="{1:.1}" r="{radius}" fill="{colour}" stroke="#000000"/></g>"##,
            x(i as f64 + 1.0),
            y(p.white_expected),
            p.fullmove,
            if p.mover == Color::White { "." } else { "..." },
            verdict.word()
        );
    }
    // Legend.
    let mut lx = LEFT;
    for (colour, label) in [
        ("#e02020", "blunder"),
        ("#f08c00", "mistake"),
        ("#f0d000", "inaccuracy"),
        ("#4a90d9", "book"),
    ] {
        let _ = writeln!(
            s,
            r##"<circle cx="{:.1}" cy="46" r="5" fill="{colour}" stroke="#000000"/><text x="{:.1}" y="50" font-size="12">{label}</text>"##,
            lx + 5.0,
            lx + 14.0
        );
        lx += 100.0;
    }
    for (colour, label) in [("#f0f0f0", "White's share"), ("#3a3a3a", "Black's share")] {
        let _ = writeln!(
            s,
            r##"<rect x="{lx:.1}" y="41" width="10" height="10" fill="{colour}" stroke="#000000"/><text x="{:.1}" y="50" font-size="12">{label}</text>"##,
            lx + 14.0
        );
        lx += 120.0;
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::super::game::build;
    use super::*;
    use crate::book::pgn::split_games;

    #[test]
    fn the_title_names_players_and_result_and_is_escaped() {
        let raw =
            split_games("[White \"A & B\"]\n[Black \"?\"]\n[Date \"1858.??.??\"]\n1. e4 1-0\n");
        let game = build(&raw[0], 1).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(title(&game), "A & B \u{2013} Black, 1858, 1-0");
        let svg = svg(&game, &[None]);
        assert!(svg.contains("A &amp; B"));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("White's expected score") && svg.contains(">move<"));
    }
}
