//! What `echo` and `printf` print, read from their constant words: printf's
//! format filled with its `%s` arguments, and the escapes both decode
//! (`printf '\x72\x6d -rf /'` prints `rm -rf /`, `echo -e '\056env'`
//! prints `.env`), so a command built from escapes and run (`| sh`, `|
//! xargs cat`, `$(printf …)`) is read like the one it spells.

use super::unwrap::peeled;

/// The most bytes an echoed text is decoded to.
const MAX_TEXT: usize = 16 * 1024;

/// What `echo`/`printf` print, if their words say it (None for printf's
/// other conversions, which need values the reader does not compute).
pub(super) fn echo_text(argv: &[String]) -> Option<String> {
    let args = peeled(argv);
    let name = super::program_name(args.first()?);
    let mut escapes = false;
    let words: Vec<&str> = args[1..]
        .iter()
        .map(String::as_str)
        .skip_while(|a| {
            let flag = name == "echo" && matches!(*a, "-e" | "-n" | "-E" | "-ne" | "-en");
            escapes |= flag && a.contains('e');
            flag
        })
        .collect();
    match name.as_str() {
        "echo" if escapes => Some(decode(&words.join(" "), true)),
        "echo" => Some(words.join(" ")),
        "printf" => {
            let format = decode(words.first()?, false);
            if format.contains("%s") && !format.replace("%s", "").contains('%') {
                // `printf 'rm -r %s\n' dir`, `printf '%s\n' 'script'`: the
                // format filled with the arguments, repeated while they last.
                let args = &words[1..];
                let per = format.matches("%s").count();
                let mut out = String::new();
                for chunk in args.chunks(per).take(64) {
                    let mut filled = format.clone();
                    for i in 0..per {
                        filled = filled.replacen("%s", chunk.get(i).copied().unwrap_or(""), 1);
                    }
                    out.push_str(&filled);
                }
                Some(out)
            } else if format.contains('%') {
                None
            } else {
                Some(format)
            }
        }
        _ => None,
    }
}

/// The text with the escapes of printf's format (or `echo -e`, whose octal
/// form starts with `\0`) decoded: `\n`, `\t`, `\\`, `\xHH`, octal `\NNN`.
/// Bounded by [`MAX_TEXT`].
fn decode(text: &str, echo: bool) -> String {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len().min(MAX_TEXT));
    let mut i = 0;
    while i < b.len() && out.len() < MAX_TEXT {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        i += 2;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'\\' => out.push(b'\\'),
            b'x' => {
                let digits = b[i..]
                    .iter()
                    .take(2)
                    .take_while(|d| d.is_ascii_hexdigit())
                    .count();
                if digits == 0 {
                    out.extend_from_slice(b"\\x");
                } else {
                    let v = u8::from_str_radix(&text[i..i + digits], 16).unwrap_or(b'?');
                    out.push(v);
                    i += digits;
                }
            }
            b'0'..=b'7' => {
                // printf: `\NNN`; echo -e: `\0NNN`.
                let (from, most) = if echo {
                    (i, if c == b'0' { 3 } else { 0 })
                } else {
                    (i - 1, 3)
                };
                let digits = b[from..]
                    .iter()
                    .take(most)
                    .take_while(|d| (b'0'..=b'7').contains(*d))
                    .count();
                if echo && c != b'0' {
                    out.push(b'\\');
                    out.push(c);
                } else if digits == 0 {
                    out.push(0);
                } else {
                    let v = u32::from_str_radix(&text[from..from + digits], 8).unwrap_or(63);
                    out.push(u8::try_from(v).unwrap_or(b'?'));
                    i = from + digits;
                }
            }
            other => {
                out.push(b'\\');
                out.push(other);
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn escapes_are_decoded() {
        assert_eq!(decode(r"\x72\x6d -rf /", false), "rm -rf /");
        assert_eq!(decode(r"\056env", false), ".env");
        assert_eq!(decode(r"\0056env", true), ".env");
        assert_eq!(decode(r"a\tb\\n\xZZ", false), "a\tb\\n\\xZZ");
        assert_eq!(decode(r"trailing\", false), "trailing\\");
    }
}
