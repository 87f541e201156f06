//! An external engine that dies or hangs: the player reports a failure
//! with the reason, kills what is left of the process, and starts it again
//! before the next game. The engines are small shell scripts that count
//! how often they were started, so the restart is seen from outside.

#![cfg(unix)]

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use hostage_core::Game;
use hostage_match::{
    players::{NoMove, Player},
    uci_player::{Effort, UciEngine},
};

/// Writes a shell-script engine into a fresh temporary folder `name`:
/// `script` gets the path of the folder's `log` file (emptied) and returns
/// the script's text. Returns the command that runs it and the log file.
fn script_engine(name: &str, script: impl FnOnce(&Path) -> String) -> (String, PathBuf) {
    let dir = std::env::temp_dir().join(format!("hostage-match-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let log = dir.join("log");
    let _ = std::fs::remove_file(&log);
    let path = dir.join("engine.sh");
    std::fs::write(&path, script(&log)).expect("script");
    (format!("/bin/sh {}", path.display()), log)
}

/// A script speaking just enough UCI; `on_go` is the shell code run at
/// `go`. Every start appends a line to the returned `starts` file.
fn fake_engine(name: &str, on_go: &str) -> (String, PathBuf) {
    script_engine(name, |starts| {
        format!(
            "echo started >> '{}'\n\
             while IFS= read -r line; do\n\
               case \"$line\" in\n\
                 uci) echo 'id name fake'; echo uciok;;\n\
                 isready) echo readyok;;\n\
                 go*) {on_go};;\n\
                 quit) exit 0;;\n\
               esac\n\
             done\n",
            starts.display()
        )
    })
}

fn starts(file: &PathBuf) -> usize {
    std::fs::read_to_string(file).map_or(0, |t| t.lines().count())
}

#[test]
fn an_engine_that_exits_fails_the_move_and_is_restarted() {
    let (command, file) = fake_engine("exits", "exit 3");
    let mut engine = UciEngine::start(&command, Effort::Nodes(10), Duration::from_secs(20))
        .expect("the handshake works");
    assert_eq!(engine.engine_name(), "fake");
    assert_eq!(starts(&file), 1);
    engine.new_game();
    let Err(NoMove::Failed(why)) = engine.choose(&Game::new(), 0) else {
        panic!("an engine that exits gives no move");
    };
    assert_eq!(why, "the engine exited at ply 1");
    // Until the next game it stays down, with the same reason.
    assert_eq!(
        engine.choose(&Game::new(), 0),
        Err(NoMove::Failed(why.clone()))
    );
    engine.new_game();
    assert_eq!(starts(&file), 2, "restarted for the next game");
}

#[test]
fn an_engine_that_hangs_is_killed_at_the_timeout_and_restarted() {
    // `exec` so that the kill reaches the sleeping process itself.
    let (command, file) = fake_engine("hangs", "exec sleep 30");
    let timeout = Duration::from_millis(300);
    let mut engine =
        UciEngine::start(&command, Effort::Movetime(10), timeout).expect("the handshake works");
    engine.new_game();
    let started = std::time::Instant::now();
    let answer = engine.choose(&Game::new(), 0);
    let waited = started.elapsed();
    assert_eq!(
        answer,
        Err(NoMove::Failed(
            "no move within 300 ms at ply 1 (engine killed)".into()
        ))
    );
    assert!(
        waited >= timeout && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    engine.new_game();
    assert_eq!(starts(&file), 2);
}

#[test]
fn an_illegal_answer_fails_without_a_restart() {
    let (command, file) = fake_engine("illegal", "echo 'bestmove e2e5'");
    let mut engine = UciEngine::start(&command, Effort::Nodes(10), Duration::from_secs(20))
        .expect("the handshake works");
    engine.new_game();
    assert_eq!(
        engine.choose(&Game::new(), 0),
        Err(NoMove::Illegal(
            "answered 'bestmove e2e5', not a legal move at ply 1".into()
        ))
    );
    engine.new_game();
    assert_eq!(starts(&file), 1, "a live engine is kept");
}

#[test]
fn a_missing_program_does_not_start() {
    let err = UciEngine::start("/no/such/engine", Effort::Nodes(1), Duration::from_secs(1))
        .err()
        .expect("no such program");
    assert_eq!(err.code(), "uci_engine_start");
    assert!(
        err.to_string()
            .starts_with("uci engine '/no/such/engine': cannot start:"),
        "{err}"
    );
}

/// A script that offers two options and writes every line it is sent to
/// the returned `heard` file.
fn listening_engine(name: &str) -> (String, PathBuf) {
    script_engine(name, |heard| {
        format!(
            "while IFS= read -r line; do\n\
               echo \"$line\" >> '{}'\n\
               case \"$line\" in\n\
                 uci) echo 'id name listener'; \
                      echo 'option name Threads type spin default 1 min 1 max 8'; \
                      echo 'option name Clear Hash type button'; echo uciok;;\n\
                 isready) echo readyok;;\n\
                 quit) exit 0;;\n\
               esac\n\
             done\n",
            heard.display()
        )
    })
}

#[test]
fn options_are_set_after_the_handshake_and_an_unknown_one_is_refused() {
    let (command, heard) = listening_engine("options");
    let options = [
        ("threads".to_owned(), "2".to_owned()),
        ("Clear Hash".to_owned(), String::new()),
    ];
    let engine = UciEngine::start_with_options(
        &command,
        Effort::Nodes(10),
        Duration::from_secs(20),
        &options,
    )
    .expect("both options are offered");
    assert_eq!(engine.engine_name(), "listener");
    drop(engine);
    let lines = std::fs::read_to_string(&heard).expect("the engine heard something");
    let lines: Vec<&str> = lines.lines().collect();
    // In order, after `uci` and before `isready`; a button has no value.
    assert_eq!(
        lines[..4],
        [
            "uci",
            "setoption name threads value 2",
            "setoption name Clear Hash",
            "isready"
        ]
    );

    let wrong = [("Thread".to_owned(), "2".to_owned())];
    let Err(err) =
        UciEngine::start_with_options(&command, Effort::Nodes(10), Duration::from_secs(20), &wrong)
    else {
        panic!("an option the engine does not offer is an error");
    };
    assert_eq!(err.code(), "uci_engine_start");
    let text = err.to_string();
    assert!(
        text.contains("does not offer the option 'Thread' (it offers: Threads, Clear Hash)"),
        "{text}"
    );
}

#[test]
fn on_a_clock_the_engine_hears_both_clocks_and_its_last_score_is_kept() {
    // Echoes the `go` line back inside an `info string`, then reports two
    // scores (the last one counts) and a legal move.
    let (command, file) = script_engine("clock", |log| {
        format!(
            "while IFS= read -r line; do\n\
               case \"$line\" in\n\
                 uci) echo 'id name clocked'; echo uciok;;\n\
                 isready) echo readyok;;\n\
                 go*) echo \"$line\" >> '{}'; echo 'info depth 1 score cp 12 pv e2e4';\n\
                      echo 'info string score cp 999';\n\
                      echo 'info depth 2 seldepth 3 score mate -3 nodes 10 pv e2e4';\n\
                      echo 'bestmove e2e4';;\n\
                 quit) exit 0;;\n\
               esac\n\
             done\n",
            log.display()
        )
    });
    let mut engine = UciEngine::start(&command, Effort::Nodes(10), Duration::from_secs(20))
        .expect("the handshake works");
    engine.new_game();
    assert_eq!(engine.last_score(), None);
    let clocks =
        hostage_match::clock::Clocks::start(hostage_match::clock::MatchClock::new(1000, 100));
    let m = engine
        .choose_on_clock(&Game::new(), 0, &clocks)
        .expect("a legal move");
    assert_eq!(m.to_string(), "e2e4");
    assert_eq!(
        std::fs::read_to_string(&file).expect("log"),
        "go wtime 1000 btime 1000 winc 100 binc 100\n"
    );
    // `info string` is text, not a score: the mate line is the last score.
    assert_eq!(engine.last_score(), Some(hostage_engine::Score::Mate(-3)));
}
