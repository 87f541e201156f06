//! Scripted sessions: commands in, the engine's lines checked.

use hostage_core::{uci::UciMove, Game, Position};

use std::sync::Mutex;

use super::*;

/// The lines a session writes for `script`.
fn session(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    run(script.as_bytes(), &mut out).expect("in-memory i/o cannot fail");
    String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        // The move, without the `ponder` reply.
        .filter_map(|rest| rest.split(' ').next())
        .map(str::to_string)
        .collect()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

#[test]
fn handshake_lists_the_options_and_answers_isready() {
    let lines = session("uci\nisready\nquit\n");
    assert!(lines[0].starts_with("id name hostage "), "{lines:?}");
    for expected in [
        "id author hostage developers",
        "option name UCI_Variant type combo default hostage var hostage",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Level type combo default full var novice var beginner var casual var intermediate var club var full",
        "option name Seed type spin default 0 min 0 max 2147483647",
        "option name Use NNUE type check default true",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin default ")));
    let uciok = lines.iter().position(|l| l == "uciok").expect("uciok");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    assert_eq!(uciok, lines.len() - 2);
}

#[test]
fn position_with_an_exchange_and_a_drop() {
    // 1.e4 d5 2.exd5 Qxd5: a pawn in each prison. White exchanges them,
    // dropping its pawn on e6 (R5); Black drops the released pawn on e4 (R6).
    let lines = session(
        "position startpos moves e2e4 d7d5 e4d5 d8d5 P#P@e6 P@e4\nd\n\
         position fen rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3 moves P#P@e6\nd\n",
    );
    assert_eq!(
        lines,
        [
            "info string fen rnb1kbnr/ppp1pppp/4P3/3q4/4p3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 4",
            "info string fen rnb1kbnr/ppp1pppp/4P3/3q4/8/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 0 3",
        ]
    );
}

#[test]
fn go_depth_2_gives_a_legal_move_after_iterations_1_and_2() {
    let lines = session("position startpos moves e2e4 e7e5 g1f3\ngo depth 2\n");
    let mut game = Game::new();
    for m in ["e2e4", "e7e5", "g1f3"] {
        game.push_uci(m).expect("legal");
    }
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    let m = UciMove::from_ascii(best[0].as_bytes()).expect("long form");
    assert!(m.to_move(game.position()).is_ok(), "{best:?}");
    let depths: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert_eq!(depths, ["1", "2"]);
    let last = lines
        .iter()
        .rfind(|l| l.starts_with("info depth 2 "))
        .expect("depth 2");
    for word in [
        " seldepth ",
        " multipv 1 ",
        " score ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(last.contains(word), "{word}: {last}");
    }
}

#[test]
fn multipv_reports_that_many_lines() {
    let lines = session("setoption name MultiPV value 3\ngo depth 1\n");
    for k in 1..=3 {
        assert!(
            lines.iter().any(|l| l.contains(&format!(" multipv {k} "))),
            "{k}: {lines:?}"
        );
    }
}

#[test]
fn a_level_go_is_deterministic_for_a_seed() {
    let script = "setoption name Level value casual\nsetoption name Seed value 7\n\
                  position startpos moves d2d4\ngo\n";
    let a = bestmoves(&session(script));
    let b = bestmoves(&session(script));
    assert_eq!(a.len(), 1);
    assert_eq!(a, b);
    // The move is the Casual bot's move for seed 7.
    let mut game = Game::new();
    game.push_uci("d2d4").expect("legal");
    let expected = Engine::new().play_level(&game, Level::Casual, 7);
    assert_eq!(a[0], expected.expect("a move").to_string());
    // An explicit limit searches at full strength instead.
    let c = bestmoves(&session(
        "setoption name Level value casual\nposition startpos moves d2d4\ngo depth 1\n",
    ));
    let d = bestmoves(&session("position startpos moves d2d4\ngo depth 1\n"));
    assert_eq!(c, d);
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    // Fool's mate: White is mated and no prison holds anything.
    let lines = session("position startpos moves f2f3 e7e5 g2g4 d8h4\ngo depth 3\n");
    assert_eq!(bestmoves(&lines), ["0000"]);
}

#[test]
fn go_infinite_waits_for_stop() {
    let lines = session("go infinite\nisready\nstop\nisready\n");
    assert!(lines.iter().any(|l| l == "readyok"));
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .expect("bestmove");
    // The second readyok comes after the best move: `stop` waited for it.
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    assert!(best < lines.len() - 1);
    assert!(Position::new().parse_move(&bestmoves(&lines)[0]).is_ok());
}

#[test]
fn bad_lines_are_reported_and_change_nothing() {
    let long_fen = "x".repeat(200);
    let script = format!(
        "position startpos moves e2e4\n\
         frobnicate\n\
         position fen {long_fen}\n\
         position startpos moves e2e4 e7e5 e2e5\n\
         position sideways\n\
         position startpos e2e4\n\
         setoption name Hash value 0\n\
         setoption name Level value grandmaster\n\
         setoption name UCI_Variant value chess\n\
         setoption name Colour value blue\n\
         setoption name Use NNUE value maybe\n\
         setoption name EvalFile value /nonexistent/net.bin\n\
         go depth\n\
         go nodes many\n\
         go sideways\n\
         d\n\
         go depth 1\n"
    );
    let lines = session(&script);
    let errs = errors(&lines);
    let codes: Vec<&str> = errs
        .iter()
        .filter_map(|l| l.rsplit_once("(code: "))
        .map(|(_, c)| c.trim_end_matches(')'))
        .collect();
    assert_eq!(
        codes,
        [
            "unknown_command",
            "invalid_fen",
            "invalid_move",
            "invalid_position",
            "invalid_position",
            "invalid_option_value",
            "invalid_option_value",
            "invalid_option_value",
            "unknown_option",
            "invalid_option_value",
            "invalid_option_value",
            "invalid_go",
            "invalid_go",
            "invalid_go",
        ],
        "{lines:?}"
    );
    // The FEN is named, shortened; the move is named with its ply.
    assert!(
        errs[1].contains("\"xxxxxxxx") && errs[1].contains('…'),
        "{}",
        errs[1]
    );
    assert!(!errs[1].contains(&long_fen));
    assert!(
        errs[2].contains("cannot play move 3 'e2e5'") && errs[2].contains("illegal_uci"),
        "{}",
        errs[2]
    );
    // The position is still the one before the bad commands.
    assert!(lines.contains(
        &"info string fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1".to_string()
    ));
    let best = bestmoves(&lines);
    let mut game = Game::new();
    game.push_uci("e2e4").expect("legal");
    assert!(game.push_uci(&best[0]).is_ok(), "{best:?}");
}

#[test]
fn invalid_utf8_and_overlong_lines_do_not_stop_the_session() {
    let mut script = b"is\xffready\n".to_vec();
    script.extend(std::iter::repeat_n(b'a', MAX_LINE + 10));
    script.extend(b"\nisready\n");
    let mut out = Vec::new();
    run(&script[..], &mut out).expect("i/o");
    let text = String::from_utf8(out).expect("utf-8");
    assert!(text.contains("(code: unknown_command)"), "{text}");
    assert!(text.contains("(code: line_too_long)"), "{text}");
    assert!(text.ends_with("readyok\n"), "{text}");
}

#[test]
fn the_clock_goes_to_the_time_manager() {
    let mut s = Session::new();
    s.set_position("startpos moves e2e4").expect("legal");
    // Black to move: btime counts, wtime does not.
    let go = Go::parse("wtime 1000 btime 90000 binc 1000 movestogo 20").expect("go");
    let r = s.request(&go);
    assert_eq!(
        r.clock,
        Some(TimeControl {
            remaining: Duration::from_millis(90_000),
            increment: Duration::from_millis(1_000),
            movestogo: Some(20),
        })
    );
    assert_eq!((r.limits.movetime, r.limits.nodes), (None, None));
    // With only the opponent's clock, the default budget applies.
    let r = s.request(&Go::parse("wtime 1000").expect("go"));
    assert_eq!(r.clock, None);
    assert_eq!(r.limits.nodes, Some(DEFAULT_FULL_NODES));
    // Pondering keeps the clock and needs no node budget.
    let r = s.request(&Go::parse("ponder btime 5000").expect("go"));
    assert!(r.ponder && r.clock.is_some() && r.limits.nodes.is_none());
}

#[test]
fn go_ponder_answers_after_ponderhit_with_a_ponder_move() {
    let lines = session(
        "setoption name Ponder value true
position startpos moves e2e4
go ponder depth 3
isready
ponderhit
isready
",
    );
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .expect("bestmove");
    // The first readyok is written while the search waits for ponderhit.
    let first_ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    assert!(first_ready < best, "{lines:?}");
    let words: Vec<&str> = lines[best].split(' ').collect();
    assert_eq!(words.len(), 4, "{lines:?}");
    assert_eq!(words[2], "ponder");
    let mut game = Game::new();
    for m in ["e2e4", words[1], words[3]] {
        game.push_uci(m).expect("a legal line");
    }
}

#[test]
fn threads_and_ponder_are_options() {
    let lines = session(
        "uci
setoption name Threads value 2
setoption name Ponder value true
go movetime 100
",
    );
    assert!(lines
        .iter()
        .any(|l| l == "option name Threads type spin default 1 min 1 max 256"));
    assert!(lines
        .iter()
        .any(|l| l == "option name Ponder type check default false"));
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert_eq!(bestmoves(&lines).len(), 1);
    let lines = session(
        "setoption name Threads value 0
",
    );
    assert_eq!(errors(&lines).len(), 1, "{lines:?}");
}

/// Input that hands out each line only once the output holds a number of
/// `bestmove` lines: a client that answers as soon as it reads one.
struct Gated {
    lines: Vec<(usize, String)>,
    output: Arc<Mutex<Vec<u8>>>,
    current: io::Cursor<Vec<u8>>,
}

impl Gated {
    fn bestmoves(&self) -> usize {
        let out = self.output.lock().expect("lock");
        String::from_utf8_lossy(&out).matches("bestmove ").count()
    }
}

impl io::Read for Gated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = io::BufRead::fill_buf(self)?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.current.get_ref()[self.current.position() as usize..][..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Gated {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.current.position() as usize >= self.current.get_ref().len()
            && !self.lines.is_empty()
        {
            let (wait, line) = self.lines.remove(0);
            let started = Instant::now();
            while self.bestmoves() < wait && started.elapsed() < Duration::from_secs(20) {
                thread::yield_now();
            }
            self.current = io::Cursor::new(format!("{line}\n").into_bytes());
        }
        let at = self.current.position() as usize;
        Ok(&self.current.get_ref()[at..])
    }
    fn consume(&mut self, n: usize) {
        self.current
            .set_position(self.current.position() + n as u64);
    }
}

struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_go_sent_right_after_bestmove_finds_the_engine_free() {
    let output = Arc::new(Mutex::new(Vec::new()));
    let mut lines = Vec::new();
    let mut moves = String::new();
    for k in 0..20 {
        lines.push((k, format!("position startpos moves{moves}")));
        lines.push((k, "go nodes 300".to_string()));
        // Both sides play e.g. knights out and back; legality is all that counts.
        moves.push_str([" g1f3", " g8f6", " f3g1", " f6g8"][k % 4]);
    }
    let input = Gated {
        lines,
        output: Arc::clone(&output),
        current: io::Cursor::new(Vec::new()),
    };
    run(input, Shared(Arc::clone(&output))).expect("i/o");
    let text = String::from_utf8(output.lock().expect("lock").clone()).expect("utf-8");
    assert!(!text.contains("search_running"), "{text}");
    assert_eq!(text.matches("bestmove ").count(), 20, "{text}");
}

#[test]
fn a_bad_move_in_the_list_reads_as_in_every_tool() {
    // The message of tests/vectors/move-lists.txt for `e4 e5 e2e3`.
    let lines = session("position startpos moves e2e4 e7e5 e2e3\nd\n");
    assert_eq!(
        errors(&lines),
        ["info string error: cannot play move 3 'e2e3' (white's move 2): illegal uci: 'e2e3' in \
          rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2: the side to move has \
          no such man there (illegal_uci); \
          position unchanged (code: invalid_move)"]
    );
    // The position is unchanged: still the start.
    assert!(lines
        .iter()
        .any(|l| l == &format!("info string fen {}", Position::new().fen())));
}

#[test]
fn use_nnue_switches_the_evaluation_and_plays_legal_moves() {
    let lines = session(
        "setoption name Use NNUE value true\n\
         position startpos moves e2e4 d7d5 e4d5 d8d5\n\
         go nodes 3000\n\
         isready\n\
         setoption name Use NNUE value false\n\
         go nodes 3000\n\
         isready\n",
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 2, "{lines:?}");
    for mv in &best {
        let mut game = Game::new();
        for m in ["e2e4", "d7d5", "e4d5", "d8d5", mv] {
            game.push_uci(m).expect("legal");
        }
    }
}

#[test]
fn evalfile_reads_a_network_and_refuses_what_is_not_one() {
    let dir = std::env::temp_dir().join(format!("hostage-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let good = dir.join("zero.bin");
    let bad = dir.join("bad.bin");
    std::fs::write(&good, Network::zero().to_bytes()).expect("write");
    std::fs::write(&bad, b"HSTGNN01 but nothing else").expect("write");
    let lines = session(&format!(
        "setoption name EvalFile value /dev/zero\n\
         setoption name EvalFile value {}\n\
         setoption name EvalFile value {}\n\
         setoption name Use NNUE value true\n\
         go depth 3\n\
         isready\n\
         setoption name EvalFile value <embedded>\n\
         go depth 3\n\
         isready\n",
        bad.display(),
        good.display(),
    ));
    std::fs::remove_dir_all(&dir).ok();
    let errs = errors(&lines);
    assert_eq!(errs.len(), 2, "{lines:?}");
    // An endless file is read only as far as a network file goes.
    assert!(
        errs[0].contains("/dev/zero") && errs[0].contains("HSTGNN01"),
        "{}",
        errs[0]
    );
    assert!(
        errs[1].contains("EvalFile") && errs[1].contains("bad.bin") && errs[1].contains("features"),
        "{}",
        errs[1]
    );
    // A network of zeros values every quiet position at 0.
    let depth3 = lines
        .iter()
        .find(|l| l.starts_with("info depth 3 "))
        .expect("depth 3");
    assert!(depth3.contains(" score cp 0 "), "{depth3}");
    assert_eq!(bestmoves(&lines).len(), 2, "{lines:?}");
}
