//! What a command does that is written inside it (read by the finders and
//! the one-liner reader, recorded by the unwrapper).

/// One thing a command does that is written inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum CodeEffect {
    /// A shell command line it runs (`os.system('…')`).
    Shell(String),
    /// A program it runs with these words (`subprocess.run([…])`), or the
    /// command equivalent to a call (`shutil.rmtree(p)`: `rm -rf p`).
    Argv(Vec<String>),
    /// A file it writes (`open(p, 'w')`): read as `: > p`.
    Write(String),
}
