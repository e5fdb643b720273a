//! The kind of tool a call uses: one table of the canonical (Claude Code)
//! tool names cuecard tells apart, read once per call ([`super::Call::tool`]).
//! Every payload is in Claude Code's shape before a guard runs: each
//! harness's native names are mapped in its own file (`src/harness/<h>.rs`),
//! and an MCP call a row of the MCP table knows is rewritten into the
//! built-in call it is judged as. So only the canonical names are here.

/// What kind of tool a call uses, as far as anything in cuecard tells
/// tools apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolKind {
    /// `Bash`: a POSIX shell command line.
    Bash,
    /// `PowerShell`: a PowerShell command line (its own quoting rules).
    PowerShell,
    /// `Write`: a whole file's content.
    Write,
    /// `Edit`: one replacement in a file.
    Edit,
    /// `MultiEdit`: several replacements in one file.
    MultiEdit,
    /// `NotebookEdit`: one cell of a notebook.
    NotebookEdit,
    /// `apply_patch`: a patch of any number of files.
    Patch,
    /// `Read` and `NotebookRead`: one file (or several) read.
    Read,
    /// `Grep`: a search under a path.
    Grep,
    /// `AskUserQuestion`: a question put to the person.
    AskUser,
    /// Any other tool (`Glob`, `WebFetch`, `Task`, an MCP tool no row of the
    /// MCP table judges, ...), and a call that names no tool.
    Other,
}

/// The canonical names, each with its kind (the one list of them).
const NAMES: &[(&str, ToolKind)] = &[
    ("Bash", ToolKind::Bash),
    ("PowerShell", ToolKind::PowerShell),
    ("Write", ToolKind::Write),
    ("Edit", ToolKind::Edit),
    ("MultiEdit", ToolKind::MultiEdit),
    ("NotebookEdit", ToolKind::NotebookEdit),
    ("apply_patch", ToolKind::Patch),
    ("Read", ToolKind::Read),
    ("NotebookRead", ToolKind::Read),
    ("Grep", ToolKind::Grep),
    ("AskUserQuestion", ToolKind::AskUser),
];

impl ToolKind {
    /// The kind of a canonical tool name (exact, as Claude Code spells it).
    pub fn of(name: Option<&str>) -> ToolKind {
        name.and_then(|n| NAMES.iter().find(|(x, _)| *x == n))
            .map_or(ToolKind::Other, |(_, k)| *k)
    }

    /// The kind's canonical name: the first the table gives it (`Read` for
    /// `Read` and `NotebookRead`). `Other` has none: empty.
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("", |&(n, _)| n)
    }

    /// A shell tool: its `command` is a command line.
    pub fn is_shell(self) -> bool {
        matches!(self, ToolKind::Bash | ToolKind::PowerShell)
    }

    /// A tool that writes the one file its input names (`file_path`, or
    /// `notebook_path` for a notebook).
    pub fn writes_named_file(self) -> bool {
        matches!(
            self,
            ToolKind::Write | ToolKind::Edit | ToolKind::MultiEdit | ToolKind::NotebookEdit
        )
    }

    /// A tool that writes files: one named file, or a patch's.
    pub fn writes_files(self) -> bool {
        self.writes_named_file() || self == ToolKind::Patch
    }

    /// The canonical names of the kinds `pick` keeps, in the table's order
    /// (a trigger card's default tools, an install matcher).
    pub fn names<'n>(pick: fn(ToolKind) -> bool) -> impl Iterator<Item = &'n str> {
        NAMES.iter().filter(move |(_, k)| pick(*k)).map(|&(n, _)| n)
    }
}

#[cfg(test)]
mod tests {
    use super::ToolKind;

    #[test]
    fn canonical_names_have_their_kind_and_others_are_other() {
        assert_eq!(ToolKind::of(Some("Bash")), ToolKind::Bash);
        assert_eq!(ToolKind::of(Some("NotebookRead")), ToolKind::Read);
        assert_eq!(ToolKind::of(Some("apply_patch")), ToolKind::Patch);
        // Exact names only: a harness's native name is mapped in its file.
        assert_eq!(ToolKind::of(Some("bash")), ToolKind::Other);
        assert_eq!(ToolKind::of(Some("write_file")), ToolKind::Other);
        assert_eq!(ToolKind::of(Some("mcp__fs__write_file")), ToolKind::Other);
        assert_eq!(ToolKind::of(None), ToolKind::Other);
    }

    #[test]
    fn each_kind_is_named_by_the_table() {
        assert_eq!(ToolKind::Read.name(), "Read");
        assert_eq!(ToolKind::Patch.name(), "apply_patch");
        assert_eq!(ToolKind::Other.name(), "");
        for k in [
            ToolKind::Bash,
            ToolKind::PowerShell,
            ToolKind::Write,
            ToolKind::Edit,
            ToolKind::MultiEdit,
            ToolKind::NotebookEdit,
            ToolKind::Patch,
            ToolKind::Read,
            ToolKind::Grep,
            ToolKind::AskUser,
        ] {
            assert_eq!(ToolKind::of(Some(k.name())), k);
        }
    }

    #[test]
    fn the_lists_are_read_from_the_one_table() {
        let shell: Vec<_> = ToolKind::names(ToolKind::is_shell).collect();
        assert_eq!(shell, ["Bash", "PowerShell"]);
        let files: Vec<_> = ToolKind::names(ToolKind::writes_files).collect();
        assert_eq!(
            files,
            ["Write", "Edit", "MultiEdit", "NotebookEdit", "apply_patch"]
        );
    }
}
