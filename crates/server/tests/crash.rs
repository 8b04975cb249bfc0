//! `kill -9` in the middle of a game loses nothing that was acknowledged.
//!
//! The server runs in a child process: this test binary started again with
//! `PARLOR_CRASH_CHILD` set runs only `child_server`, which serves until it
//! is killed (or for 60 s at most).

mod common;

use parlor_server::client::http;
use parlor_server::storage::DbUrl;
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// In the child: serve on a free port, print it, wait to be killed.
#[test]
fn child_server() {
    let Ok(db) = std::env::var("PARLOR_CRASH_CHILD") else {
        return; // an ordinary test run: nothing to do
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let server = common::start(&DbUrl::parse(&db).unwrap(), common::test_settings()).await;
        println!("ADDR {}", server.addr());
        tokio::time::sleep(Duration::from_secs(60)).await;
    });
}

fn spawn_child(db: &str) -> (Child, SocketAddr) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_server",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("PARLOR_CRASH_CHILD", db)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let mut lines = BufReader::new(out).lines();
    let addr = loop {
        let line = lines.next().expect("the child prints its address").unwrap();
        // libtest prints "test child_server ... " before it on the same line.
        if let Some((_, a)) = line.split_once("ADDR ") {
            break a.trim().parse().unwrap();
        }
    };
    std::thread::spawn(move || for _ in lines.by_ref() {});
    (child, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_loses_nothing_acknowledged() {
    let db = common::sqlite_url("crash").to_string();
    let (mut child, addr) = spawn_child(&db);
    let (s, created) = http(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "blob", "config": {"bytes": 10}})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(s, 201);
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let token = created["seats"][0]["token"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/actions");
    let mut sum = 0;
    for n in 1..=40u64 {
        let (s, v) = http(
            addr,
            "POST",
            &path,
            Some(&json!({"token": token, "action": n})),
            &[],
        )
        .await
        .unwrap();
        assert_eq!(s, 200, "{v}");
        sum += n;
    }
    // SIGKILL: no shutdown code runs.
    child.kill().unwrap();
    child.wait().unwrap();

    let (mut child, addr) = spawn_child(&db);
    let (s, st) = http(addr, "GET", &format!("/api/games/{id}/state"), None, &[])
        .await
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(s, 200, "{st}");
    assert_eq!(st["seq"], 40);
    assert_eq!(st["view"]["sum"], sum);
}
