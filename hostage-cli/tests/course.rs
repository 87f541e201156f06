//! Generated documents are up to date: the rules course pages and diagrams
//! (docs/course) and the README's diagram (docs/images/example.svg) equal
//! what `scripts/make-docs` writes now. On failure, run scripts/make-docs.

use std::{
    collections::BTreeMap,
    ffi::OsStr,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `hostage ARGS`, which must succeed: its standard output.
fn hostage<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_hostage"))
        .args(args)
        .output()
        .expect("hostage runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Every file under `dir` (relative path → contents), except course.json.
fn files(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("readable dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n != "course.json") {
                let rel = path.strip_prefix(dir).expect("under dir").to_path_buf();
                out.insert(rel, fs::read_to_string(&path).expect("utf-8 file"));
            }
        }
    }
    out
}

#[test]
fn course_pages_match_the_data() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("course");
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).expect("temp dir");
    hostage([
        OsStr::new("course"),
        OsStr::new("build"),
        OsStr::new("--out"),
        tmp.as_os_str(),
    ]);
    let generated = files(&tmp);
    let committed = files(&repo().join("docs/course"));
    assert!(generated.len() > 15, "a page per lesson, and diagrams");
    let names = |m: &BTreeMap<PathBuf, String>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&committed),
        names(&generated),
        "docs/course files differ: run scripts/make-docs"
    );
    for (path, text) in &generated {
        assert!(
            committed[path] == *text,
            "docs/course/{} is stale: run scripts/make-docs",
            path.display()
        );
    }
}

#[test]
fn readme_diagram_matches_its_arguments() {
    let repo = repo();
    let args = fs::read_to_string(repo.join("docs/images/example.args")).expect("args file");
    let svg = hostage(std::iter::once("svg").chain(args.lines().filter(|l| !l.is_empty())));
    let committed = fs::read(repo.join("docs/images/example.svg")).expect("example.svg");
    assert!(
        committed == svg,
        "docs/images/example.svg is stale: run scripts/make-docs"
    );
}

#[test]
fn svg_command_draws_the_position_and_last_move() {
    let svg = hostage([
        "svg",
        "--moves",
        "e4 d5 exd5",
        "--flip",
        "--size",
        "300",
        "--arrow",
        "d8d5",
    ]);
    let svg = String::from_utf8(svg).expect("utf-8");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("width=\"300\""));
    assert!(svg.contains("class=\"last-move e4\"") && svg.contains("class=\"last-move d5\""));
    assert!(svg.contains("class=\"arrow d8-d5\""));
    assert!(
        svg.contains("<desc>rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR[#p] b KQkq - 0 2</desc>")
    );

    let bad = Command::new(env!("CARGO_BIN_EXE_hostage"))
        .args(["svg", "--arrow", "e2"])
        .output()
        .expect("hostage runs");
    assert_eq!(bad.status.code(), Some(1));
}
