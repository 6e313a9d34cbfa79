//! The text cutter: a text over budget keeps its head and tail, with a marker between that
//! says how many bytes were cut.

/// How far from the cut, as a fraction of a kept piece (a quarter), a line boundary is
/// looked for, so that the cut falls between lines.
const LINE_SEARCH_DIVISOR: usize = 4;

/// `text` in at most `max` bytes, or `None` when it fits already.
///
/// The head and the tail are kept, about half the room each, and the marker
/// `[… 12,345 bytes cut …]` goes between them, on a line of its own. Cuts fall on character
/// boundaries, and on a line boundary when one lies within a quarter of a kept piece from
/// the cut. A `max` too small for the marker gives the marker alone.
pub(super) fn cut(text: &str, max: usize) -> Option<String> {
    if text.len() <= max {
        return None;
    }
    // The marker never names more bytes than the whole text, and takes a newline each side.
    let room = max.saturating_sub(marker(text.len()).len() + 2);
    let head_room = room.div_ceil(2);
    let head_end = head_end(text, head_room);
    let tail_start = tail_start(text, room - head_room).max(head_end);
    let (head, tail) = (&text[..head_end], &text[tail_start..]);

    let mut kept = String::with_capacity(max);
    kept.push_str(head);
    if !head.is_empty() && !head.ends_with('\n') {
        kept.push('\n');
    }
    kept.push_str(&marker(tail_start - head_end));
    if !tail.is_empty() {
        kept.push('\n');
    }
    kept.push_str(tail);
    Some(kept)
}

/// The marker for `bytes` cut out of a text.
pub(super) fn marker(bytes: usize) -> String {
    format!("[… {} bytes cut …]", grouped(bytes))
}

/// `n` with a comma between groups of three digits: `12,345`.
pub(super) fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// Where the head ends: at most `room` bytes in, on a character boundary, just after a
/// newline when one is near.
fn head_end(text: &str, room: usize) -> usize {
    let end = text.floor_char_boundary(room);
    let near = end.saturating_sub(room / LINE_SEARCH_DIVISOR);
    // A newline is one byte and never inside a character, so the byte after it is a boundary.
    match text.as_bytes()[near..end].iter().rposition(|&b| b == b'\n') {
        Some(newline) => near + newline + 1,
        None => end,
    }
}

/// Where the tail starts: at most `room` bytes before the end, on a character boundary,
/// at the start of a line when one is near.
fn tail_start(text: &str, room: usize) -> usize {
    let start = text.ceil_char_boundary(text.len() - room);
    let near = (start + room / LINE_SEARCH_DIVISOR).min(text.len());
    match text.as_bytes()[start..near]
        .iter()
        .position(|&b| b == b'\n')
    {
        Some(newline) => start + newline + 1,
        None => start,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_within_budget_is_not_cut() {
        assert_eq!(cut("hello", 5), None);
        assert_eq!(cut("hello", 6), None);
        assert_eq!(cut("", 0), None);
    }

    #[test]
    fn one_byte_over_is_cut_within_the_budget() {
        let text = "x".repeat(101);
        let kept = cut(&text, 100).unwrap();
        assert!(kept.len() <= 100, "{} bytes: {kept}", kept.len());
        assert!(kept.contains("bytes cut …]"), "{kept}");
    }

    #[test]
    fn head_and_tail_are_kept_with_the_marker_between() {
        let text = format!("HEAD{}TAIL", "-".repeat(1_000));
        let kept = cut(&text, 100).unwrap();
        assert!(kept.starts_with("HEAD"), "{kept}");
        assert!(kept.ends_with("TAIL"), "{kept}");
        assert!(kept.contains("\n[… "), "{kept}");
        assert!(kept.contains(" bytes cut …]\n"), "{kept}");
    }

    #[test]
    fn the_marker_says_exactly_how_many_bytes_were_cut() {
        let text = "a".repeat(20_000);
        let kept = cut(&text, 1_000).unwrap();
        let (head, rest) = kept.split_once('\n').unwrap();
        let (marker_line, tail) = rest.split_once('\n').unwrap();
        let cut_bytes = text.len() - head.len() - tail.len();
        assert_eq!(marker_line, marker(cut_bytes));
        assert!(marker_line.contains("19,"), "{marker_line}");
    }

    #[test]
    fn cuts_never_split_a_character() {
        for max in 30..120 {
            for text in [
                "é".repeat(100),
                "日本語のテキスト".repeat(20),
                "🦀".repeat(60),
            ] {
                // Slicing would panic off a boundary; the result is a whole `String`.
                let kept = cut(&text, max).unwrap();
                assert!(kept.len() <= max, "max {max}: {} bytes", kept.len());
                let first = text.chars().next().unwrap();
                assert!(kept.starts_with(first) || kept.starts_with('['), "{kept}");
            }
        }
    }

    #[test]
    fn cuts_fall_on_line_boundaries_when_near() {
        let text: String = (0..200).map(|n| format!("line {n:03}\n")).collect();
        let kept = cut(&text, 200).unwrap();
        let lines: Vec<&str> = kept.lines().collect();
        let marker_at = lines
            .iter()
            .position(|line| line.starts_with("[…"))
            .unwrap();
        for line in lines.iter().take(marker_at) {
            assert!(line.starts_with("line ") && line.len() == 8, "{line:?}");
        }
        for line in lines.iter().skip(marker_at + 1) {
            assert!(line.starts_with("line ") && line.len() == 8, "{line:?}");
        }
        assert!(kept.starts_with("line 000\n"));
        assert!(kept.ends_with("line 199\n"));
        assert!(kept.len() <= 200);
    }

    #[test]
    fn a_budget_below_the_marker_gives_the_marker_alone() {
        let kept = cut(&"z".repeat(5_000), 4).unwrap();
        assert_eq!(kept, marker(5_000));
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(12_345), "12,345");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}
