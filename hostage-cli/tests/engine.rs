//! End-to-end tests of the engine commands: `uci`, `analyse`, `match`,
//! `book` and bots in `play`. Legality is always judged by hostage-core,
//! never by the engine under test.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Command, Stdio},
};

use hostage_core::{pgn::Reader, uci::UciMove, Game};

mod common;

use common::{hostage, hostage_with_input, stderr, stdout, HOSTAGE};

#[test]
fn uci_handshake_and_a_bad_line() {
    let out = hostage_with_input(
        &["uci"],
        "uci\nisready\nposition fen nonsense\nfly\nisready\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("id name hostage"), "{text}");
    assert!(lines.contains(&"option name UCI_Variant type combo default hostage var hostage"));
    let uciok = lines.iter().position(|l| *l == "uciok").expect("uciok");
    assert_eq!(lines[uciok + 1], "readyok");
    assert!(
        lines[uciok + 2].starts_with("info string error: invalid fen \"nonsense\""),
        "{text}"
    );
    assert!(lines[uciok + 3].contains("unknown_command"), "{text}");
    assert_eq!(lines[uciok + 4], "readyok");
}

#[test]
fn a_game_over_uci_through_a_pipe() {
    let mut child = Command::new(HOSTAGE)
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut input = child.stdin.take().expect("piped");
    let mut output = BufReader::new(child.stdout.take().expect("piped"));
    writeln!(
        input,
        "uci\nsetoption name UCI_Variant value hostage\nucinewgame"
    )
    .expect("write");
    let mut game = Game::new();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..20 {
        writeln!(
            input,
            "position startpos moves {}\ngo nodes 2000",
            moves.join(" ")
        )
        .expect("write");
        let best = loop {
            let mut line = String::new();
            assert!(
                output.read_line(&mut line).expect("read") > 0,
                "the engine exited"
            );
            if let Some(m) = line.trim().strip_prefix("bestmove ") {
                break m.to_owned();
            }
        };
        if best == "0000" {
            assert!(
                game.position().legal_moves().is_empty(),
                "0000 with legal moves"
            );
            break;
        }
        let m = UciMove::from_ascii(best.as_bytes())
            .expect("long form")
            .to_move(game.position())
            .expect("a legal move");
        game.push(m).expect("legal");
        moves.push(best);
        if game.outcome().is_some() {
            break;
        }
    }
    writeln!(input, "quit").expect("write");
    assert!(child.wait().expect("exits").success());
    assert!(game.ply() >= 10, "{moves:?}");
}

#[test]
fn analyse_prints_iterations_then_lines() {
    let out = hostage(&[
        "analyse",
        "--depth",
        "3",
        "--multipv",
        "2",
        "--moves",
        "e4 d5 exd5 Qxd5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "position rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3"
    );
    // Two lines for each of depths 1, 2 and 3.
    let iterations: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("depth "))
        .collect();
    assert_eq!(iterations.len(), 6, "{text}");
    assert!(
        iterations[5].starts_with("depth 3 ") && iterations[5].contains("| 2: "),
        "{text}"
    );
    let last = lines.last().expect("lines");
    let (san, long) = last
        .strip_prefix("bestmove ")
        .and_then(|r| r.split_once(" ("))
        .expect("bestmove SAN (long)");
    let pos = Game::new();
    let mut pos = pos.position().clone();
    for m in ["e4", "d5", "exd5", "Qxd5"] {
        pos = pos
            .clone()
            .play(pos.parse_move(m).expect("legal"))
            .expect("legal");
    }
    let by_san = pos.parse_move(san).expect("legal SAN");
    let by_long = pos
        .parse_move(long.trim_end_matches(')'))
        .expect("legal long form");
    assert_eq!(by_san, by_long);
    assert!(
        text.contains("\n1. cp ") || text.contains("\n1. mate "),
        "{text}"
    );
}

#[test]
fn a_bad_fen_exits_1_and_is_named() {
    let out = hostage(&["analyse", "--fen", "rnbqkbnr/pppppppp/9/8 w - - 0 1"]);
    assert_eq!(out.status.code(), Some(1));
    // Named as the core names it (quoted with ', shortened if long).
    assert!(
        stderr(&out).contains("'rnbqkbnr/pppppppp/9/8 w - - 0 1'"),
        "{}",
        stderr(&out)
    );
    // A huge FEN is not echoed whole.
    let huge = "p".repeat(100_000);
    let out = hostage(&["fen", "--fen", &huge]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).len() < 500, "{}", stderr(&out).len());
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["play", "--white", "robot"][..],
        &["analyse", "--depth", "0"],
        &["match", "--first", "novice"],
        &["match", "--first", "novice", "--second", "grandmaster"],
        &[
            "match", "--first", "novice", "--second", "random", "--sprt", "100,0",
        ],
        &["book", "generate", "--plies", "9..3"],
    ] {
        assert_eq!(hostage(args).status.code(), Some(2), "{args:?}");
    }
}

fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("hostage-cli-test-{}-{name}", std::process::id()))
}

/// The W/D/L line of a match summary, as numbers.
fn wdl(text: &str) -> [u32; 3] {
    let line = text
        .lines()
        .find_map(|l| l.split_once(": W/D/L ").map(|(_, r)| r))
        .expect("a W/D/L line");
    let numbers: Vec<u32> = line
        .split(' ')
        .next()
        .unwrap_or("")
        .split('/')
        .filter_map(|n| n.parse().ok())
        .collect();
    [numbers[0], numbers[1], numbers[2]]
}

#[test]
fn a_match_writes_pgn_that_reads_back() {
    let pgn = temp_path("novice-random.pgn");
    let out = hostage(&[
        "match",
        "--first",
        "novice",
        "--second",
        "random",
        "--games",
        "4",
        "--pgn",
        pgn.to_str().expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let [w, d, l] = wdl(&text);
    assert_eq!(w + d + l, 4, "{text}");
    assert!(text.contains("elo difference: "), "{text}");
    let file = std::fs::read_to_string(&pgn).expect("the pgn was written");
    let _ = std::fs::remove_file(&pgn);
    let games: Vec<_> = Reader::from_str(&file)
        .collect::<Result<_, _>>()
        .expect("legal PGN");
    assert_eq!(games.len(), 4);
    // Scores from the PGN results, with colours alternating from the first player.
    let mut first_points = 0.0;
    for (i, game) in games.iter().enumerate() {
        let first_white = i % 2 == 0;
        assert_eq!(
            game.tag(if first_white { "White" } else { "Black" }),
            Some("novice")
        );
        first_points += match (game.tag("Result"), first_white) {
            (Some("1-0"), true) | (Some("0-1"), false) => 1.0,
            (Some("1/2-1/2"), _) => 0.5,
            _ => 0.0,
        };
        // Both colours of an opening start the same way.
        if i % 2 == 1 {
            let a = games[i - 1].mainline_moves();
            let b = game.mainline_moves();
            assert!(a.len() >= 6 && b.len() >= 6 && a[..6] == b[..6]);
        }
    }
    assert_eq!(first_points, f64::from(w) + 0.5 * f64::from(d));
}

#[test]
fn a_match_against_an_external_uci_engine() {
    let first = format!("uci:{HOSTAGE} uci");
    let out = hostage(&[
        "match",
        "--first",
        &first,
        "--second",
        "greedy",
        "--games",
        "2",
        "--uci-nodes",
        "1000",
        "--sprt",
        "0,100",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The engine's own name, from `id name`.
    assert!(text.starts_with("hostage 0."), "{text}");
    let [w, d, l] = wdl(&text);
    assert_eq!(w + d + l, 2, "{text}");
    assert!(
        !text.contains("gave no move") && !text.contains("illegal") && !text.contains("forfeits"),
        "{text}"
    );
    assert!(text.contains("sprt elo0 0 elo1 100: llr "), "{text}");
    // Options reach the engine (`hostage uci` offers Threads and Hash);
    // one it does not offer, or one for a built-in player, stops the match.
    let out = hostage(&[
        "match",
        "--first",
        &first,
        "--first-option",
        "Hash=4",
        "--first-option",
        "Threads=1",
        "--second",
        "greedy",
        "--games",
        "2",
        "--uci-nodes",
        "1000",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(wdl(&stdout(&out)).iter().sum::<u32>(), 2);
    let refused = |args: &[&str], says: &str| {
        let out = hostage(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
    };
    refused(
        &[
            "match",
            "--first",
            &first,
            "--first-option",
            "Thread=2",
            "--second",
            "greedy",
            "--games",
            "2",
        ],
        "does not offer the option 'Thread'",
    );
    refused(
        &[
            "match",
            "--first",
            &first,
            "--second",
            "greedy",
            "--second-option",
            "Threads=2",
            "--games",
            "2",
        ],
        "--second-option sets an option of a uci: player",
    );
    refused(
        &[
            "match",
            "--first",
            "uci:/no/such/engine",
            "--second",
            "random",
            "--games",
            "2",
        ],
        "/no/such/engine",
    );
}

/// A fake UCI engine: a shell script that plays the first legal move
/// (asking `hostage moves`) and, at each `go` of the match numbered in
/// `at` (comma-separated, counted in a file, so across restarts), exits
/// (`crash`) or stops answering (`hang`). Returns the `uci:` player for it.
fn fake_engine(mode: &str, at: &str) -> String {
    let dir = temp_path(&format!("fake-{mode}-{}", at.replace(',', "-")));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let count = dir.join("count");
    let _ = std::fs::remove_file(&count);
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        r#"hostage="$1"; mode="$2"; at="$3"; count="$4"; moves=""
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name fake"; echo uciok;;
    isready) echo readyok;;
    "position startpos moves "*) moves="${line#position startpos moves }";;
    "position startpos") moves="";;
    go*)
      n=$(( $(cat "$count" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$count"
      case ",$at," in *",$n,"*)
        if [ "$mode" = crash ]; then exit 3; else exec sleep 30; fi;;
      esac
      echo "bestmove $("$hostage" moves --moves "$moves" | head -n 1 | cut -f 2)";;
    quit) exit 0;;
  esac
done
"#,
    )
    .expect("script");
    format!(
        "uci:/bin/sh {} {HOSTAGE} {mode} {at} {}",
        script.display(),
        count.display()
    )
}

/// Plays `fake` (first) against greedy over two games from 1. e4 e5 with
/// a PGN, and returns stdout and the PGN.
fn match_with(fake: &str, extra: &[&str]) -> (String, String) {
    // Tests run at once: files of their own, named after the fake.
    let tag: String = fake
        .chars()
        .rev()
        .take(40)
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let book = temp_path(&format!("book-{tag}.txt"));
    std::fs::write(&book, "e2e4 e7e5\n").expect("book");
    let pgn = temp_path(&format!("forfeit-{tag}.pgn"));
    let mut args = vec![
        "match",
        "--first",
        fake,
        "--second",
        "greedy",
        "--threads",
        "1",
        "--max-plies",
        "24",
        "--book",
        book.to_str().expect("utf-8 path"),
        "--pgn",
        pgn.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(extra);
    let out = hostage(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&pgn).expect("the pgn was written");
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&book);
    (stdout(&out), text)
}

#[cfg(unix)]
#[test]
fn an_external_engine_that_crashes_once_is_restarted_and_the_game_goes_on() {
    // The fake has White in game 1 and dies at its third move (ply 7).
    let (text, pgn) = match_with(&fake_engine("crash", "3"), &[]);
    let why = "the engine exited at ply 7";
    assert!(!text.contains(" forfeits"), "{text}");
    assert!(
        text.contains("restarts: fake 1 (recovered, game went on)"),
        "{text}"
    );
    let [w, d, l] = wdl(&text);
    assert_eq!(w + d + l, 2, "{text}");
    let games: Vec<_> = Reader::from_str(&pgn)
        .collect::<Result<_, _>>()
        .expect("legal PGN");
    assert_eq!(games.len(), 2);
    // Game 1 went on past the breakdown, with a note of it.
    assert!(games[0].mainline_moves().len() > 6);
    let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!("{{White restarted: {why}}}")),
        "{pgn}"
    );
}

#[cfg(unix)]
#[test]
fn an_external_engine_that_crashes_twice_in_a_game_forfeits_it_and_is_left_out() {
    // Dies at its third move, and again when asked once more.
    let (text, pgn) = match_with(&fake_engine("crash", "3,4"), &[]);
    let why = "the engine exited at ply 7";
    assert!(
        text.contains(&format!(
            "fake - greedy 0-1 (white forfeits: {why}, 6 plies)"
        )),
        "{text}"
    );
    assert_eq!(text.matches(" forfeits: ").count(), 1, "{text}");
    assert!(
        text.contains(&format!(
            "forfeits: fake 1 (0 adjudicated; game 1; last: {why})"
        )),
        "{text}"
    );
    // The fake reports no score, so the forfeit is not adjudicated: the
    // score counts game 2 only.
    assert!(
        text.contains("left out of the score: 1 forfeited game(s)"),
        "{text}"
    );
    let [w, d, l] = wdl(&text);
    assert_eq!(w + d + l, 1, "{text}");
    let games: Vec<_> = Reader::from_str(&pgn)
        .collect::<Result<_, _>>()
        .expect("legal PGN");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].tag("Termination"),
        Some(format!("white forfeits: {why}").as_str())
    );
    assert_eq!(games[0].tag("Result"), Some("0-1"));
    // The writer wraps long lines, comments included.
    let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!("{{White (fake) forfeits: {why}}} 0-1")),
        "{pgn}"
    );
    // The restarted engine plays game 2 out (Black, to the ply limit or an
    // ending by the rules, never a forfeit).
    assert!(games[1].mainline_moves().len() > 6);
    assert!(!games[1]
        .tag("Termination")
        .unwrap_or("")
        .contains("forfeit"));
}

#[cfg(unix)]
#[test]
fn an_external_engine_that_hangs_is_killed_at_the_timeout() {
    let started = std::time::Instant::now();
    // The fake stops answering at its second move (ply 5 of game 1), and
    // again after its restart.
    let (text, pgn) = match_with(&fake_engine("hang", "2,3"), &["--uci-timeout", "400"]);
    let why = "no move within 400 ms at ply 5 (engine killed)";
    assert!(text.contains(&format!("white forfeits: {why}")), "{text}");
    assert!(
        text.contains(&format!(
            "forfeits: fake 1 (0 adjudicated; game 1; last: {why})"
        )),
        "{text}"
    );
    assert!(
        pgn.contains(&format!("[Termination \"white forfeits: {why}\"]")),
        "{pgn}"
    );
    // The match went on at once, not after the hung engine's 30 s.
    assert!(started.elapsed() < std::time::Duration::from_secs(25));
}

#[cfg(unix)]
#[test]
fn on_a_clock_an_engine_plays_by_its_clock_and_its_scores_are_recorded() {
    let first = format!("uci:{HOSTAGE} uci");
    let pgn = temp_path("clock.pgn");
    let out = hostage(&[
        "match",
        "--first",
        &first,
        "--second",
        "greedy",
        "--games",
        "2",
        "--threads",
        "1",
        "--max-plies",
        "30",
        "--uci-clock",
        "2+0.05",
        "--pgn",
        pgn.to_str().expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("uci engines on clock 2+0.05"), "{text}");
    let [w, d, l] = wdl(&text);
    assert_eq!(w + d + l, 2, "{text}");
    let written = std::fs::read_to_string(&pgn).expect("the pgn was written");
    let _ = std::fs::remove_file(&pgn);
    let games: Vec<_> = Reader::from_str(&written)
        .collect::<Result<_, _>>()
        .expect("legal PGN");
    // Our engine's moves carry its score (`+0.35`, `-M3`); greedy's none.
    let is_score = |c: &str| {
        let c = c.trim();
        (c.starts_with('+') || c.starts_with('-'))
            && (c[1..].parse::<f64>().is_ok() || c[1..].starts_with('M'))
    };
    for (game, engine_is_white) in [(&games[0], true), (&games[1], false)] {
        let line = game.mainline();
        let scored: Vec<bool> = line
            .iter()
            .map(|&n| game.node(n).comments.iter().any(|c| is_score(c)))
            .collect();
        let engine_moves = scored
            .iter()
            .enumerate()
            .filter(|&(i, _)| (i % 2 == 0) == engine_is_white);
        let mut greedy_moves = scored
            .iter()
            .enumerate()
            .filter(|&(i, _)| (i % 2 == 0) != engine_is_white);
        assert!(engine_moves.filter(|(_, &s)| s).count() >= 2, "{written}");
        assert!(greedy_moves.all(|(_, &s)| !s), "{written}");
    }
    // A clock and a move time are two budgets: refused.
    let out = hostage(&[
        "match",
        "--first",
        &first,
        "--second",
        "greedy",
        "--uci-clock",
        "1+0.1",
        "--uci-movetime",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = hostage(&[
        "match",
        "--first",
        &first,
        "--second",
        "greedy",
        "--uci-clock",
        "fast",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("invalid time control"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bots_play_a_whole_game_through_a_pipe() {
    let started = std::time::Instant::now();
    let out = hostage(&[
        "play", "--white", "novice", "--black", "novice", "--seed", "5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("White: novice, Black: novice; bots' seed 5"),
        "{text}"
    );
    assert!(
        text.contains("White (novice) is thinking...\nWhite (novice) plays "),
        "{text}"
    );
    let last = text.lines().last().unwrap_or("");
    assert!(
        ["Checkmate", "Stalemate", "Draw"]
            .iter()
            .any(|w| last.starts_with(w)),
        "{last}"
    );
    assert!(started.elapsed().as_secs() < 30);
    // The same seed plays the same game.
    let again = hostage(&[
        "play", "--white", "novice", "--black", "novice", "--seed", "5",
    ]);
    assert_eq!(stdout(&again), text);
}

#[test]
fn a_person_can_play_a_bot_and_take_back() {
    // The bot answers 1.e4; `undo` takes back its reply and the e4, so the
    // start position is White's again.
    let out = hostage_with_input(
        &["play", "--black", "beginner", "--seed", "1"],
        "e4\nundo\nfen\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Black (beginner) plays "), "{text}");
    assert!(
        text.contains("\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1\n"),
        "{text}"
    );
}

#[test]
fn book_generate_writes_a_book_that_match_reads() {
    let book = temp_path("book.txt");
    let path = book.to_str().expect("utf-8 path");
    let out = hostage(&[
        "book",
        "generate",
        "--count",
        "2",
        "--plies",
        "2..3",
        "--nodes",
        "1000",
        "--max-eval",
        "100",
        "--out",
        path,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&book).expect("written");
    assert!(text.contains("# Generated by: hostage book generate --count 2 --seed 1 --plies 2..3"));
    let out = hostage(&[
        "match", "--first", "random", "--second", "greedy", "--book", path,
    ]);
    let _ = std::fs::remove_file(&book);
    assert!(out.status.success(), "{}", stderr(&out));
    let [w, d, l] = wdl(&stdout(&out));
    assert_eq!(w + d + l, 4);
}
