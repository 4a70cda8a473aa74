//! One definition per command: its positional arguments and its flags (each with its value
//! and one line of help), from which both the parser ([`Command::parse`]) and the command's
//! usage text ([`Command::usage`]) are made, so the two cannot drift apart.

use std::str::FromStr;
use thiserror::Error;

/// What a flag takes after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Nothing: a switch.
    Switch,
    /// A whole number (checked when parsed).
    Int,
    /// A decimal number (checked when parsed).
    Float,
    /// Any one word (a file, a name, a range).
    Text,
    /// Every word up to the next `--flag` (a FEN written without quotes).
    Words,
    /// A whole number if the next word is one, else nothing.
    OptionalInt,
}

/// One flag: its names (the first is the one [`Parsed`] answers to), its value's name in the
/// usage (`N`, `FILE`), what it takes and one line of help.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    /// `--depth`, or `-o` and `--output` for one flag of two names.
    pub names: &'static [&'static str],
    /// The value's name in the usage (`N`, `MS`, `FILE`); empty for a switch.
    pub value: &'static str,
    /// What the flag takes.
    pub kind: Kind,
    /// One line of help.
    pub help: &'static str,
}

/// One positional argument as the usage shows it (`<depth>`, `[FEN]`).
#[derive(Clone, Copy, Debug)]
pub struct Positional {
    /// Its name in the usage, brackets included.
    pub name: &'static str,
    /// Whether the command needs it.
    pub required: bool,
    /// Whether it takes every remaining word (a FEN, a list of files).
    pub many: bool,
}

/// One command: name, positional arguments, flags and the lines that say what it does.
#[derive(Clone, Copy, Debug)]
pub struct Command {
    /// The program (`betacut`, `betacut-lab`).
    pub program: &'static str,
    /// The command's words (`perft`, `book make`).
    pub name: &'static str,
    /// Its positional arguments in order.
    pub positionals: &'static [Positional],
    /// Its flags.
    pub flags: &'static [Flag],
    /// What it does, one or more lines.
    pub about: &'static str,
}

impl Flag {
    /// A flag of these `names` taking a value shown as `value` in the usage (empty for a
    /// switch), of this `kind`, with one line of `help`.
    pub const fn new(
        names: &'static [&'static str],
        value: &'static str,
        kind: Kind,
        help: &'static str,
    ) -> Flag {
        Flag {
            names,
            value,
            kind,
            help,
        }
    }
}

impl Positional {
    /// A positional argument shown as `name`, needed or not, taking one word or all the rest.
    pub const fn new(name: &'static str, required: bool, many: bool) -> Positional {
        Positional {
            name,
            required,
            many,
        }
    }
}

impl Command {
    /// The command `name` of `program` with these arguments and flags; `about` says what it
    /// does.
    pub const fn new(
        program: &'static str,
        name: &'static str,
        positionals: &'static [Positional],
        flags: &'static [Flag],
        about: &'static str,
    ) -> Command {
        Command {
            program,
            name,
            positionals,
            flags,
            about,
        }
    }
}

/// Why a command line cannot be used; each names the flag or argument at fault.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CliError {
    /// A flag the command does not have.
    #[error("{command}: unknown flag {flag:?}")]
    UnknownFlag {
        /// The command.
        command: String,
        /// The flag as written.
        flag: String,
    },
    /// A flag at the end of the line, or followed by another flag, without its value.
    #[error("{flag} needs a value ({value})")]
    MissingValue {
        /// The flag.
        flag: String,
        /// The value's name in the usage.
        value: String,
    },
    /// A value that is not what the flag takes.
    #[error("bad value {text:?} for {flag}: {expected}")]
    BadValue {
        /// The flag.
        flag: String,
        /// The value as written.
        text: String,
        /// What the flag takes.
        expected: String,
    },
    /// A flag given twice.
    #[error("{flag} is given twice")]
    Repeated {
        /// The flag.
        flag: String,
    },
    /// A positional argument the command needs is missing.
    #[error("{command} needs {name}")]
    MissingArgument {
        /// The command.
        command: String,
        /// The argument's name in the usage.
        name: String,
    },
    /// More positional arguments than the command takes.
    #[error("{command}: unexpected argument {arg:?}")]
    ExtraArgument {
        /// The command.
        command: String,
        /// The first argument too many.
        arg: String,
    },
}

impl From<CliError> for String {
    fn from(error: CliError) -> String {
        error.to_string()
    }
}

/// A parsed command line: the positional arguments and the flags given, with their values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    positionals: Vec<String>,
    flags: Vec<(&'static str, Option<String>)>,
}

impl Parsed {
    /// The positional arguments, in order.
    pub fn positionals(&self) -> &[String] {
        &self.positionals
    }

    /// Whether the flag (by its first name) was given.
    pub fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|(name, _)| *name == flag)
    }

    /// The text of the flag's value, if it was given with one.
    pub fn text(&self, flag: &str) -> Option<&str> {
        self.flags
            .iter()
            .find(|(name, _)| *name == flag)
            .and_then(|(_, value)| value.as_deref())
    }

    /// The flag's value as a `T`: `None` if it was not given, an error naming the flag if its
    /// value does not fit a `T` (a number too large for it).
    pub fn value<T: FromStr>(&self, flag: &str) -> Result<Option<T>, CliError> {
        match self.text(flag) {
            None => Ok(None),
            Some(text) => text.parse().map(Some).map_err(|_| CliError::BadValue {
                flag: flag.to_string(),
                text: text.to_string(),
                expected: "out of range".to_string(),
            }),
        }
    }
}

/// Whether `arg` is written as a flag: `--word` or `-x` (a lone `-` is a FEN's field).
fn looks_like_flag(arg: &str) -> bool {
    arg.starts_with("--")
        || (arg.len() >= 2
            && arg.starts_with('-')
            && !arg[1..].starts_with(|c: char| c.is_ascii_digit()))
}

impl Command {
    /// The flag one of whose names is `arg`.
    fn flag(&self, arg: &str) -> Option<&Flag> {
        self.flags.iter().find(|f| f.names.contains(&arg))
    }

    /// Parses `args` (the words after the command's name): every flag must be the command's,
    /// every value what its flag takes, the positional arguments as many as it takes.
    pub fn parse(&self, args: &[String]) -> Result<Parsed, CliError> {
        let mut parsed = Parsed::default();
        let mut i = 0;
        while i < args.len() {
            let arg = args[i].as_str();
            i += 1;
            if !looks_like_flag(arg) {
                parsed.positionals.push(arg.to_string());
                continue;
            }
            let flag = self.flag(arg).ok_or_else(|| CliError::UnknownFlag {
                command: self.name.to_string(),
                flag: arg.to_string(),
            })?;
            let name = flag.names[0];
            if parsed.has(name) {
                return Err(CliError::Repeated {
                    flag: arg.to_string(),
                });
            }
            let missing = || CliError::MissingValue {
                flag: arg.to_string(),
                value: flag.value.to_string(),
            };
            let value = match flag.kind {
                Kind::Switch => None,
                Kind::OptionalInt => match args.get(i) {
                    Some(next) if next.parse::<u64>().is_ok() => {
                        i += 1;
                        Some(next.clone())
                    }
                    _ => None,
                },
                Kind::Words => {
                    let words: Vec<&str> = args[i..]
                        .iter()
                        .take_while(|a| !a.starts_with("--"))
                        .map(String::as_str)
                        .collect();
                    if words.is_empty() {
                        return Err(missing());
                    }
                    i += words.len();
                    Some(words.join(" "))
                }
                Kind::Int | Kind::Float | Kind::Text => {
                    let text = args
                        .get(i)
                        .filter(|a| !a.starts_with("--"))
                        .ok_or_else(missing)?;
                    i += 1;
                    let fits = match flag.kind {
                        Kind::Int => text.parse::<u64>().is_ok(),
                        Kind::Float => text.parse::<f64>().is_ok_and(f64::is_finite),
                        _ => true,
                    };
                    if !fits {
                        return Err(CliError::BadValue {
                            flag: arg.to_string(),
                            text: text.clone(),
                            expected: match flag.kind {
                                Kind::Int => "expected a whole number",
                                _ => "expected a number",
                            }
                            .to_string(),
                        });
                    }
                    Some(text.clone())
                }
            };
            parsed.flags.push((name, value));
        }
        let command = || self.name.to_string();
        if let Some(p) = self
            .positionals
            .iter()
            .filter(|p| p.required)
            .nth(parsed.positionals.len())
        {
            return Err(CliError::MissingArgument {
                command: command(),
                name: p.name.to_string(),
            });
        }
        let takes_many = self.positionals.last().is_some_and(|p| p.many);
        if !takes_many && parsed.positionals.len() > self.positionals.len() {
            return Err(CliError::ExtraArgument {
                command: command(),
                arg: parsed.positionals[self.positionals.len()].clone(),
            });
        }
        Ok(parsed)
    }

    /// The command's synopsis: `  betacut perft <depth> [--fen FEN]`, wrapped at 96 columns.
    pub fn synopsis(&self) -> String {
        let mut words: Vec<String> = self
            .positionals
            .iter()
            .map(|p| p.name.to_string())
            .collect();
        for flag in self.flags {
            // The first name only: the flags table gives the others.
            let names = flag.names[0];
            words.push(match flag.kind {
                Kind::Switch => format!("[{names}]"),
                Kind::OptionalInt => format!("[{names} [{}]]", flag.value),
                _ => format!("[{names} {}]", flag.value),
            });
        }
        let mut text = format!("  {} {}", self.program, self.name);
        let mut line = text.len();
        for word in words {
            if line + 1 + word.len() > 96 {
                text.push_str("\n                 ");
                line = 17;
            }
            text.push(' ');
            text.push_str(&word);
            line += 1 + word.len();
        }
        text
    }

    /// The synopsis and what the command does, as the whole program's help shows it.
    pub fn entry(&self) -> String {
        let mut text = self.synopsis();
        for line in self.about.lines() {
            text.push_str(&format!("\n{:43}{}", "", line.trim()));
        }
        text
    }

    /// The command's usage: its entry and one line per flag.
    pub fn usage(&self) -> String {
        let mut text = format!("usage:\n{}", self.entry());
        if !self.flags.is_empty() {
            text.push_str("\n  flags:");
            for flag in self.flags {
                let left = format!("{} {}", flag.names.join(", "), flag.value);
                text.push_str(&format!("\n    {:24} {}", left.trim_end(), flag.help));
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::{CliError, Command, Flag, Kind, Positional};
    use proptest::prelude::*;

    const DEMO: Command = Command {
        program: "betacut",
        name: "demo",
        positionals: &[Positional {
            name: "<file>",
            required: true,
            many: false,
        }],
        flags: &[
            Flag {
                names: &["--depth"],
                value: "N",
                kind: Kind::Int,
                help: "depth",
            },
            Flag {
                names: &["--lr"],
                value: "X",
                kind: Kind::Float,
                help: "rate",
            },
            Flag {
                names: &["--fen"],
                value: "FEN",
                kind: Kind::Words,
                help: "position",
            },
            Flag {
                names: &["--hce"],
                value: "",
                kind: Kind::Switch,
                help: "hand-crafted",
            },
        ],
        about: "a demo",
    };

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn flags_values_and_positionals_are_checked() {
        let parsed = DEMO.parse(&words(&[
            "f",
            "--depth",
            "7",
            "--fen",
            "8/8 w - -",
            "--hce",
        ]));
        let Ok(parsed) = parsed else {
            panic!("a good line: {parsed:?}");
        };
        assert_eq!(parsed.positionals(), ["f"]);
        assert_eq!(parsed.value::<u32>("--depth"), Ok(Some(7)));
        assert_eq!(parsed.text("--fen"), Some("8/8 w - -"));
        assert!(parsed.has("--hce"));
        assert!(matches!(
            DEMO.parse(&words(&["f", "--dpeth", "7"])),
            Err(CliError::UnknownFlag { .. })
        ));
        assert!(matches!(
            DEMO.parse(&words(&["f", "--depth"])),
            Err(CliError::MissingValue { .. })
        ));
        assert!(matches!(
            DEMO.parse(&words(&["f", "--depth", "--hce"])),
            Err(CliError::MissingValue { .. })
        ));
        assert!(matches!(
            DEMO.parse(&words(&["f", "--depth", "seven"])),
            Err(CliError::BadValue { .. })
        ));
        assert!(matches!(
            DEMO.parse(&words(&["--hce"])),
            Err(CliError::MissingArgument { .. })
        ));
        assert!(matches!(
            DEMO.parse(&words(&["f", "g"])),
            Err(CliError::ExtraArgument { .. })
        ));
        assert!(DEMO.usage().contains("--depth N"));
    }

    proptest! {
        #[test]
        fn any_unknown_flag_is_refused(name in "[a-z][a-z-]{0,12}") {
            prop_assume!(!["depth", "lr", "fen", "hce"].contains(&name.as_str()));
            let flag = format!("--{name}");
            let refused = matches!(
                DEMO.parse(&words(&["f", &flag, "1"])),
                Err(CliError::UnknownFlag { flag: ref f, .. }) if *f == flag
            );
            prop_assert!(refused);
        }

        #[test]
        fn a_value_round_trips(depth in any::<u64>(), lr in -1e9f64..1e9) {
            let line = words(&["f", "--depth", &depth.to_string(), "--lr", &lr.to_string()]);
            let parsed = DEMO.parse(&line);
            prop_assert!(parsed.is_ok(), "{:?}", parsed);
            let parsed = parsed.unwrap_or_default();
            prop_assert_eq!(parsed.value::<u64>("--depth"), Ok(Some(depth)));
            prop_assert_eq!(parsed.value::<f64>("--lr"), Ok(Some(lr)));
        }
    }
}
