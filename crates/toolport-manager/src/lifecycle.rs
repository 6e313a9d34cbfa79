//! Starting and stopping one server: [`Shared`]'s `start_slot` and `stop_slot` move its
//! state, holding no lock across either, and the [`Launcher`](crate::launcher::Launcher)
//! makes its toolset.

use std::sync::Arc;

use crate::shared::Shared;
use crate::slot::Slot;
use crate::{ManagerError, ManagerEventKind, ServerStatus};

impl Shared {
    /// Starts the server in `slot`, unless it runs already. Only this server's own later
    /// operations (a stop, a newer start) can call it off; nothing else waits for it.
    pub(crate) async fn start_slot(&self, slot: &Arc<Slot>) -> Result<(), ManagerError> {
        let id = slot.id.to_string();
        if self.is_shut_down() {
            return Err(ManagerError::ShutDown);
        }
        let (generation, stop, config) = {
            let mut state = slot.lock();
            if state.config.disabled {
                return Err(ManagerError::Disabled(id));
            }
            if state.toolset.is_some() {
                return Ok(());
            }
            let (generation, stop) = state.next_generation();
            state.status = ServerStatus::Starting;
            (generation, stop, state.config.clone())
        };
        self.emit(&id, ManagerEventKind::Starting);
        let launched = tokio::select! {
            biased;
            () = stop.cancelled() => Err(ManagerError::Interrupted(id.clone())),
            // Boxed: the handshake's state is large, and the start's task (moved as it is
            // spawned, polled and read) should not carry it inline.
            launched = Box::pin(self.launcher.launch(&id, &config)) => launched,
        };
        let toolset = match launched {
            Ok(toolset) => toolset,
            Err(ManagerError::Interrupted(id)) => return Err(ManagerError::Interrupted(id)),
            Err(error) => {
                let status = ServerStatus::Failed {
                    error: error.to_string(),
                };
                if slot.set_status_if(generation, status) {
                    let error = error.to_string();
                    self.emit(&id, ManagerEventKind::StartFailed { error });
                }
                return Err(error);
            }
        };
        let installed = {
            let mut state = slot.lock();
            let current = state.generation == generation;
            if current {
                state.toolset = Some(Arc::clone(&toolset));
                state.status = ServerStatus::Running;
            }
            current
        };
        if !installed {
            self.launcher.close(&id, &toolset).await;
            return Err(ManagerError::Interrupted(id));
        }
        self.emit(&id, ManagerEventKind::Running);
        self.supervise(Arc::clone(slot), toolset, generation, stop, config.restart);
        Ok(())
    }

    /// Stops the server in `slot`: calls off a start under way and its supervision, and closes
    /// its toolset within the grace period.
    pub(crate) async fn stop_slot(&self, slot: &Slot) {
        let (toolset, was_up) = {
            let mut state = slot.lock();
            let was_up = matches!(
                state.status,
                ServerStatus::Starting | ServerStatus::Running | ServerStatus::Restarting { .. }
            );
            state.next_generation();
            state.status = state.resting_status();
            (state.toolset.take(), was_up)
        };
        if was_up {
            self.emit(&slot.id, ManagerEventKind::Stopped);
        }
        if let Some(toolset) = toolset {
            self.launcher.close(&slot.id, &toolset).await;
        }
    }
}
