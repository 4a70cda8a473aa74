//! What Betacut announces after `protover 2`: its features and its engine options (the shared
//! option table in XBoard's syntax).

use crate::engine::options::{OptionKind, OptionScope, OPTIONS};
use crate::engine::{engine_name, OptionSpec};

/// The variants Betacut plays, as announced.
pub const VARIANTS: &str = "normal,fischerandom";

/// The `feature` lines sent in reply to `protover 2`, `done=0` first and `done=1` last.
pub fn feature_lines() -> Vec<String> {
    let mut lines = vec![
        "feature done=0".to_string(),
        "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 \
         sigterm=0 reuse=1 analyze=1 colors=0 ics=1 name=1 pause=1 nps=1 debug=1 memory=1 \
         smp=1 exclude=1 egt=\"syzygy\""
            .to_string(),
        format!(
            "feature myname=\"{}\" variants=\"{VARIANTS}\"",
            engine_name()
        ),
    ];
    lines.extend(
        OPTIONS
            .iter()
            .filter(|spec| spec.scope == OptionScope::All)
            .map(|spec| format!("feature option=\"{}\"", option_text(spec))),
    );
    lines.push("feature done=1".to_string());
    lines
}

/// One option in XBoard's syntax, e.g. `Hash -spin 16 1 1048576`.
pub fn option_text(spec: &OptionSpec) -> String {
    match spec.kind {
        OptionKind::Check { default } => format!("{} -check {}", spec.name, u8::from(default)),
        OptionKind::Spin { default, min, max } => {
            format!("{} -spin {default} {min} {max}", spec.name)
        }
        OptionKind::Button => format!("{} -button", spec.name),
        OptionKind::Text { default } => format!("{} -file {default}", spec.name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_list_is_framed_and_complete() {
        let lines = feature_lines();
        assert_eq!(lines.first().map(String::as_str), Some("feature done=0"));
        assert_eq!(lines.last().map(String::as_str), Some("feature done=1"));
        let all = lines.join(" ");
        for needed in [
            "ping=1",
            "setboard=1",
            "playother=1",
            "usermove=1",
            "time=1",
            "draw=1",
            "sigint=0",
            "sigterm=0",
            "reuse=1",
            "analyze=1",
            "colors=0",
            "name=1",
            "nps=1",
            "debug=1",
            "memory=1",
            "smp=1",
            "exclude=1",
            "egt=\"syzygy\"",
            "option=\"Syzygy50MoveRule -check 1\"",
            "option=\"SyzygyProbeDepth -spin 1 1 100\"",
            "option=\"SyzygyProbeLimit -spin 7 0 7\"",
            "variants=\"normal,fischerandom\"",
            "myname=\"Betacut",
            "option=\"Hash -spin 16 1 1048576\"",
            "option=\"Threads -spin 1 1 256\"",
            "option=\"Ponder -check 0\"",
            "option=\"MultiPV -spin 1 1 256\"",
            "option=\"Move Overhead -spin 50 0 5000\"",
            "option=\"Clear Hash -button\"",
            "option=\"Log File -file \"",
        ] {
            assert!(all.contains(needed), "{needed}");
        }
        assert!(
            !all.contains("UCI_Chess960"),
            "XBoard has `variant` for that"
        );
        assert!(
            !all.contains("SyzygyPath"),
            "XBoard has `egtpath syzygy` for that"
        );
    }
}
