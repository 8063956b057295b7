//! Services: their defaults, a cluster IP from the service CIDR (10.96.0.0/12, as
//! kubeadm sets it) held until the Service is deleted, node ports from 30000-32767,
//! and the cluster IP's immutability.

use std::net::Ipv4Addr;

use serde_json::{json, Value};

use crate::support::{delete, get, invalid, post, put, server, with_server_fields};

const SERVICES: &str = "/api/v1/namespaces/shop/services";

fn service(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": spec})
}

fn in_service_cidr(ip: &str) -> bool {
    let n = u32::from(ip.parse::<Ipv4Addr>().expect("an IPv4 address"));
    let network = u32::from(Ipv4Addr::new(10, 96, 0, 0));
    n > network && n < network + (1 << 20) - 1
}

#[tokio::test]
async fn a_service_gets_a_cluster_ip_from_the_range_until_it_is_deleted() {
    let server = server().await;
    let spec = json!({"selector": {"app": "web"}, "ports": [{"port": 80}]});
    let (code, web) = post(&server, SERVICES, &service("web", spec.clone())).await;
    assert_eq!(code, 201, "{web}");
    let ip = web["spec"]["clusterIP"]
        .as_str()
        .expect("a cluster IP")
        .to_owned();
    assert!(in_service_cidr(&ip), "{ip}");
    let want = json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {
            "selector": {"app": "web"},
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}],
            "clusterIP": ip,
            "clusterIPs": [ip],
            "type": "ClusterIP",
            "sessionAffinity": "None",
            "ipFamilies": ["IPv4"],
            "ipFamilyPolicy": "SingleStack",
            "internalTrafficPolicy": "Cluster",
        },
        "status": {"loadBalancer": {}},
    });
    assert_eq!(web, with_server_fields(want, &web));

    // The IP is taken: another Service asking for it is refused.
    let mut asking = spec.clone();
    asking["clusterIP"] = json!(ip);
    let (code, refused) = post(&server, SERVICES, &service("api", asking.clone())).await;
    let message = format!(
        "Invalid value: []string{{\"{ip}\"}}: failed to allocate IP {ip}: provided IP is already allocated"
    );
    assert_eq!(
        (code, refused),
        (
            422,
            invalid(
                "Service",
                "",
                "api",
                &[("FieldValueInvalid", "spec.clusterIPs", &message)]
            )
        )
    );
    // Deleting the Service frees it.
    let (code, deleted) = delete(&server, &format!("{SERVICES}/web")).await;
    assert_eq!(code, 200, "{deleted}");
    let (code, api) = post(&server, SERVICES, &service("api", asking)).await;
    assert_eq!(code, 201, "{api}");
    assert_eq!(api["spec"]["clusterIPs"], json!([ip]));

    // An address outside the range is refused.
    let mut outside = spec;
    outside["clusterIP"] = json!("10.0.0.1");
    let (code, refused) = post(&server, SERVICES, &service("far", outside)).await;
    assert_eq!(
        (code, refused),
        (
            422,
            invalid(
                "Service",
                "",
                "far",
                &[(
                    "FieldValueInvalid",
                    "spec.clusterIPs",
                    "Invalid value: []string{\"10.0.0.1\"}: failed to allocate IP 10.0.0.1: the provided IP (10.0.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12"
                )]
            )
        )
    );
}

#[tokio::test]
async fn node_ports_headless_services_and_updates_that_leave_allocations_out() {
    let server = server().await;
    let spec = json!({"type": "NodePort", "selector": {"app": "web"}, "ports": [{"name": "http", "port": 80, "targetPort": "http"}]});
    let (code, web) = post(&server, SERVICES, &service("web", spec.clone())).await;
    assert_eq!(code, 201, "{web}");
    let node_port = web["spec"]["ports"][0]["nodePort"]
        .as_i64()
        .expect("a node port");
    assert!((30000..=32767).contains(&node_port), "{node_port}");
    assert_eq!(web["spec"]["externalTrafficPolicy"], "Cluster");
    assert_eq!(web["spec"]["ports"][0]["targetPort"], "http");

    // A PUT of what the controller built (no cluster IP, no node port) keeps both.
    let again = service("web", spec);
    let (code, updated) = put(&server, &format!("{SERVICES}/web"), &again).await;
    assert_eq!(code, 200, "{updated}");
    assert_eq!(updated, web);

    // The cluster IP cannot change.
    let mut moved = web.clone();
    moved["spec"]["clusterIP"] = json!("10.96.0.99");
    moved["spec"]["clusterIPs"] = json!(["10.96.0.99"]);
    let (code, refused) = put(&server, &format!("{SERVICES}/web"), &moved).await;
    assert_eq!(
        (code, refused),
        (
            422,
            invalid(
                "Service",
                "",
                "web",
                &[(
                    "FieldValueInvalid",
                    "spec.clusterIPs[0]",
                    "Invalid value: []string{\"10.96.0.99\"}: may not change once set"
                )]
            )
        )
    );

    // Its node port is taken.
    let taken = json!({"type": "NodePort", "ports": [{"port": 81, "nodePort": node_port}]});
    let (code, refused) = post(&server, SERVICES, &service("other", taken)).await;
    let message = format!("Invalid value: {node_port}: provided port is already allocated");
    assert_eq!(
        (code, refused),
        (
            422,
            invalid(
                "Service",
                "",
                "other",
                &[("FieldValueInvalid", "spec.ports[0].nodePort", &message)]
            )
        )
    );

    // A headless Service keeps `None`; without a selector it asks for both families.
    let (code, headless) = post(
        &server,
        SERVICES,
        &service(
            "peers",
            json!({"clusterIP": "None", "ports": [{"port": 7000}]}),
        ),
    )
    .await;
    assert_eq!(code, 201, "{headless}");
    assert_eq!(headless["spec"]["clusterIPs"], json!(["None"]));
    assert_eq!(headless["spec"]["ipFamilyPolicy"], "RequireDualStack");
    assert_eq!(headless["spec"]["ipFamilies"], json!(["IPv4", "IPv6"]));
    let (_, listed) = get(&server, SERVICES).await;
    assert_eq!(listed["items"].as_array().map(Vec::len), Some(2));
}
