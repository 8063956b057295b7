//! Writes `$OUT_DIR/generated_resources.rs`: a macro listing every resource the generated
//! `informers` crate serves for the Kubernetes version k8s-openapi is built for, with its
//! Rust type and accessor names, so the end-to-end suite covers each one by name.

use std::fmt::Write as _;

use informer_gen::model::{escape_ident, Api, Scope};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let table = informer_gen::Config::new().builtin_table()?;
    let api = Api::new(&table.kubernetes_version, &table.resources)?;
    let mut entries = String::new();
    for (group, version, r) in api.resources() {
        let scope = match r.def.scope {
            Scope::Namespaced => "namespaced",
            Scope::Cluster => "cluster",
        };
        writeln!(
            entries,
            "            [{ty}, {g:?}, {v:?}, {plural:?}, {gm}, {vm}, {m}, {scope}],",
            ty = r.def.ty,
            g = r.def.group,
            v = r.def.version,
            plural = r.def.plural,
            gm = escape_ident(&group.module),
            vm = escape_ident(&version.name),
            m = escape_ident(&r.method),
        )?;
    }
    let text = format!(
        "/// Calls `$m!` with every generated resource:\n\
         /// `[type, group, version, plural, group accessor, version accessor, resource accessor, scope]`.\n\
         macro_rules! for_each_generated_resource {{\n    ($m:ident) => {{\n        $m! {{\n{entries}        }}\n    }};\n}}\n"
    );
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR")?).join("generated_resources.rs");
    std::fs::write(out, text)?;
    Ok(())
}
