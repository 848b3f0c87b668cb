//! Who is calling the API, and how often they may: API keys, per-identity rate limits, CORS.
//!
//! Only `/api/*` and `/mcp` (the same operations for agents) pass through here. A request with `Authorization: Bearer KEY` is counted
//! against its key (a revoked or unknown key is refused with 401 `invalid_api_key`); any other
//! request against its client address (IPv6 clients by their /64, the block one host usually
//! gets). Each identity has a token bucket (GCRA, from `governor`) that holds a minute's worth
//! of requests and refills evenly; an empty bucket answers 429 `rate_limited` with
//! `Retry-After`. Limits are per server process: behind a load balancer each instance counts
//! on its own, and the client address is the balancer's unless it passes connections through.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tower::{Layer, ServiceExt, service_fn};
use tower_http::cors::{Any, CorsLayer};

use super::error::{ApiError, Code};
use super::state::AppState;
use crate::db::keys::{self, KeyCheck};

pub const DEFAULT_ANONYMOUS_PER_MINUTE: u32 = 60;
pub const DEFAULT_KEY_PER_MINUTE: u32 = 600;
/// Idle buckets are dropped after this many checks, so one-off clients do not pile up.
const SWEEP_EVERY: u64 = 4096;

/// Requests per minute for each kind of caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    pub anonymous_per_minute: NonZeroU32,
    pub key_per_minute: NonZeroU32,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            anonymous_per_minute: NonZeroU32::new(DEFAULT_ANONYMOUS_PER_MINUTE)
                .unwrap_or(NonZeroU32::MIN),
            key_per_minute: NonZeroU32::new(DEFAULT_KEY_PER_MINUTE).unwrap_or(NonZeroU32::MIN),
        }
    }
}

/// Who a request counts against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Identity {
    Key(i64),
    Client(IpAddr),
}

/// The buckets of every identity seen recently.
pub struct Limiter {
    limits: RateLimits,
    anonymous: DefaultKeyedRateLimiter<IpAddr>,
    keys: DefaultKeyedRateLimiter<i64>,
    checks: AtomicU64,
}

impl Limiter {
    pub fn new(limits: RateLimits) -> Limiter {
        Limiter {
            limits,
            anonymous: RateLimiter::keyed(Quota::per_minute(limits.anonymous_per_minute)),
            keys: RateLimiter::keyed(Quota::per_minute(limits.key_per_minute)),
            checks: AtomicU64::new(0),
        }
    }

    /// Takes one request from the identity's bucket; `Err` holds how long until it may retry.
    pub fn check(&self, identity: Identity) -> Result<(), Duration> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.anonymous.retain_recent();
            self.keys.retain_recent();
        }
        match identity {
            Identity::Key(id) => self
                .keys
                .check_key(&id)
                .map_err(|wait| wait.wait_time_from(self.keys.clock().now())),
            Identity::Client(ip) => self
                .anonymous
                .check_key(&ip)
                .map_err(|wait| wait.wait_time_from(self.anonymous.clock().now())),
        }
    }

    pub fn limit_of(&self, identity: Identity) -> u32 {
        match identity {
            Identity::Key(_) => self.limits.key_per_minute.get(),
            Identity::Client(_) => self.limits.anonymous_per_minute.get(),
        }
    }
}

/// Browser-based bots on any origin may call the API: it uses no cookies, so allowing every
/// origin exposes nothing a script could not fetch anyway.
static CORS: LazyLock<CorsLayer> = LazyLock::new(|| {
    CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::ACCEPT_LANGUAGE,
            header::IF_NONE_MATCH,
            HeaderName::from_static("mcp-protocol-version"),
            HeaderName::from_static("mcp-session-id"),
            HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([
            header::RETRY_AFTER,
            header::ETAG,
            HeaderName::from_static("mcp-session-id"),
        ])
        .max_age(Duration::from_secs(3600))
});

/// Middleware for the whole router; acts on `/api/*` and `/mcp` only. An MCP message costs
/// what a REST request costs, so an agent has the same budget whichever it speaks.
pub async fn api_guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if !(path.starts_with("/api/") || path == "/mcp") {
        return next.run(request).await;
    }
    // CORS wraps the guard so refusals (401, 429) carry the headers a browser needs to read
    // them, and preflight requests are answered before they count against anyone.
    let guarded = service_fn(move |request: Request| {
        let state = state.clone();
        let next = next.clone();
        async move { Ok::<_, Infallible>(guard(&state, request, next).await) }
    });
    match CORS.layer(guarded).oneshot(request).await {
        Ok(response) => response,
        Err(never) => match never {},
    }
}

async fn guard(state: &AppState, request: Request, next: Next) -> Response {
    // Read what identifies the caller first: the request (its body) may not be held across
    // an await by reference, as it is not `Sync`.
    let authorization = request.headers().get(header::AUTHORIZATION).cloned();
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    let identity = match identify(state, authorization, peer).await {
        Ok(identity) => identity,
        Err(error) => {
            let mut response = error.into_response();
            if response.status() == StatusCode::UNAUTHORIZED {
                add_challenge(response.headers_mut(), "Bearer realm=\"ilaj\"");
            }
            return response;
        }
    };
    if let Some(limiter) = state.limiter()
        && let Err(wait) = limiter.check(identity)
    {
        return rate_limited(identity, limiter.limit_of(identity), wait);
    }
    next.run(request).await
}

async fn identify(
    state: &AppState,
    authorization: Option<HeaderValue>,
    peer: Option<IpAddr>,
) -> Result<Identity, ApiError> {
    let Some(value) = authorization else {
        return Ok(Identity::Client(client_key(peer)));
    };
    let key = bearer_token(&value).ok_or_else(|| {
        invalid_key("the Authorization header must be `Bearer KEY` with an ilaj API key")
    })?;
    let Some(store) = state.store() else {
        return Err(invalid_key("this server has no API keys"));
    };
    match keys::check(store.as_ref(), key).await {
        Ok(KeyCheck::Valid(record)) => Ok(Identity::Key(record.id)),
        Ok(KeyCheck::Revoked) => Err(invalid_key("this API key has been revoked")),
        Ok(KeyCheck::Unknown) => Err(invalid_key("unknown API key")),
        Err(error) => Err(ApiError::storage(error)),
    }
}

/// `Bearer TOKEN` → `TOKEN` (the scheme is case-insensitive).
pub fn bearer_token(value: &HeaderValue) -> Option<&str> {
    let value = value.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The bucket an anonymous client falls in: its IPv4 address, or the /64 of its IPv6 one.
/// Requests without a peer address (in-process tests) share one bucket.
pub(crate) fn client_key(peer: Option<IpAddr>) -> IpAddr {
    match peer.map(|ip| ip.to_canonical()) {
        Some(IpAddr::V6(v6)) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        Some(v4) => v4,
        None => IpAddr::V6(Ipv6Addr::UNSPECIFIED),
    }
}

fn invalid_key(message: &str) -> ApiError {
    ApiError::new(Code::InvalidApiKey, message)
}

fn rate_limited(identity: Identity, limit: u32, wait: Duration) -> Response {
    // Round up: retrying after a truncated value would be refused again.
    let seconds = wait.as_millis().div_ceil(1000).max(1);
    let who = match identity {
        Identity::Key(_) => "this API key",
        Identity::Client(_) => "anonymous clients (an API key gets a higher limit)",
    };
    let mut response = ApiError::new(
        Code::RateLimited,
        format!("too many requests: {limit} per minute for {who}; retry in {seconds} s"),
    )
    .into_response();
    if let Ok(value) = HeaderValue::from_str(&seconds.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// The `WWW-Authenticate` challenge a 401 must carry.
pub fn add_challenge(headers: &mut HeaderMap, challenge: &'static str) {
    headers.insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(challenge),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_tokens_are_read_case_insensitively() {
        let value = HeaderValue::from_static("bearer  ilaj_abc ");
        assert_eq!(bearer_token(&value), Some("ilaj_abc"));
        assert_eq!(bearer_token(&HeaderValue::from_static("Basic abc")), None);
        assert_eq!(bearer_token(&HeaderValue::from_static("Bearer")), None);
    }

    #[test]
    fn ipv6_clients_share_a_bucket_per_64_block() {
        let a = client_key(Some("2001:db8:1:2:aaaa::1".parse().unwrap()));
        let b = client_key(Some("2001:db8:1:2:bbbb::9".parse().unwrap()));
        let c = client_key(Some("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mapped = client_key(Some("::ffff:192.0.2.7".parse().unwrap()));
        assert_eq!(mapped, "192.0.2.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn a_bucket_holds_one_minute_of_requests_then_refuses_with_a_wait() {
        let limiter = Limiter::new(RateLimits {
            anonymous_per_minute: NonZeroU32::new(3).unwrap(),
            key_per_minute: NonZeroU32::new(5).unwrap(),
        });
        let client = Identity::Client("192.0.2.1".parse().unwrap());
        for _ in 0..3 {
            assert!(limiter.check(client).is_ok());
        }
        let wait = limiter.check(client).unwrap_err();
        assert!(
            wait > Duration::from_secs(15) && wait <= Duration::from_secs(20),
            "{wait:?}"
        );
        // Other identities have their own buckets.
        assert!(
            limiter
                .check(Identity::Client("192.0.2.2".parse().unwrap()))
                .is_ok()
        );
        for _ in 0..5 {
            assert!(limiter.check(Identity::Key(1)).is_ok());
        }
        assert!(limiter.check(Identity::Key(1)).is_err());
    }
}
