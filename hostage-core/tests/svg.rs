//! SVG diagrams: the output parses as XML with the expected structure, and
//! renders (with `rsvg-convert`, when installed) to a non-blank PNG.
#![cfg(feature = "svg")]

use std::{collections::BTreeSet, path::PathBuf, process::Command};

use hostage_core::{
    svg::{self, Arrow, Mark, SvgOptions},
    Color, Position, Role, Square,
};
use roxmltree::{Document, Node};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
/// After 14 moves with captures, two exchanges and a pawn drop: every
/// prison and airfield holds someone (also the README's diagram).
const HOSTAGE_RICH: &str =
    "r3k2r/p1p2ppp/2p1pn2/4p3/1b1P4/P1NB4/1PPB1PPP/2KRR3[Nb#QPqn] b kq - 0 14";
/// A black knight in White's prison lets the d2 pawn promote: real check.
const CHECK: &str = "4k3/8/8/8/8/8/3p4/4K3[#n] w - - 0 1";
/// Only a black pawn in White's prison: d2 is frozen, e1 is in pseudo-check.
const PSEUDO_CHECK: &str = "4k3/8/8/8/8/8/3p4/4K3[#p] w - - 0 1";

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid fen")
}

fn draw(fen: &str, options: &SvgOptions) -> String {
    svg::board(&pos(fen), options)
}

fn classes<'a>(node: &Node<'a, '_>) -> Vec<&'a str> {
    node.attribute("class")
        .map(|c| c.split_whitespace().collect())
        .unwrap_or_default()
}

/// Elements whose class list contains every one of `wanted`.
fn with_class<'a, 'i>(doc: &'a Document<'i>, wanted: &[&str]) -> Vec<Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.is_element())
        .filter(|n| {
            let c = classes(n);
            wanted.iter().all(|w| c.contains(w))
        })
        .collect()
}

fn num(node: &Node<'_, '_>, attr: &str) -> f64 {
    node.attribute(attr)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("<{}> has a numeric {attr}", node.tag_name().name()))
}

/// The one element with these classes.
fn one<'a, 'i>(doc: &'a Document<'i>, wanted: &[&str]) -> Node<'a, 'i> {
    let found = with_class(doc, wanted);
    assert_eq!(found.len(), 1, "exactly one element with class {wanted:?}");
    found[0]
}

/// Checks what every diagram must have and returns the parsed document.
fn parse(svg: &str) -> Document<'_> {
    let doc = Document::parse(svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(root.attribute("viewBox").is_some());
    // Self-contained: no links to anything outside the image.
    for node in doc.descendants().filter(|n| n.is_element()) {
        for attr in node.attributes() {
            assert!(
                !matches!(attr.name(), "href" | "src") && !attr.value().contains("http"),
                "external reference in <{}>",
                node.tag_name().name()
            );
        }
        assert_ne!(node.tag_name().name(), "script");
        assert_ne!(node.tag_name().name(), "image");
    }
    assert_eq!(with_class(&doc, &["square"]).len(), 64, "64 squares");
    doc
}

/// The men drawn on the board (not in the reserves).
fn men_on_board(doc: &Document<'_>) -> usize {
    let men = one(doc, &["men"]);
    men.children()
        .filter(|n| classes(n).contains(&"piece"))
        .count()
}

/// `(role, count)` drawn in one reserve panel, in drawing order.
fn panel(doc: &Document<'_>, kind: &str, owner: Color) -> Vec<(String, u32)> {
    let panel = one(doc, &["reserve", kind, owner.name()]);
    panel
        .children()
        .filter(|n| classes(n).contains(&"count"))
        .map(|n| {
            let role = classes(&n)[1].to_owned();
            let text = n
                .descendants()
                .find(|t| t.is_text())
                .and_then(|t| t.text())
                .unwrap_or_default();
            (role, text.parse().expect("a count"))
        })
        .collect()
}

fn expected_panel(reserve: &hostage_core::Reserve) -> Vec<(String, u32)> {
    reserve
        .iter()
        .map(|(role, n)| (role.name().to_owned(), u32::from(n)))
        .collect()
}

/// The top-left corner of a square's rect.
fn square_xy(doc: &Document<'_>, sq: &str) -> (f64, f64) {
    let rect = one(doc, &["square", sq]);
    (num(&rect, "x"), num(&rect, "y"))
}

/// The top of a reserve panel's frame.
fn panel_xy(doc: &Document<'_>, kind: &str, owner: Color) -> (f64, f64) {
    let panel = one(doc, &["reserve", kind, owner.name()]);
    let rect = panel
        .children()
        .find(|n| n.tag_name().name() == "rect")
        .expect("a panel frame");
    (num(&rect, "x"), num(&rect, "y"))
}

#[test]
fn start_position() {
    let svg = draw(START, &SvgOptions::default());
    let doc = parse(&svg);
    assert_eq!(men_on_board(&doc), 32);
    assert_eq!(with_class(&doc, &["piece", "white", "pawn"]).len(), 8);
    assert_eq!(with_class(&doc, &["piece", "black", "queen"]).len(), 1);
    assert_eq!(with_class(&doc, &["reserve"]).len(), 4);
    assert_eq!(
        with_class(&doc, &["empty"]).len(),
        4,
        "every reserve is empty"
    );
    assert!(with_class(&doc, &["check"]).is_empty());
    assert!(with_class(&doc, &["pseudo-check"]).is_empty());
    assert!(with_class(&doc, &["frozen"]).is_empty());
    assert_eq!(one(&doc, &["turn"]).attribute("class"), Some("turn white"));
    // Square colours: a1 dark, h1 light.
    assert_eq!(
        one(&doc, &["square", "a1"]).attribute("fill"),
        Some("#b88762")
    );
    assert_eq!(
        one(&doc, &["square", "h1"]).attribute("fill"),
        Some("#efd9b6")
    );
    assert_eq!(with_class(&doc, &["coordinates"]).len(), 1);
}

#[test]
fn hostage_rich_position_shows_every_reserve_with_counts() {
    let p = pos(HOSTAGE_RICH);
    let svg = svg::board(&p, &SvgOptions::default());
    let doc = parse(&svg);
    assert_eq!(men_on_board(&doc), p.board().occupied().count() as usize);
    for color in Color::ALL {
        assert_eq!(
            panel(&doc, "prison", color),
            expected_panel(p.prison(color))
        );
        assert_eq!(
            panel(&doc, "airfield", color),
            expected_panel(p.airfield(color))
        );
    }
    // White's prison holds black men (R2), White's airfield white ones (R3).
    let prison = one(&doc, &["reserve", "prison", "white"]);
    assert!(prison
        .descendants()
        .filter(|n| classes(n).contains(&"piece"))
        .all(|n| classes(&n).contains(&"black")));
    let airfield = one(&doc, &["reserve", "airfield", "white"]);
    let knights = airfield
        .descendants()
        .filter(|n| classes(n) == ["piece", "white", "knight"])
        .count();
    assert_eq!(knights, 1);
    assert_eq!(p.prison(Color::White).count(Role::Queen), 1);
    assert!(with_class(&doc, &["empty"]).is_empty());
    // The FEN rides along for anyone reading the file.
    assert!(svg.contains(&format!("<desc>{HOSTAGE_RICH}</desc>")));
}

#[test]
fn reserves_sit_at_each_players_left_and_right() {
    let svg = draw(HOSTAGE_RICH, &SvgOptions::default());
    let doc = parse(&svg);
    let (_, a1_y) = square_xy(&doc, "a1");
    let (_, a8_y) = square_xy(&doc, "a8");
    let white_airfield = panel_xy(&doc, "airfield", Color::White);
    let white_prison = panel_xy(&doc, "prison", Color::White);
    let black_airfield = panel_xy(&doc, "airfield", Color::Black);
    let black_prison = panel_xy(&doc, "prison", Color::Black);
    // White sits at the bottom: its airfield on its left, its prison on its right.
    assert!(white_airfield.1 > a1_y && white_prison.1 > a1_y);
    assert!(white_airfield.0 < white_prison.0);
    // Black sits at the top, facing White: its right is the viewer's left.
    assert!(black_airfield.1 < a8_y && black_prison.1 < a8_y);
    assert!(black_prison.0 < black_airfield.0);
}

#[test]
fn flipped_board_turns_squares_and_reserves_around() {
    let mut options = SvgOptions::default();
    options.flipped = true;
    let svg = draw(HOSTAGE_RICH, &options);
    let doc = parse(&svg);
    let (a1_x, a1_y) = square_xy(&doc, "a1");
    let (h1_x, _) = square_xy(&doc, "h1");
    let (_, a8_y) = square_xy(&doc, "a8");
    assert!(a1_x > h1_x, "a1 on the right");
    assert!(a1_y < a8_y, "rank 1 at the top");
    let black_airfield = panel_xy(&doc, "airfield", Color::Black);
    let black_prison = panel_xy(&doc, "prison", Color::Black);
    let white_prison = panel_xy(&doc, "prison", Color::White);
    let white_airfield = panel_xy(&doc, "airfield", Color::White);
    assert!(black_airfield.1 > a8_y && black_airfield.0 < black_prison.0);
    assert!(white_prison.1 < a1_y && white_prison.0 < white_airfield.0);
    let (h8_x, h8_y) = square_xy(&doc, "h8");
    assert_eq!((h8_x, h8_y), (20.0, 60.0 + 20.0 + 7.0 * 45.0));
}

#[test]
fn check_is_red_on_the_king() {
    let doc_text = draw(CHECK, &SvgOptions::default());
    let doc = parse(&doc_text);
    let check = one(&doc, &["check"]);
    assert!(classes(&check).contains(&"e1"));
    assert!(with_class(&doc, &["pseudo-check"]).is_empty());
    assert!(with_class(&doc, &["frozen"]).is_empty(), "d2 can promote");
    assert!(doc
        .descendants()
        .any(|n| n.tag_name().name() == "radialGradient"));
}

#[test]
fn pseudo_check_and_frozen_pawn_are_marked_apart_from_check() {
    let svg = draw(PSEUDO_CHECK, &SvgOptions::default());
    let doc = parse(&svg);
    assert!(with_class(&doc, &["check"]).is_empty(), "no real check");
    let ring = one(&doc, &["pseudo-check"]);
    assert!(classes(&ring).contains(&"e1"));
    assert!(ring.attribute("stroke-dasharray").is_some(), "dashed ring");
    let frozen = one(&doc, &["frozen"]);
    assert!(classes(&frozen).contains(&"d2"));
    assert_eq!(with_class(&doc, &["ice", "d2"]).len(), 1);

    // Both marks can be turned off.
    let mut options = SvgOptions::default();
    options.check = false;
    options.frozen = false;
    let svg = draw(PSEUDO_CHECK, &options);
    let doc = parse(&svg);
    assert!(with_class(&doc, &["pseudo-check"]).is_empty());
    assert!(with_class(&doc, &["frozen"]).is_empty());
}

#[test]
fn last_move_highlights_from_and_to_but_only_the_square_of_a_drop() {
    let before = pos("rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3");
    for (san, squares) in [("Nc3", vec!["b1", "c3"]), ("(P-P)*e4", vec!["e4"])] {
        let m = before.parse_move(san).expect("legal");
        let after = before.clone().play(m).expect("legal");
        let mut options = SvgOptions::default();
        options.last_move = Some(m.to_uci());
        let svg = svg::board(&after, &options);
        let doc = parse(&svg);
        let got: BTreeSet<&str> = with_class(&doc, &["last-move"])
            .iter()
            .map(|n| classes(n)[1])
            .collect();
        assert_eq!(got, squares.into_iter().collect(), "{san}");
    }
}

#[test]
fn arrows_marks_size_and_options() {
    let mut options = SvgOptions::default();
    options.size = Some(200);
    options.coordinates = false;
    options.reserves = false;
    options.arrows = vec![
        Arrow::new(Square::E2, Square::E4),
        Arrow::with_color(Square::D4, Square::D4, "blue"),
        Arrow::with_color(Square::G1, Square::F3, "\"><script>alert(1)</script>"),
    ];
    options.marks = vec![Mark::new(Square::C3, "#ff000080")];
    let svg = draw(START, &options);
    let doc = parse(&svg);
    let root = doc.root_element();
    assert_eq!(root.attribute("width"), Some("200"));
    assert_eq!(root.attribute("height"), Some("200"));
    assert!(with_class(&doc, &["coordinates"]).is_empty());
    assert!(with_class(&doc, &["reserve"]).is_empty());
    assert_eq!(with_class(&doc, &["arrow"]).len(), 3);
    assert_eq!(one(&doc, &["circle"]).attribute("stroke"), Some("blue"));
    let unsafe_arrow = one(&doc, &["arrow", "g1-f3"]);
    assert_eq!(
        unsafe_arrow.attribute("fill"),
        Some(svg::DEFAULT_ARROW_COLOR)
    );
    assert_eq!(
        one(&doc, &["mark", "c3"]).attribute("fill"),
        Some("#ff000080")
    );
}

#[test]
fn output_is_deterministic() {
    let options = SvgOptions::default();
    let p = pos(HOSTAGE_RICH);
    assert_eq!(svg::board(&p, &options), svg::board(&p, &options));
}

/// Renders `svg` with rsvg-convert into a PNG in the target directory and
/// decodes it; `None` (with a notice) when rsvg-convert is not installed.
fn render(name: &str, svg: &str) -> Option<(u32, u32, Vec<[u8; 4]>)> {
    if Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "NOTICE: rsvg-convert is missing (apt-get install librsvg2-bin): SKIPPING the rendering test"
        );
        return None;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("svg");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg_path = dir.join(format!("{name}.svg"));
    let png_path = dir.join(format!("{name}.png"));
    std::fs::write(&svg_path, svg).expect("write svg");
    let status = Command::new("rsvg-convert")
        .arg("-o")
        .arg(&png_path)
        .arg(&svg_path)
        .status()
        .expect("rsvg-convert runs");
    assert!(status.success(), "rsvg-convert failed on {name}");
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).expect("png written"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let pixels = match info.color_type {
        png::ColorType::Rgba => buf[..info.buffer_size()]
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect(),
        png::ColorType::Rgb => buf[..info.buffer_size()]
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2], 255])
            .collect(),
        other => panic!("unexpected colour type {other:?}"),
    };
    Some((info.width, info.height, pixels))
}

fn pixel(image: &(u32, u32, Vec<[u8; 4]>), x: f64, y: f64) -> [u8; 4] {
    let (w, _, pixels) = image;
    pixels[(y as u32 * w + x as u32) as usize]
}

#[test]
fn renders_to_a_png_that_is_not_blank() {
    let mut options = SvgOptions::default();
    options.size = Some(400);
    for (name, fen) in [
        ("start", START),
        ("hostage-rich", HOSTAGE_RICH),
        ("check", CHECK),
        ("pseudo-check", PSEUDO_CHECK),
    ] {
        let Some(image) = render(name, &draw(fen, &options)) else {
            return;
        };
        let (w, h, pixels) = &image;
        // 400 wide; the height follows the 400 × 520 view box.
        assert_eq!((*w, *h), (400, 520), "{name}");
        let distinct: BTreeSet<[u8; 4]> = pixels.iter().copied().collect();
        assert!(
            distinct.len() > 50,
            "{name}: only {} colours",
            distinct.len()
        );
        assert!(
            pixels.iter().all(|p| p[3] == 255),
            "{name}: opaque background"
        );
        // The centre of an empty dark square (h4) shows the dark colour.
        let (x, y) = (20.0 + 7.5 * 45.0, 60.0 + 20.0 + 4.5 * 45.0);
        assert_eq!(pixel(&image, x, y), [0xb8, 0x87, 0x62, 255], "{name}: h4");
    }
    // The check glow is red at the edge of the king's square, e1.
    let image = render("check", &draw(CHECK, &options)).expect("rendered above");
    let [r, g, b, _] = pixel(&image, 20.0 + 4.0 * 45.0 + 6.5, 60.0 + 20.0 + 7.5 * 45.0);
    assert!(r > 180 && g < 90 && b < 90, "red check glow: {r} {g} {b}");
    // The pseudo-check ring is amber, not red: just below its rightmost point.
    let image = render("pseudo-check", &draw(PSEUDO_CHECK, &options)).expect("rendered above");
    let [r, g, b, _] = pixel(
        &image,
        20.0 + 4.0 * 45.0 + 25.0,
        60.0 + 20.0 + 7.0 * 45.0 + 2.5,
    );
    assert!(r > 200 && g > 120 && b < 80, "amber ring: {r} {g} {b}");
}
