//! Walking an error's source chain: finding a marker in it, and saying it in one line.

/// `error` and then each of its sources, outermost first.
pub(crate) fn sources<'a>(
    error: &'a (dyn std::error::Error + 'static),
) -> impl Iterator<Item = &'a (dyn std::error::Error + 'static)> {
    std::iter::successors(Some(error), |error| error.source())
}

/// `error: source: source...` in one line, each cause said once: a source whose text its
/// parent already shows is skipped, since many errors quote their cause in their own message.
///
/// # Examples
///
/// ```
/// use toolport_core::{NotDelivered, error_chain};
///
/// let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "connection refused");
/// let error = NotDelivered::because(refused);
/// assert_eq!(error_chain(&error), "the message was not delivered: connection refused");
/// ```
pub fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    for source in sources(error).skip(1) {
        let part = source.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
    }
    text
}
