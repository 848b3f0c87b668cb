//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use ilaj::content::{self, LoadReport};
use ilaj::web::{self, AppState};
use tower::ServiceExt;

pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

pub fn load(dir: &Path) -> LoadReport {
    content::load_dir(dir).unwrap_or_else(|e| panic!("loading {}: {e}", dir.display()))
}

pub fn router_for(dir: &Path) -> Router {
    web::router(AppState::new(load(dir).library).expect("index builds"))
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

pub async fn send(router: &Router, request: Request<Body>) -> Reply {
    let response = router
        .clone()
        .oneshot(request)
        .await
        .expect("router is infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body collects")
        .to_bytes()
        .to_vec();
    Reply {
        status,
        headers,
        body,
    }
}

pub async fn get(router: &Router, uri: &str) -> Reply {
    send(
        router,
        Request::get(uri)
            .body(Body::empty())
            .expect("valid request"),
    )
    .await
}

pub async fn post_json(router: &Router, uri: &str, body: &serde_json::Value) -> Reply {
    send(
        router,
        Request::post(uri)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .expect("valid request"),
    )
    .await
}

/// Copies `from` with its subfolders into a fresh temporary folder, so a test can add broken
/// files or edit articles without touching the repository.
pub fn copy_to_temp(from: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_tree(from, dir.path());
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("readable folder") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            std::fs::create_dir(&target).expect("create folder");
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

/// A POST with any content type and raw body (for malformed-input tests).
pub async fn post_raw(router: &Router, uri: &str, content_type: &str, body: &str) -> Reply {
    send(
        router,
        Request::post(uri)
            .header("content-type", content_type)
            .body(Body::from(body.to_owned()))
            .expect("valid request"),
    )
    .await
}

/// A POST of an HTML form (`application/x-www-form-urlencoded`), as a browser sends it.
pub async fn post_form(router: &Router, uri: &str, fields: &[(&str, &str)]) -> Reply {
    let body = serde_urlencoded::to_string(fields).expect("encodable form");
    post_raw(router, uri, "application/x-www-form-urlencoded", &body).await
}

/// A GET with extra request headers (cookies, Accept-Language).
pub async fn get_with(router: &Router, uri: &str, headers: &[(&str, &str)]) -> Reply {
    let mut request = Request::get(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    send(router, request.body(Body::empty()).expect("valid request")).await
}

// --- Databases -------------------------------------------------------------------------------

/// A database for one test: an SQLite file in a temporary folder, or a fresh schema in the
/// PostgreSQL database named by `ILAJ_TEST_POSTGRES_URL`, so tests run in parallel.
pub struct TestDb {
    pub location: ilaj::db::Location,
    _dir: Option<tempfile::TempDir>,
    postgres: Option<(String, String)>,
}

pub const POSTGRES_URL_VAR: &str = "ILAJ_TEST_POSTGRES_URL";

impl TestDb {
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temp dir");
        TestDb {
            location: ilaj::db::Location::SqliteFile(dir.path().join("ilaj.sqlite")),
            _dir: Some(dir),
            postgres: None,
        }
    }

    /// `None` (after saying so) when no PostgreSQL server is configured; under CI that is a
    /// failure instead, so the PostgreSQL half of the suite can never silently vanish.
    pub async fn postgres() -> Option<TestDb> {
        let Some(url) = std::env::var(POSTGRES_URL_VAR)
            .ok()
            .filter(|u| !u.trim().is_empty())
        else {
            if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
                panic!("{POSTGRES_URL_VAR} must be set in CI: .ci/run starts a PostgreSQL server");
            }
            eprintln!("skipping the PostgreSQL variant: {POSTGRES_URL_VAR} is not set");
            return None;
        };
        use sqlx::Connection;
        let mut suffix = [0u8; 6];
        getrandom::fill(&mut suffix).expect("random");
        let schema = format!(
            "t_{}",
            suffix
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        );
        let mut conn = sqlx::PgConnection::connect(&url)
            .await
            .unwrap_or_else(|e| panic!("cannot connect to {POSTGRES_URL_VAR}: {e}"));
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&mut conn)
            .await
            .expect("create schema");
        let _ = conn.close().await;
        let separator = if url.contains('?') { '&' } else { '?' };
        let scoped = format!("{url}{separator}options=-c%20search_path%3D{schema}");
        Some(TestDb {
            location: ilaj::db::Location::Postgres(scoped),
            _dir: None,
            postgres: Some((url, schema)),
        })
    }

    /// Opens (and migrates) the database; call again to simulate a restart.
    pub async fn open(&self) -> std::sync::Arc<dyn ilaj::db::Store> {
        ilaj::db::open(&self.location)
            .await
            .unwrap_or_else(|e| panic!("opening {}: {e}", self.location.describe()))
    }

    /// The URL `ilaj --database` takes.
    pub fn url(&self) -> String {
        match &self.location {
            ilaj::db::Location::SqliteFile(path) => format!("sqlite://{}", path.display()),
            ilaj::db::Location::Postgres(url) => url.clone(),
            ilaj::db::Location::SqliteMemory => "sqlite::memory:".to_owned(),
        }
    }

    pub async fn cleanup(self) {
        if let Some((url, schema)) = &self.postgres {
            use sqlx::Connection;
            if let Ok(mut conn) = sqlx::PgConnection::connect(url).await {
                let _ = sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                    .execute(&mut conn)
                    .await;
                let _ = conn.close().await;
            }
        }
    }
}

/// Runs `async fn NAME(db: &TestDb)` once on SQLite and once on PostgreSQL, as the tests
/// `NAME::sqlite` and `NAME::postgres`.
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),+ $(,)?) => {
        $(
            mod $name {
                #[tokio::test]
                async fn sqlite() {
                    let db = $crate::helpers::TestDb::sqlite();
                    super::$name(&db).await;
                    db.cleanup().await;
                }

                #[tokio::test]
                async fn postgres() {
                    let Some(db) = $crate::helpers::TestDb::postgres().await else {
                        return;
                    };
                    super::$name(&db).await;
                    db.cleanup().await;
                }
            }
        )+
    };
}

/// A router with every service: the fixture library, this database, the given limits and
/// admin token.
pub fn router_with(
    store: std::sync::Arc<dyn ilaj::db::Store>,
    rate_limits: Option<web::RateLimits>,
    admin_token: Option<&str>,
) -> Router {
    let library = load(&repo_path("tests/fixtures/content")).library;
    web::router(
        AppState::with_services(
            library,
            web::Services {
                store: Some(store),
                rate_limits,
                admin_token: admin_token.map(str::to_owned),
                ..web::Services::default()
            },
        )
        .expect("index builds"),
    )
}

/// Sends a request with extra headers.
pub async fn send_with(
    router: &Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<&serde_json::Value>,
) -> Reply {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = match body {
        Some(json) => {
            request = request.header("content-type", "application/json");
            Body::from(json.to_string())
        }
        None => Body::empty(),
    };
    send(router, request.body(body).expect("valid request")).await
}

/// Polls `check` until it holds (work spawned in the background lands) or 5 s pass.
pub async fn eventually<F, Fut>(mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..100 {
        if check().await {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    false
}

// --- The real binary -------------------------------------------------------------------------

/// `ilaj ARGS…` with extra environment variables; returns (success, stdout, stderr).
pub fn run_ilaj(args: &[&str], envs: &[(&str, &str)]) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_ilaj"))
        .args(args)
        .env_remove("DATABASE_URL")
        .env_remove("ILAJ_ADMIN_TOKEN")
        .envs(envs.iter().copied())
        .output()
        .expect("ilaj runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `ilaj serve` on a free loopback port, killed when dropped.
pub struct Server {
    pub port: u16,
    child: std::process::Child,
}

impl Server {
    /// Starts the server (content from `content/` unless `args` say otherwise) and waits until
    /// it listens.
    pub fn start(args: &[&str], envs: &[(&str, &str)]) -> Server {
        use std::io::{BufRead, BufReader};
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ilaj"))
            .arg("serve")
            .args(["--addr", "127.0.0.1:0"])
            .args(args)
            .env_remove("DATABASE_URL")
            .env_remove("ILAJ_ADMIN_TOKEN")
            .envs(envs.iter().copied())
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .current_dir(repo_path(""))
            .stderr(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("ilaj serve starts");
        let stderr = child.stderr.take().expect("stderr piped");
        let (tx, rx) = std::sync::mpsc::channel();
        // Reads the log until the address shows, then keeps draining so the server never
        // blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let line = strip_ansi(&line);
                if !sent
                    && let Some(rest) = line.split("addr=").nth(1)
                    && line.contains("listening")
                {
                    let port = rest
                        .split(|c: char| !c.is_ascii_digit() && c != '.' && c != ':')
                        .next()
                        .and_then(|a| a.rsplit(':').next())
                        .and_then(|p| p.parse::<u16>().ok());
                    let _ = tx.send(Ok(port.unwrap_or(0)));
                    sent = true;
                } else if !sent && line.contains("ERROR") {
                    let _ = tx.send(Err(line.clone()));
                }
                if std::env::var_os("ILAJ_TEST_SERVER_LOG").is_some() {
                    eprintln!("[server] {line}");
                }
            }
        });
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(Ok(port)) if port != 0 => Server { port, child },
            other => {
                let _ = child.kill();
                panic!("ilaj serve did not start: {other:?}");
            }
        }
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// One HTTP/1.1 request over a fresh connection; returns status and body.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&str>,
    ) -> (u16, String) {
        http_request(self.port, method, path, headers, body)
    }

    /// Stops the server as a service manager does (SIGTERM) and waits for it to exit.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "cannot signal the server");
        self.child.wait().expect("the server exits")
    }

    /// Stops the server abruptly (SIGKILL): what was committed must survive even that.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request to a loopback port over a fresh connection; returns status and body.
pub fn http_request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .expect("timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let body = body.unwrap_or("");
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(head.as_bytes()).expect("writes");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reads");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// `line` without terminal colour sequences (`ESC [ … letter`).
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
