//! What one run of `install`, `uninstall`, `verify` or `doctor` knows
//! about where it runs, computed once and handed down: the roots (home,
//! project root, working directory), the host, the state directory, and,
//! each the first time it is asked for, the installed binary, the
//! effective policy and the cards' registrations. Install plans from it
//! ([`super::txn`]); verify and doctor inspect with the same value
//! ([`super::inspect`]), so what they compare with is what install would
//! write, from the same facts.

use super::entries::{self, Skipped};
use super::error::InstallError;
use super::merge::HookEntry;
use crate::harness::config::{Config, Host, Roots};
use crate::policy::Policy;
use crate::registration::Registration;
use std::cell::OnceCell;
use std::path::PathBuf;

/// One run's facts (see the module's documentation).
pub struct Context {
    /// Home, project root and working directory, from the environment.
    pub roots: Roots,
    /// The platform the entries are rendered for.
    pub host: Host,
    /// The state directory commands read (trust records, sessions).
    pub state: Option<PathBuf>,
    bin: OnceCell<String>,
    policy: OnceCell<Policy>,
    registrations: OnceCell<Vec<Registration>>,
}

impl Context {
    /// The context of this process: its roots ([`Roots::from_env`], which
    /// refuses a missing home), this host and the state directory.
    pub fn from_env() -> Result<Context, InstallError> {
        Ok(Context::new(
            Roots::from_env()?,
            crate::state::store::root_for_commands(),
        ))
    }

    /// A context over `roots` and the state directory `state`.
    pub fn new(roots: Roots, state: Option<PathBuf>) -> Context {
        Context {
            roots,
            host: Host::current(),
            state,
            bin: OnceCell::new(),
            policy: OnceCell::new(),
            registrations: OnceCell::new(),
        }
    }

    /// This context with `bin` as the installed binary (a packaged path; a
    /// test's), instead of the one [`Context::bin`] would find.
    pub fn with_bin(self, bin: String) -> Context {
        let _ = self.bin.set(bin);
        self
    }

    /// The installed binary every entry names
    /// ([`super::roots::installed_binary`]); asked for only where a command
    /// needs it, so that a refusal that comes first still comes first.
    pub fn bin(&self) -> Result<&str, InstallError> {
        if let Some(b) = self.bin.get() {
            return Ok(b);
        }
        let b = super::roots::installed_binary()?;
        Ok(self.bin.get_or_init(|| b))
    }

    /// The effective policy for this project.
    pub fn policy(&self) -> &Policy {
        self.policy
            .get_or_init(|| crate::policy::load(&self.roots.project, self.state.as_deref()))
    }

    /// The registrations the cards visible from this project need: the
    /// shipped cards, the user's and the project's trusted ones (see
    /// `registration::for_install`).
    pub fn registrations(&self) -> &[Registration] {
        self.registrations.get_or_init(|| {
            crate::registration::for_install(&self.roots.project, self.state.as_deref())
        })
    }

    /// The entries install writes for `spec` running `program`, and the
    /// registrations it leaves out; with a policy set, also where the
    /// harness honours a decision but drops context (docs/design.md).
    pub fn wanted(&self, spec: &Config, program: &str) -> (Vec<HookEntry>, Vec<Skipped>) {
        entries::build_deciding(
            spec,
            program,
            self.host,
            self.registrations(),
            self.policy().is_set(),
        )
    }
}
