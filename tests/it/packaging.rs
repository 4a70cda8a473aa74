//! The installed documentation says what the built engine does: the manual page names the
//! version, lists every option the engine offers over UCI with its type, default and range, and
//! every tool command of `betacut --help`; the changelog has a section for the version; the
//! README names no net file but the one the binary embeds, and no script that is not in the
//! repository.

use std::path::Path;
use std::process::{Command, Stdio};

const MANUAL: &str = include_str!("../../packaging/betacut.6");
const CHANGELOG: &str = include_str!("../../CHANGELOG.md");
const README: &str = include_str!("../../README.md");
const EMBEDDED: &str = include_str!("../../src/eval/nnue/embedded.rs");
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The manual's text with roff's escaped hyphens (`\-`) as plain ones.
fn manual() -> String {
    MANUAL.replace("\\-", "-")
}

/// The lines of one section (`.SH NAME` up to the next `.SH`).
fn section(manual: &str, name: &str) -> Vec<String> {
    manual
        .lines()
        .skip_while(|l| *l != format!(".SH {name}"))
        .skip(1)
        .take_while(|l| !l.starts_with(".SH "))
        .map(str::to_string)
        .collect()
}

/// The tag lines of a section's `.TP` entries: the line after each `.TP`.
fn entries(lines: &[String]) -> Vec<String> {
    lines
        .windows(2)
        .filter(|pair| pair[0] == ".TP")
        .map(|pair| pair[1].clone())
        .collect()
}

/// An entry's name and the rest of its line: all of a `.B` line; of a `.BR` line the first
/// argument (quoted, or the first word).
fn split_entry(entry: &str) -> (String, String) {
    if let Some(all) = entry.strip_prefix(".B ") {
        return (all.trim().to_string(), String::new());
    }
    let rest = entry.strip_prefix(".BR ").unwrap_or(entry);
    if let Some(quoted) = rest.strip_prefix('"') {
        let (name, after) = quoted.split_once('"').unwrap_or((quoted, ""));
        (name.to_string(), after.trim().to_string())
    } else {
        let (name, after) = rest.split_once(' ').unwrap_or((rest, ""));
        (name.to_string(), after.trim().to_string())
    }
}

/// The `option name ...` lines the engine prints after `uci`.
fn uci_options() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_betacut"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                use std::io::Write;
                stdin.write_all(b"uci\nquit\n")?;
            }
            child.wait_with_output()
        })
        .unwrap_or_else(|e| panic!("cannot run betacut: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let options: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("option name "))
        .map(str::to_string)
        .collect();
    assert!(options.len() > 10, "{text}");
    options
}

/// What the manual must say in parentheses after an option's name, from its UCI line; `None`
/// for a button (the manual gives no parentheses).
fn expected_tag(uci: &str) -> (String, Option<Vec<String>>) {
    let rest = uci.strip_prefix("option name ").unwrap_or_default();
    let (name, spec) = rest.split_once(" type ").unwrap_or((rest, ""));
    let words: Vec<&str> = spec.split_whitespace().collect();
    let field = |key: &str| -> String {
        let i = words.iter().position(|w| *w == key);
        i.and_then(|i| words.get(i + 1)).unwrap_or(&"").to_string()
    };
    let tags = match words.first().copied() {
        Some("spin") => Some(vec![format!(
            "(spin, {}, {} to {})",
            field("default"),
            field("min"),
            field("max")
        )]),
        Some("check") => Some(vec![format!("(check, {})", field("default"))]),
        Some("string") => Some(vec!["(string)".to_string(), "(file)".to_string()]),
        Some("button") => None,
        other => panic!("unexpected option type {other:?} in {uci}"),
    };
    (name.to_string(), tags)
}

#[test]
fn manual_page_names_the_version() {
    let title = MANUAL
        .lines()
        .find(|l| l.starts_with(".TH "))
        .unwrap_or_default();
    assert!(
        title.contains(&format!("\"Betacut {VERSION}\"")),
        "the .TH line of packaging/betacut.6 must name version {VERSION}: {title}"
    );
}

#[test]
fn manual_page_lists_every_option_with_its_type_default_and_range() {
    let manual = manual();
    let listed: Vec<(String, String)> = entries(&section(&manual, "OPTIONS"))
        .iter()
        .map(|e| split_entry(e))
        .collect();
    let options = uci_options();
    for uci in &options {
        let (name, tags) = expected_tag(uci);
        let Some((_, said)) = listed.iter().find(|(n, _)| *n == name) else {
            panic!("packaging/betacut.6 does not list the option {name:?} ({uci})");
        };
        match tags {
            None => assert!(
                said.is_empty(),
                "{name}: a button, but the manual says {said}"
            ),
            Some(tags) => assert!(
                tags.iter().any(|t| said.contains(t.as_str())),
                "{name}: the manual says {said}, the engine {uci} (expected one of {tags:?})"
            ),
        }
    }
    // And nothing that the engine does not offer.
    for (name, _) in &listed {
        assert!(
            options
                .iter()
                .any(|o| o.starts_with(&format!("option name {name} type "))),
            "the manual lists {name:?}, which the engine does not offer"
        );
    }
}

#[test]
fn manual_page_lists_every_tool_command() {
    let out = Command::new(env!("CARGO_BIN_EXE_betacut"))
        .arg("--help")
        .output()
        .unwrap_or_else(|e| panic!("cannot run betacut --help: {e}"));
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut commands: Vec<String> = Vec::new();
    for line in help.lines() {
        // `betacut <command> ...`; the bare `betacut` (play) line has spaces after the name.
        let Some(rest) = line.trim_start().strip_prefix("betacut ") else {
            continue;
        };
        if rest.starts_with(' ') {
            continue;
        }
        let words: Vec<&str> = rest.split_whitespace().collect();
        let command = match words.as_slice() {
            ["book", sub, ..] => format!("book {sub}"),
            [first, ..] if !first.starts_with('-') && *first != "xboard" => first.to_string(),
            _ => continue,
        };
        commands.push(command);
    }
    assert!(commands.len() >= 10, "{commands:?} from {help}");
    let manual = manual();
    let listed: Vec<String> = entries(&section(&manual, "COMMANDS"))
        .iter()
        .map(|e| split_entry(e).0)
        .collect();
    // The lab's commands (betacut-lab) are neither in the player's binary nor in its manual.
    for lab in ["datagen", "datagen-text", "train", "tune"] {
        assert!(!commands.iter().any(|c| c == lab), "--help lists {lab}");
        assert!(
            !listed.iter().any(|c| c == lab),
            "the manual page lists {lab}"
        );
    }
    for command in &commands {
        assert!(
            listed.contains(command),
            "packaging/betacut.6 does not describe `betacut {command}` (it lists {listed:?})"
        );
    }
}

#[test]
fn changelog_has_a_section_for_the_version() {
    assert!(
        CHANGELOG
            .lines()
            .any(|l| l.starts_with(&format!("## {VERSION} "))),
        "CHANGELOG.md has no `## {VERSION} ...` section"
    );
}

/// The words of a text that could be file paths: runs of letters, digits and `_ . / -`, without
/// a sentence's closing full stop.
fn path_words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-".contains(c)))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether a path names a network file: `genN.bin`, or any `.bin` file under `nets/`.
fn is_net_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let generation = name
        .strip_prefix("gen")
        .and_then(|rest| rest.strip_suffix(".bin"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    generation || (path.contains("nets/") && name.ends_with(".bin"))
}

/// The file name of the net that `src/eval/nnue/embedded.rs` compiles in with `include_bytes!`.
fn embedded_net() -> String {
    let (_, rest) = EMBEDDED
        .split_once("include_bytes!(\"")
        .unwrap_or_else(|| panic!("src/eval/nnue/embedded.rs has no include_bytes!(\"...\")"));
    let path = rest.split('"').next().unwrap_or_default();
    path.rsplit('/').next().unwrap_or(path).to_string()
}

#[test]
fn readme_names_only_the_embedded_net() {
    let embedded = embedded_net();
    assert!(is_net_file(&embedded), "embedded.rs includes {embedded:?}");
    assert!(
        path_words(README).contains(&embedded.as_str()),
        "README.md does not name the embedded net {embedded}"
    );
    for word in path_words(README).into_iter().filter(|w| is_net_file(w)) {
        let name = word.rsplit('/').next().unwrap_or(word);
        assert_eq!(
            name, embedded,
            "README.md names the net {word}, but the binary embeds {embedded} \
             (src/eval/nnue/embedded.rs)"
        );
    }
}

#[test]
fn readme_names_only_scripts_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scripts: Vec<&str> = path_words(README)
        .into_iter()
        .filter(|w| w.starts_with("scripts/"))
        .collect();
    assert!(scripts.len() >= 3, "{scripts:?}");
    for script in scripts {
        assert!(
            root.join(script).exists(),
            "README.md names {script}, which is not in the repository"
        );
    }
}
