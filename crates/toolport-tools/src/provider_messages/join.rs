//! [`join_all`]: futures run side by side on the caller's task, their outputs in their order.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::task::Poll;

/// A future of one call's answer, boxed so that futures of different calls fit one list.
pub(super) type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Runs `futures` side by side, each polled whenever the task wakes, and gives their outputs
/// in the order of `futures`, whichever finished first.
pub(super) async fn join_all<T>(futures: Vec<Boxed<'_, T>>) -> Vec<T> {
    let mut pending: Vec<Option<Boxed<'_, T>>> = futures.into_iter().map(Some).collect();
    let mut outputs: Vec<Option<T>> = pending.iter().map(|_| None).collect();
    poll_fn(|cx| {
        for (slot, output) in pending.iter_mut().zip(&mut outputs) {
            if let Some(future) = slot
                && let Poll::Ready(value) = future.as_mut().poll(cx)
            {
                *output = Some(value);
                *slot = None;
            }
        }
        if pending.iter().all(Option::is_none) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use tokio::sync::oneshot;

    use super::*;

    #[tokio::test]
    async fn outputs_keep_their_order_when_the_last_finishes_first() {
        let (first_may_end, wait) = oneshot::channel::<()>();
        let first: Boxed<'_, &str> = Box::pin(async move {
            wait.await.unwrap();
            "first"
        });
        let second: Boxed<'_, &str> = Box::pin(async move {
            first_may_end.send(()).unwrap();
            "second"
        });
        assert_eq!(join_all(vec![first, second]).await, ["first", "second"]);
    }

    #[tokio::test]
    async fn no_futures_give_no_outputs() {
        assert!(join_all::<()>(Vec::new()).await.is_empty());
    }
}
