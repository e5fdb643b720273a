//! The calls of Lua and R one-liners (`lua -e`, `Rscript -e`) that run a
//! shell command or delete, move or write files: the same reading as the
//! other languages' tables in [`super::code`].

use super::code::Does::{self, *};

pub(super) const LUA: &[(&str, Does)] = &[
    ("os.execute", Shell),
    ("io.popen", Shell),
    ("os.remove", DeleteFile),
    ("os.rename", Move),
];

pub(super) const R: &[(&str, Does)] = &[
    ("system", Shell),
    ("shell", Shell),
    ("system2", Spawn),
    ("unlink", Delete),
    ("file.remove", DeleteFile),
    ("file.rename", Move),
    ("file.copy", Copy),
];
