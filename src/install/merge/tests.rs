use super::*;
use proptest::prelude::*;
use serde_json::json;

const BIN: &str = "/opt/bin/cuecard";

fn handler(event: &str, cards: &[&str]) -> Map<String, Value> {
    let mut args = vec!["dispatch".to_string(), event.to_string()];
    args.extend(cards.iter().map(|c| c.to_string()));
    json!({"type": "command", "command": BIN, "args": args, "timeout": 10})
        .as_object()
        .unwrap()
        .clone()
}

fn entry(event: &str, matcher: &str, cards: &[&str]) -> HookEntry {
    HookEntry {
        event: event.into(),
        matcher: Some(matcher.into()),
        handler: handler(event, cards),
        cards: cards.iter().map(|c| c.to_string()).collect(),
    }
}

fn foreign() -> Value {
    json!({
        "model": "opus",
        "hooks": {
            "SessionStart": [
                {"matcher": "*", "hooks": [{"type": "command", "command": "~/bin/my-cuecard-notes.sh"}]}
            ],
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh", "timeout": 5}]},
                {"matcher": "Edit", "hooks": []}
            ]
        },
        "permissions": {"allow": ["Bash(ls)"]}
    })
}

#[test]
fn install_appends_after_the_operators_and_reinstall_changes_nothing() {
    let mut doc = foreign();
    let want = [
        entry("SessionStart", "*", &["a", "b"]),
        entry("Stop", "*", &["s"]),
    ];
    let out = install(&mut doc, Layout::Grouped, BIN, &want).unwrap();
    assert_eq!(
        out,
        MergeCounts {
            added: 2,
            replaced: 0,
            removed: 0
        }
    );
    let ss = &doc["hooks"]["SessionStart"];
    assert_eq!(ss[0]["hooks"][0]["command"], "~/bin/my-cuecard-notes.sh");
    assert_eq!(ss[1]["hooks"][0]["args"][2], "a");
    let keys: Vec<&String> = doc["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["SessionStart", "PreToolUse", "Stop"]);
    let once = doc.clone();
    let out = install(&mut doc, Layout::Grouped, BIN, &want).unwrap();
    assert_eq!(out, MergeCounts::default());
    assert_eq!(doc, once);
    uninstall(&mut doc, Layout::Grouped, BIN).unwrap();
    assert_eq!(doc, foreign());
}

#[test]
fn a_changed_card_list_replaces_in_place_and_stale_entries_go() {
    let mut doc = foreign();
    install(
        &mut doc,
        Layout::Grouped,
        BIN,
        &[
            entry("SessionStart", "*", &["a"]),
            entry("Stop", "*", &["s"]),
        ],
    )
    .unwrap();
    // Somebody adds a hook after cuecard's.
    doc["hooks"]["SessionStart"]
        .as_array_mut()
        .unwrap()
        .push(json!({"hooks": [{"type": "command", "command": "later.sh"}]}));
    let out = install(
        &mut doc,
        Layout::Grouped,
        BIN,
        &[entry("SessionStart", "*", &["a", "b"])],
    )
    .unwrap();
    assert_eq!(
        out,
        MergeCounts {
            added: 0,
            replaced: 1,
            removed: 1
        }
    );
    let ss = doc["hooks"]["SessionStart"].as_array().unwrap();
    assert_eq!(
        ss[1]["hooks"][0]["args"],
        json!(["dispatch", "SessionStart", "a", "b"])
    );
    assert_eq!(ss[2]["hooks"][0]["command"], "later.sh", "position kept");
    assert!(
        doc["hooks"].get("Stop").is_none(),
        "the event cuecard emptied is gone"
    );
}

#[test]
fn a_handler_sharing_a_group_with_the_operator_leaves_the_group() {
    let mut doc = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "mine.sh"},
        {"type": "command", "command": "/old/cuecard dispatch Stop stop"}
    ]}]}});
    uninstall(&mut doc, Layout::Grouped, BIN).unwrap();
    assert_eq!(
        doc,
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mine.sh"}]}]}})
    );
}

#[test]
fn flat_layout() {
    let mut doc = json!({"version": 1, "hooks": {"postToolUse": [{"command": "fmt.sh", "matcher": "Write"}]}});
    let orig = doc.clone();
    let mut h = handler("postToolUse", &["x"]);
    h.insert("matcher".into(), json!("Shell"));
    let e = HookEntry {
        event: "postToolUse".into(),
        matcher: Some("Shell".into()),
        handler: h,
        cards: vec!["x".into()],
    };
    install(&mut doc, Layout::Flat, BIN, std::slice::from_ref(&e)).unwrap();
    assert_eq!(doc["hooks"]["postToolUse"].as_array().unwrap().len(), 2);
    let once = doc.clone();
    assert_eq!(
        install(&mut doc, Layout::Flat, BIN, &[e]).unwrap(),
        MergeCounts::default()
    );
    assert_eq!(doc, once);
    assert_eq!(ours(&doc, Layout::Flat, BIN).len(), 1);
    uninstall(&mut doc, Layout::Flat, BIN).unwrap();
    assert_eq!(doc, orig);
}

#[test]
fn refuses_shapes_it_cannot_merge_into() {
    for doc in [
        json!([]),
        json!({"hooks": []}),
        json!({"hooks": {"Stop": {"x": 1}}}),
    ] {
        let mut d = doc.clone();
        assert!(
            install(&mut d, Layout::Grouped, BIN, &[entry("Stop", "*", &["s"])]).is_err(),
            "{doc}"
        );
        assert_eq!(d, doc, "nothing changed on refusal");
    }
}

#[test]
fn a_file_without_hooks_gets_them_and_loses_them() {
    let mut doc = json!({"theme": "dark"});
    install(
        &mut doc,
        Layout::Grouped,
        BIN,
        &[entry("Stop", "*", &["s"])],
    )
    .unwrap();
    assert!(doc["hooks"]["Stop"].is_array());
    uninstall(&mut doc, Layout::Grouped, BIN).unwrap();
    assert_eq!(doc, json!({"theme": "dark"}));
}

// ---- property tests: random operator configurations ----

fn command() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("audit.sh")),
        Just(json!("~/bin/my-cuecard-notes.sh")),
        Just(json!("/opt/bin/cuecard-wrapper dispatch X")),
        Just(json!("echo cuecard dispatch")),
        "[a-z./ -]{0,12}".prop_map(Value::from),
    ]
}

fn handler_strategy() -> impl Strategy<Value = Value> {
    (
        command(),
        proptest::option::of(0u32..700),
        proptest::bool::ANY,
    )
        .prop_map(|(c, t, typed)| {
            let mut m = Map::new();
            if typed {
                m.insert("type".into(), json!("command"));
            }
            m.insert("command".into(), c);
            if let Some(t) = t {
                m.insert("timeout".into(), json!(t));
            }
            Value::Object(m)
        })
}

fn event() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("SessionStart"),
        Just("Stop"),
        Just("PreToolUse"),
        Just("PostToolUse"),
        Just("Notification")
    ]
    .prop_map(String::from)
}

fn matcher() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(
        prop_oneof![Just("*"), Just("Bash"), Just("Write|Edit"), Just("")].prop_map(String::from),
    )
}

fn grouped_config() -> impl Strategy<Value = Value> {
    let group = (
        matcher(),
        proptest::collection::vec(handler_strategy(), 0..3),
        proptest::bool::ANY,
    )
        .prop_map(|(m, hs, extra)| {
            let mut g = Map::new();
            if extra {
                g.insert("sequential".into(), json!(true));
            }
            if let Some(m) = m {
                g.insert("matcher".into(), json!(m));
            }
            g.insert("hooks".into(), Value::Array(hs));
            Value::Object(g)
        });
    let events = proptest::collection::vec((event(), proptest::collection::vec(group, 1..3)), 0..4);
    let others = proptest::collection::vec(("[a-z]{1,6}", any::<i32>()), 0..4);
    (events, others, proptest::bool::ANY).prop_map(|(events, others, hooks_first)| {
        let mut root = Map::new();
        let mut hooks = Map::new();
        for (e, gs) in events {
            hooks.insert(e, Value::Array(gs));
        }
        if hooks_first && !hooks.is_empty() {
            root.insert("hooks".into(), Value::Object(hooks.clone()));
        }
        for (k, v) in others {
            if k != "hooks" {
                root.insert(k, json!(v));
            }
        }
        if !hooks_first && !hooks.is_empty() {
            root.insert("hooks".into(), Value::Object(hooks));
        }
        Value::Object(root)
    })
}

fn wanted() -> impl Strategy<Value = Vec<HookEntry>> {
    proptest::collection::vec(
        (
            event(),
            prop_oneof![Just("*"), Just("Bash"), Just("Write|Edit")],
        ),
        0..4,
    )
    .prop_map(|v| {
        let mut out: Vec<HookEntry> = Vec::new();
        for (e, m) in v {
            if !out
                .iter()
                .any(|x| x.event == e && x.matcher.as_deref() == Some(m))
            {
                out.push(entry(&e, m, &["card"]));
            }
        }
        out
    })
}

proptest! {
    #[test]
    fn install_then_uninstall_returns_the_original(orig in grouped_config(), want in wanted()) {
        let mut doc = orig.clone();
        install(&mut doc, Layout::Grouped, BIN, &want).unwrap();
        prop_assert_eq!(ours(&doc, Layout::Grouped, BIN).len(), want.len());
        let once = doc.clone();
        let again = install(&mut doc, Layout::Grouped, BIN, &want).unwrap();
        prop_assert_eq!(again, MergeCounts::default());
        prop_assert_eq!(&doc, &once);
        uninstall(&mut doc, Layout::Grouped, BIN).unwrap();
        prop_assert_eq!(doc, orig);
    }

    #[test]
    fn reinstalling_a_different_set_then_uninstalling_returns_the_original(
        orig in grouped_config(), first in wanted(), second in wanted()
    ) {
        let mut doc = orig.clone();
        install(&mut doc, Layout::Grouped, BIN, &first).unwrap();
        install(&mut doc, Layout::Grouped, BIN, &second).unwrap();
        prop_assert_eq!(ours(&doc, Layout::Grouped, BIN).len(), second.len());
        uninstall(&mut doc, Layout::Grouped, BIN).unwrap();
        prop_assert_eq!(doc, orig);
    }
}
