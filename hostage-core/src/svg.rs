//! SVG diagrams of a position, with both prisons and airfields.
//!
//! [`board`] draws a [`Position`] as a self-contained SVG image: the board
//! with coordinates, the men (original drawings, see `svg/pieces.rs`), and
//! what no orthodox chess diagram shows, each side's prison (R2) and
//! airfield (R3) beside the board with a figure and a count per role.
//!
//! # Layout
//!
//! The reserves are laid out as the game describes them: seen from each
//! player's seat, the prison is on the player's right and the airfield on
//! the left. With White at the bottom, White's airfield is bottom left and
//! White's prison (holding *black* men) bottom right; Black, facing White,
//! has its prison top left and its airfield top right. A flipped diagram
//! turns all of this around with the board.
//!
//! # Marks
//!
//! - a real check (R11): a red glow under the king;
//! - a pseudo-check (R8a: the king is attacked only by a frozen pawn): a
//!   dashed amber ring around the king, so it is never confused with check;
//! - a frozen pawn (R8: on its 7th rank while its side has no Q/R/B/N in
//!   the enemy prison): an icy tint and a snowflake;
//! - the last move, arrows and square marks chosen by the caller. A drop or
//!   an exchange highlights only the square the man is dropped on.
//!
//! # Output
//!
//! The SVG has an `xmlns`, a `viewBox`, no external reference, no script
//! and no `id` clash between images (the one `id`, a gradient, is the same
//! in every image). It is deterministic: the same position and options give
//! the same bytes. Caller-given colours are checked against a safe character
//! set; anything else falls back to the default colour.
//!
//! # Examples
//!
//! ```
//! use hostage_core::{svg, Position};
//!
//! let pos = Position::from_fen("rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3")?;
//! let image = svg::board(&pos, &svg::SvgOptions::default());
//! assert!(image.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
//! assert!(image.contains("White's prison"));
//! # Ok::<_, hostage_core::fen::FenError>(())
//! ```

mod pieces;

use alloc::{string::String, vec::Vec};
use core::fmt::{self, Write};

use crate::{uci::UciMove, Color, File, Piece, Position, Rank, Square};

/// The colour of arrows and marks when none (or an unsafe one) is given.
pub const DEFAULT_ARROW_COLOR: &str = "#15781b";

/// What to draw besides the position, and how.
///
/// Start from [`SvgOptions::default`] and change fields:
///
/// ```
/// use hostage_core::{svg::{Arrow, SvgOptions}, Square};
///
/// let mut options = SvgOptions::default();
/// options.size = Some(400);
/// options.flipped = true;
/// options.arrows.push(Arrow::new(Square::E2, Square::E4));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SvgOptions {
    /// The image width in pixels (the height follows the aspect ratio);
    /// `None` gives the natural size, 45 pixels a square.
    pub size: Option<u32>,
    /// Black at the bottom.
    pub flipped: bool,
    /// File letters and rank digits around the board.
    pub coordinates: bool,
    /// Both prisons and both airfields beside the board.
    pub reserves: bool,
    /// The move that led here, highlighted: its from and to squares, or only
    /// the square of a drop or an exchange. Long form names the squares
    /// without needing the position before the move: `Some(m.to_uci())` for
    /// a [`crate::Move`].
    pub last_move: Option<UciMove>,
    /// Mark a check (red) or a pseudo-check (dashed amber ring) on the king
    /// of the side to move.
    pub check: bool,
    /// Mark frozen pawns (R8) with an icy tint and a snowflake.
    pub frozen: bool,
    /// Arrows, drawn over the men. An arrow from a square to itself is a
    /// circle.
    pub arrows: Vec<Arrow>,
    /// Squares tinted with a colour.
    pub marks: Vec<Mark>,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            size: None,
            flipped: false,
            coordinates: true,
            reserves: true,
            last_move: None,
            check: true,
            frozen: true,
            arrows: Vec::new(),
            marks: Vec::new(),
        }
    }
}

/// An arrow from one square to another, in a CSS colour.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Arrow {
    /// Where the arrow starts.
    pub from: Square,
    /// Where it points.
    pub to: Square,
    /// A colour such as `#15781b` or `red`.
    pub color: String,
}

impl Arrow {
    /// A green arrow from `from` to `to`.
    #[must_use]
    pub fn new(from: Square, to: Square) -> Arrow {
        Arrow::with_color(from, to, DEFAULT_ARROW_COLOR)
    }

    /// An arrow in `color` (e.g. `#882020` or `blue`).
    #[must_use]
    pub fn with_color(from: Square, to: Square, color: &str) -> Arrow {
        Arrow {
            from,
            to,
            color: String::from(color),
        }
    }
}

/// A square tinted with a colour.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Mark {
    /// The square.
    pub square: Square,
    /// A colour such as `#15781b` or `red`.
    pub color: String,
}

impl Mark {
    /// A mark on `square` in `color`.
    #[must_use]
    pub fn new(square: Square, color: &str) -> Mark {
        Mark {
            square,
            color: String::from(color),
        }
    }
}

/// Draws `pos` as a self-contained SVG image.
///
/// # Examples
///
/// ```
/// use hostage_core::{svg, Position};
///
/// let image = svg::board(&Position::new(), &svg::SvgOptions::default());
/// assert_eq!(image.matches("class=\"piece ").count(), 32);
/// ```
#[must_use]
pub fn board(pos: &Position, options: &SvgOptions) -> String {
    let mut out = String::with_capacity(24 * 1024);
    // Writing into a String cannot fail.
    let _ = Drawing::new(pos, options).write(&mut out);
    out
}

/// The side of a square in drawing units.
const SQ: f64 = 45.0;
/// The board's side in drawing units.
const BOARD: f64 = 8.0 * SQ;
/// The height of a reserve strip (gap, panel, gap).
const STRIP: f64 = 60.0;
/// The height of a reserve panel.
const PANEL_H: f64 = 52.0;
/// The side of one role's slot in a reserve panel.
const SLOT: f64 = 34.0;

const LIGHT: &str = "#efd9b6";
const DARK: &str = "#b88762";
const FRAME: &str = "#3b3835";
const COORD: &str = "#e8e2d8";
const BACKGROUND: &str = "#faf8f3";
const PANEL_FILL: &str = "#eee8dc";
const PANEL_STROKE: &str = "#c9bfae";
const LABEL: &str = "#4a443c";
const LAST_MOVE: &str = "#9bc700";
const AMBER: &str = "#f0a000";
const ICE: &str = "#2f7fc1";

/// A number written with at most two decimals and no trailing zeros, so
/// output is short and the same on every platform.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Num(pub(crate) f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scaled = self.0 * 100.0;
        // `f64::round` needs std; this rounds half away from zero.
        let hundredths = if scaled < 0.0 {
            (scaled - 0.5) as i64
        } else {
            (scaled + 0.5) as i64
        };
        if hundredths < 0 {
            f.write_str("-")?;
        }
        let abs = hundredths.unsigned_abs();
        write!(f, "{}", abs / 100)?;
        match abs % 100 {
            0 => Ok(()),
            frac if frac % 10 == 0 => write!(f, ".{}", frac / 10),
            frac => write!(f, ".{frac:02}"),
        }
    }
}

/// Square root by Newton's method (`f64::sqrt` needs std).
fn sqrt(x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let mut r = if x > 1.0 { x } else { 1.0 };
    for _ in 0..64 {
        let next = 0.5 * (r + x / r);
        if (r - next) < 1e-9 && (next - r) < 1e-9 {
            return next;
        }
        r = next;
    }
    r
}

/// `color` if it is made only of characters a CSS colour needs (and so
/// cannot break out of an XML attribute), else `default`.
fn safe_color<'a>(color: &'a str, default: &'a str) -> &'a str {
    let ok = !color.is_empty()
        && color.len() <= 64
        && color
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"#(),.% -".contains(&b));
    if ok {
        color
    } else {
        default
    }
}

/// One image being drawn: the position, the options and the layout.
struct Drawing<'a> {
    pos: &'a Position,
    options: &'a SvgOptions,
    /// Width of the coordinate margin around the board.
    margin: f64,
    /// Height of each reserve strip (0 without reserves).
    strip: f64,
}

impl<'a> Drawing<'a> {
    fn new(pos: &'a Position, options: &'a SvgOptions) -> Drawing<'a> {
        Drawing {
            pos,
            options,
            margin: if options.coordinates { 20.0 } else { 6.0 },
            strip: if options.reserves { STRIP } else { 0.0 },
        }
    }

    fn width(&self) -> f64 {
        BOARD + 2.0 * self.margin
    }

    fn height(&self) -> f64 {
        BOARD + 2.0 * self.margin + 2.0 * self.strip
    }

    /// The top-left corner of `sq`.
    fn corner(&self, sq: Square) -> (f64, f64) {
        let (file, rank) = (f64::from(sq.file().index()), f64::from(sq.rank().index()));
        let (col, row) = if self.options.flipped {
            (7.0 - file, rank)
        } else {
            (file, 7.0 - rank)
        };
        (self.margin + col * SQ, self.strip + self.margin + row * SQ)
    }

    /// The centre of `sq`.
    fn center(&self, sq: Square) -> (f64, f64) {
        let (x, y) = self.corner(sq);
        (x + SQ / 2.0, y + SQ / 2.0)
    }

    /// The side whose men sit at the bottom of the diagram.
    fn bottom(&self) -> Color {
        Color::from_white(!self.options.flipped)
    }

    fn write<W: Write>(&self, out: &mut W) -> fmt::Result {
        let (w, h) = (self.width(), self.height());
        let (px_w, px_h) = match self.options.size {
            Some(size) => (f64::from(size), f64::from(size) * h / w),
            None => (w, h),
        };
        write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {} {}" width="{}" height="{}">"#,
            Num(w),
            Num(h),
            Num(px_w),
            Num(px_h),
        )?;
        // A FEN holds only letters, digits and `/[]#- `: safe as XML text.
        write!(out, "<desc>{}</desc>", self.pos.fen())?;
        self.write_defs(out)?;
        write!(
            out,
            r#"<rect class="background" width="{}" height="{}" fill="{BACKGROUND}"/>"#,
            Num(w),
            Num(h)
        )?;
        self.write_frame(out)?;
        self.write_squares(out)?;
        self.write_highlights(out)?;
        self.write_men(out)?;
        self.write_marks_over_men(out)?;
        self.write_arrows(out)?;
        if self.options.reserves {
            self.write_reserves(out)?;
        }
        out.write_str("</svg>\n")
    }

    /// The gradient of the check glow, only when a check is drawn.
    fn write_defs<W: Write>(&self, out: &mut W) -> fmt::Result {
        if self.options.check && self.pos.is_check() {
            out.write_str(concat!(
                r#"<defs><radialGradient id="hostage-check-gradient" r="0.5">"#,
                r##"<stop offset="0%" stop-color="#ff0000" stop-opacity="1"/>"##,
                r##"<stop offset="50%" stop-color="#e70000" stop-opacity="1"/>"##,
                r##"<stop offset="100%" stop-color="#9e0000" stop-opacity="0"/>"##,
                "</radialGradient></defs>",
            ))?;
        }
        Ok(())
    }

    /// The dark frame around the board and the coordinates in it.
    fn write_frame<W: Write>(&self, out: &mut W) -> fmt::Result {
        let m = self.margin;
        write!(
            out,
            r#"<rect class="frame" x="0" y="{}" width="{}" height="{}" rx="4" fill="{FRAME}"/>"#,
            Num(self.strip),
            Num(self.width()),
            Num(BOARD + 2.0 * m),
        )?;
        if !self.options.coordinates {
            return Ok(());
        }
        // The side to move: a disc of its colour in the frame's corner on
        // its side of the board.
        let turn = self.pos.turn();
        let cy = if turn == self.bottom() {
            self.strip + BOARD + 1.5 * m
        } else {
            self.strip + m / 2.0
        };
        write!(
            out,
            r#"<circle class="turn {}" cx="{}" cy="{}" r="6" fill="{}" stroke="{COORD}" stroke-width="1.5"/>"#,
            turn.name(),
            Num(BOARD + 1.5 * m),
            Num(cy),
            turn.fold("#ffffff", "#000000"),
        )?;
        write!(
            out,
            r#"<g class="coordinates" fill="{COORD}" font-family="sans-serif" font-size="13" font-weight="bold" text-anchor="middle">"#
        )?;
        let top = self.strip;
        let bottom = self.strip + BOARD + m;
        for i in 0..8 {
            let file = File::new(i).unwrap_or(File::A);
            let rank = Rank::new(i).unwrap_or(Rank::FIRST);
            let (x, _) = self.center(Square::from_coords(file, Rank::FIRST));
            let (_, y) = self.center(Square::from_coords(File::A, rank));
            for ty in [top + m / 2.0 + 4.5, bottom + m / 2.0 + 4.5] {
                write!(
                    out,
                    r#"<text x="{}" y="{}">{}</text>"#,
                    Num(x),
                    Num(ty),
                    file.char()
                )?;
            }
            for tx in [m / 2.0, m + BOARD + m / 2.0] {
                write!(
                    out,
                    r#"<text x="{}" y="{}">{}</text>"#,
                    Num(tx),
                    Num(y + 4.5),
                    rank.char()
                )?;
            }
        }
        out.write_str("</g>")
    }

    /// The 64 squares, each `<rect class="square light|dark NAME">`.
    fn write_squares<W: Write>(&self, out: &mut W) -> fmt::Result {
        // Edges snapped to pixels: no seams between neighbouring squares.
        out.write_str(r#"<g class="board" shape-rendering="crispEdges">"#)?;
        for index in 0..64 {
            let Some(sq) = Square::new(index) else {
                continue;
            };
            let light = (sq.file().index() + sq.rank().index()) % 2 == 1;
            let (x, y) = self.corner(sq);
            write!(
                out,
                r#"<rect class="square {} {sq}" x="{}" y="{}" width="45" height="45" fill="{}"/>"#,
                if light { "light" } else { "dark" },
                Num(x),
                Num(y),
                if light { LIGHT } else { DARK },
            )?;
        }
        out.write_str("</g>")
    }

    /// Squares of the last move, caller's marks, the check glow and the
    /// icy tint of frozen pawns: everything drawn under the men.
    fn write_highlights<W: Write>(&self, out: &mut W) -> fmt::Result {
        if let Some(m) = self.options.last_move {
            // A drop or an exchange comes from off the board: only its
            // square is highlighted.
            let squares = match m {
                UciMove::Normal { from, to, .. } => [Some(from), Some(to)],
                UciMove::Drop { to, .. } | UciMove::Exchange { to, .. } => [None, Some(to)],
            };
            for sq in squares.into_iter().flatten() {
                let (x, y) = self.corner(sq);
                write!(
                    out,
                    r#"<rect class="last-move {sq}" x="{}" y="{}" width="45" height="45" fill="{LAST_MOVE}" fill-opacity="0.41"/>"#,
                    Num(x),
                    Num(y)
                )?;
            }
        }
        for mark in &self.options.marks {
            let (x, y) = self.corner(mark.square);
            write!(
                out,
                r#"<rect class="mark {}" x="{}" y="{}" width="45" height="45" fill="{}" fill-opacity="0.5"/>"#,
                mark.square,
                Num(x),
                Num(y),
                safe_color(&mark.color, DEFAULT_ARROW_COLOR),
            )?;
        }
        if self.options.check && self.pos.is_check() {
            let king = self.pos.king_of(self.pos.turn());
            let (x, y) = self.corner(king);
            write!(
                out,
                r#"<rect class="check {king}" x="{}" y="{}" width="45" height="45" fill="url(#hostage-check-gradient)"/>"#,
                Num(x),
                Num(y)
            )?;
        }
        if self.options.frozen {
            for sq in self.pos.frozen_pawns() {
                let (x, y) = self.corner(sq);
                write!(
                    out,
                    r##"<rect class="ice {sq}" x="{}" y="{}" width="45" height="45" fill="#a8d8ff" fill-opacity="0.55"/>"##,
                    Num(x),
                    Num(y)
                )?;
            }
        }
        Ok(())
    }

    fn write_men<W: Write>(&self, out: &mut W) -> fmt::Result {
        out.write_str(r#"<g class="men">"#)?;
        for (sq, piece) in self.pos.board().iter() {
            let (x, y) = self.corner(sq);
            pieces::write_piece(out, piece, Num(x), Num(y), Num(1.0))?;
        }
        out.write_str("</g>")
    }

    /// The pseudo-check ring and the snowflakes, over the men.
    fn write_marks_over_men<W: Write>(&self, out: &mut W) -> fmt::Result {
        if self.options.check && self.pos.is_pseudo_check() {
            let king = self.pos.king_of(self.pos.turn());
            let (cx, cy) = self.center(king);
            write!(
                out,
                r#"<circle class="pseudo-check {king}" cx="{}" cy="{}" r="20" fill="none" stroke="{AMBER}" stroke-width="3.5" stroke-dasharray="6.3 3.2"/>"#,
                Num(cx),
                Num(cy)
            )?;
        }
        if self.options.frozen {
            for sq in self.pos.frozen_pawns() {
                let (x, y) = self.corner(sq);
                self.write_snowflake(out, sq, x + SQ - 9.0, y + 9.0)?;
            }
        }
        Ok(())
    }

    /// A small six-armed snowflake in a white disc, centred on (`cx`, `cy`).
    fn write_snowflake<W: Write>(&self, out: &mut W, sq: Square, cx: f64, cy: f64) -> fmt::Result {
        write!(
            out,
            r#"<g class="frozen {sq}" stroke="{ICE}" stroke-linecap="round"><circle cx="{}" cy="{}" r="7.5" fill="white" stroke-width="1.2"/><path d=""#,
            Num(cx),
            Num(cy)
        )?;
        // Three arms through the centre, 60 degrees apart, each with a
        // small fork at both ends.
        const ARMS: [(f64, f64); 3] = [(0.0, 1.0), (0.866, 0.5), (0.866, -0.5)];
        for (dx, dy) in ARMS {
            let r = 5.2;
            write!(
                out,
                "M{} {}L{} {}",
                Num(cx - dx * r),
                Num(cy - dy * r),
                Num(cx + dx * r),
                Num(cy + dy * r)
            )?;
            for sign in [1.0, -1.0] {
                // Fork at 3.3 units along the arm, 1.6 units wide.
                let (ax, ay) = (cx + sign * dx * 3.3, cy + sign * dy * 3.3);
                let (tx, ty) = (cx + sign * dx * r, cy + sign * dy * r);
                let (px, py) = (-dy * 1.6, dx * 1.6);
                let (bx, by) = (tx - sign * dx * 0.2, ty - sign * dy * 0.2);
                write!(
                    out,
                    "M{} {}L{} {}L{} {}",
                    Num(ax + px + (bx - ax) * 0.6),
                    Num(ay + py + (by - ay) * 0.6),
                    Num(ax),
                    Num(ay),
                    Num(ax - px + (bx - ax) * 0.6),
                    Num(ay - py + (by - ay) * 0.6),
                )?;
            }
        }
        out.write_str(r#"" fill="none" stroke-width="1.3"/></g>"#)
    }

    fn write_arrows<W: Write>(&self, out: &mut W) -> fmt::Result {
        for arrow in &self.options.arrows {
            let color = safe_color(&arrow.color, DEFAULT_ARROW_COLOR);
            let (x0, y0) = self.center(arrow.from);
            let (x1, y1) = self.center(arrow.to);
            if arrow.from == arrow.to {
                write!(
                    out,
                    r#"<circle class="arrow circle {}" cx="{}" cy="{}" r="{}" fill="none" stroke="{color}" stroke-width="{}" opacity="0.8"/>"#,
                    arrow.from,
                    Num(x0),
                    Num(y0),
                    Num(SQ / 2.0 - SQ * 0.07),
                    Num(SQ * 0.1),
                )?;
                continue;
            }
            let (dx, dy) = (x1 - x0, y1 - y0);
            let len = sqrt(dx * dx + dy * dy);
            let (ux, uy) = (dx / len, dy / len);
            let head = SQ * 0.6;
            let tip = (x1 - ux * SQ * 0.12, y1 - uy * SQ * 0.12);
            let base = (tip.0 - ux * head, tip.1 - uy * head);
            let half = SQ * 0.3;
            write!(
                out,
                r#"<g class="arrow {}-{}" fill="{color}" stroke="{color}" opacity="0.8"><line x1="{}" y1="{}" x2="{}" y2="{}" stroke-width="{}" stroke-linecap="butt"/><polygon points="{},{} {},{} {},{}" stroke="none"/></g>"#,
                arrow.from,
                arrow.to,
                Num(x0),
                Num(y0),
                Num(base.0 + ux * 1.0),
                Num(base.1 + uy * 1.0),
                Num(SQ * 0.2),
                Num(tip.0),
                Num(tip.1),
                Num(base.0 - uy * half),
                Num(base.1 + ux * half),
                Num(base.0 + uy * half),
                Num(base.1 - ux * half),
            )?;
        }
        Ok(())
    }

    /// Four panels: for each side, its airfield on its left and its prison
    /// on its right, seen from its own seat.
    fn write_reserves<W: Write>(&self, out: &mut W) -> fmt::Result {
        let bottom = self.bottom();
        let half = BOARD / 2.0;
        let left = self.margin;
        let right = self.margin + half + 2.0;
        let width = half - 2.0;
        let bottom_y = self.height() - STRIP + (STRIP - PANEL_H) / 2.0;
        let top_y = (STRIP - PANEL_H) / 2.0;
        // The bottom player faces the viewer's way: its left is our left.
        self.write_panel(out, bottom, Kind::Airfield, left, bottom_y, width)?;
        self.write_panel(out, bottom, Kind::Prison, right, bottom_y, width)?;
        // The top player sits opposite: its right is our left.
        self.write_panel(out, !bottom, Kind::Prison, left, top_y, width)?;
        self.write_panel(out, !bottom, Kind::Airfield, right, top_y, width)
    }

    #[allow(clippy::too_many_arguments)]
    fn write_panel<W: Write>(
        &self,
        out: &mut W,
        owner: Color,
        kind: Kind,
        x: f64,
        y: f64,
        width: f64,
    ) -> fmt::Result {
        let (reserve, men) = match kind {
            // A prison holds enemy men (R2), an airfield the owner's own (R3).
            Kind::Prison => (self.pos.prison(owner), !owner),
            Kind::Airfield => (self.pos.airfield(owner), owner),
        };
        let owner_name = owner.fold("White", "Black");
        write!(
            out,
            r#"<g class="reserve {} {}"><rect x="{}" y="{}" width="{}" height="{}" rx="5" fill="{PANEL_FILL}" stroke="{PANEL_STROKE}"/>"#,
            kind.name(),
            owner.name(),
            Num(x),
            Num(y),
            Num(width),
            Num(PANEL_H),
        )?;
        // A tooltip in browsers: what the panel holds.
        write!(
            out,
            "<title>{owner_name}'s {}: {}</title>",
            kind.name(),
            match kind {
                Kind::Prison => men.fold("white men it has taken", "black men it has taken"),
                Kind::Airfield => men.fold("white men to drop", "black men to drop"),
            },
        )?;
        write!(
            out,
            r#"<text class="label" x="{}" y="{}" font-family="sans-serif" font-size="11" fill="{LABEL}">{owner_name}'s {}</text>"#,
            Num(x + 7.0),
            Num(y + 12.5),
            kind.name(),
        )?;
        if reserve.is_empty() {
            write!(
                out,
                r#"<text class="empty" x="{}" y="{}" font-family="sans-serif" font-size="11" font-style="italic" fill="{PANEL_STROKE}">empty</text>"#,
                Num(x + 7.0),
                Num(y + 36.0),
            )?;
        }
        let slots_y = y + 16.0;
        for (i, (role, count)) in reserve.iter().enumerate() {
            let sx = x + 4.0 + SLOT * i as f64;
            pieces::write_piece(
                out,
                Piece { color: men, role },
                Num(sx),
                Num(slots_y),
                Num(SLOT / SQ),
            )?;
            write!(
                out,
                r##"<g class="count {}"><circle cx="{}" cy="{}" r="7" fill="#8c2d19"/><text x="{}" y="{}" font-family="sans-serif" font-size="10" font-weight="bold" fill="white" text-anchor="middle">{count}</text></g>"##,
                role.name(),
                Num(sx + SLOT - 4.0),
                Num(slots_y + SLOT - 5.0),
                Num(sx + SLOT - 4.0),
                Num(slots_y + SLOT - 1.5),
            )?;
        }
        out.write_str("</g>")
    }
}

/// Which reserve a panel shows.
#[derive(Copy, Clone)]
enum Kind {
    Prison,
    Airfield,
}

impl Kind {
    const fn name(self) -> &'static str {
        match self {
            Kind::Prison => "prison",
            Kind::Airfield => "airfield",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_rounded() {
        let cases = [
            (0.0, "0"),
            (45.0, "45"),
            (22.5, "22.5"),
            (0.755, "0.76"),
            (-3.25, "-3.25"),
            (1.999, "2"),
            (-0.001, "0"),
        ];
        for (value, text) in cases {
            assert_eq!(alloc::format!("{}", Num(value)), text, "{value}");
        }
    }

    #[test]
    fn square_root() {
        for x in [0.0, 1.0, 2.0, 45.0 * 45.0 * 2.0, 0.25] {
            let r = sqrt(x);
            assert!((r * r - x).abs() < 1e-6, "{x}");
        }
    }

    #[test]
    fn unsafe_colours_fall_back() {
        assert_eq!(safe_color("red", "x"), "red");
        assert_eq!(safe_color("rgba(0, 0, 0, 0.5)", "x"), "rgba(0, 0, 0, 0.5)");
        assert_eq!(safe_color("\"/><script>", "x"), "x");
        assert_eq!(safe_color("", "x"), "x");
    }
}
