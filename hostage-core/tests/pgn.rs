//! Tests of PGN reading and writing on the fixtures in `tests/pgn/` and on
//! malformed input.

use std::{
    fs,
    io::{BufReader, Read},
    path::PathBuf,
};

use hostage_core::{
    game::Game,
    pgn::{Limit, Limits, PgnError, PgnErrorKind, PgnGame, PgnResult, Reader, Syntax},
    san::{ParseMoveError, SanError},
    Color, Excerpt, MoveKind, Outcome, Position, Role, Termination,
};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/pgn")
        .join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read_all(text: &str) -> Vec<PgnGame> {
    Reader::from_str(text)
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn mainline_san(game: &PgnGame) -> Vec<String> {
    game.mainline_game().san_moves()
}

fn first_error(text: &str) -> PgnError {
    Reader::from_str(text)
        .find_map(Result::err)
        .unwrap_or_else(|| panic!("no error reading {:?}", &text[..text.len().min(60)]))
}

// ---------------------------------------------------------------------------
// The hand-written game with every move form.

/// The main line of `every_move_form.pgn`, written down by hand while
/// designing the game (canonical SAN).
const EVERY_MOVE_FORM: [&str; 41] = [
    "e4",
    "Nf6",
    "e5",
    "d5",
    "exd6",
    "Qxd6",
    "d4",
    "Nc6",
    "Nf3",
    "Bg4",
    "Be2",
    "Bxf3",
    "Bxf3",
    "Nxd4",
    "(B-N)N*b5",
    "Qb4+",
    "c3",
    "Nxf3+",
    "Qxf3",
    "Qxb5",
    "Na3",
    "Qe5+",
    "Be3",
    "O-O-O",
    "O-O",
    "(P-P)*e4",
    "Qe2",
    "Rd2",
    "Bxd2",
    "Qd5",
    "*d7+",
    "Kb8",
    "d8=N",
    "Qxd8",
    "(R-P)*c6",
    "(B-N)N*g4",
    "B*f4",
    "R*h5",
    "Qb5",
    "Nxh2",
    "Qxb7#",
];

#[test]
fn every_move_form_reads_and_replays() {
    let text = fixture("every_move_form.pgn");
    let games = read_all(&text);
    assert_eq!(games.len(), 1);
    let pgn = &games[0];
    assert_eq!(pgn.tag("Annotator"), Some("written by hand"));
    assert_eq!(pgn.result, PgnResult::WhiteWins);

    let game = pgn.mainline_game();
    assert_eq!(game.san_moves(), EVERY_MOVE_FORM);

    // Every form of rules.md's move table occurs.
    let moves = game.moves();
    let count = |kind: MoveKind| moves.iter().filter(|m| m.kind() == kind).count();
    assert_eq!(count(MoveKind::EnPassant), 1, "3. exd6");
    assert_eq!(count(MoveKind::Castle), 2, "12... O-O-O and 13. O-O");
    assert_eq!(
        moves
            .iter()
            .filter_map(|m| m.promotion())
            .collect::<Vec<_>>(),
        [Role::Knight]
    );
    let drops: Vec<Role> = moves
        .iter()
        .filter(|m| m.kind() == MoveKind::Drop)
        .map(|m| m.role())
        .collect();
    assert_eq!(
        drops,
        [Role::Pawn, Role::Bishop, Role::Rook],
        "*d7+, B*f4, R*h5"
    );
    let exchanges: Vec<String> = game
        .san_moves()
        .into_iter()
        .filter(|s| s.starts_with('('))
        .collect();
    assert_eq!(
        exchanges,
        ["(B-N)N*b5", "(P-P)*e4", "(R-P)*c6", "(B-N)N*g4"]
    );

    // The reserves at the end, counted by hand from the moves:
    // - Black's airfield: the black bishop released by 8.(B-N) (the rook
    //   released by 18.(R-P) was dropped at 19...R*h5): "b".
    // - White's airfield: empty (the pawn of 13...(P-P) was dropped at
    //   16.*d7, the bishop of 18...(B-N) at 19.B*f4).
    // - Black's prison (white men): pawns from Qxd6, Nxd4, d8=N (the pawn
    //   goes in, R7) and Nxh2, minus the pawns released by 13...(P-P) and
    //   rescued by 18.(R-P): 2; knights from Bxf3, Qxb5 and Qxd8, minus
    //   8.(B-N)'s rescue and d8=N: 1; the bishop from Nxf3 left at 18...(B-N).
    // - White's prison (black men): the pawns from exd6 and Qxb7, minus the
    //   one 13...(P-P) rescued: 1; bishop and rook released.
    assert_eq!(
        game.position().fen(),
        "1k1q1b1r/pQp1pppp/2P2n2/7r/4pB2/N1P5/PP1B1PPn/R4RK1[b#NPPp] b - - 0 21"
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            termination: Termination::Checkmate,
            winner: Some(Color::White)
        })
    );

    // The comments and the NAG stay with their moves.
    let line = pgn.mainline();
    assert_eq!(
        pgn.node(line[4]).comments,
        ["en passant: the pawn on d5 is taken as it passes"]
    );
    assert_eq!(pgn.node(line[32]).nags, [1]);
    assert_eq!(
        pgn.node(line[32]).comments,
        ["the pawn fetches a knight from Black's prison"]
    );
}

#[test]
fn every_move_form_writes_back_identically() {
    let text = fixture("every_move_form.pgn");
    let pgn = PgnGame::read(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pgn.write(), text);
    assert!(text.lines().all(|l| l.chars().count() <= 79));
}

#[test]
fn every_move_form_streams_from_a_bufread() {
    // A tiny buffer makes every token cross buffer boundaries.
    let text = fixture("every_move_form.pgn");
    let reader = BufReader::with_capacity(3, text.as_bytes());
    let games: Vec<PgnGame> = Reader::new(reader)
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].write(), text);
}

#[test]
fn a_game_written_from_game_reads_back() {
    let text = fixture("every_move_form.pgn");
    let game = PgnGame::read(&text).expect("fixture").mainline_game();
    let pgn = PgnGame::from_game(&game);
    assert_eq!(pgn.result, PgnResult::WhiteWins, "from the checkmate");
    let written = pgn.write();
    assert!(written.starts_with(
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n\
         [Black \"?\"]\n[Result \"1-0\"]\n[Variant \"Hostage\"]\n\n1. e4 Nf6 2. e5 d5 3. exd6 Qxd6"
    ));
    let back = PgnGame::read(&written).expect("written pgn reads");
    assert_eq!(back.mainline_moves(), game.moves());
    assert_eq!(back.write(), written);
}

// ---------------------------------------------------------------------------
// Several games: comments, NAGs, variations, FEN, the inventor's style.

#[test]
fn several_games() {
    let games = read_all(&fixture("several.pgn"));
    assert_eq!(games.len(), 4);

    // Game 1: annotations and nested variations.
    let g = &games[0];
    assert_eq!(g.tag("Event"), Some("Annotated"));
    assert_eq!(g.game_comments(), ["A game comment before the first move."]);
    assert_eq!(
        mainline_san(g),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]
    );
    assert_eq!(g.result, PgnResult::Unknown);
    let line = g.mainline();
    assert_eq!(g.node(line[1]).nags, [5], "e5!? is $5");
    assert_eq!(g.node(line[2]).nags, [14]);
    // 2...d6 is the alternative to 2...Nc6: a second child of 2.Nf3.
    let after_nf3 = g.node(line[2]).children();
    assert_eq!(after_nf3.len(), 2);
    let d6 = after_nf3[1];
    assert_eq!(g.node(d6).ply(), 4);
    // Inside it, 3.Bc4 is the alternative to 3.d4; the `;` comment ends
    // the line 3...exd4.
    let after_d6 = g.node(d6).children();
    assert_eq!(after_d6.len(), 2);
    let exd4 = g.node(after_d6[0]).children()[0];
    assert_eq!(g.node(exd4).comments, ["a line comment"]);
    // Four levels deep: 5.O-O inside 4...Bc5 inside 4.d3 inside 3...Nf6.
    let nf6 = g.node(line[4]).children()[1];
    let d3 = g.node(nf6).children()[1];
    assert_eq!(g.node(d3).comments, ["quiet"]);
    let bc5 = g.node(d3).children()[1];
    let castle = g.node(bc5).children()[1];
    let black_castle = g.node(castle).children()[0];
    let path: Vec<String> = {
        let mut game = Game::new();
        for m in g.path(black_castle) {
            game.push(m).expect("legal");
        }
        game.san_moves()
    };
    assert_eq!(
        path,
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "d3", "Bc5", "O-O", "O-O"]
    );
    // The canonical text, wrapped by hand at 79 characters: move numbers
    // after comments and variations, NAGs as $n, comments in braces.
    let expected = "[Event \"Annotated\"]\n[Site \"?\"]\n[Date \"2026.02.02\"]\n[Round \"2\"]\n\
[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[Variant \"Hostage\"]\n\n\
{A game comment before the first move.} 1. e4 e5 $5 2. Nf3 $14 Nc6 (2... d6 3.\n\
d4 (3. Bc4 Be7) 3... exd4 {a line comment}) 3. Bb5 {Spanish} 3... a6 (3... Nf6\n\
4. O-O (4. d3 {quiet} 4... d6 (4... Bc5 5. c3 (5. O-O O-O)))) 4. Ba4 *\n";
    assert_eq!(g.write(), expected);

    // Game 2: a Hostage FEN in a tag, lenient move spellings.
    let g = &games[1];
    let start = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3";
    assert_eq!(g.start().fen(), start);
    assert_eq!(g.result, PgnResult::Draw);
    assert_eq!(
        mainline_san(g),
        ["Nc3", "Qa5", "(P-P)*d4", "Nf6", "Nf3", "*e4", "Nxe4", "Nxe4", "Bd3", "Nf6", "O-O"]
    );
    let written = g.write();
    assert!(written.contains(&format!(
        "[Variant \"Hostage\"]\n[SetUp \"1\"]\n[FEN \"{start}\"]\n"
    )));
    assert!(written.ends_with(
        "\n\n3. Nc3 Qa5 4. (P-P)*d4 Nf6 5. Nf3 *e4 6. Nxe4 Nxe4 7. Bd3 Nf6 8. O-O 1/2-1/2\n"
    ));

    // Game 3: the inventor's style, ended by a (real) mate.
    let g = &games[2];
    assert!(g.tags().is_empty());
    assert_eq!(mainline_san(g), ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(g.result, PgnResult::BlackWins);

    // Game 4: bare move numbers, N(b)d7, a parenthesised remark, Resigns:
    // White is to move at move 11 and resigns.
    let g = &games[3];
    assert_eq!(
        mainline_san(g),
        [
            "e4", "d5", "exd5", "Qxd5", "Nc3", "Qd8", "d4", "Nf6", "Nf3", "Nbd7", "Bc4",
            "(P-P)*e4", "Nxe4", "Nxe4", "Bxf7+", "Kxf7", "Ng5+", "Nxg5", "Bxg5", "Nf6"
        ]
    );
    let kxf7 = g.mainline()[15];
    assert_eq!(g.node(kxf7).comments, ["Black is in check from the bishop"]);
    assert_eq!(g.result, PgnResult::BlackWins);
}

#[test]
fn written_games_are_a_fixed_point() {
    for game in read_all(&fixture("several.pgn")) {
        let written = game.write();
        let again = PgnGame::read(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
        assert_eq!(again.write(), written);
        assert!(
            written.lines().all(|l| l.chars().count() <= 79),
            "{written}"
        );
    }
}

#[test]
fn black_to_move_start_numbers_its_first_move() {
    let start =
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR[] b KQkq - 0 2")
            .expect("legal");
    let mut game = Game::from_position(start);
    game.push_san("Qh4").expect("legal");
    let written = PgnGame::from_game(&game).write();
    assert!(written.ends_with("\n\n2... Qh4# 0-1\n"), "{written}");
    assert!(written.contains("[SetUp \"1\"]\n"));
}

// ---------------------------------------------------------------------------
// Errors.

#[test]
fn illegal_move_reports_game_ply_and_san_error_then_goes_on() {
    let results: Vec<Result<PgnGame, PgnError>> =
        Reader::from_str(&fixture("bad_moves.pgn")).collect();
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok());
    let err = results[1].as_ref().expect_err("2. Ke3 is illegal");
    assert_eq!(err.code(), "pgn_illegal_move");
    assert_eq!(err.game, 2);
    // Line 7 is "1. e4 e5 2. Ke3 Nc6 0-1": Ke3 starts in column 13, ply 3.
    assert_eq!((err.line, err.column), (7, 13));
    assert_eq!(
        err.kind,
        PgnErrorKind::IllegalMove {
            ply: 3,
            san: "Ke3".to_string(),
            error: ParseMoveError::San(SanError::Illegal {
                san: Excerpt::new(b"Ke3"),
                fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2".to_string(),
                reason: Some(hostage_core::IllegalReason::WrongWay),
            })
        }
    );
    // The reader skips to the next tag section and reads the third game.
    let third = results[2].as_ref().expect("the third game is fine");
    assert_eq!(third.tag("Event"), Some("After the error"));
    assert_eq!(mainline_san(third), ["d4", "d5"]);
}

#[test]
fn ambiguous_and_unreadable_moves() {
    // After 2.d3 both knights (b1 and f3) reach d2.
    let err = first_error("1. Nf3 e5 2. d3 e4 3. Nd2 *");
    assert_eq!(err.code(), "pgn_illegal_move");
    assert_eq!(
        err.kind,
        PgnErrorKind::IllegalMove {
            ply: 5,
            san: "Nd2".to_string(),
            error: ParseMoveError::San(SanError::Ambiguous {
                san: Excerpt::new(b"Nd2"),
                fen: "rnbqkbnr/pppp1ppp/8/8/4p3/3P1N2/PPP1PPPP/RNBQKB1R[] w KQkq - 0 3".to_string(),
            })
        }
    );
    // Neither SAN nor the long form.
    let err = first_error("1. e4 Zz9 *");
    match err.kind {
        PgnErrorKind::IllegalMove {
            ply: 2,
            ref san,
            error,
        } => {
            assert_eq!(san, "Zz9");
            assert_eq!(error.code(), "invalid_san");
        }
        ref other => panic!("{other:?}"),
    }
    // The long form is read where SAN fails.
    let game = PgnGame::read("1. e2e4 d7d5 2. e4d5 d8d5 3. P#P@d4 *").expect("long form");
    assert_eq!(
        mainline_san(&game),
        ["e4", "d5", "exd5", "Qxd5", "(P-P)*d4"]
    );
}

#[test]
fn unterminated_comment() {
    let err = first_error("1. e4 {never closed\ne5 2. Nf3 *\n");
    assert_eq!(err.code(), "pgn_syntax");
    assert_eq!(err.kind, PgnErrorKind::Syntax(Syntax::UnterminatedComment));
    assert_eq!((err.line, err.column), (1, 7), "where the comment opens");
}

#[test]
fn deep_variations_hit_the_depth_limit() {
    // Every variation holds a move, so each `(` is well formed; the 65th
    // would be the 65th level (the limit is 64). "1. e4 " is 6 bytes and
    // each "(1. d4 " 7, so the k-th `(` is in column 7 + 7(k - 1).
    let text = format!("1. e4 {}{} *", "(1. d4 ".repeat(10_000), ")".repeat(10_000));
    let err = first_error(&text);
    assert_eq!(err.code(), "pgn_limit");
    assert_eq!(err.kind, PgnErrorKind::Limit(Limit::Depth));
    assert_eq!((err.line, err.column), (1, 7 + 7 * 64));

    // 64 levels are fine.
    let text = format!("1. e4 {}{} *", "(1. d4 ".repeat(64), ")".repeat(64));
    let game = PgnGame::read(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game.node_count(), 1 + 1 + 64);
    assert_eq!(
        PgnGame::read(&game.write()).map(|g| g.write()),
        Ok(game.write())
    );
}

#[test]
fn bare_nested_parens_are_a_syntax_error() {
    // The second `(` opens a variation of a variation that has no move yet.
    let text = format!("1. e4 {} *", "(".repeat(10_000));
    let err = first_error(&text);
    assert_eq!(err.code(), "pgn_syntax");
    assert_eq!(err.kind, PgnErrorKind::Syntax(Syntax::VariationWithoutMove));
    assert_eq!(err.column, 8);
}

#[test]
fn ten_megabyte_comment_hits_the_comment_limit() {
    // 10 MB in lines of 79 bytes, so that the line limit is not the one hit.
    let line = format!("{}\n", "x".repeat(79));
    let text = format!("1. e4 {{{}}} e5 *", line.repeat(10 * 1024 * 1024 / 80));
    assert!(text.len() > 10_000_000);
    let err = first_error(&text);
    assert_eq!(err.code(), "pgn_limit");
    assert_eq!(err.kind, PgnErrorKind::Limit(Limit::CommentLength));
    assert_eq!((err.line, err.column), (1, 7));
}

#[test]
fn long_line_hits_the_line_limit() {
    let text = format!("1. e4 e5 {}*", " ".repeat(100_000));
    let err = first_error(&text);
    assert_eq!(err.kind, PgnErrorKind::Limit(Limit::LineLength));
    assert_eq!(err.line, 1);
}

#[test]
fn token_and_symbol_limits() {
    let mut limits = Limits::default();
    limits.max_tokens = 10;
    let mut reader = Reader::from_str("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 *").with_limits(limits);
    let err = reader
        .next()
        .and_then(Result::err)
        .expect("too many tokens");
    assert_eq!(err.kind, PgnErrorKind::Limit(Limit::Tokens));

    let err = first_error(&format!("1. {} *", "e".repeat(1000)));
    assert_eq!(err.kind, PgnErrorKind::Limit(Limit::SymbolLength));
}

#[test]
fn other_malformed_inputs() {
    let cases: [(&str, &str); 9] = [
        ("1. e4 ) *", "pgn_syntax"),
        ("1. e4 (1. d4 *", "pgn_syntax"),
        ("( 1. e4 ) *", "pgn_syntax"),
        ("1. e4 $999 *", "pgn_syntax"),
        ("[Event \"no end\n\n1. e4 *", "pgn_syntax"),
        (
            "[FEN \"8/8/8/8/8/8/8/8[] w - - 0 1\"]\n\n1. e4 *",
            "pgn_fen",
        ),
        ("[FEN \"not a fen\"]\n\n*", "pgn_fen"),
        ("[Variant \"Crazyhouse\"]\n\n1. e4 *", "pgn_variant"),
        (
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Kxf7 *",
            "pgn_illegal_move",
        ),
    ];
    for (text, code) in cases {
        let err = first_error(text);
        assert_eq!(err.code(), code, "{text:?}: {err}");
        assert_eq!(err.game, 1);
    }
}

#[test]
fn io_errors_end_the_stream() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk on fire"));
            }
            self.0 -= 1;
            buf[0] = b' ';
            Ok(1)
        }
    }
    let mut reader = Reader::new(BufReader::new(Failing(5)));
    let err = reader.next().and_then(Result::err).expect("an error");
    assert_eq!(err.code(), "pgn_io");
    assert!(reader.next().is_none());
}

#[test]
fn empty_input_has_no_game() {
    assert_eq!(Reader::from_str("").count(), 0);
    assert_eq!(Reader::from_str("  \n% only an escape line\n").count(), 0);
    assert_eq!(
        PgnGame::read("").map_err(|e| e.code()).err(),
        Some("pgn_syntax")
    );
}

#[test]
fn exchange_missing_its_opening_parenthesis_is_read() {
    // One of the inventor's records writes `14 N-B)B*d6`: the `)` must not be
    // taken for the end of a variation.
    let text = "1 e4 d5 2 exd5 Qxd5 3 N-B)B*a6 Qxa2 *";
    let err = PgnGame::read(text).expect_err("(N-B) needs a knight in White's prison");
    assert_eq!(err.code(), "pgn_illegal_move");
    let text = "[FEN \"7k/8/8/8/8/8/8/K7[#Bn] w - - 0 1\"]\n\n1 N-B)B*d6 Kg7 *";
    let game = PgnGame::read(text).expect("lenient exchange");
    assert_eq!(game.mainline_game().san_moves(), ["(N-B)B*d6", "Kg7"]);
}

#[test]
fn a_byte_order_mark_is_skipped() {
    // Game files saved on Windows often start with a UTF-8 BOM.
    let text = "\u{feff}[Event \"BOM\"]\n\n1. e4 e5 *";
    let game = PgnGame::read(text).expect("the BOM is not part of the PGN");
    assert_eq!(game.tag("Event"), Some("BOM"));
    let from_reader: Vec<_> = Reader::new(std::io::Cursor::new(text.as_bytes())).collect();
    assert_eq!(from_reader.len(), 1);
    assert!(from_reader[0].is_ok());
}
