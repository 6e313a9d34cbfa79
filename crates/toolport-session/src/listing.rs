//! A whole listing (every page) with the cache hints its server gave: the `ttlMs` and
//! `cacheScope` of 2026-07-28, which a cache of the listing honours.

use std::time::Duration;

use rmcp::model::{CacheScope, Cursor};

/// What a server said about caching a listing: how long it stays fresh, and whether it is the
/// same for every caller. A 2025-11-25 server says nothing, which reads as
/// `CacheHints::default()`: no freshness promised, and the caller's own.
///
/// A listing of several pages takes the shortest freshness of its pages, and is shared only if
/// every page said `public`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CacheHints {
    /// `ttlMs`: how long the listing may be served from a cache, counted from when it was
    /// asked for. `None` when a page gave none. A negative `ttlMs` reads as zero.
    pub ttl: Option<Duration>,
    /// `cacheScope: "public"` on every page: the listing holds nothing of the caller's, and a
    /// cache may hand it to any caller. Otherwise (`private`, or no scope given) it is the
    /// caller's own and is never shared across identities.
    pub public: bool,
}

impl CacheHints {
    /// The hints of one page, as the server sent them.
    pub(crate) fn of_page(ttl_ms: Option<u64>, scope: Option<CacheScope>) -> Self {
        Self {
            ttl: ttl_ms.map(Duration::from_millis),
            public: scope == Some(CacheScope::Public),
        }
    }

    /// The hints of a listing made of the pages of `self` and then `later`.
    fn and_then(self, later: Self) -> Self {
        Self {
            // `None` orders first: a page without a ttl leaves the listing without one.
            ttl: self.ttl.min(later.ttl),
            public: self.public && later.public,
        }
    }
}

/// Every item of a listing, all pages, and the hints for caching it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Listing<T> {
    /// The items, in the server's order.
    pub items: Vec<T>,
    /// What the server said about caching them.
    pub hints: CacheHints,
}

impl<T> Listing<T> {
    /// A listing of `items` with no cache hints, as a 2025-11-25 server gives it: for a server
    /// that does not publish the kind listed (no items), or a fake session's listing.
    pub fn new(items: Vec<T>) -> Self {
        Self {
            items,
            hints: CacheHints::default(),
        }
    }
}

/// One page of a listing: its items, the cursor of the next page if there is one, and its
/// cache hints.
#[derive(Debug)]
pub(crate) struct Page<T> {
    pub(crate) items: Vec<T>,
    pub(crate) next: Option<Cursor>,
    pub(crate) hints: CacheHints,
}

/// A listing being read page by page.
#[derive(Debug)]
pub(crate) struct PagesRead<T> {
    items: Vec<T>,
    hints: Option<CacheHints>,
}

impl<T> PagesRead<T> {
    /// Nothing read yet.
    pub(crate) fn new() -> Self {
        Self {
            items: Vec::new(),
            hints: None,
        }
    }

    /// Adds `page`, and gives the cursor of the next one, if any.
    pub(crate) fn add(&mut self, page: Page<T>) -> Option<Cursor> {
        self.items.extend(page.items);
        self.hints = Some(match self.hints {
            Some(earlier) => earlier.and_then(page.hints),
            None => page.hints,
        });
        page.next
    }

    /// The listing of every page added.
    pub(crate) fn finish(self) -> Listing<T> {
        Listing {
            items: self.items,
            hints: self.hints.unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(ttl_ms: Option<u64>, scope: Option<CacheScope>) -> Page<u8> {
        Page {
            items: vec![1],
            next: None,
            hints: CacheHints::of_page(ttl_ms, scope),
        }
    }

    fn read(pages: Vec<Page<u8>>) -> CacheHints {
        let mut read = PagesRead::new();
        for page in pages {
            read.add(page);
        }
        read.finish().hints
    }

    #[test]
    fn a_listing_is_as_fresh_as_its_stalest_page_and_public_only_if_every_page_is() {
        let public = Some(CacheScope::Public);
        let hints = read(vec![page(Some(5_000), public), page(Some(2_000), public)]);
        assert_eq!(hints.ttl, Some(Duration::from_secs(2)));
        assert!(hints.public);

        let hints = read(vec![
            page(Some(5_000), public),
            page(Some(9_000), Some(CacheScope::Private)),
        ]);
        assert_eq!(hints.ttl, Some(Duration::from_secs(5)));
        assert!(!hints.public, "one private page makes the listing private");

        let hints = read(vec![page(Some(5_000), public), page(None, None)]);
        assert_eq!(
            hints,
            CacheHints::default(),
            "a page without hints leaves none"
        );
    }

    #[test]
    fn an_older_servers_listing_has_no_hints() {
        assert_eq!(read(vec![page(None, None)]), CacheHints::default());
        assert_eq!(read(Vec::new()), CacheHints::default());
    }
}
