//! The user documentation says what the built engine does, for every claim a program can check:
//! the bench signature that the README and the changelog quote, and the positions and depth
//! the docs give the bench; the commands and flags of `betacut --help` in the README's tools
//! table, docs/tools.md and the manual page; every UCI option with its type, default and range
//! in uci.md; every XBoard feature and option in xboard.md (and the options only UCI has), and
//! the features in the manual page; every file the docs name, and every `make` target they
//! use. (tests/it/packaging.rs checks the manual page's options and commands, the changelog's
//! version and the README's net.)

use crate::common;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const README: &str = include_str!("../../README.md");
const UCI_MD: &str = include_str!("../../uci.md");
const XBOARD_MD: &str = include_str!("../../xboard.md");
const TOOLS_MD: &str = include_str!("../../docs/tools.md");
const CHANGELOG: &str = include_str!("../../CHANGELOG.md");
const MANUAL: &str = include_str!("../../packaging/betacut.6");
const MAKEFILE: &str = include_str!("../../Makefile");
const BENCH_RS: &str = include_str!("../../src/search/bench.rs");

/// The documents written for users, by their path in the repository.
const USER_DOCS: [&str; 11] = [
    "README.md",
    "uci.md",
    "xboard.md",
    "CHANGELOG.md",
    "docs/tools.md",
    "docs/annotate.md",
    "docs/wdl.md",
    "docs/windows.md",
    "lab/branches/README.md",
    "packaging/betacut.6",
    "src/eval/nnue/nets/README.md",
];

/// Runs the built binary with `args` and `input` on its standard input; it must succeed.
fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_betacut"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run betacut {args:?}: {e}"));
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(input.as_bytes())
            .unwrap_or_else(|e| panic!("cannot write to betacut {args:?}: {e}"));
    }
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("cannot read betacut {args:?}: {e}"));
    assert!(out.status.success(), "betacut {args:?} failed: {out:?}");
    out
}

/// What the binary prints on standard output for `args` and `input`.
fn stdout_of(args: &[&str], input: &str) -> String {
    String::from_utf8_lossy(&run(args, input).stdout).into_owned()
}

/// A text with roff's escaped hyphens (`\-`) as plain ones and its font changes (`\fB`, `\fI`,
/// `\fR`, `\fP`) as spaces; markdown comes out as it was.
fn without_roff(text: &str) -> String {
    let mut text = text.replace("\\-", "-");
    for font in ["\\fB", "\\fI", "\\fR", "\\fP"] {
        text = text.replace(font, " ");
    }
    text
}

/// The manual page as plain text.
fn manual_text() -> String {
    without_roff(MANUAL)
}

/// The lines of a markdown document under the heading line `heading`, up to the next heading.
fn section<'a>(doc: &'a str, heading: &str) -> Vec<&'a str> {
    let lines: Vec<&str> = doc
        .lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .collect();
    assert!(!lines.is_empty(), "no section {heading:?}");
    lines
}

/// The cells of a markdown table row, trimmed; a `\|` inside a cell does not split it.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().strip_prefix('|').unwrap_or(row);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = vec![String::new()];
    let mut escaped = false;
    for c in inner.chars() {
        if c == '|' && !escaped {
            cells.push(String::new());
        } else if let Some(cell) = cells.last_mut() {
            cell.push(c);
        }
        escaped = c == '\\';
    }
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// The rows of the tables in a section whose first cell is code (`` `...` ``): the header
/// and separator rows are left out.
fn code_rows(lines: &[&str]) -> Vec<Vec<String>> {
    lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("| `"))
        .map(cells)
        .collect()
}

/// The command-line flags a text names: words of letters, digits and `-` that begin with `-`
/// or `--` and a lower-case letter (`-o`, `--max-depth`, `--l2`).
fn flags(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| {
            let after = w.strip_prefix("--").or_else(|| w.strip_prefix('-'));
            after.is_some_and(|a| a.starts_with(|c: char| c.is_ascii_lowercase()))
        })
        .map(str::to_string)
        .collect()
}

/// The tool command a usage line names after `betacut` (`book make` and `book show` as two),
/// or `None` for the protocol and `--help`/`--version` forms.
fn tool_command(usage: &str) -> Option<String> {
    let words: Vec<&str> = usage.split_whitespace().collect();
    match words.as_slice() {
        ["book", sub, ..] => Some(format!("book {sub}")),
        [first, ..] if !first.starts_with('-') && *first != "xboard" && *first != "uci" => {
            Some(first.to_string())
        }
        _ => None,
    }
}

/// The tool commands of `betacut --help`, each with the flags of its usage and description
/// (the lines up to the next command, an empty line or a note in parentheses).
fn help_commands() -> Vec<(String, BTreeSet<String>)> {
    let help = stdout_of(&["--help"], "");
    let mut commands: Vec<(String, BTreeSet<String>)> = Vec::new();
    let mut in_command = false;
    for line in help.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("betacut ") {
            // The bare `betacut` (play) line has spaces after the name.
            in_command = false;
            if let Some(name) = tool_command(rest).filter(|_| !rest.starts_with(' ')) {
                commands.push((name, BTreeSet::new()));
                in_command = true;
            }
        } else if trimmed.is_empty() || trimmed.starts_with('(') {
            in_command = false;
        }
        if in_command {
            if let Some((_, known)) = commands.last_mut() {
                known.extend(flags(line));
            }
        }
    }
    assert!(commands.len() >= 10, "{commands:?} from {help}");
    commands
}

/// The rows of a tools table (first cell `` `betacut COMMAND ...` ``): each command with the
/// flags of its first cell.
fn tool_rows(lines: &[&str]) -> Vec<(String, BTreeSet<String>)> {
    code_rows(lines)
        .iter()
        .filter_map(|row| {
            let usage = row[0].trim_matches('`').strip_prefix("betacut ")?;
            Some((tool_command(usage)?, flags(usage)))
        })
        .collect()
}

#[test]
fn readme_and_changelog_quote_the_bench_signature_and_the_docs_its_positions_and_depth() {
    let out = common::bench();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let nodes = last.split_whitespace().next().unwrap_or_default();
    assert!(
        !nodes.is_empty() && nodes.bytes().all(|b| b.is_ascii_digit()),
        "bench's last line is {last:?}"
    );

    let row = README
        .lines()
        .find(|l| l.starts_with("| bench signature |"))
        .expect("README.md has a `| bench signature |` row");
    assert!(
        row.contains(&format!("**{nodes} nodes**")),
        "README.md's bench signature row must say **{nodes} nodes**, what `betacut bench` \
         searches: {row}"
    );
    // The changelog's newest section (Unreleased, or the release just made) gives the signature
    // of this source.
    let newest: Vec<&str> = CHANGELOG
        .lines()
        .skip_while(|l| !l.starts_with("## "))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect();
    assert!(
        newest.join("\n").contains(&format!("`Bench: {nodes}`")),
        "CHANGELOG.md's newest section must give the signature `Bench: {nodes}`"
    );

    // One progress line a position on standard error: `position  1/50: ...`.
    let stderr = String::from_utf8_lossy(&out.stderr);
    let positions = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("position"))
        .filter_map(|l| l.split(':').next()?.split('/').nth(1))
        .next_back()
        .expect("bench prints `position K/N` lines on standard error")
        .trim()
        .to_string();
    let manual = manual_text()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (doc, text, says) in [
        ("README.md", README, format!("{positions} fixed positions")),
        (
            "docs/tools.md",
            TOOLS_MD,
            format!("{positions} fixed positions"),
        ),
        (
            "packaging/betacut.6",
            manual.as_str(),
            format!("{positions} fixed positions"),
        ),
        ("uci.md", UCI_MD, format!("{positions} positions")),
    ] {
        assert!(
            text.contains(&says),
            "{doc} must say the bench searches {says}"
        );
    }
    let depth = BENCH_RS
        .lines()
        .find_map(|l| l.strip_prefix("pub const DEFAULT_BENCH_DEPTH: u32 = "))
        .and_then(|rest| rest.strip_suffix(';'))
        .expect("src/search/bench.rs defines DEFAULT_BENCH_DEPTH");
    for (doc, text) in [("docs/tools.md", TOOLS_MD), ("uci.md", UCI_MD)] {
        assert!(
            text.contains(&format!("to depth {depth}")),
            "{doc} must say the bench searches to depth {depth} (DEFAULT_BENCH_DEPTH)"
        );
    }
}

#[test]
fn readme_and_tools_md_list_every_command_of_help_with_its_flags() {
    let help = help_commands();
    let names: BTreeSet<&str> = help.iter().map(|(name, _)| name.as_str()).collect();
    for (doc, lines, every_flag) in [
        (
            "README.md",
            section(README, "## Tools in the binary"),
            false,
        ),
        (
            "docs/tools.md",
            section(TOOLS_MD, "# Tools in the binary"),
            true,
        ),
    ] {
        let rows = tool_rows(&lines);
        let listed: BTreeSet<&str> = rows.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(
            listed, names,
            "{doc}'s tools table against `betacut --help`"
        );
        for (name, documented) in &rows {
            let (_, known) = help
                .iter()
                .find(|(n, _)| n == name)
                .expect("the command is in the help");
            let unknown: Vec<&String> = documented.difference(known).collect();
            assert!(
                unknown.is_empty(),
                "{doc} gives `betacut {name}` the flags {unknown:?}, which --help does not"
            );
            let missing: Vec<&String> = known.difference(documented).collect();
            assert!(
                !every_flag || missing.is_empty(),
                "{doc} leaves out the flags {missing:?} of `betacut {name}`"
            );
        }
    }
}

#[test]
fn manual_page_gives_each_command_only_flags_it_has() {
    let help = help_commands();
    let manual = manual_text();
    // The entries of COMMANDS: the line after each `.TP`, with its `\` continuation lines.
    let lines: Vec<&str> = manual
        .lines()
        .skip_while(|l| *l != ".SH COMMANDS")
        .take_while(|l| *l != ".SH FILES")
        .collect();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        if *line != ".TP" {
            continue;
        }
        let mut entry = String::new();
        for next in &lines[i + 1..] {
            entry.push_str(next.trim_end_matches('\\'));
            entry.push(' ');
            if !next.ends_with('\\') {
                break;
            }
        }
        let usage = entry
            .trim_start_matches(".BR ")
            .trim_start_matches(".B ")
            .replace('"', " ");
        let name = tool_command(&usage).expect("a command entry");
        let Some((_, known)) = help.iter().find(|(n, _)| *n == name) else {
            panic!("packaging/betacut.6 describes `betacut {name}`, which --help does not list");
        };
        let unknown: Vec<String> = flags(&usage).difference(known).cloned().collect();
        assert!(
            unknown.is_empty(),
            "packaging/betacut.6 gives `betacut {name}` the flags {unknown:?}, which --help \
             does not"
        );
        checked += 1;
    }
    assert!(
        checked >= 10,
        "only {checked} command entries in the manual page"
    );
}

/// One `option name NAME type TYPE [default D] [min A max B]` line of the engine's `uci` reply.
#[derive(Debug)]
struct UciOption {
    name: String,
    kind: String,
    default: String,
    min: String,
    max: String,
}

/// The options the engine prints after `uci`.
fn uci_options() -> Vec<UciOption> {
    let text = stdout_of(&[], "uci\nquit\n");
    let options: Vec<UciOption> = text
        .lines()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|rest| {
            let (name, spec) = rest.split_once(" type ").unwrap_or((rest, ""));
            let words: Vec<&str> = spec.split_whitespace().collect();
            let field = |key: &str| {
                let at = words.iter().position(|w| *w == key);
                at.and_then(|i| words.get(i + 1))
                    .map_or(String::new(), |w| w.to_string())
            };
            UciOption {
                name: name.to_string(),
                kind: words.first().map_or(String::new(), |w| w.to_string()),
                default: field("default"),
                min: field("min"),
                max: field("max"),
            }
        })
        .collect();
    assert!(options.len() > 10, "{text}");
    options
}

/// How the options tables of uci.md and xboard.md give a type, default and range (`spin, 16,
/// 1..1048576`, `check, false`, `button`, `string, empty`); a unit may follow.
fn type_cell(kind: &str, default: &str, range: Option<(&str, &str)>) -> String {
    let default = if default.is_empty() || default == "<empty>" {
        "empty"
    } else {
        default
    };
    match (kind, range) {
        ("button", _) => "button".to_string(),
        (_, Some((min, max))) => format!("{kind}, {default}, {min}..{max}"),
        (_, None) => format!("{kind}, {default}"),
    }
}

/// Checks an options table (`| \`NAME\` | TYPE, DEFAULT, RANGE | ... |`) against the options
/// the engine offers, as (name, expected type cell).
fn check_options_table(doc: &str, lines: &[&str], offered: &[(String, String)]) {
    let rows = code_rows(lines);
    let documented: BTreeSet<&str> = rows.iter().map(|r| r[0].trim_matches('`')).collect();
    let names: BTreeSet<&str> = offered.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        documented, names,
        "{doc}'s options table against the engine's options"
    );
    for (name, expected) in offered {
        let row = rows
            .iter()
            .find(|r| r[0].trim_matches('`') == name)
            .expect("a documented option");
        let said = row.get(1).map_or("", String::as_str);
        assert!(
            said == expected || said.starts_with(&format!("{expected} ")),
            "{doc} gives {name} as {said:?}; the engine offers {expected:?}"
        );
    }
}

#[test]
fn uci_md_documents_every_option_with_its_type_default_and_range() {
    let offered: Vec<(String, String)> = uci_options()
        .iter()
        .map(|o| {
            let range = (!o.min.is_empty()).then_some((o.min.as_str(), o.max.as_str()));
            (o.name.clone(), type_cell(&o.kind, &o.default, range))
        })
        .collect();
    check_options_table("uci.md", &section(UCI_MD, "## Options"), &offered);
}

/// The `KEY=VALUE` words of the engine's `feature` lines after `protover 2`, as sent (a quoted
/// value keeps its quotes).
fn xboard_features() -> Vec<(String, String)> {
    let text = stdout_of(&[], "xboard\nprotover 2\nquit\n");
    let mut features = Vec::new();
    for line in text.lines() {
        let Some(mut rest) = line.strip_prefix("feature ") else {
            continue;
        };
        while let Some((key, after)) = rest.trim_start().split_once('=') {
            // A quoted value runs to its closing quote, any other to the next space.
            let end = match after.strip_prefix('"') {
                Some(quoted) => quoted.find('"').map_or(after.len(), |i| i + 2),
                None => after.find(' ').unwrap_or(after.len()),
            };
            let (value, tail) = after.split_at(end);
            features.push((key.to_string(), value.to_string()));
            rest = tail;
        }
    }
    assert!(features.len() > 20, "{text}");
    features
}

/// The features that say what the engine does, as `KEY=VALUE`: all but `done`, `myname` and
/// the options.
fn protocol_features() -> BTreeSet<String> {
    xboard_features()
        .into_iter()
        .filter(|(key, _)| !["done", "myname", "option"].contains(&key.as_str()))
        .map(|(key, value)| format!("{key}={value}"))
        .collect()
}

#[test]
fn xboard_md_documents_every_feature_and_option() {
    let sent = protocol_features();
    let documented: BTreeSet<String> = code_rows(&section(XBOARD_MD, "## Features"))
        .iter()
        .flat_map(|row| {
            row[0]
                .replace('`', "")
                .split_whitespace()
                .map(|w| w.trim_end_matches(',').to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(
        documented, sent,
        "xboard.md's features table against `protover 2`"
    );

    // `feature option="NAME -TYPE [DEFAULT [MIN MAX]]"`.
    let offered: Vec<(String, String)> = xboard_features()
        .iter()
        .filter(|(key, _)| key == "option")
        .map(|(_, value)| {
            let spec = value.trim_matches('"');
            let (name, typed) = spec.split_once(" -").expect("an option has a -TYPE");
            let words: Vec<&str> = typed.split_whitespace().collect();
            let kind = words.first().copied().unwrap_or_default();
            let range = match words.as_slice() {
                [_, _, min, max] => Some((*min, *max)),
                _ => None,
            };
            let default = words.get(1).copied().unwrap_or_default();
            (name.to_string(), type_cell(kind, default, range))
        })
        .collect();
    assert!(offered.len() > 10, "{offered:?}");
    let options = section(XBOARD_MD, "### Options");
    check_options_table("xboard.md", &options, &offered);

    // The options only UCI has are named where the page says what XBoard has instead.
    let text = options.join("\n");
    for uci_only in uci_options()
        .iter()
        .filter(|o| !offered.iter().any(|(name, _)| *name == o.name))
    {
        assert!(
            text.contains(&format!("`{}`", uci_only.name)),
            "xboard.md's Options section does not say that {} is UCI's alone",
            uci_only.name
        );
    }
}

#[test]
fn manual_page_lists_the_xboard_features_the_engine_turns_on() {
    let manual = manual_text();
    let (_, listed) = manual
        .split_once("lists its features (")
        .expect("the manual page lists the XBoard features");
    let listed: BTreeSet<&str> = listed
        .split(',')
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .map(|w| w.split('=').next().unwrap_or(w))
        .collect();
    let on: BTreeSet<String> = xboard_features()
        .into_iter()
        .filter(|(key, value)| {
            !["done", "myname", "option", "variants"].contains(&key.as_str()) && value != "0"
        })
        .map(|(key, _)| key)
        .collect();
    let on: BTreeSet<&str> = on.iter().map(String::as_str).collect();
    assert_eq!(
        listed, on,
        "packaging/betacut.6's XBoard features against `protover 2`"
    );
    let variants = xboard_features()
        .into_iter()
        .find(|(key, _)| key == "variants")
        .map(|(_, value)| value.trim_matches('"').to_string())
        .expect("the engine sends its variants");
    for variant in variants.split(',') {
        assert!(
            manual.contains(&format!(" {variant} ")),
            "packaging/betacut.6 does not name the variant {variant}"
        );
    }
}

/// The words of a text that could be paths in the repository: runs of letters, digits and
/// `_ . / - :` without a closing full stop or colon, and with any leading `../` (a link from
/// docs/ to the top) removed. A file of another commit (`45c939a:src/...`) stays one word that
/// names no folder.
fn path_words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || "_./-:".contains(c)))
        .map(|w| w.trim_end_matches(['.', ':']))
        .map(|w| {
            let mut w = w;
            while let Some(rest) = w.strip_prefix("../") {
                w = rest;
            }
            w
        })
        .collect()
}

/// Whether a path word is a placeholder in capitals (`lab/branches/BRANCH.patch`), not a file.
fn is_placeholder(word: &str) -> bool {
    let name = word.rsplit('/').next().unwrap_or(word);
    let stem = name.split('.').next().unwrap_or(name);
    stem.len() > 1
        && stem.bytes().all(|b| b.is_ascii_uppercase())
        && !["README", "CHANGELOG"].contains(&stem)
}

#[test]
fn docs_name_only_files_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folders = [
        "src/",
        "tests/",
        "scripts/",
        "lab/scripts/",
        "docs/",
        "perft/",
        "packaging/",
        "tuning/",
        "benches/",
    ];
    let mut named = 0;
    let mut check = |doc: &str, text: &str, prefixes: &[&str]| {
        for word in path_words(text) {
            if prefixes.iter().any(|p| word.starts_with(p)) && !is_placeholder(word) {
                named += 1;
                assert!(
                    root.join(word).exists(),
                    "{doc} names {word}, which is not in the repository"
                );
            }
        }
    };
    for doc in USER_DOCS {
        let text = std::fs::read_to_string(root.join(doc))
            .unwrap_or_else(|e| panic!("cannot read {doc}: {e}"));
        check(doc, &without_roff(&text), &folders);
    }
    // The lab log (its index and one file per topic under docs/log/) says that the scripts it
    // names are in scripts/ (the engine's) or lab/scripts/ (the lab's); its other paths are
    // history.
    let mut logs = vec![root.join("docs/experiments.md")];
    let topics = std::fs::read_dir(root.join("docs/log"))
        .unwrap_or_else(|e| panic!("cannot read docs/log: {e}"));
    for entry in topics {
        let path = entry
            .unwrap_or_else(|e| panic!("cannot list docs/log: {e}"))
            .path();
        if path.extension().is_some_and(|x| x == "md") {
            logs.push(path);
        }
    }
    assert!(
        logs.len() > 5,
        "docs/log holds only {} logs",
        logs.len() - 1
    );
    for path in logs {
        let log = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        check(
            &path.display().to_string(),
            &log,
            &["scripts/", "lab/scripts/"],
        );
    }
    assert!(named > 50, "only {named} paths found in the docs");
}

/// The code of a markdown document: its fenced blocks, and the spans between backticks of each
/// paragraph outside them.
fn code_of(doc: &str) -> Vec<String> {
    let mut code = Vec::new();
    let mut paragraph = String::new();
    let mut fenced = false;
    let mut spans = |paragraph: &mut String| {
        for span in paragraph.split('`').skip(1).step_by(2) {
            code.push(span.to_string());
        }
        paragraph.clear();
    };
    let mut blocks = Vec::new();
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            spans(&mut paragraph);
        } else if fenced {
            blocks.push(line.to_string());
        } else if line.trim().is_empty() {
            spans(&mut paragraph);
        } else {
            paragraph.push_str(line);
            paragraph.push('\n');
        }
    }
    spans(&mut paragraph);
    code.extend(blocks);
    code
}

#[test]
fn docs_use_only_make_targets_the_makefile_has() {
    let targets: BTreeSet<&str> = MAKEFILE
        .lines()
        .filter_map(|l| l.split_once(':').map(|(target, _)| target))
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut used = 0;
    for doc in [
        "README.md",
        "CHANGELOG.md",
        "docs/windows.md",
        "xboard.md",
        "uci.md",
    ] {
        let text = std::fs::read_to_string(root.join(doc))
            .unwrap_or_else(|e| panic!("cannot read {doc}: {e}"));
        for code in code_of(&text) {
            let words: Vec<&str> = code.split_whitespace().collect();
            for pair in words.windows(2) {
                let target = pair[1].trim_matches(|c: char| !c.is_ascii_alphanumeric());
                let is_target = !target.is_empty()
                    && target.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
                if pair[0] == "make" && is_target {
                    used += 1;
                    assert!(
                        targets.contains(target),
                        "{doc} uses `make {target}`; the Makefile's targets are {targets:?}"
                    );
                }
            }
        }
    }
    assert!(used >= 5, "only {used} make targets found in the docs");
}
