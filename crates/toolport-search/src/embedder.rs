//! [`Embedder`]: the seam for ranking by meaning with an embedding model of the user's own.

use std::fmt;

/// Why an [`Embedder`] could not embed.
pub type EmbedError = Box<dyn std::error::Error + Send + Sync>;

/// An embedding model: a provider's embeddings API, or a local model loaded from a file.
/// Given one, tool search ranks by meaning as well as by words (hybrid ranking): each tool's
/// name, title, description and parameter names are embedded once, when the tool is first
/// indexed or its text changes, and each query when it is searched; the two rankings are fused
/// by reciprocal rank.
///
/// Nothing is downloaded: the model is yours. When `embed` fails, the search ranks by words
/// alone and logs the error.
///
/// ```
/// use toolport_search::{EmbedError, Embedder};
///
/// /// Each text as how often it has each letter: a stand-in for a real model.
/// #[derive(Debug)]
/// struct Letters;
///
/// #[async_trait::async_trait]
/// impl Embedder for Letters {
///     async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
///         Ok(texts
///             .iter()
///             .map(|text| {
///                 let mut counts = vec![0.0; 26];
///                 for byte in text.to_ascii_lowercase().bytes().filter(u8::is_ascii_lowercase) {
///                     counts[usize::from(byte - b'a')] += 1.0;
///                 }
///                 counts
///             })
///             .collect())
///     }
/// }
/// ```
#[async_trait::async_trait]
pub trait Embedder: Send + Sync + fmt::Debug {
    /// One vector per text, in the order given; all of one length.
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

#[async_trait::async_trait]
impl<E: Embedder + ?Sized> Embedder for std::sync::Arc<E> {
    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        (**self).embed(texts).await
    }
}
