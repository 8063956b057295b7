//! Go's `regexp.Compile` errors for a CRD schema's `pattern`: the structural-schema
//! check refuses a pattern Go cannot compile and prints Go's error, so the test server
//! has to find the same first error and name the same piece of the pattern. The
//! `regex` crate cannot tell (its syntax and messages differ), hence this scanner of
//! RE2's Perl-flavoured syntax, which only looks for errors and builds nothing.

/// The POSIX classes Go knows inside brackets (`[[:alpha:]]`).
const POSIX_CLASSES: &[&str] = &[
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
    "space", "upper", "word", "xdigit",
];

/// Go's largest repeat count.
const MAX_REPEAT: u64 = 1000;

type Failure<'a> = (&'static str, &'a str);

/// The text of Go's `*syntax.Error` for `pattern` (`error parsing regexp: <code>:
/// `<expr>``), or none when Go compiles it.
pub(crate) fn go_compile_error(pattern: &str) -> Option<String> {
    scan(pattern)
        .err()
        .map(|(code, expr)| format!("error parsing regexp: {code}: `{expr}`"))
}

fn char_at(s: &str, i: usize) -> Option<char> {
    s.get(i..).and_then(|t| t.chars().next())
}

fn scan(p: &str) -> Result<(), Failure<'_>> {
    let mut depth = 0usize;
    // Whether the top of Go's parse stack is something a repetition may apply to
    // (not empty, not a `(` or `|` marker).
    let mut operand = false;
    // Where the repetition operator just before started, for `a**`.
    let mut last_repeat: Option<usize> = None;
    let mut i = 0;
    while let Some(c) = char_at(p, i) {
        let mut repeat_at = None;
        match c {
            '(' => {
                if p[i..].starts_with("(?") {
                    let (end, opens) = perl_group(p, i)?;
                    if opens {
                        depth += 1;
                        operand = false;
                    }
                    i = end;
                } else {
                    depth += 1;
                    operand = false;
                    i += 1;
                }
            }
            '|' => {
                operand = false;
                i += 1;
            }
            ')' => {
                if depth == 0 {
                    return Err(("unexpected )", p));
                }
                depth -= 1;
                operand = true;
                i += 1;
            }
            '[' => {
                i = class(p, i)?;
                operand = true;
            }
            '*' | '+' | '?' => {
                let mut after = i + 1;
                if char_at(p, after) == Some('?') {
                    after += 1;
                }
                repetition(p, i, after, last_repeat, operand)?;
                repeat_at = Some(i);
                i = after;
            }
            '{' => match repeat_braces(p, i) {
                Some(end) => {
                    let (min, max) = repeat_bounds(&p[i + 1..end - 1]);
                    if min > MAX_REPEAT || max.is_some_and(|m| m > MAX_REPEAT || m < min) {
                        return Err(("invalid repeat count", &p[i..end]));
                    }
                    let mut after = end;
                    if char_at(p, after) == Some('?') {
                        after += 1;
                    }
                    repetition(p, i, after, last_repeat, operand)?;
                    repeat_at = Some(i);
                    i = after;
                }
                None => {
                    operand = true;
                    i += 1;
                }
            },
            '\\' => {
                i = match char_at(p, i + 1) {
                    Some('A' | 'z' | 'b' | 'B') => i + 2,
                    Some('Q') => match p[i + 2..].find("\\E") {
                        Some(at) => i + 2 + at + 2,
                        None => p.len(),
                    },
                    _ => escape(p, i)?,
                };
                operand = true;
            }
            _ => {
                operand = true;
                i += c.len_utf8();
            }
        }
        last_repeat = repeat_at;
    }
    if depth > 0 {
        return Err(("missing closing )", p));
    }
    Ok(())
}

/// A repetition operator spanning `p[start..after]`: Go refuses a second one in a
/// row and one with nothing to repeat.
fn repetition(
    p: &str,
    start: usize,
    after: usize,
    last_repeat: Option<usize>,
    operand: bool,
) -> Result<(), Failure<'_>> {
    if let Some(last) = last_repeat {
        return Err(("invalid nested repetition operator", &p[last..after]));
    }
    if !operand {
        return Err(("missing argument to repetition operator", &p[start..after]));
    }
    Ok(())
}

/// The end (after `}`) of a `{n}`, `{n,}` or `{n,m}` at `i`; none when the brace is
/// a literal for Go (no digits, a leading zero, anything else inside).
fn repeat_braces(p: &str, i: usize) -> Option<usize> {
    let close = i + p[i..].find('}')?;
    let inner = &p[i + 1..close];
    let (lo, hi) = match inner.split_once(',') {
        Some((lo, hi)) => (lo, Some(hi)),
        None => (inner, None),
    };
    let number = |s: &str| {
        !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_digit())
            && !(s.len() >= 2 && s.starts_with('0'))
    };
    if !number(lo) || hi.is_some_and(|h| !h.is_empty() && !number(h)) {
        return None;
    }
    Some(close + 1)
}

/// The bounds of a valid brace repeat's inside; numbers too long for Go count as
/// over the limit.
fn repeat_bounds(inner: &str) -> (u64, Option<u64>) {
    let value = |s: &str| {
        if s.len() > 8 {
            u64::MAX
        } else {
            s.parse().unwrap_or(u64::MAX)
        }
    };
    match inner.split_once(',') {
        Some((lo, "")) => (value(lo), None),
        Some((lo, hi)) => (value(lo), Some(value(hi))),
        None => (value(inner), Some(value(inner))),
    }
}

/// A `(?` group at `i`: flags (`(?i)`, `(?i:`) or a named capture; its end and
/// whether it opens a group.
fn perl_group(p: &str, i: usize) -> Result<(usize, bool), Failure<'_>> {
    let rest = &p[i..];
    let named = rest
        .strip_prefix("(?P<")
        .map(|r| (r, 4))
        .or_else(|| rest.strip_prefix("(?<").map(|r| (r, 3)));
    if let Some((after, skip)) = named {
        let Some(end) = after.find('>') else {
            return Err(("invalid named capture", rest));
        };
        let name = &after[..end];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(("invalid named capture", &rest[..skip + end + 1]));
        }
        return Ok((i + skip + end + 1, true));
    }
    let mut negated = false;
    let mut saw_flag = false;
    let mut j = i + 2;
    while let Some(c) = char_at(p, j) {
        j += c.len_utf8();
        match c {
            'i' | 'm' | 's' | 'U' => saw_flag = true,
            '-' if !negated => {
                negated = true;
                saw_flag = false;
            }
            ':' | ')' if !negated || saw_flag => return Ok((j, c == ':')),
            _ => break,
        }
    }
    Err(("invalid or unsupported Perl syntax", &p[i..j]))
}

/// An escape at `i` (the backslash) outside or inside a class: its end.
fn escape(p: &str, i: usize) -> Result<usize, Failure<'_>> {
    let Some(c) = char_at(p, i + 1) else {
        return Err(("trailing backslash at end of expression", ""));
    };
    let next = i + 1 + c.len_utf8();
    let invalid = |end: usize| Err(("invalid escape sequence", &p[i..end]));
    match c {
        '1'..='7' if !matches!(char_at(p, next), Some('0'..='7')) => invalid(next),
        '0'..='7' => {
            let mut end = next;
            for _ in 0..2 {
                if matches!(char_at(p, end), Some('0'..='7')) {
                    end += 1;
                }
            }
            Ok(end)
        }
        'x' => match char_at(p, next) {
            Some('{') => {
                let body_start = next + 1;
                let digits = p[body_start..]
                    .bytes()
                    .take_while(u8::is_ascii_hexdigit)
                    .count();
                let close = body_start + digits;
                let value = u32::from_str_radix(&p[body_start..close], 16).ok();
                let end = close + char_at(p, close).map_or(0, char::len_utf8);
                if digits == 0
                    || char_at(p, close) != Some('}')
                    || value.is_none_or(|v| v > 0x10FFFF)
                {
                    return invalid(end);
                }
                Ok(end)
            }
            _ => {
                // Go reads two runes whatever they are, then checks them.
                let mut end = next;
                let mut hex = 0;
                for _ in 0..2 {
                    if let Some(d) = char_at(p, end) {
                        hex += usize::from(d.is_ascii_hexdigit());
                        end += d.len_utf8();
                    }
                }
                if hex < 2 {
                    return invalid(end);
                }
                Ok(end)
            }
        },
        'p' | 'P' => match char_at(p, next) {
            Some('{') => match p[next..].find('}') {
                Some(at) => Ok(next + at + 1),
                None => Err(("invalid character class range", &p[i..])),
            },
            Some(n) => Ok(next + n.len_utf8()),
            None => invalid(next),
        },
        'a' | 'f' | 'n' | 'r' | 't' | 'v' | 'd' | 'D' | 's' | 'S' | 'w' | 'W' => Ok(next),
        c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok(next),
        _ => invalid(next),
    }
}

/// A bracketed class at `i`: its end (after `]`).
fn class(p: &str, i: usize) -> Result<usize, Failure<'_>> {
    let whole = &p[i..];
    let mut j = i + 1;
    if char_at(p, j) == Some('^') {
        j += 1;
    }
    let mut first = true;
    loop {
        match char_at(p, j) {
            None => return Err(("missing closing ]", whole)),
            Some(']') if !first => return Ok(j + 1),
            _ => {}
        }
        first = false;
        if p[j..].starts_with("[:") {
            if let Some(at) = p[j + 2..].find(":]") {
                let name = &p[j + 2..j + 2 + at];
                let name = name.strip_prefix('^').unwrap_or(name);
                let end = j + 2 + at + 2;
                if !POSIX_CLASSES.contains(&name) {
                    return Err(("invalid character class range", &p[j..end]));
                }
                j = end;
                continue;
            }
        }
        let start = j;
        let (lo, after) = class_char(p, j, whole)?;
        j = after;
        if char_at(p, j) == Some('-') && !matches!(char_at(p, j + 1), Some(']') | None) {
            let (hi, after) = class_char(p, j + 1, whole)?;
            j = after;
            if let (Some(lo), Some(hi)) = (lo, hi) {
                if hi < lo {
                    return Err(("invalid character class range", &p[start..j]));
                }
            }
        }
    }
}

/// One character of a class at `j`: its value when it is a single known character
/// (none for escapes naming sets), and its end.
fn class_char<'a>(
    p: &'a str,
    j: usize,
    whole: &'a str,
) -> Result<(Option<char>, usize), Failure<'a>> {
    match char_at(p, j) {
        None => Err(("missing closing ]", whole)),
        Some('\\') => {
            let end = escape(p, j)?;
            let value = match &p[j + 1..end] {
                "n" => Some('\n'),
                "t" => Some('\t'),
                "r" => Some('\r'),
                "f" => Some('\u{c}'),
                "v" => Some('\u{b}'),
                "a" => Some('\u{7}'),
                s if s.len() == 1 && !s.as_bytes()[0].is_ascii_alphanumeric() => s.chars().next(),
                _ => None,
            };
            Ok((value, end))
        }
        Some(c) => Ok((Some(c), j + c.len_utf8())),
    }
}

#[cfg(test)]
mod tests {
    use super::go_compile_error;

    #[test]
    fn finds_gos_first_error_and_names_its_piece() {
        let cases = [
            ("^[a-z]+$", None),
            ("[a", Some("missing closing ]: `[a`")),
            ("a)", Some("unexpected ): `a)`")),
            ("(a", Some("missing closing ): `(a`")),
            ("*a", Some("missing argument to repetition operator: `*`")),
            ("a**", Some("invalid nested repetition operator: `**`")),
            ("a|+", Some("missing argument to repetition operator: `+`")),
            ("\\q", Some("invalid escape sequence: `\\q`")),
            ("\\1", Some("invalid escape sequence: `\\1`")),
            ("a\\", Some("trailing backslash at end of expression: ``")),
            ("[z-a]", Some("invalid character class range: `z-a`")),
            ("a{2,1}", Some("invalid repeat count: `{2,1}`")),
            ("a{1001}", Some("invalid repeat count: `{1001}`")),
            ("(?=a)", Some("invalid or unsupported Perl syntax: `(?=`")),
            ("(?P<n>a)(?i)b(?s:c)", None),
            ("a{,2}", None),
            ("[]a]", None),
            ("[[:alpha:]]", None),
            (
                "[[:foo:]]",
                Some("invalid character class range: `[:foo:]`"),
            ),
            ("\\d+\\.\\x41\\x{263a}\\pL\\p{Greek}", None),
            // Multi-byte text is cut at character boundaries.
            ("\\é", Some("invalid escape sequence: `\\é`")),
            ("[é-a]", Some("invalid character class range: `é-a`")),
            ("\\x{é", Some("invalid escape sequence: `\\x{é`")),
            ("\\xé1", Some("invalid escape sequence: `\\xé1`")),
            ("(?P<é>a)", Some("invalid named capture: `(?P<é>`")),
        ];
        for (pattern, want) in cases {
            let want = want.map(|w| format!("error parsing regexp: {w}"));
            assert_eq!(go_compile_error(pattern), want, "{pattern}");
        }
    }
}
