//! The drawings of the six men: original vector silhouettes made for this
//! project (licensed with it, MIT OR Apache-2.0), not a copy of any set.
//!
//! Each drawing lives on a 45 × 45 grid, the base at the bottom. A drawing
//! is two parts: the *body* (filled shapes that take the man's fill and
//! outline from the enclosing group) and the *details* (lines and dots in a
//! contrasting colour, so they show on black men as well as on white).

use core::fmt::{self, Write};

use crate::{Color, Piece, Role};

/// The wide plinth every man but the pawn stands on.
const BASE: &str = r#"<rect x="10" y="35" width="25" height="4.5" rx="1.5"/>"#;

/// Filled shapes of `role` (its outline and fill come from the group).
const fn body(role: Role) -> &'static str {
    match role {
        Role::Pawn => concat!(
            r#"<rect x="12" y="35.5" width="21" height="4" rx="1.5"/>"#,
            r#"<path d="M14.5 36C15 30 18.5 26.5 19.5 24H25.5C26.5 26.5 30 30 30.5 36Z"/>"#,
            r#"<rect x="16.5" y="20.5" width="12" height="4" rx="1.8"/>"#,
            r#"<circle cx="22.5" cy="14.5" r="6"/>"#,
        ),
        Role::Knight => concat!(
            r#"<path d="M13 35.5C12.5 29 16 25 20.5 21.5C18 21.5 15 23.5 12.3 22.8"#,
            r#"C9.6 22 8.6 19.5 10.2 17.4L16.5 10.2C17.6 8.8 18.8 7.8 20.2 7.2L20.8 3.5"#,
            r#"L23.6 6.4L25.6 3.8L26.6 7.6C33 9.8 35.6 17 34.7 25.5C34.3 29.5 33.5 32.5 33.5 35.5Z"/>"#,
        ),
        Role::Bishop => concat!(
            r#"<path d="M17 36L18.5 27.5H26.5L28 36Z"/>"#,
            r#"<rect x="15.5" y="24.5" width="14" height="3.5" rx="1.5"/>"#,
            r#"<path d="M22.5 8.5C14.5 13 13.8 20 16.8 24.5H28.2C31.2 20 30.5 13 22.5 8.5Z"/>"#,
            r#"<circle cx="22.5" cy="6.5" r="2.6"/>"#,
        ),
        Role::Rook => concat!(
            r#"<rect x="12.5" y="31" width="20" height="4.5" rx="1"/>"#,
            r#"<path d="M15 31.5L16.2 16.5H28.8L30 31.5Z"/>"#,
            r#"<rect x="13" y="14" width="19" height="3.5" rx="1"/>"#,
            r#"<path d="M12.5 7.5H16.5V10.5H20.5V7.5H24.5V10.5H28.5V7.5H32.5V14.5H12.5Z"/>"#,
        ),
        Role::Queen => concat!(
            r#"<path d="M12.5 35.5L9.5 14.5L16.2 24L17.5 10L21 22.5L22.5 8L24 22.5L27.5 10"#,
            r#"L28.8 24L35.5 14.5L32.5 35.5Z"/>"#,
            r#"<circle cx="9.5" cy="13" r="2.4"/><circle cx="17.5" cy="8.8" r="2.4"/>"#,
            r#"<circle cx="22.5" cy="6.6" r="2.4"/><circle cx="27.5" cy="8.8" r="2.4"/>"#,
            r#"<circle cx="35.5" cy="13" r="2.4"/>"#,
        ),
        Role::King => concat!(
            r#"<path d="M21.2 3.5H23.8V7H27V9.6H23.8V15H21.2V9.6H18V7H21.2Z"/>"#,
            r#"<path d="M22.5 14C20 16.5 20 20.5 22.5 23.5C25 20.5 25 16.5 22.5 14Z"/>"#,
            r#"<path d="M12.5 35.5C7.5 28 10 19.5 16.8 19.5C19.5 19.5 21.6 21 22.5 23.5"#,
            r#"C23.4 21 25.5 19.5 28.2 19.5C35 19.5 37.5 28 32.5 35.5Z"/>"#,
        ),
    }
}

/// Lines and dots of `role`, drawn over the body in the detail colour.
const fn details(role: Role) -> &'static str {
    match role {
        Role::Pawn => "",
        Role::Knight => concat!(
            r#"<circle cx="19.2" cy="12.4" r="1.3" stroke="none"/>"#,
            r#"<circle cx="12.4" cy="19.3" r="0.9" stroke="none"/>"#,
            r#"<path d="M26.8 10.5C30.3 14.5 31.3 20.5 30.3 28" fill="none"/>"#,
        ),
        Role::Bishop => r#"<path d="M20 14.5L25.5 20M22.5 11V12.5" fill="none"/>"#,
        Role::Rook => r#"<path d="M16.2 20H28.8M15.6 28H29.4" fill="none"/>"#,
        Role::Queen => r#"<path d="M13.2 30.5C19 29 26 29 31.8 30.5" fill="none"/>"#,
        Role::King => r#"<path d="M13.8 30.5C19.5 28.7 25.5 28.7 31.2 30.5" fill="none"/>"#,
    }
}

/// Fill, outline and detail colours of a man of `color`.
const fn palette(color: Color) -> (&'static str, &'static str, &'static str) {
    match color {
        Color::White => ("#ffffff", "#1a1a1a", "#1a1a1a"),
        Color::Black => ("#2b2b2b", "#000000", "#e8e8e8"),
    }
}

/// Writes `piece` as one `<g class="piece COLOR ROLE">` whose 45-unit
/// drawing is placed with its top-left corner at (`x`, `y`) and scaled by
/// `scale` (1 fills a 45-unit square).
pub(crate) fn write_piece<W: Write>(
    out: &mut W,
    piece: Piece,
    x: super::Num,
    y: super::Num,
    scale: super::Num,
) -> fmt::Result {
    let (fill, stroke, detail) = palette(piece.color);
    write!(
        out,
        r#"<g class="piece {} {}" transform="translate({x} {y}) scale({scale})" fill="{fill}" stroke="{stroke}" stroke-width="1.5" stroke-linejoin="round" stroke-linecap="round">"#,
        piece.color.name(),
        piece.role.name(),
    )?;
    if piece.role != Role::Pawn {
        out.write_str(BASE)?;
    }
    out.write_str(body(piece.role))?;
    let details = details(piece.role);
    if !details.is_empty() {
        write!(out, r#"<g stroke="{detail}" fill="{detail}">{details}</g>"#)?;
    }
    out.write_str("</g>")
}
