//! The names of CRD apply configurations where the plain ones are taken: a property `apply`
//! (whose type is `<Parent>Apply`), fields whose builders would be `new` or a resource's
//! metadata shortcut, and two kinds making one extractor name. `tests/crd-example` compiles
//! the same fixture, so the names are also proven to build and pass clippy.

use std::path::Path;

use informer_gen::emit::types::render_crd_types;
use informer_gen::read::crd::read_paths;

fn knobs() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/crd-edge/knobs.apply.example.com.yaml");
    let (model, _) = read_paths(&[path]).unwrap();
    render_crd_types(&model).unwrap()
}

/// `code` without whitespace, so that checks do not depend on where the formatter breaks lines
/// (with a trailing comma).
fn squeezed(code: &str) -> String {
    code.split_whitespace()
        .collect::<String>()
        .replace(",)", ")")
        .replace(",>", ">")
}

#[test]
fn a_type_named_like_a_configuration_keeps_its_name() {
    let code = squeezed(&knobs());
    // The property `apply` of Knob is the struct `KnobApply`, so Knob's configuration is
    // `KnobApplyConfiguration`, and `KnobApply`'s own is `KnobApplyApply`.
    for expected in [
        "pubstructKnobApply{",
        "pubstructKnobApplyConfiguration{",
        "impl::kube_informers::apply::ApplyConfigurationforKnobApplyConfiguration{typeResource=Knob;}",
        "pubstructKnobApplyApply{",
        "pubapply:::core::option::Option<KnobApplyApply>,",
        // The same one level down, and the alias of a struct gets an alias of its
        // configuration.
        "pubstructKnobSpecApplyConfiguration{",
        "pubstructKnobSpecApplyApply{",
        "pubtypeKnobSpecFallbackApply=KnobSpecApplyApply;",
        "pubfallback:::core::option::Option<KnobSpecFallbackApply>,",
    ] {
        assert!(code.contains(expected), "missing `{expected}`");
    }
}

#[test]
fn builders_named_like_added_methods_are_numbered() {
    let code = squeezed(&knobs());
    // A root property `labels` keeps its field; its builder is `labels2`, as `labels` adds
    // `metadata.labels`.
    assert!(code.contains("publabels:::core::option::Option<::std::collections::BTreeMap<"));
    assert!(code.contains("pubfnlabels2(mutself,"));
    assert!(code.contains("pubfnlabels(mutself,"));
    // A property `new` is set by `new2`: `new()` makes an empty configuration.
    assert!(code.contains("pubnew:::core::option::Option<::std::string::String>,"));
    assert!(code.contains("pubfnnew2(mutself,value:impl::core::convert::Into<::std::string::String>)->Self{self.new=::core::option::Option::Some(value.into());"));
    assert!(code.contains("pubfnnew()->Self{"));
}

#[test]
fn builders_clippy_would_take_for_trait_methods_or_conversions_allow_it() {
    let code = squeezed(&knobs());
    assert!(code.contains("#[allow(clippy::should_implement_trait)]pubfnadd(mutself,"));
    assert!(code.contains("#[allow(clippy::wrong_self_convention)]pubfnis_default(mutself,"));
    assert!(code.contains("#[allow(clippy::wrong_self_convention)]pubfnto_port(mutself,"));
}

#[test]
fn kinds_extractors_come_before_status_extractors() {
    let code = squeezed(&knobs());
    // Kind `KNOBStatus` has `extract_knob_status`; Knob's status extractor is numbered.
    assert!(code.contains("pubfnextract_knob(object:&Knob,"));
    assert!(code.contains("pubfnextract_knob_status2(object:&Knob,"));
    assert!(code.contains("pubfnextract_knob_status(object:&KNOBStatus,"));
    assert!(code.contains("field_manager,\"status\")"));
}
