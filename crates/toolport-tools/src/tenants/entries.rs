//! [`Entries`]: the cache's slots by tenant, in the order they were last used, so that the
//! least recently used and the idle ones are found from the front without a scan.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::OnceCell;
use tokio::time::Instant;

use super::TenantId;
use super::lease::Live;

/// A tenant's place in the cache: empty while its toolset is being built.
pub(super) type Slot = Arc<OnceCell<Live>>;

/// One tenant's slot and when it was last used.
#[derive(Debug)]
struct Entry {
    slot: Slot,
    /// The position in [`Entries::by_age`]; a later use has a larger one.
    tick: u64,
    used: Instant,
}

/// The slots, by tenant and by age. Always used under the cache's lock, never across an await.
#[derive(Debug, Default)]
pub(super) struct Entries {
    by_tenant: HashMap<TenantId, Entry>,
    by_age: BTreeMap<u64, TenantId>,
    next_tick: u64,
}

impl Entries {
    /// How many tenants have a slot, built or being built.
    pub(super) fn len(&self) -> usize {
        self.by_tenant.len()
    }

    /// `tenant`'s slot, now the most recently used; a new, empty one if it had none.
    pub(super) fn touch(&mut self, tenant: &TenantId, now: Instant) -> Slot {
        let tick = self.tick();
        if let Some(entry) = self.by_tenant.get_mut(tenant) {
            self.by_age.remove(&entry.tick);
            entry.tick = tick;
            entry.used = now;
            self.by_age.insert(tick, tenant.clone());
            return Arc::clone(&entry.slot);
        }
        let slot = Slot::default();
        self.insert_at(tenant, Arc::clone(&slot), tick, now);
        slot
    }

    /// Puts `slot` in `tenant`'s place, as the most recently used; returns the slot it
    /// replaces.
    pub(super) fn replace(&mut self, tenant: &TenantId, slot: Slot, now: Instant) -> Option<Slot> {
        let old = self.remove(tenant);
        let tick = self.tick();
        self.insert_at(tenant, slot, tick, now);
        old
    }

    /// Takes `tenant`'s slot out.
    pub(super) fn remove(&mut self, tenant: &TenantId) -> Option<Slot> {
        let entry = self.by_tenant.remove(tenant)?;
        self.by_age.remove(&entry.tick);
        Some(entry.slot)
    }

    /// Whether `slot` is `tenant`'s slot now.
    pub(super) fn is_current(&self, tenant: &TenantId, slot: &Slot) -> bool {
        self.by_tenant
            .get(tenant)
            .is_some_and(|entry| Arc::ptr_eq(&entry.slot, slot))
    }

    /// Takes out the slots unused for `idle` or longer, then the least recently used ones
    /// past `capacity`.
    pub(super) fn evict(
        &mut self,
        now: Instant,
        idle: Option<Duration>,
        capacity: usize,
    ) -> Vec<(TenantId, Slot)> {
        let mut evicted = Vec::new();
        while let Some(tenant) = self.oldest() {
            let used = self.by_tenant[&tenant].used;
            let expired = idle.is_some_and(|idle| now.saturating_duration_since(used) >= idle);
            if !expired && self.len() <= capacity {
                break;
            }
            if let Some(slot) = self.remove(&tenant) {
                evicted.push((tenant, slot));
            }
        }
        evicted
    }

    /// Takes every slot out.
    pub(super) fn drain(&mut self) -> Vec<(TenantId, Slot)> {
        self.by_age.clear();
        self.by_tenant
            .drain()
            .map(|(tenant, entry)| (tenant, entry.slot))
            .collect()
    }

    fn oldest(&self) -> Option<TenantId> {
        self.by_age
            .first_key_value()
            .map(|(_, tenant)| tenant.clone())
    }

    fn insert_at(&mut self, tenant: &TenantId, slot: Slot, tick: u64, used: Instant) {
        self.by_age.insert(tick, tenant.clone());
        self.by_tenant
            .insert(tenant.clone(), Entry { slot, tick, used });
    }

    fn tick(&mut self) -> u64 {
        self.next_tick += 1;
        self.next_tick
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tenants(evicted: &[(TenantId, Slot)]) -> Vec<&str> {
        evicted.iter().map(|(tenant, _)| tenant.as_str()).collect()
    }

    #[test]
    fn the_least_recently_used_go_first_past_the_capacity() {
        let now = Instant::now();
        let mut entries = Entries::default();
        for name in ["a", "b", "c"] {
            entries.touch(&name.into(), now);
        }
        entries.touch(&"a".into(), now);
        let evicted = entries.evict(now, None, 1);
        assert_eq!(tenants(&evicted), ["b", "c"]);
        assert_eq!(entries.len(), 1);
    }

    #[test]
    fn idle_slots_go_and_recently_used_ones_stay() {
        let start = Instant::now();
        let mut entries = Entries::default();
        entries.touch(&"idle".into(), start);
        entries.touch(&"busy".into(), start);
        let later = start + Duration::from_secs(60);
        entries.touch(&"busy".into(), later);
        let evicted = entries.evict(later, Some(Duration::from_secs(60)), 10);
        assert_eq!(tenants(&evicted), ["idle"]);
    }

    #[test]
    fn a_replaced_slot_is_returned_and_the_new_one_is_current() {
        let now = Instant::now();
        let mut entries = Entries::default();
        let old = entries.touch(&"a".into(), now);
        let new = Slot::default();
        let replaced = entries.replace(&"a".into(), Arc::clone(&new), now).unwrap();
        assert!(Arc::ptr_eq(&replaced, &old));
        assert!(entries.is_current(&"a".into(), &new));
        assert!(!entries.is_current(&"a".into(), &old));
        assert_eq!(entries.len(), 1);
    }
}
