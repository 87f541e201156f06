//! `hostage --version` prints the crate's version (the release script checks
//! that it is the workspace's).

use std::process::Command;

#[test]
fn version_is_the_crate_version() {
    let out = Command::new(env!("CARGO_BIN_EXE_hostage"))
        .arg("--version")
        .output()
        .expect("the hostage binary runs");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).expect("UTF-8"),
        format!("hostage {}\n", env!("CARGO_PKG_VERSION"))
    );
}
