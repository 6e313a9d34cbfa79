//! [`SchemaCache`]: one adapter's results, cached by a hash of the schema's content, so that a
//! tool list served again adapts nothing again.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher, RandomState};
use std::io;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::Value;

use super::SchemaAdapter;
use super::bounds::SchemaTooDeep;
use super::change::AdaptedSchema;
use crate::ToolDeclaration;

/// The most schemas one cache holds; when full it starts again empty. A server lists tens of
/// tools, so only a server that changes its schemas endlessly reaches it.
const CAPACITY: usize = 4096;

/// What adapting a schema gave.
type Adapted = Result<Arc<AdaptedSchema>, SchemaTooDeep>;

/// Adapted schemas by content hash; a bucket holds the schemas whose hashes are equal.
type Buckets = HashMap<u64, Vec<(Value, Adapted)>>;

/// A tool's function declaration in one provider's format, with the adapted schema inside it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FunctionDeclaration {
    /// The JSON to put in the provider's tool list.
    pub json: Value,
    /// The adapted input schema and what the adapter changed in it.
    pub adapted: Arc<AdaptedSchema>,
}

/// Runs an adapter on each distinct schema once.
///
/// Schemas are keyed by a hash of their content (their serialized JSON) and compared whole on a
/// hit, so two tools with the same schema share one result and a changed schema is adapted
/// afresh. The server's schema is only read.
///
/// ```
/// use std::sync::Arc;
/// use serde_json::json;
/// use toolport_providers::schema::{GeminiAdapter, SchemaCache};
///
/// let cache = SchemaCache::new(Arc::new(GeminiAdapter::new()));
/// let schema = json!({"type": "object", "properties": {"id": {"type": "string"}}});
/// let first = cache.adapt(&schema)?;
/// let second = cache.adapt(&schema.clone())?;
/// assert!(Arc::ptr_eq(&first, &second));
/// # Ok::<(), toolport_providers::schema::SchemaTooDeep>(())
/// ```
#[derive(Debug)]
pub struct SchemaCache {
    adapter: Arc<dyn SchemaAdapter>,
    hasher: RandomState,
    entries: Mutex<Buckets>,
}

impl SchemaCache {
    /// An empty cache for `adapter`.
    pub fn new(adapter: Arc<dyn SchemaAdapter>) -> Self {
        Self {
            adapter,
            hasher: RandomState::new(),
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The adapter whose results this caches.
    pub fn adapter(&self) -> &Arc<dyn SchemaAdapter> {
        &self.adapter
    }

    /// `schema` adapted, from the cache when the same schema was adapted before.
    ///
    /// # Errors
    ///
    /// The adapter's, when it refuses the schema (see [`SchemaAdapter::adapt`]).
    pub fn adapt(&self, schema: &Value) -> Adapted {
        let key = self.content_hash(schema);
        let cached = self
            .lock()
            .get(&key)
            .and_then(|bucket| bucket.iter().find(|(seen, _)| seen == schema))
            .map(|(_, adapted)| adapted.clone());
        if let Some(adapted) = cached {
            return adapted;
        }
        // Adapting runs without the lock: two callers may both adapt a new schema, and the
        // second result stored is the same as the first.
        let adapted = self.adapter.adapt(schema).map(Arc::new);
        let mut entries = self.lock();
        if entries.values().map(Vec::len).sum::<usize>() >= CAPACITY {
            entries.clear();
        }
        entries
            .entry(key)
            .or_default()
            .push((schema.clone(), adapted.clone()));
        adapted
    }

    /// The provider's function declaration for `declaration`, its parameters adapted.
    ///
    /// # Errors
    ///
    /// The adapter's, naming the tool, when it refuses the tool's schema.
    pub fn declaration(
        &self,
        declaration: &ToolDeclaration,
    ) -> Result<FunctionDeclaration, SchemaTooDeep> {
        let adapted = self
            .adapt(&declaration.parameters)
            .map_err(|error| error.for_tool(&declaration.name))?;
        let json = self.adapter.function_declaration(
            &declaration.name,
            &declaration.description,
            &adapted,
        );
        Ok(FunctionDeclaration { json, adapted })
    }

    /// How many schemas the cache holds.
    pub fn len(&self) -> usize {
        self.lock().values().map(Vec::len).sum()
    }

    /// Whether the cache holds no schema.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, Buckets> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn content_hash(&self, schema: &Value) -> u64 {
        let mut writer = HashWriter(self.hasher.build_hasher());
        // Writing into a hasher cannot fail, and a `Value` always serializes.
        let _ = serde_json::to_writer(&mut writer, schema);
        writer.0.finish()
    }
}

/// Feeds serialized bytes to a hasher, so that hashing a schema allocates nothing.
struct HashWriter<H>(H);

impl<H: Hasher> io::Write for HashWriter<H> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.write(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
