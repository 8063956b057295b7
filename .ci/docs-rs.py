#!/usr/bin/env python3
"""Builds the docs of every published crate the way docs.rs will: the crate alone (so no other
workspace member's features leak in), with the features and rustdoc args of its
`[package.metadata.docs.rs]`, `--cfg docsrs` and a nightly-only `doc(cfg)` (docs.rs builds on
nightly; RUSTC_BOOTSTRAP lets this stable toolchain do the same). Broken intra-doc links and
other rustdoc warnings fail the build.

Reads `cargo metadata --format-version 1 --no-deps` on stdin.
"""
import json
import os
import subprocess
import sys

meta = json.load(sys.stdin)
failed = []
for pkg in meta["packages"]:
    if pkg.get("publish") == []:
        continue
    docs_rs = ((pkg.get("metadata") or {}).get("docs") or {}).get("rs") or {}
    args = ["cargo", "doc", "--no-deps", "-p", pkg["name"]]
    if docs_rs.get("all-features"):
        args.append("--all-features")
    if docs_rs.get("features"):
        args += ["--features", ",".join(docs_rs["features"])]
    if docs_rs.get("no-default-features"):
        args.append("--no-default-features")
    env = dict(os.environ)
    env["RUSTC_BOOTSTRAP"] = "1"
    env["RUSTDOCFLAGS"] = " ".join(docs_rs.get("rustdoc-args", []) + ["-D", "warnings"])
    print("docs.rs:", " ".join(args), flush=True)
    if subprocess.run(args, env=env).returncode != 0:
        failed.append(pkg["name"])
if failed:
    sys.exit(f"the docs.rs build fails for: {', '.join(failed)}")
print("docs.rs: every published crate documents")
