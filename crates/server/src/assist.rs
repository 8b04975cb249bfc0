//! The game's own helper (`Game::assist`: Word Sprout's "what could have
//! been played?"), for a seat or a spectator.
//!
//! The helper may be heavy (its first use builds a word-list index; a
//! solved answer needs the game's solution), so it never runs on the
//! game's actor: the actor only hands out a snapshot (the viewer and the
//! record), and the game is rebuilt and asked on a blocking thread, within
//! the server's `assist_think` budget and cancelled if its client goes
//! away. Helper answers and bot decisions share one pool of `bot_threads`
//! permits (one less than the cores), so a core is always left for
//! people's actions; [`ASSIST_QUEUE`] requests are admitted (running or
//! waiting), beyond that the answer is `busy`.

use crate::actor::{GameStub, Msg, Who};
use crate::error::ApiError;
use crate::hub::{Hub, ASSIST_QUEUE};
use serde_json::{json, Value};

/// Asks the game's helper; the answer is the game's own JSON.
pub(crate) async fn assist(
    hub: &Hub,
    stub: &GameStub,
    who: Who,
    request: Value,
) -> Result<Value, ApiError> {
    let request = match request {
        Value::Null => json!({}),
        Value::Object(_) => request,
        _ => {
            return Err(ApiError::bad_json(
                "request: the helper request is a JSON object (Word Sprout: {\"string\": \"omat\", \"solve\": false})",
            ))
        }
    };
    let Ok(admitted) = hub.assist_queue().try_acquire_owned() else {
        return Err(ApiError::new(
            "busy",
            format!("the helper is answering {ASSIST_QUEUE} requests; try again in a moment"),
        ));
    };
    let (viewer, record, resources) = stub.ask(|reply| Msg::Assist { who, reply }).await??;
    let permit = hub
        .think_slots()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::gone())?;
    let hub2 = hub.clone();
    // Dropped with this future (the client went away, the server stops):
    // the helper is told to stop, so an abandoned request frees its slot.
    let cancel = parlor_core::Cancel::new();
    let _stop = CancelOnDrop(cancel.clone());
    let budget = parlor_core::Budget::time(hub.settings().assist_think).with_cancel(cancel);
    let job = move || {
        let m = hub2
            .registry()
            .replay(&record, &resources)
            .map_err(|e| ApiError::new("internal", format!("the game cannot be rebuilt: {e}")))?;
        match m.assist_json(viewer, &request, &budget) {
            None => Err(ApiError::new(
                "no_helper",
                format!("{} has no helper", m.info().title),
            )),
            Some(Err(message)) => Err(ApiError::new("helper_refused", message)),
            Some(Ok(answer)) => Ok(answer),
        }
    };
    let result = tokio::task::spawn_blocking(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
            .unwrap_or_else(|_| Err(ApiError::new("internal", "the game's helper panicked")));
        drop(permit);
        drop(admitted);
        r
    })
    .await
    .map_err(|e| ApiError::new("internal", e.to_string()))?;
    result
}

/// Raises its flag when dropped.
struct CancelOnDrop(parlor_core::Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}
