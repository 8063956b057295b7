//! The protobuf decoders the generator emits from the checked-in table.

use informer_gen::emit::protobuf::decoders;
use informer_gen::read::protobuf_table::ProtobufTable;

fn emit(minor: u32) -> String {
    let table = ProtobufTable::builtin().expect("the checked-in table parses");
    decoders(
        &table,
        minor,
        &table.faithful(minor),
        "::informer_protobuf",
        "::k8s_openapi",
    )
    .expect("emits")
}

#[test]
fn a_pod_decodes_field_by_field_with_inlined_volume_sources() {
    let text = emit(36);
    if let Ok(dir) = std::env::var("INFORMER_GEN_DUMP") {
        std::fs::write(format!("{dir}/decoders-1.36.rs"), &text).expect("dump");
    }
    let pod = text
        .split("impl ::informer_protobuf::Message for ::k8s_openapi::api::core::v1::Pod {")
        .nth(1)
        .expect("a Pod decoder");
    let pod = pod.split("\nimpl ").next().unwrap_or_default();
    for expected in [
        "1 =>",
        "field::value::<",
        "codec::Msg<",
        "ObjectMeta",
        "(&mut self.metadata, wire, r, \"metadata\")",
        "field::optional::<",
        "(&mut self.spec, wire, r, \"spec\")",
    ] {
        assert!(
            pod.contains(expected),
            "the Pod decoder lacks {expected:?}:\n{pod}"
        );
    }
    for expected in [
        "field::managed_fields::<",
        // Volume's `volumeSource` is a Go-embedded struct k8s-openapi flattens.
        "\"volumeSource\",",
        "(&mut this.host_path, wire, r, \"hostPath\")",
        // ObjectMeta.generateName: a Go non-pointer omitempty string.
        "(&mut self.generate_name, wire, r, \"generateName\")",
    ] {
        assert!(text.contains(expected), "missing {expected:?}");
    }
    let generate_name = text
        .split("(&mut self.generate_name")
        .next()
        .and_then(|before| before.rsplit("field::").next())
        .unwrap_or_default();
    assert!(generate_name.starts_with("omitempty::<"), "{generate_name}");
    assert_eq!(text, emit(36), "generation is deterministic");
}

#[test]
fn a_struct_with_a_field_no_protobuf_field_fills_gets_no_decoder() {
    let table = ProtobufTable::builtin().expect("parses");
    let spec = &table.messages["api.core.v1.PodSpec"];
    let unmapped_in_35 = spec.unmapped.iter().any(|(_, v)| v.contains(&35));
    assert!(
        unmapped_in_35,
        "k8s-openapi's 1.35 PodSpec has workloadRef, the 1.36 protos do not"
    );
    let decodable = table.faithful(35);
    assert!(!decodable.contains("api.core.v1.PodSpec"));
    assert!(
        !decodable.contains("api.core.v1.Pod"),
        "a Pod holds a PodSpec"
    );
    assert!(table.faithful(36).contains("api.core.v1.Pod"));
    assert!(decodable.contains("api.core.v1.ConfigMap"));
}
