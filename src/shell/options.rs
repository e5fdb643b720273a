//! Reading a program's options the way getopt does, to find where its
//! operands (for a wrapper: the command it runs) start.

/// Skips options starting at `i`: short options in `with_arg` take a value
/// (attached or the next word), long options in `long_with_arg` take the next
/// word unless written `--opt=value`. `--` ends the options.
pub(super) fn skip_options(
    argv: &[String],
    mut i: usize,
    with_arg: &str,
    long_with_arg: &[&str],
) -> usize {
    while let Some(a) = argv.get(i) {
        if a == "--" {
            return i + 1;
        }
        if !a.starts_with('-') || a == "-" {
            return i;
        }
        if let Some(long) = a.strip_prefix("--") {
            i += if !long.contains('=') && long_with_arg.contains(&long) {
                2
            } else {
                1
            };
            continue;
        }
        let cluster = &a[1..];
        let mut step = 1;
        for (k, c) in cluster.char_indices() {
            if with_arg.contains(c) {
                if k + c.len_utf8() == cluster.len() {
                    step = 2;
                }
                break;
            }
        }
        i += step;
    }
    i
}
