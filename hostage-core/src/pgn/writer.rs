//! The PGN writer: canonical tags and movetext, wrapped at 79 characters,
//! walking the tree with an explicit stack.

use alloc::{format, string::String, vec::Vec};
use core::mem;

use super::{Node, NodeId, PgnGame};
use crate::{san::San, Color, Position};

/// Longest line written: PGN's export limit, so that lines fit 80 columns.
const MAX_LINE: usize = 79;

/// Roster tags and their defaults, in the order written.
const ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// Tags written from the record itself rather than from the tag list.
const DERIVED: [&str; 4] = ["Result", "Variant", "SetUp", "FEN"];

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            // A tag value is one line.
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// Movetext tokens separated by single spaces, wrapped before `MAX_LINE`.
/// A token is held back until the next one comes, so that a closing `)`
/// joins it before it is measured; an opening `(` joins the token after it.
struct Wrap {
    out: String,
    len: usize,
    pending: String,
    open: bool,
}

impl Wrap {
    fn token(&mut self, token: &str) {
        self.flush();
        if mem::take(&mut self.open) {
            self.pending.push('(');
        }
        self.pending.push_str(token);
    }

    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let width = self.pending.chars().count();
        if self.len > 0 && self.len + 1 + width > MAX_LINE {
            self.out.push('\n');
            self.len = 0;
        } else if self.len > 0 {
            self.out.push(' ');
            self.len += 1;
        }
        self.out.push_str(&self.pending);
        self.len += width;
        self.pending.clear();
    }

    fn open(&mut self) {
        self.open = true;
    }

    fn close(&mut self) {
        self.pending.push(')');
    }

    fn comment(&mut self, text: &str) {
        // `}` would end the comment early; whitespace runs are one space,
        // as the reader reads them.
        let text = text.replace('}', ")");
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            [] => self.token("{}"),
            [word] => self.token(&format!("{{{word}}}")),
            [first, middle @ .., last] => {
                self.token(&format!("{{{first}"));
                for word in middle {
                    self.token(word);
                }
                self.token(&format!("{last}}}"));
            }
        }
    }

    /// A move with its number (always before White's move; before Black's
    /// when `force`), NAGs and comments.
    fn node(&mut self, node: &Node, pos: &Position, mut force: bool) {
        for c in &node.starting_comments {
            self.comment(c);
            force = true;
        }
        let Some(m) = node.mv else { return };
        if pos.turn() == Color::White {
            self.token(&format!("{}.", pos.fullmoves()));
        } else if force {
            self.token(&format!("{}...", pos.fullmoves()));
        }
        self.token(&San::write(pos, &m));
        for nag in &node.nags {
            self.token(&format!("${nag}"));
        }
        for c in &node.comments {
            self.comment(c);
        }
    }
}

/// A line being written: the node whose children come next, the position
/// at that node, and how far its children are written.
struct Frame {
    node: NodeId,
    pos: Position,
    /// 0: the main continuation is next; `i`: the `i`th child, a variation.
    next: usize,
    /// Whether Black's next move needs its number.
    force: bool,
}

pub(super) fn write(game: &PgnGame) -> String {
    let mut out = String::new();
    for (name, default) in ROSTER {
        push_tag(&mut out, name, game.tag(name).unwrap_or(default));
    }
    push_tag(&mut out, "Result", game.result.as_str());
    push_tag(&mut out, "Variant", "Hostage");
    let fen = game.start.fen();
    if fen != Position::new().fen() {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &fen);
    }
    for (name, value) in &game.tags {
        if !ROSTER.iter().any(|(n, _)| n == name) && !DERIVED.contains(&name.as_str()) {
            push_tag(&mut out, name, value);
        }
    }
    out.push('\n');

    let mut w = Wrap {
        out,
        len: 0,
        pending: String::new(),
        open: false,
    };
    let root = game.node(NodeId::ROOT);
    for c in &root.comments {
        w.comment(c);
    }
    let mut stack = alloc::vec![Frame {
        node: NodeId::ROOT,
        pos: game.start.clone(),
        next: 0,
        force: true,
    }];
    while let Some(top) = stack.last_mut() {
        let children = game.node(top.node).children();
        if top.next == 0 {
            let Some(&main) = children.first() else {
                stack.pop();
                if let Some(parent) = stack.last_mut() {
                    w.close();
                    parent.force = true;
                }
                continue;
            };
            let node = game.node(main);
            w.node(node, &top.pos, top.force);
            top.force = !node.comments.is_empty();
            top.next = 1;
        } else if let Some(&alt) = children.get(top.next) {
            top.next += 1;
            let node = game.node(alt);
            w.open();
            w.node(node, &top.pos, true);
            let mut pos = top.pos.clone();
            if let Some(m) = node.mv {
                pos.play_unchecked(m);
            }
            let force = !node.comments.is_empty();
            stack.push(Frame {
                node: alt,
                pos,
                next: 0,
                force,
            });
        } else {
            let main = children[0];
            if let Some(m) = game.node(main).mv {
                top.pos.play_unchecked(m);
            }
            top.node = main;
            top.next = 0;
        }
    }
    w.token(game.result.as_str());
    w.flush();
    w.out.push('\n');
    w.out
}
