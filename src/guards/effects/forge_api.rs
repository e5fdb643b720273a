//! Deletes through a forge's REST API (`gh api -X DELETE PATH`, `glab
//! api`) of things that hold no data: the gh and glab families' generic
//! delete steps over them.

use super::operands;

/// Collections of a forge's REST API whose members hold no data: labels
/// (disposable), and relations of a user to a thing (a follow, a star, a
/// subscription, a reaction, an assignee, a requested reviewer, a lock).
const API_DISPOSABLE: &[&str] = &[
    "labels",
    "following",
    "starred",
    "subscription",
    "subscriptions",
    "reactions",
    "award_emoji",
    "assignees",
    "requested_reviewers",
    "lock",
    "blocks",
];

/// Whether a `gh|glab api` call's path names a member of
/// [`API_DISPOSABLE`] (`repos/o/r/labels/bug`, `user/following/x`).
pub(super) fn disposable(args: &[String]) -> bool {
    operands(args).iter().skip(1).any(|path| {
        let path = path.split('?').next().unwrap_or(path);
        path.split('/')
            .filter(|s| !s.is_empty())
            .skip(1)
            .any(|s| API_DISPOSABLE.contains(&s))
    })
}
