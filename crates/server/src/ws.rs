//! One WebSocket per player (or spectator) connection.
//!
//! The connection is bound to a seat when it opens (by the token in its
//! URL) and never changes seat. Its reader passes actions to the game's
//! actor without waiting for them, so a client may send several; its writer
//! drains the connection's bounded queue, which the actor fills and, when
//! full, drops (the client is too slow and is disconnected).

use crate::actor::{ActReply, Connected, GameStub, Msg, Who};
use crate::error::ApiError;
use crate::extract::{Path, Query};
use crate::hub::Hub;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
pub(crate) struct WsQuery {
    #[serde(default)]
    token: Option<String>,
    /// `legal=true`: state messages carry the seat's legal actions.
    #[serde(default)]
    legal: Option<String>,
}

pub(crate) async fn upgrade(
    State(hub): State<Hub>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let stub = hub.stub(&id).await?;
    let connected = stub
        .ask(|reply| Msg::Connect {
            token: q.token,
            legal: matches!(q.legal.as_deref(), Some("true" | "1" | "yes")),
            reply,
        })
        .await??;
    let max = hub.settings().max_message;
    // Accept frames somewhat over the limit so that the client gets a clear
    // `too_large` instead of a dropped connection; far larger ones close it.
    // Small buffers: a client's messages are a few hundred bytes (a larger
    // one grows the buffer as it comes), and the read buffer is zeroed to
    // its whole size on the first read, so ten thousand connections with
    // the default 128 KiB each (or even 8 KiB) would cost memory for nothing.
    Ok(ws
        .read_buffer_size(2 * 1024)
        // Frames wait in the codec until the writer flushes (after each
        // burst: an ack and the state after it go out in one system
        // call); with 0 each frame was a `send` of its own.
        .write_buffer_size(64 * 1024)
        .max_message_size(max * 8)
        .max_frame_size(max * 8)
        .on_upgrade(move |socket| run(socket, hub, stub, connected, max)))
}

fn error_text(reference: Value, e: &ApiError) -> Utf8Bytes {
    error_json(reference, e).to_string().into()
}

/// A refusal as a WebSocket message: `{"type": "error", "ref", "code", "message", "kind"?}`.
pub(crate) fn error_json(reference: Value, e: &ApiError) -> Value {
    let mut v = e.fields();
    v["type"] = json!("error");
    v["ref"] = reference;
    v
}

async fn run(socket: WebSocket, hub: Hub, stub: GameStub, connected: Connected, max: usize) {
    let Connected {
        conn,
        mut out,
        own,
        spectator,
    } = connected;
    let mut bucket = crate::limits::ConnLimit::new(hub.settings().rate_conn);
    let chat_bucket = crate::limits::ChatLimit::new(hub.settings().rate_chat);
    let metered = hub.settings().rate_limits;
    let (mut sink, mut stream) = socket.split();
    // What the connection answers by itself goes into the game's queue
    // for it, behind what the game sent before; if the game has let go of
    // the connection (too slow, or the game left memory) it is dropped.
    let local = |text: Utf8Bytes| {
        if let Some(tx) = own.upgrade() {
            let _ = tx.try_send(text);
        }
    };
    let shutdown = hub.shutdown_signal();
    let assists = std::sync::Arc::new(tokio::sync::Semaphore::new(2));

    let settings = hub.settings();
    let limit = settings.write_timeout;
    // Pings keep NATs open and prove the client is there: whatever it
    // sends (its pong included) counts, and after `idle` of silence the
    // connection is closed, so its seat turns absent.
    let ping_every = settings.ws_ping;
    let idle = settings.ws_idle_timeout;
    let writer = async {
        let mut ping =
            tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = ping.tick() => {
                    let sent = sink.send(Message::Ping(axum::body::Bytes::new()));
                    match tokio::time::timeout(limit, sent).await {
                        Ok(Ok(())) => {}
                        _ => break,
                    }
                }
                m = out.recv() => match m {
                    Some(text) => {
                        // Write everything already queued, then flush once:
                        // one system call for an ack and the state after it.
                        // A client that does not read for `limit` is dropped:
                        // the socket closes and the game never waits for it.
                        let burst = async {
                            sink.feed(Message::Text(text)).await?;
                            while let Ok(more) = out.try_recv() {
                                sink.feed(Message::Text(more)).await?;
                            }
                            sink.flush().await
                        };
                        match tokio::time::timeout(limit, burst).await {
                            Ok(Ok(())) => {}
                            _ => break,
                        }
                    }
                    None => {
                        let (code, reason) = if *shutdown.borrow() {
                            (1012, "server restarting")
                        } else {
                            (1008, "too slow")
                        };
                        let _ = sink
                            .send(Message::Close(Some(CloseFrame { code, reason: reason.into() })))
                            .await;
                        break;
                    }
                },
            }
        }
    };

    let mut flooded = false;
    let reader = async {
        let silence = tokio::time::sleep(idle);
        tokio::pin!(silence);
        loop {
            let msg = tokio::select! {
                m = stream.next() => match m {
                    Some(Ok(m)) => m,
                    _ => break,
                },
                _ = silence.as_mut() => break,
            };
            silence.as_mut().reset(tokio::time::Instant::now() + idle);
            if matches!(msg, Message::Close(_)) {
                break;
            }
            // Every message draws on the connection's bucket before it is
            // read, so a flood costs the server no more than its refusals;
            // a client that never slows down is cut off. (Its pongs, the
            // answers to the server's pings, are not counted.)
            if metered && !matches!(msg, Message::Pong(_)) {
                match bucket.check() {
                    Ok(()) => {}
                    Err(Some(e)) => {
                        local(error_text(Value::Null, &e));
                        continue;
                    }
                    Err(None) => {
                        flooded = true;
                        break;
                    }
                }
            }
            let text = match msg {
                Message::Text(t) => t,
                Message::Binary(_) => {
                    let e = ApiError::bad_json("send JSON text messages, not binary ones");
                    local(error_text(Value::Null, &e));
                    continue;
                }
                Message::Close(_) => break,
                _ => continue,
            };
            if text.len() > max {
                let e = ApiError::new(
                    "too_large",
                    format!(
                        "messages are at most {max} bytes; this one has {}",
                        text.len()
                    ),
                );
                local(error_text(Value::Null, &e));
                continue;
            }
            let value: Value = match serde_json::from_str(text.as_str()) {
                Ok(v) => v,
                Err(e) => {
                    let e = ApiError::bad_json(format!("not JSON: {e}"));
                    local(error_text(Value::Null, &e));
                    continue;
                }
            };
            let reference = value.get("ref").cloned().unwrap_or(Value::Null);
            let kind = value.get("type").and_then(Value::as_str);
            if spectator && matches!(kind, Some("act" | "claim-win")) {
                // Refused here: a spectator's message never takes a place
                // in the game's queue.
                let e = ApiError::new("spectator", "spectators cannot act: join with a seat token");
                local(error_text(reference, &e));
                continue;
            }
            let result = match kind {
                Some("act") => match value.get("action") {
                    Some(action) => stub.send(Msg::Act {
                        who: Who::Conn(conn),
                        action: action.clone(),
                        reply: ActReply::Conn {
                            conn,
                            reference: reference.clone(),
                        },
                    }),
                    None => Err(ApiError::bad_json("act: the message has no \"action\"")),
                },
                Some("assist") => {
                    // Answered off the game's task; at most two at once per
                    // connection, so one client cannot fill the helper's queue.
                    match assists.clone().try_acquire_owned() {
                        Ok(permit) => {
                            let (hub, stub, own) = (hub.clone(), stub.clone(), own.clone());
                            let request = value.get("request").cloned().unwrap_or(Value::Null);
                            let reference = reference.clone();
                            tokio::spawn(async move {
                                let r =
                                    crate::assist::assist(&hub, &stub, Who::Conn(conn), request)
                                        .await;
                                drop(permit);
                                let text = match r {
                                    Ok(answer) => json!({"type": "assist", "ref": reference, "answer": answer})
                                        .to_string()
                                        .into(),
                                    Err(e) => error_text(reference, &e),
                                };
                                if let Some(tx) = own.upgrade() {
                                    let _ = tx.send(text).await;
                                }
                            });
                            Ok(())
                        }
                        Err(_) => Err(ApiError::new(
                            "busy",
                            "two helper requests are already under way on this connection",
                        )),
                    }
                }
                Some("claim-win") => stub.send(Msg::ClaimWin {
                    who: Who::Conn(conn),
                    reply: ActReply::Conn {
                        conn,
                        reference: reference.clone(),
                    },
                }),
                Some("chat") => {
                    // Metered and checked here, before the game's queue:
                    // a refused line costs the game nothing.
                    let checked = if metered { chat_bucket.check() } else { Ok(()) };
                    match checked.and_then(|()| crate::chat::parse(&value)) {
                        Ok(request) => stub.send(Msg::Chat { conn, request }),
                        Err(e) => Err(e),
                    }
                }
                Some("sync") => stub.send(Msg::Sync { conn }),
                Some("ping") => {
                    local(json!({"type": "pong", "ref": reference}).to_string().into());
                    Ok(())
                }
                Some(other) => Err(ApiError::bad_json(format!(
                    "unknown message type {other:?}: use act, claim-win, assist, chat, sync or ping"
                ))),
                None => Err(ApiError::bad_json(
                    "the message has no \"type\": use act, claim-win, assist, chat, sync or ping",
                )),
            };
            if let Err(e) = result {
                local(error_text(reference, &e));
            }
        }
    };

    tokio::select! {
        _ = writer => {}
        _ = reader => {}
    }
    if flooded {
        // Say why before closing: what was queued, then a policy close.
        let goodbye = async {
            while let Ok(text) = out.try_recv() {
                sink.feed(Message::Text(text)).await?;
            }
            sink.send(Message::Close(Some(CloseFrame {
                code: 1008,
                reason: "too many messages: this connection kept sending past its limit".into(),
            })))
            .await
        };
        if let Ok(Ok(())) = tokio::time::timeout(limit, goodbye).await {
            // Finish the closing handshake, discarding what is still on
            // the way: closing with unread data would reset the
            // connection and lose the explanation.
            let drain = async {
                while let Some(Ok(m)) = stream.next().await {
                    if matches!(m, Message::Close(_)) {
                        break;
                    }
                }
            };
            let _ = tokio::time::timeout(std::time::Duration::from_secs(2), drain).await;
        }
    }
    // Tell the game the seat left; wait for room rather than lose it.
    let _ = stub.send_wait(Msg::Disconnect { conn }).await;
}
