#!/usr/bin/env python3
"""Checks that no dependency a user builds with our published crates needs a newer Rust than
the workspace's declared `rust-version`.

Only one toolchain can be installed on our machines, so the MSRV cannot be proven by building
with it; clippy's `incompatible_msrv` lint checks our own code against `rust-version`, and this
checks the other half: every crate in the normal (non-dev, non-build-only-for-tests) dependency
closure of the published crates declares a `rust-version` no newer than ours.

Reads `cargo metadata --format-version 1` on stdin.
"""
import json
import sys

PUBLISHED = {
    "kube-informers", "informer-client", "informer-runtime", "informer-controller", "informer-etcd",
    "informer-selectors", "informer-merge", "informer-gen", "informers", "listers",
}

# Optional features whose whole point is a dependency with a newer MSRV: its users build that
# dependency anyway, so it sets their Rust, not ours. (published crate, dependency) -> why.
EXEMPT = {
    ("informer-client", "kube"): "the `kube` feature sends through the user's kube 5 client, which needs Rust 1.89",
    ("informer-runtime", "kube"): "the `kube` feature makes informers of kube-rs types, which needs kube 5 and Rust 1.89",
}


def version(text):
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


meta = json.load(sys.stdin)
packages = {p["id"]: p for p in meta["packages"]}
nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
roots = [pid for pid, p in packages.items() if p["name"] in PUBLISHED and p["source"] is None]
msrv = {version(packages[r]["rust_version"]) for r in roots}
if len(msrv) != 1:
    sys.exit(f"published crates declare different rust-versions: {sorted(msrv)}")
(msrv,) = msrv

seen, stack, offenders = set(), list(roots), []
while stack:
    pid = stack.pop()
    if pid in seen:
        continue
    seen.add(pid)
    pkg = packages[pid]
    if pkg.get("rust_version") and version(pkg["rust_version"]) > msrv:
        offenders.append(f"{pkg['name']} {pkg['version']} needs Rust {pkg['rust_version']}")
    for dep in nodes[pid]["deps"]:
        if (pkg["name"], packages[dep["pkg"]]["name"]) in EXEMPT:
            continue
        if any(k["kind"] in (None, "build") for k in dep["dep_kinds"]):
            stack.append(dep["pkg"])

if offenders:
    print(f"declared rust-version {'.'.join(map(str, msrv))} is older than what these dependencies need:")
    print("\n".join(sorted(offenders)))
    sys.exit(1)
print(f"msrv: {len(seen)} crates in the published crates' dependency closure build on Rust {'.'.join(map(str, msrv))}")
