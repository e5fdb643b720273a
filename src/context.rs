//! The per-invocation context a guard reads: the event, the call (the
//! payload and what is computed from it lazily, only when a guard asks:
//! see [`Call`], which a `Ctx` dereferences to) and the session state.

use crate::event::EventSpec;
use crate::payload::Payload;
use crate::state::Session;
use crate::target::Call;
use std::cell::{Ref, RefCell, RefMut};
use std::rc::Rc;

pub use crate::target::{cwd_of, find_project_root, project_root_here};

pub struct Ctx<'a> {
    pub event: &'static EventSpec,
    /// What is computed from the call alone, shared by the contexts of one
    /// call (see [`Ctx::for_event`]).
    call: Rc<Call<'a>>,
    session: Option<&'a RefCell<Session>>,
}

impl<'a> std::ops::Deref for Ctx<'a> {
    type Target = Call<'a>;
    fn deref(&self) -> &Call<'a> {
        &self.call
    }
}

impl<'a> Ctx<'a> {
    pub fn new(
        event: &'static EventSpec,
        payload: &'a Payload,
        session: Option<&'a RefCell<Session>>,
    ) -> Self {
        Ctx {
            event,
            call: Rc::new(Call::new(payload)),
            session,
        }
    }

    /// The context of the same call for `event` and `session`, sharing what
    /// is computed from the call (with this one and every other so made).
    pub fn for_event(
        &self,
        event: &'static EventSpec,
        session: Option<&'a RefCell<Session>>,
    ) -> Self {
        Ctx {
            event,
            call: Rc::clone(&self.call),
            session,
        }
    }

    /// Whether the call's tool has already run: the context's event, or the
    /// call's own (a card deferred to the after-tool event is evaluated as
    /// its own event, PreToolUse, while the payload says which it is), is
    /// not a pre-tool one. What the call writes is then already on disk.
    pub fn tool_has_run(&self) -> bool {
        let pre = |e: &str| e.starts_with("Pre");
        !pre(self.event.name) || self.payload.hook_event_name().is_some_and(|e| !pre(e))
    }

    /// Whether a once-per-session key was already spent in this session.
    /// Without session state nothing is ever spent.
    pub fn once_spent(&self, key: &crate::state::key::OnceKey) -> bool {
        self.session().is_some_and(|s| s.once_spent(key))
    }

    /// The session's state; `None` when the call runs stateless.
    pub fn session(&self) -> Option<Ref<'_, Session>> {
        self.session.and_then(|s| s.try_borrow().ok())
    }

    /// The session's state, for guards that keep counters (compaction). What
    /// they change is saved only when the call's answer was written.
    pub fn session_mut(&self) -> Option<RefMut<'_, Session>> {
        self.session.and_then(|s| s.try_borrow_mut().ok())
    }
}
