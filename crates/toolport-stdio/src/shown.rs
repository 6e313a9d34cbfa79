//! [`Shown`]: one value of a server's command line, and the text shown in its place.

use std::borrow::Cow;
use std::ffi::OsStr;

/// A value the child is started with (its program, an argument, its working directory), and
/// the text that targets, log lines, errors and `Debug` output show for it: the value itself,
/// or a text the caller chose, such as the value as written before `${VAR}` expansion.
#[derive(Clone)]
pub(crate) struct Shown<T> {
    /// What the child is started with.
    pub(crate) value: T,
    /// The text shown in the value's place, if not the value itself.
    text: Option<String>,
}

impl<T: AsRef<OsStr>> Shown<T> {
    /// `value`, shown as it is.
    pub(crate) fn plain(value: T) -> Self {
        Self { value, text: None }
    }

    /// `value`, shown as `text`.
    pub(crate) fn with_text(value: T, text: String) -> Self {
        Self {
            value,
            text: Some(text),
        }
    }

    /// Shows the value as `text` from now on.
    pub(crate) fn set_text(&mut self, text: String) {
        self.text = Some(text);
    }

    /// The text shown for the value.
    pub(crate) fn text(&self) -> Cow<'_, str> {
        match &self.text {
            Some(text) => Cow::Borrowed(text),
            None => self.value.as_ref().to_string_lossy(),
        }
    }
}
