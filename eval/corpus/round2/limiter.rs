//! A token-bucket rate limiter keyed by client, with a sliding window for bursts.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How a client is limited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Policy {
    /// Tokens added per second.
    pub refill_per_second: f64,
    /// The most tokens a bucket holds.
    pub capacity:          f64,
    /// Requests allowed in one burst window, whatever the bucket holds.
    pub burst_limit:       u32,
    /// The length of a burst window.
    pub burst_window:      Duration,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            refill_per_second: 5.0,
            capacity: 20.0,
            burst_limit: 10,
            burst_window: Duration::from_secs(1),
        }
    }
}

/// Why a request was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The bucket is empty; retry after the given delay.
    Empty { retry_after: Duration },
    /// Too many requests in the current burst window.
    Burst { window_ends_in: Duration },
    /// The client is blocked by an operator.
    Blocked { reason: String },
}

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    refilled_at: Instant,
    window_start: Instant,
    window_count: u32,
}

impl Bucket {
    fn new(policy: &Policy, now: Instant) -> Bucket {
        Bucket {
            tokens: policy.capacity,
            refilled_at: now,
            window_start: now,
            window_count: 0,
        }
    }

    fn refill(&mut self, policy: &Policy, now: Instant) {
        let elapsed = now.saturating_duration_since(self.refilled_at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * policy.refill_per_second).min(policy.capacity);
        self.refilled_at = now;
    }
}

/// The limiter: one bucket per client, created on first use.
pub struct Limiter {
    policy: Policy,
    buckets: HashMap<String, Bucket>,
    blocked: HashMap<String, String>,
}

impl Limiter {
    /// A limiter where every client gets `policy`.
    pub fn new(policy: Policy) -> Limiter {
        Limiter {
            policy,
            buckets: HashMap::new(),
            blocked: HashMap::new(),
        }
    }

    /// Takes one token for `client`, or says why not.
    pub fn check(&mut self, client: &str, now: Instant) -> Result<(), Refusal> {
        if let Some(reason) = self.blocked.get(client) {
            return Err(Refusal::Blocked {
                reason: reason.clone(),
            });
        }
        let policy = self.policy;
        let bucket = self
            .buckets
            .entry(client.to_string())
            .or_insert_with(|| Bucket::new(&policy, now));
        bucket.refill(&policy, now);
        if now.saturating_duration_since(bucket.window_start) >= policy.burst_window {
            bucket.window_start = now;
            bucket.window_count = 0;
        }
        if bucket.window_count >= policy.burst_limit {
            let ends = bucket.window_start + policy.burst_window;
            return Err(Refusal::Burst {
                window_ends_in: ends.saturating_duration_since(now),
            });
        }
        if bucket.tokens < 1.0 {
            let missing = 1.0 - bucket.tokens;
            let wait = missing / policy.refill_per_second;
            return Err(Refusal::Empty {
                retry_after: Duration::from_secs_f64(wait),
            });
        }
        bucket.tokens -= 1.0;
        bucket.window_count += 1;
        Ok(())
    }

    /// Blocks `client` until [`Limiter::unblock`]; its bucket is dropped.
    pub fn block(&mut self, client: &str, reason: &str) {
        self.buckets.remove(client);
        self.blocked.insert(client.to_string(), reason.to_string());
    }

    /// Lifts a block; returns whether the client was blocked.
    pub fn unblock(&mut self, client: &str) -> bool {
        self.blocked.remove(client).is_some()
    }

    /// Drops the buckets of clients idle for longer than `idle`.
    pub fn forget_idle(&mut self, now: Instant, idle: Duration) -> usize {
        let before = self.buckets.len();
        self.buckets
            .retain(|_, bucket| now.saturating_duration_since(bucket.refilled_at) < idle);
        before - self.buckets.len()
    }

    /// Tokens left for `client` right now (the capacity for a client never seen).
    pub fn remaining(&mut self, client: &str, now: Instant) -> f64 {
        let policy = self.policy;
        match self.buckets.get_mut(client) {
            Some(bucket) => {
                bucket.refill(&policy, now);
                bucket.tokens
            }
            None => policy.capacity,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_cut_at_the_limit() {
        let policy = Policy {
            burst_limit: 3,
            ..Policy::default()
        };
        let mut limiter = Limiter::new(policy);
        let now = Instant::now();
        for _ in 0..3 {
            assert_eq!(limiter.check("alice", now), Ok(()));
        }
        assert!(matches!(limiter.check("alice", now), Err(Refusal::Burst { .. })));
    }

    #[test]
    fn a_blocked_client_is_refused_with_the_reason() {
        let mut limiter = Limiter::new(Policy::default());
        limiter.block("mallory", "abuse report #41");
        let refusal = limiter.check("mallory", Instant::now()).unwrap_err();
        assert_eq!(
            refusal,
            Refusal::Blocked {
                reason: "abuse report #41".to_string()
            }
        );
    }
}
