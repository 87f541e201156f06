//! Reading `tests/vectors/*.txt`: the escapes every suite shares
//! (`tests/README.md`).

/// Expands `{repeat:N:text}` and the escapes `\\ \n \t \xHH \u{H..}`.
pub fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if let Some(body) = rest.strip_prefix("{repeat:") {
            let (count, body) = body.split_once(':').ok_or("repeat without count")?;
            let (text, after) = body.split_once('}').ok_or("repeat without '}'")?;
            let count: usize = count.parse().map_err(|_| format!("bad count {count:?}"))?;
            out.push_str(&unescape(text)?.repeat(count));
            rest = after;
        } else if let Some(esc) = rest.strip_prefix('\\') {
            let (ch, len) = match esc.as_bytes().first() {
                Some(b'\\') => ('\\', 1),
                Some(b'n') => ('\n', 1),
                Some(b't') => ('\t', 1),
                Some(b'x') => {
                    let b = esc
                        .get(1..3)
                        .and_then(hex)
                        .and_then(|n| u8::try_from(n).ok());
                    (char::from(b.filter(u8::is_ascii).ok_or("bad \\xHH")?), 3)
                }
                Some(b'u') => {
                    let end = esc.find('}').ok_or("\\u without '}'")?;
                    let digits = esc.get(2..end).filter(|_| esc[1..].starts_with('{'));
                    let ch = digits
                        .and_then(hex)
                        .and_then(char::from_u32)
                        .ok_or("bad \\u{...}")?;
                    (ch, end + 1)
                }
                _ => return Err(format!("unknown escape in {s:?}")),
            };
            out.push(ch);
            rest = &esc[len..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(out)
}

/// A number in 1 to 6 hex digits (no sign, unlike `from_str_radix`).
fn hex(s: &str) -> Option<u32> {
    let digits = (1..=6).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit());
    digits.then(|| u32::from_str_radix(s, 16).ok()).flatten()
}
