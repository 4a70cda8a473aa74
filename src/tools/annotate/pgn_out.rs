//! Writing an annotated game as PGN: the input's tags with Betacut's own added, then the main
//! line with an `[%eval]` comment after every analysed move, the judgement glyphs, the best
//! line as a variation after every mistake and blunder, the comments, NAGs and variations of
//! the input kept, a closing summary comment, and lines of at most 80 characters.

use super::analyse::{PlyReport, Sides};
use super::eval::{strip_eval, Eval};
use super::game::{Game, Line};
use super::judge::Verdict;
use super::summary::SideSummary;
use crate::board::{Color, Position};

/// Longest line written.
const WIDTH: usize = 80;
/// Most moves of the engine's best line shown in a variation.
const BEST_LINE_PLIES: usize = 10;

/// What goes into one annotated game besides the game itself.
pub struct Annotations<'a> {
    /// The analysis, one entry per main-line move (`None`: not analysed).
    pub plies: &'a [Option<PlyReport>],
    /// White's and Black's figures.
    pub summary: &'a [SideSummary; 2],
    /// Whose moves were judged.
    pub sides: Sides,
    /// The annotator's name (`Betacut 1.0.0`).
    pub annotator: &'a str,
    /// How each position was searched (`100000 nodes`), for the closing comment.
    pub budget: &'a str,
}

/// The annotated game as PGN text, ending with a blank line.
pub fn write_game(game: &Game, notes: &Annotations) -> String {
    let mut tags = game.tags.clone();
    let mut set = |name: &str, value: String| match tags.iter_mut().find(|(n, _)| n == name) {
        Some(tag) => tag.1 = value,
        None => tags.push((name.to_string(), value)),
    };
    if game.tag("Result").is_none() {
        set("Result", game.result.clone());
    }
    set("Annotator", notes.annotator.to_string());
    for (color, summary) in [
        (Color::White, &notes.summary[0]),
        (Color::Black, &notes.summary[1]),
    ] {
        // A side without a judged move (a game of no moves, or all of them book moves) has
        // no figures: no ACPL of 0 and accuracy of 100 for moves never made.
        if !notes.sides.judges(color) || summary.moves == 0 {
            continue;
        }
        let side = if color == Color::White {
            "White"
        } else {
            "Black"
        };
        set(&format!("{side}ACPL"), summary.acpl().to_string());
        set(
            &format!("{side}Accuracy"),
            format!("{:.1}", summary.accuracy()),
        );
        set(
            &format!("{side}Inaccuracies"),
            summary.inaccuracies.to_string(),
        );
        set(&format!("{side}Mistakes"), summary.mistakes.to_string());
        set(&format!("{side}Blunders"), summary.blunders.to_string());
    }
    let mut out = String::new();
    for (name, value) in &tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    out.push('\n');

    let mut words = Vec::new();
    write_line(&mut words, &game.main, &game.start, Some(notes.plies));
    let mut closing = Vec::new();
    for (color, summary) in [
        (Color::White, &notes.summary[0]),
        (Color::Black, &notes.summary[1]),
    ] {
        if notes.sides.judges(color) {
            let side = if color == Color::White {
                "White"
            } else {
                "Black"
            };
            closing.push(format!("{side}: {}.", summary.text()));
        }
    }
    push_comment(
        &mut words,
        &format!(
            "{}, {}: {}",
            notes.annotator,
            notes.budget,
            closing.join(" ")
        ),
    );
    words.push(game.result.clone());
    out.push_str(&wrap(&words));
    out.push_str("\n\n");
    out
}

/// Appends the words of `line`, played from `start`; `plies` holds the analysis of the main
/// line (none for variations).
fn write_line(
    words: &mut Vec<String>,
    line: &Line,
    start: &Position,
    plies: Option<&[Option<PlyReport>]>,
) {
    for comment in &line.intro {
        push_comment(words, comment);
    }
    let mut pos = start.clone();
    let mut need_number = true;
    for (i, node) in line.nodes.iter().enumerate() {
        let report = plies.and_then(|p| p.get(i)).and_then(Option::as_ref);
        let judgement = report.and_then(|r| r.judgement.as_ref());
        let verdict = judgement.and_then(|j| j.verdict);
        push_number(words, &pos, need_number);
        words.push(node.san.clone());
        let mut nags = node.nags.clone();
        if let Some(verdict) = verdict {
            if !nags.contains(&verdict.nag()) {
                nags.push(verdict.nag());
            }
        }
        words.extend(nags.iter().map(|nag| format!("${nag}")));
        need_number = false;
        if let Some(report) = report {
            let mut parts = Vec::new();
            if let Some(eval) = report.eval_after {
                parts.push(eval.to_string());
            }
            if report.book {
                parts.push("book".to_string());
            }
            if let (Some(verdict), Some(judgement)) = (verdict, judgement) {
                parts.push(match (verdict, judgement.best_line.first()) {
                    (Verdict::Only, _) => "Only move.".to_string(),
                    (_, Some(best)) => format!("{}. {best} was best.", verdict.word()),
                    (_, None) => format!("{}.", verdict.word()),
                });
                if judgement.from_tables {
                    parts.push("(tablebases)".to_string());
                }
            }
            if !parts.is_empty() {
                push_comment(words, &parts.join(" "));
                need_number = true;
            }
        }
        for comment in &node.comments {
            // The main line's old `[%eval]`s give way to Betacut's.
            let text = if plies.is_some() {
                strip_eval(comment)
            } else {
                comment.clone()
            };
            if !text.trim().is_empty() || plies.is_none() {
                push_comment(words, &text);
                need_number = true;
            }
        }
        for variation in &node.variations {
            words.push("(".to_string());
            write_line(words, variation, &pos, None);
            words.push(")".to_string());
            need_number = true;
        }
        if let (Some(Verdict::Mistake | Verdict::Blunder), Some(judgement)) = (verdict, judgement) {
            if !judgement.best_line.is_empty() {
                words.push("(".to_string());
                write_best_line(words, &pos, &judgement.best_line, judgement.best_eval);
                words.push(")".to_string());
                need_number = true;
            }
        }
        pos.make_move(node.mv);
    }
}

/// The engine's line (SAN, legal from `pos`), its evaluation after the first move.
fn write_best_line(words: &mut Vec<String>, pos: &Position, line: &[String], eval: Option<Eval>) {
    let mut pos = pos.clone();
    let mut need_number = true;
    for (i, san) in line.iter().take(BEST_LINE_PLIES).enumerate() {
        let Ok(mv) = pos.parse_san(san) else {
            break;
        };
        push_number(words, &pos, need_number);
        words.push(san.clone());
        need_number = false;
        if let Some(eval) = eval.filter(|_| i == 0) {
            push_comment(words, &eval.to_string());
            need_number = true;
        }
        pos.make_move(mv);
    }
}

/// The move number before a move from `pos`: always before White's, before Black's when
/// `needed` (the first move of a line, or after a comment or variation).
fn push_number(words: &mut Vec<String>, pos: &Position, needed: bool) {
    let number = pos.fullmove_number();
    if pos.side_to_move() == Color::White {
        words.push(format!("{number}."));
    } else if needed {
        words.push(format!("{number}..."));
    }
}

/// A comment as words (so long ones wrap); a `}` inside (from a `;` comment) becomes `)`.
fn push_comment(words: &mut Vec<String>, text: &str) {
    words.push("{".to_string());
    words.extend(
        text.replace('}', ")")
            .split_whitespace()
            .map(str::to_string),
    );
    words.push("}".to_string());
}

/// Words joined by spaces into lines of at most [`WIDTH`] characters (a longer word stands on
/// its own line).
fn wrap(words: &[String]) -> String {
    let mut out = String::new();
    let mut length = 0;
    for word in words {
        if length > 0 && length + 1 + word.len() > WIDTH {
            out.push('\n');
            length = 0;
        } else if length > 0 {
            out.push(' ');
            length += 1;
        }
        out.push_str(word);
        length += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::game::build;
    use super::*;
    use crate::book::pgn::split_games;

    #[test]
    fn the_input_s_annotations_are_written_back() {
        let text = "[Event \"t\"]\n[White \"a \\\"b\\\"\"]\n\n{start} 1. e4 $1 {c1} (1. d4 d5 {v} (1... Nf6)) 1... e5 \
                    {[%eval 0.30] old} 2. Nf3 ; to the end\n2... Nc6 1/2-1/2\n";
        let raw = split_games(text);
        let game = build(&raw[0], 1).unwrap_or_else(|e| panic!("{e}"));
        let summary = [SideSummary::with_moves(2, 0); 2];
        let out = write_game(&game, &notes_without_plies(&summary));
        assert!(out.starts_with("[Event \"t\"]\n[White \"a \\\"b\\\"\"]\n[Result \"1/2-1/2\"]\n[Annotator \"Betacut 1.0.0\"]\n[WhiteACPL \"0\"]\n"), "{out}");
        let movetext: String = out
            .lines()
            .skip_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            movetext.contains("{ start } 1. e4 $1 { c1 } ( 1. d4 d5 { v } ( 1... Nf6 ) ) 1... e5 { old } 2. Nf3 { to the end } 2... Nc6 {"),
            "{movetext}"
        );
        assert!(movetext.trim_end().ends_with("1/2-1/2"));
        assert!(out.lines().all(|l| l.len() <= WIDTH));
    }

    /// Annotations of both sides with these figures and no analysed ply.
    fn notes_without_plies(summary: &[SideSummary; 2]) -> Annotations<'_> {
        Annotations {
            plies: &[],
            summary,
            sides: Sides::Both,
            annotator: "Betacut 1.0.0",
            budget: "1 node",
        }
    }

    #[test]
    fn a_side_without_a_judged_move_gets_no_figures() {
        // A game without moves: neither side made a move, so neither has an ACPL or accuracy.
        let raw = split_games("[Event \"t\"]\n\n*\n");
        let game = build(&raw[0], 1).unwrap_or_else(|e| panic!("{e}"));
        let summary = [SideSummary::with_moves(1, 40), SideSummary::default()];
        let out = write_game(&game, &notes_without_plies(&summary));
        assert!(out.contains("[WhiteACPL \"40\"]"), "{out}");
        assert!(
            !out.contains("BlackACPL") && !out.contains("BlackAccuracy"),
            "{out}"
        );
        assert!(out.contains("Black: no move judged."), "{out}");
        assert!(out.contains("White: ACPL 40,"), "{out}");
    }

    /// One random move: which legal move, its comment, its NAG, its variation's move.
    type Choice = (usize, Option<String>, Option<u8>, Option<usize>);

    /// A game of `choices.len()` moves picked among the legal ones, each move with the comment,
    /// NAG and one-move variation (another legal move) that `choices` gives it.
    fn random_game(choices: &[Choice]) -> Game {
        let raw = split_games("[Event \"random\"]\n*\n");
        let mut game = build(&raw[0], 1).unwrap_or_else(|e| panic!("{e}"));
        let mut pos = game.start.clone();
        for (pick, comment, nag, alternative) in choices {
            let legal: Vec<_> = pos.legal_moves().iter().copied().collect();
            if legal.is_empty() {
                break;
            }
            let mv = legal[pick % legal.len()];
            let mut variations = Vec::new();
            if let Some(alt) = alternative.filter(|_| legal.len() > 1) {
                let other = legal[(pick + 1 + alt % (legal.len() - 1)) % legal.len()];
                variations.push(Line {
                    intro: Vec::new(),
                    nodes: vec![super::super::game::Node {
                        mv: other,
                        san: pos.move_to_san(other),
                        line: 0,
                        nags: Vec::new(),
                        comments: Vec::new(),
                        variations: Vec::new(),
                    }],
                });
            }
            game.main.nodes.push(super::super::game::Node {
                mv,
                san: pos.move_to_san(mv),
                line: 0,
                nags: nag.iter().copied().collect(),
                comments: comment.iter().cloned().collect(),
                variations,
            });
            pos.make_move(mv);
        }
        game
    }

    proptest::proptest! {
        #[test]
        fn written_games_read_back_with_every_annotation(
            choices in proptest::collection::vec(
                (
                    0usize..256,
                    proptest::option::of("[a-z!?.]{1,8}( [a-z]{1,8}){0,3}"),
                    proptest::option::of(0u8..=255),
                    proptest::option::of(0usize..64),
                ),
                0..60,
            )
        ) {
            let game = random_game(&choices);
            let summary = [SideSummary::default(); 2];
            let notes = Annotations {
                plies: &[],
                summary: &summary,
                sides: Sides::Both,
                annotator: "Betacut",
                budget: "no search",
            };
            let text = write_game(&game, &notes);
            proptest::prop_assert!(text.lines().all(|l| l.len() <= WIDTH));
            let raw = split_games(&text);
            proptest::prop_assert_eq!(raw.len(), 1);
            let back = build(&raw[0], 1);
            proptest::prop_assert!(back.is_ok(), "{:?}\n{}", back.err(), text);
            let mut back = back.unwrap_or_else(|_| game.clone());
            // The closing summary follows the last move (or opens an empty game).
            let closing = match back.main.nodes.last_mut() {
                Some(last) => last.comments.pop(),
                None => back.main.intro.pop(),
            };
            proptest::prop_assert!(closing.is_some_and(|c| c.starts_with("Betacut, no search:")));
            proptest::prop_assert_eq!(back.main.nodes.len(), game.main.nodes.len());
            for (a, b) in game.main.nodes.iter().zip(&back.main.nodes) {
                proptest::prop_assert_eq!(a.mv, b.mv);
                proptest::prop_assert_eq!(&a.nags, &b.nags);
                proptest::prop_assert_eq!(&a.comments, &b.comments);
                proptest::prop_assert_eq!(&a.variations, &b.variations.iter().map(|v| Line {
                    intro: v.intro.clone(),
                    nodes: v.nodes.iter().map(|n| super::super::game::Node { line: 0, ..n.clone() }).collect(),
                }).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn long_text_wraps() {
        let words: Vec<String> = (0..100).map(|i| format!("w{i}")).collect();
        let text = wrap(&words);
        assert!(text.lines().count() > 3);
        assert!(text.lines().all(|l| l.len() <= WIDTH));
        assert_eq!(text.split_whitespace().count(), 100);
    }
}
