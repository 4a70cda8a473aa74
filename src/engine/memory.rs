//! How much memory the machine can give the hash table: a table that the system would have to
//! swap or kill the engine for is worse than a smaller one.

/// The memory available to new allocations in MiB, where the system says (Linux's
/// `MemAvailable`); `None` elsewhere or if it cannot be read.
pub fn available_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo_available_mb(&text)
}

/// `MemAvailable` from the text of `/proc/meminfo`, in MiB.
pub fn parse_meminfo_available_mb(text: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kib: usize = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kib / 1024)
}

/// The largest hash table to try for a request of `requested_mb`, given `available_mb` (with
/// the current table's `current_mb`, which is freed first): at most half of what would then
/// be available, and at least 1 MiB.
pub fn hash_cap_mb(requested_mb: usize, available_mb: Option<usize>, current_mb: usize) -> usize {
    let requested = requested_mb.max(1);
    match available_mb {
        Some(free) => requested.min((free.saturating_add(current_mb) / 2).max(1)),
        None => requested,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2097152 kB\n";
        assert_eq!(parse_meminfo_available_mb(text), Some(2048));
        assert_eq!(parse_meminfo_available_mb("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_meminfo_available_mb("MemAvailable: lots kB\n"), None);
    }

    #[test]
    fn the_cap_keeps_half_of_what_is_available() {
        assert_eq!(hash_cap_mb(64, Some(2048), 16), 64);
        assert_eq!(hash_cap_mb(40_000, Some(2048), 16), 1032);
        assert_eq!(hash_cap_mb(40_000, None, 16), 40_000);
        assert_eq!(hash_cap_mb(0, Some(0), 0), 1);
    }
}
