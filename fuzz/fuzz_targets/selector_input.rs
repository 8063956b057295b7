//! One input through the label-selector parser; shared by the fuzz target and the stable test
//! `tests/fuzz_replay.rs`, so that both make exactly the same calls.
//!
//! Errors are fine; panics are bugs, and so are a selector whose canonical text does not parse
//! back to the same selector, and one that matches labels held compactly otherwise than the
//! same labels in a map.

use std::collections::BTreeMap;

use informer_runtime::labels::CompactLabels;
use informer_runtime::Selector;

/// Parses `data` as a selector; a selector that parses must print as text that parses back to
/// it (and prints the same again), and match label sets built from its own requirements.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(selector) = text.parse::<Selector>() else {
        return;
    };
    let canonical = selector.to_string();
    let again = match canonical.parse::<Selector>() {
        Ok(again) => again,
        Err(e) => panic!("{text:?} parses, its canonical text {canonical:?} does not: {e}"),
    };
    assert_eq!(again, selector, "{text:?} reparsed from {canonical:?}");
    assert_eq!(again.to_string(), canonical, "{text:?} printed twice");
    let mut labels = BTreeMap::new();
    for requirement in selector.requirements() {
        let value = requirement.values().first().cloned().unwrap_or_default();
        labels.insert(requirement.key().to_owned(), value);
        let compact = CompactLabels::from(labels.clone());
        assert_eq!(
            selector.matches(compact.as_labels()),
            selector.matches(Some(&labels)),
            "{text:?} matches {labels:?} held compactly otherwise than in a map"
        );
    }
    let _ = selector.matches(None);
    if let Ok(from_labels) = Selector::from_labels(&labels) {
        assert!(
            from_labels.matches(Some(&labels)),
            "the equality selector of {labels:?} does not match them"
        );
    }
}
