//! [`Shared`]: what a fault host keeps across restarts: its behaviour, whether the fault has
//! struck, what it counted, and what the id faults need to remember.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use serde_json::Value;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::behaviour::FaultBehaviour;

/// The state of one host, shared by every generation (a restart keeps it).
#[derive(Debug)]
pub(super) struct Shared {
    behaviour: FaultBehaviour,
    struck: AtomicBool,
    /// Whether Streamable HTTP answers come as an event stream rather than a JSON body.
    answers_in_streams: AtomicBool,
    executions: AtomicUsize,
    initializations: AtomicUsize,
    cancellations: AtomicUsize,
    /// The id of the request answered last, for [`FaultBehaviour::StaleId`].
    last_answered: Mutex<Option<Value>>,
    /// The first call of a swap, waiting for the second: its id, and where to send the second's.
    swap: Mutex<Option<(Value, oneshot::Sender<Value>)>>,
    /// Slow answers, by request id (as JSON text), each sped up when its call is cancelled.
    slow: Mutex<HashMap<String, CancellationToken>>,
}

impl Shared {
    pub(super) fn new(behaviour: FaultBehaviour) -> Self {
        Self {
            behaviour,
            struck: AtomicBool::new(false),
            answers_in_streams: AtomicBool::new(false),
            executions: AtomicUsize::new(0),
            initializations: AtomicUsize::new(0),
            cancellations: AtomicUsize::new(0),
            last_answered: Mutex::new(None),
            swap: Mutex::new(None),
            slow: Mutex::new(HashMap::new()),
        }
    }

    /// The fault, if it concerns this moment (`applies`) and has not struck yet; it strikes now.
    pub(super) fn strike(&self, applies: fn(FaultBehaviour) -> bool) -> Option<FaultBehaviour> {
        if !applies(self.behaviour) || self.struck.swap(true, Ordering::AcqRel) {
            return None;
        }
        Some(self.behaviour)
    }

    pub(super) fn answers_in_streams(&self) -> bool {
        self.answers_in_streams.load(Ordering::Acquire)
    }

    pub(super) fn answer_in_streams(&self) {
        self.answers_in_streams.store(true, Ordering::Release);
    }

    pub(super) fn executions(&self) -> usize {
        self.executions.load(Ordering::Acquire)
    }

    pub(super) fn count_execution(&self) {
        self.executions.fetch_add(1, Ordering::AcqRel);
    }

    pub(super) fn initializations(&self) -> usize {
        self.initializations.load(Ordering::Acquire)
    }

    pub(super) fn count_initialization(&self) {
        self.initializations.fetch_add(1, Ordering::AcqRel);
    }

    pub(super) fn cancellations(&self) -> usize {
        self.cancellations.load(Ordering::Acquire)
    }

    /// The client cancelled request `id`: counted, and its slow answer, if any, sped up.
    pub(super) fn note_cancelled(&self, id: Option<&Value>) {
        self.cancellations.fetch_add(1, Ordering::AcqRel);
        if let Some(id) = id
            && let Some(token) = lock(&self.slow).remove(&id.to_string())
        {
            token.cancel();
        }
    }

    /// A token cancelled when the client cancels request `id`.
    pub(super) fn slow_answer(&self, id: &Value) -> CancellationToken {
        let token = CancellationToken::new();
        lock(&self.slow).insert(id.to_string(), token.clone());
        token
    }

    pub(super) fn note_answered(&self, id: &Value) {
        *lock(&self.last_answered) = Some(id.clone());
    }

    pub(super) fn last_answered(&self) -> Option<Value> {
        lock(&self.last_answered).clone()
    }

    /// The part the call `id` plays in [`FaultBehaviour::SwappedIds`], if any: the second
    /// call, while the first waits, or the first, when the fault strikes now. Decided under
    /// one lock, so that two calls arriving together cannot both miss each other.
    pub(super) fn swap(&self, id: &Value) -> Option<Swap> {
        let mut slot = lock(&self.swap);
        if let Some((first, sender)) = slot.take()
            && sender.send(id.clone()).is_ok()
        {
            return Some(Swap::Second { first });
        }
        self.strike(|behaviour| behaviour == FaultBehaviour::SwappedIds)?;
        let (sender, receiver) = oneshot::channel();
        *slot = Some((id.clone(), sender));
        Some(Swap::First { second: receiver })
    }

    /// The first call of a swap gave up waiting.
    pub(super) fn stop_waiting(&self) {
        lock(&self.swap).take();
    }
}

/// A call's part in a swap of ids.
#[derive(Debug)]
pub(super) enum Swap {
    /// The first call: it waits for the second's id, to answer under it.
    First { second: oneshot::Receiver<Value> },
    /// The second call: it answers under the id of the first, which waits.
    Second { first: Value },
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
