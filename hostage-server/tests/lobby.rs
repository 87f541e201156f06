//! The lobby over a real socket (`docs/protocol.md`, Lobby): challenges
//! listed live, accepted into one game that both players land in, quick
//! pairing, cancels and closed connections, every refusal with its code
//! and nothing changed, and the race of two accepters. Each test runs on
//! SQLite and, when `HOSTAGE_TEST_PG_URL` names a PostgreSQL
//! (`scripts/test-postgres` sets it), on PostgreSQL too; the tests named
//! `across_instances_*` run two servers on one PostgreSQL database (and say
//! so loudly without one, failing in CI).

#[path = "support/server.rs"]
mod server;
mod support;

use std::time::{Duration, Instant};

use hostage_server::{service::limits::ServerLimits, Config, Server, StoreUrl};
use serde_json::{json, Value};
use support::{move_msg, Client};

struct TestServer {
    addr: String,
    runtime: Option<tokio::runtime::Runtime>,
}

impl TestServer {
    fn on(db: StoreUrl, limits: ServerLimits) -> TestServer {
        let mut config = Config::with_store(db);
        config.limits = limits;
        let (addr, runtime) = server::serve(Server::bind(&config));
        TestServer {
            addr,
            runtime: Some(runtime),
        }
    }

    /// Stops at once: every task dropped, no goodbye to anyone.
    fn stop(mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

/// A server on a fresh SQLite file; and one on PostgreSQL too when given.
fn servers(name: &str, limits: ServerLimits) -> Vec<TestServer> {
    let dir = std::env::temp_dir().join(format!("hostage-lobby-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut all = vec![TestServer::on(
        StoreUrl::Sqlite(dir.join("games.db")),
        limits,
    )];
    if let Some(url) = server::database_if_given(&format!("lobby_{name}")) {
        all.push(TestServer::on(StoreUrl::Postgres(url), limits));
    }
    all
}

fn blitz() -> Value {
    json!({"initial_ms": 180_000, "increment_ms": 2_000})
}

fn watcher(addr: &str) -> (Client, Vec<Value>) {
    let mut w = Client::connect(addr);
    w.send(json!({"v":1,"type":"lobby_watch","id":"w"}));
    let lobby = w.expect("lobby");
    assert_eq!(lobby["id"], "w");
    let list = lobby["challenges"].as_array().expect("a list").clone();
    (w, list)
}

/// Creates a challenge; its id.
fn create(c: &mut Client, fields: Value) -> String {
    let mut msg = json!({"v":1,"type":"challenge_create","id":"c"});
    for (k, v) in fields.as_object().expect("fields") {
        msg[k] = v.clone();
    }
    c.send(msg);
    let created = c.expect("challenge_created");
    assert_eq!(created["id"], "c");
    created["challenge"]["id"]
        .as_str()
        .expect("challenge id")
        .to_string()
}

fn accept_msg(challenge: &str) -> Value {
    json!({"v":1,"type":"challenge_accept","challenge":challenge,"id":"a"})
}

/// A player's seat after `joined` and its `state`: (game, token, colour).
fn seated(c: &mut Client) -> (String, String, String) {
    let joined = c.expect("joined");
    let state = c.expect("state");
    assert_eq!(state["status"], "active", "{state}");
    assert_eq!(state["you"], joined["color"]);
    let game = joined["game"].as_str().expect("game").to_string();
    assert_eq!(state["game"], game);
    assert_eq!(joined["link"], format!("/?game={game}"));
    (
        game,
        joined["token"].as_str().expect("token").to_string(),
        joined["color"].as_str().expect("colour").to_string(),
    )
}

/// The creator hears its challenge accepted, then gets its seat.
fn creator_seated(c: &mut Client, challenge: &str) -> (String, String, String) {
    let accepted = c.expect("challenge_accepted");
    assert_eq!(accepted["challenge"], challenge);
    let seat = seated(c);
    assert_eq!(accepted["game"], seat.0);
    seat
}

/// White and Black play a move each in `game`, each hearing the other's.
fn both_move(white: (&mut Client, &str), black: (&mut Client, &str), game: &str) {
    white.0.send(move_msg(game, white.1, "e2e4", 0));
    assert_eq!(white.0.expect("moved")["move"], "e2e4");
    assert_eq!(black.0.expect("moved")["move"], "e2e4");
    black.0.send(move_msg(game, black.1, "e7e5", 1));
    assert_eq!(black.0.expect("moved")["move"], "e7e5");
    assert_eq!(white.0.expect("moved")["move"], "e7e5");
}

/// Plays a game from `creator` (on its colour) and `accepter`.
fn play(
    creator: (&mut Client, &(String, String, String)),
    accepter: (&mut Client, &(String, String, String)),
) {
    let (c, cs) = creator;
    let (a, seat) = accepter;
    assert_eq!(cs.0, seat.0, "one game");
    assert_ne!(cs.2, seat.2, "opposite colours");
    assert_ne!(cs.1, seat.1, "two tokens");
    if cs.2 == "white" {
        both_move((c, &cs.1), (a, &seat.1), &cs.0);
    } else {
        both_move((a, &seat.1), (c, &cs.1), &cs.0);
    }
}

#[test]
fn a_challenge_is_listed_live_and_accepted_into_one_game_both_land_in() {
    for s in servers("flow", ServerLimits::default()) {
        let (mut w, list) = watcher(&s.addr);
        assert_eq!(list, Vec::<Value>::new());
        let mut ada = Client::connect(&s.addr);
        let id = create(
            &mut ada,
            json!({"name":"  Ada L. ","color":"white","clock":blitz()}),
        );
        let added = w.expect("challenge_added")["challenge"].clone();
        assert_eq!(added["id"], id);
        assert_eq!(added["name"], "Ada L.");
        assert_eq!(added["color"], "white");
        assert_eq!(added["clock"], blitz());
        assert!(added.get("token").is_none() && added.get("owner").is_none());
        // A new watcher gets it in the list.
        let (_w2, list) = watcher(&s.addr);
        assert_eq!(list, vec![added.clone()]);
        let mut bob = Client::connect(&s.addr);
        bob.send(accept_msg(&id));
        let bob_seat = seated(&mut bob);
        assert_eq!(bob_seat.2, "black", "Ada chose white");
        let ada_seat = creator_seated(&mut ada, &id);
        assert_eq!(ada_seat.2, "white");
        assert_eq!(w.expect("challenge_removed")["challenge"], id);
        play((&mut ada, &ada_seat), (&mut bob, &bob_seat));
        // The creator's token is a seat: it resumes from a new connection.
        let mut again = Client::connect(&s.addr);
        again.send(json!({"v":1,"type":"resume","game":ada_seat.0,"token":ada_seat.1}));
        assert_eq!(again.expect("resumed")["color"], "white");
        assert_eq!(again.expect("state")["ply"], 2);
        // Accepted once: a second accepter finds nothing.
        let mut late = Client::connect(&s.addr);
        late.send(accept_msg(&id));
        late.expect_error("challenge_not_found");
        w.quiet();
        ada.quiet();
    }
}

#[test]
fn cancelling_and_closing_remove_a_challenge_and_a_nameless_one_is_anonymous() {
    for s in servers("cancel", ServerLimits::default()) {
        let (mut w, _) = watcher(&s.addr);
        let mut c = Client::connect(&s.addr);
        let first = create(&mut c, json!({"color":"random"}));
        let added = w.expect("challenge_added")["challenge"].clone();
        assert_eq!(added["name"], "Anonymous");
        assert_eq!(added["clock"], Value::Null);
        assert_eq!(added["color"], "random");
        c.send(json!({"v":1,"type":"challenge_cancel","challenge":first,"id":"x"}));
        let cancelled = c.expect("challenge_cancelled");
        assert_eq!(
            (&cancelled["challenge"], &cancelled["id"]),
            (&json!(first), &json!("x"))
        );
        assert_eq!(w.expect("challenge_removed")["challenge"], first);
        // Cancelled: it cannot be accepted, nor cancelled again.
        let mut other = Client::connect(&s.addr);
        other.send(accept_msg(&first));
        other.expect_error("challenge_not_found");
        c.send(json!({"v":1,"type":"challenge_cancel","challenge":first}));
        c.expect_error("challenge_not_found");
        let second = create(&mut c, json!({"color":"black","name":"Brigitte"}));
        assert_eq!(w.expect("challenge_added")["challenge"]["id"], second);
        drop(c);
        assert_eq!(w.expect("challenge_removed")["challenge"], second);
        let (_, list) = watcher(&s.addr);
        assert_eq!(list, Vec::<Value>::new());
        // An unwatched lobby tells nothing more.
        w.send(json!({"v":1,"type":"lobby_unwatch","id":1}));
        assert_eq!(w.expect("lobby_unwatched")["id"], 1);
        create(&mut other, json!({"color":"white"}));
        w.quiet();
    }
}

/// Sends `msg` and expects the error `code` in answer, with its `id`.
fn refused(c: &mut Client, msg: Value, code: &str) -> Value {
    let mut msg = msg;
    msg["id"] = json!("r");
    c.send(msg);
    let e = c.expect_error(code);
    assert_eq!(e["id"], "r");
    e
}

#[test]
fn hostile_lobby_input_is_refused_with_its_code_and_changes_nothing() {
    let limits = ServerLimits::default()
        .with_max_challenges_per_connection(2)
        .with_max_challenges_per_address(3)
        .with_max_challenges(4);
    for s in servers("hostile", limits) {
        let (mut w, _) = watcher(&s.addr);
        let mut a = Client::connect(&s.addr);
        let mine = create(&mut a, json!({"color":"white","name":"Ada"}));
        let listed = w.expect("challenge_added")["challenge"].clone();
        for (msg, code) in [
            (json!({"v":1,"type":"challenge_create"}), "invalid_message"),
            (
                json!({"v":1,"type":"challenge_create","color":7}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"challenge_create","color":"white","name":["x"]}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"challenge_create","color":"white","seat":"x"}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"challenge_create","color":"white","name":"a".repeat(21)}),
                "invalid_name",
            ),
            (
                json!({"v":1,"type":"challenge_create","color":"white","name":"<script>"}),
                "invalid_name",
            ),
            (
                json!({"v":1,"type":"challenge_create","color":"white","name":"   "}),
                "invalid_name",
            ),
            (
                json!({"v":1,"type":"challenge_create","color":"white","clock":{"initial_ms":0,"increment_ms":0}}),
                "invalid_clock",
            ),
            (json!({"v":1,"type":"challenge_accept"}), "invalid_message"),
            (
                json!({"v":1,"type":"challenge_accept","challenge":null}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"challenge_accept","challenge":"zzzzzzzzzz"}),
                "challenge_not_found",
            ),
            (
                json!({"v":1,"type":"challenge_accept","challenge":"x".repeat(3000)}),
                "challenge_not_found",
            ),
            (
                json!({"v":1,"type":"challenge_accept","challenge":mine,"name":"b".repeat(40)}),
                "invalid_name",
            ),
            (
                json!({"v":1,"type":"challenge_accept","challenge":mine}),
                "own_challenge",
            ),
            (
                json!({"v":1,"type":"challenge_cancel","challenge":"zzzzzzzzzz"}),
                "challenge_not_found",
            ),
            (
                json!({"v":1,"type":"challenge_cancel","challenge":{}}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"lobby_watch","all":true}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"lobby_seek","clock":"3+2"}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"lobby_seek","clock":{"initial_ms":1000,"increment_ms":600_001}}),
                "invalid_clock",
            ),
        ] {
            // Paced under the connection's message rate (10 a second).
            std::thread::sleep(std::time::Duration::from_millis(110));
            let e = refused(&mut a, msg, code);
            if code == "challenge_not_found" {
                assert!(
                    e["given"]
                        .as_str()
                        .is_some_and(|g| g.chars().count() <= 101),
                    "{e}"
                );
            }
        }
        // Someone else cannot cancel it.
        let mut b = Client::connect(&s.addr);
        refused(
            &mut b,
            json!({"v":1,"type":"challenge_cancel","challenge":mine}),
            "challenge_not_found",
        );
        // Caps: 2 per connection, 3 per address (all clients here share
        // 127.0.0.1), 4 in all.
        create(&mut a, json!({"color":"black"}));
        w.expect("challenge_added");
        refused(
            &mut a,
            json!({"v":1,"type":"challenge_create","color":"black"}),
            "too_many_challenges",
        );
        create(&mut b, json!({"color":"black"}));
        w.expect("challenge_added");
        refused(
            &mut b,
            json!({"v":1,"type":"challenge_create","color":"white"}),
            "too_many_challenges",
        );
        // Nothing refused reached the lobby: the list is the three made,
        // the first still as it was.
        let (_, list) = watcher(&s.addr);
        assert_eq!(list.len(), 3);
        assert_eq!(list[0], listed);
        w.quiet();
        // It is still Ada's, and still acceptable.
        b.send(accept_msg(&mine));
        seated(&mut b);
        creator_seated(&mut a, &mine);
    }
}

#[test]
fn making_challenges_is_paced_and_the_lobby_is_capped() {
    let limits = ServerLimits::default()
        .with_challenge_burst(2)
        .with_challenge_refill(Duration::from_secs(3600))
        .with_max_challenges(3);
    for s in servers("pace", limits) {
        let (mut w, _) = watcher(&s.addr);
        let mut a = Client::connect(&s.addr);
        let first = create(&mut a, json!({"color":"white"}));
        a.send(json!({"v":1,"type":"challenge_cancel","challenge":first}));
        a.expect("challenge_cancelled");
        create(&mut a, json!({"color":"white"}));
        refused(
            &mut a,
            json!({"v":1,"type":"challenge_create","color":"white"}),
            "challenges_too_fast",
        );
        // Others are not paced by it; the list's cap holds.
        let mut b = Client::connect(&s.addr);
        create(&mut b, json!({"color":"white"}));
        let mut c = Client::connect(&s.addr);
        create(&mut c, json!({"color":"white"}));
        let mut d = Client::connect(&s.addr);
        refused(
            &mut d,
            json!({"v":1,"type":"challenge_create","color":"white"}),
            "lobby_full",
        );
        // Seen by the watcher: made, cancelled, then three made.
        for kind in ["challenge_added", "challenge_removed"] {
            w.expect(kind);
        }
        for _ in 0..3 {
            w.expect("challenge_added");
        }
        let (_, list) = watcher(&s.addr);
        assert_eq!(list.len(), 3);
        // Flooded with creates: each refused and answered, none listed.
        for _ in 0..15 {
            d.send(json!({"v":1,"type":"challenge_create","color":"white","id":"f"}));
        }
        let mut answers = 0;
        while answers < 15 {
            let m = d.expect("error");
            assert!(
                m["code"] == "lobby_full" || m["code"] == "rate_limited",
                "{m}"
            );
            answers += 1;
        }
        let (_, list) = watcher(&s.addr);
        assert_eq!(list.len(), 3);
        w.quiet();
    }
}

#[test]
fn two_accepters_at_once_exactly_one_wins() {
    for s in servers("race", ServerLimits::default()) {
        for round in 0..6 {
            let mut creator = Client::connect(&s.addr);
            let id = create(&mut creator, json!({"color":"random","clock":blitz()}));
            let mut x = Client::connect(&s.addr);
            let mut y = Client::connect(&s.addr);
            x.send(accept_msg(&id));
            y.send(accept_msg(&id));
            let (mx, my) = (x.recv(), y.recv());
            let (winner, loser, winner_first) = match (mx["type"].as_str(), my["type"].as_str()) {
                (Some("joined"), Some("error")) => (&mut x, my, mx),
                (Some("error"), Some("joined")) => (&mut y, mx, my),
                other => panic!("round {round}: not exactly one winner: {other:?}"),
            };
            assert_eq!(loser["code"], "challenge_not_found", "{loser}");
            assert_eq!(winner.expect("state")["status"], "active");
            let seat = creator_seated(&mut creator, &id);
            assert_eq!(seat.0, winner_first["game"]);
            assert_ne!(seat.2, winner_first["color"]);
            creator.quiet();
        }
    }
}

#[test]
fn quick_pairing_joins_a_matching_challenge_or_opens_one() {
    for s in servers("seek", ServerLimits::default()) {
        let seek = |clock: Value| json!({"v":1,"type":"lobby_seek","clock":clock,"name":"Quick"});
        let mut p1 = Client::connect(&s.addr);
        p1.send(seek(blitz()));
        let open = p1.expect("challenge_created")["challenge"].clone();
        assert_eq!(
            (&open["color"], &open["clock"], &open["name"]),
            (&json!("random"), &blitz(), &json!("Quick"))
        );
        // Pressed again: the same challenge, not a second one.
        p1.send(seek(blitz()));
        assert_eq!(p1.expect("challenge_created")["challenge"], open);
        // Another time control does not pair with it.
        let mut p3 = Client::connect(&s.addr);
        p3.send(seek(Value::Null));
        let untimed = p3.expect("challenge_created")["challenge"].clone();
        assert_eq!(untimed["clock"], Value::Null);
        let mut p2 = Client::connect(&s.addr);
        p2.send(seek(blitz()));
        let p2_seat = seated(&mut p2);
        let id = open["id"].as_str().expect("id");
        let p1_seat = creator_seated(&mut p1, id);
        play((&mut p1, &p1_seat), (&mut p2, &p2_seat));
        let (_, list) = watcher(&s.addr);
        assert_eq!(list, vec![untimed]);
    }
}

#[test]
fn a_lobby_watcher_is_not_closed_for_idleness() {
    let limits = ServerLimits::default().with_idle_timeout(Duration::from_millis(300));
    for s in servers("idle", limits) {
        let (mut w, _) = watcher(&s.addr);
        let mut idle = Client::connect(&s.addr);
        std::thread::sleep(Duration::from_millis(800));
        assert!(
            idle.try_recv().is_none(),
            "a connection doing nothing is closed"
        );
        let mut c = Client::connect(&s.addr);
        let id = create(&mut c, json!({"color":"white"}));
        assert_eq!(w.expect("challenge_added")["challenge"]["id"], id);
    }
}

fn pg_instances(name: &str, limits: ServerLimits) -> Option<(TestServer, TestServer)> {
    let url = server::fresh_database(name)?;
    Some((
        TestServer::on(StoreUrl::Postgres(url.clone()), limits),
        TestServer::on(StoreUrl::Postgres(url), limits),
    ))
}

#[test]
fn across_instances_a_challenge_made_on_one_is_seen_and_accepted_on_the_other() {
    let Some((a, b)) = pg_instances("lobby_across", ServerLimits::default()) else {
        return;
    };
    let (mut wa, _) = watcher(&a.addr);
    let (mut wb, _) = watcher(&b.addr);
    let mut ada = Client::connect(&a.addr);
    let id = create(
        &mut ada,
        json!({"color":"black","name":"Ada","clock":blitz()}),
    );
    let seen = wb.expect("challenge_added")["challenge"].clone();
    assert_eq!(
        (&seen["id"], &seen["name"], &seen["color"]),
        (&json!(id), &json!("Ada"), &json!("black"))
    );
    assert_eq!(wa.expect("challenge_added")["challenge"], seen);
    let mut bob = Client::connect(&b.addr);
    bob.send(accept_msg(&id));
    let bob_seat = seated(&mut bob);
    assert_eq!(bob_seat.2, "white");
    let ada_seat = creator_seated(&mut ada, &id);
    assert_eq!(wa.expect("challenge_removed")["challenge"], id);
    assert_eq!(wb.expect("challenge_removed")["challenge"], id);
    play((&mut ada, &ada_seat), (&mut bob, &bob_seat));
    // The creator closing on A removes its challenge on B.
    let mut cleo = Client::connect(&a.addr);
    let gone = create(&mut cleo, json!({"color":"white"}));
    assert_eq!(wb.expect("challenge_added")["challenge"]["id"], gone);
    drop(cleo);
    assert_eq!(wb.expect("challenge_removed")["challenge"], gone);
    // Two accepters, one on each instance: exactly one wins.
    let mut dora = Client::connect(&b.addr);
    let raced = create(&mut dora, json!({"color":"random"}));
    let mut x = Client::connect(&a.addr);
    let mut y = Client::connect(&b.addr);
    x.send(accept_msg(&raced));
    y.send(accept_msg(&raced));
    let kinds = [x.recv()["type"].clone(), y.recv()["type"].clone()];
    let mut kinds: Vec<&str> = kinds.iter().filter_map(Value::as_str).collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["error", "joined"]);
    creator_seated(&mut dora, &raced);
}

#[test]
fn across_instances_the_challenges_of_a_stopped_instance_leave_every_lobby() {
    let limits = ServerLimits::default().with_challenge_stale_after(Duration::from_millis(1500));
    let Some((a, b)) = pg_instances("lobby_stale", limits) else {
        return;
    };
    let (mut wb, _) = watcher(&b.addr);
    let mut c = Client::connect(&a.addr);
    let id = create(&mut c, json!({"color":"white"}));
    assert_eq!(wb.expect("challenge_added")["challenge"]["id"], id);
    // Alive: still listed after several stale periods.
    std::thread::sleep(Duration::from_millis(3000));
    let (_, list) = watcher(&b.addr);
    assert_eq!(list.len(), 1, "a live instance's challenge stays");
    let t0 = Instant::now();
    a.stop();
    assert_eq!(wb.expect("challenge_removed")["challenge"], id);
    assert!(t0.elapsed() < Duration::from_secs(6), "{:?}", t0.elapsed());
    let mut late = Client::connect(&b.addr);
    late.send(accept_msg(&id));
    late.expect_error("challenge_not_found");
}
