//! The example as a newcomer runs it: on the embedded server, what it prints comes in the
//! order it happened (the delete event before the totals that count it), and a piped log
//! carries no terminal escape codes.

use std::process::Command;

#[test]
fn the_example_reports_each_event_before_its_totals() -> Result<(), std::io::Error> {
    let out = Command::new(env!("CARGO_BIN_EXE_kube-interop"))
        .arg("--embedded")
        // Every log line the example would write, so that escape codes would show.
        .env("RUST_LOG", "info")
        .output()?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    let deleted = stdout
        .find("  event: deleted widget ")
        .expect("the delete event is printed");
    let totals = stdout
        .find("widget handler saw ")
        .expect("the totals are printed");
    assert!(deleted < totals, "{stdout}");
    let totals_line = stdout[totals..].lines().next().unwrap_or_default();
    assert!(
        totals_line.ends_with(" adds, 1 updates, 1 deletes"),
        "{stdout}"
    );
    assert!(stdout.ends_with("shut down cleanly\n"), "{stdout}");
    assert!(
        !stdout.contains('\u{1b}') && !stderr.contains('\u{1b}'),
        "{stderr}"
    );
    Ok(())
}
