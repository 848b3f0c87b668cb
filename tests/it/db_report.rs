//! The content-gap report (admin page and `ilaj report`), `ilaj keys`, and the real server's
//! database: created on first start, surviving a restart.

use std::time::Duration;

use crate::helpers::{Server, TestDb, router_with, run_ilaj, send_with};
use axum::http::StatusCode;
use ilaj::db::{Endpoint, QueryRecord, Store};
use ilaj::i18n::Lang;
use ilaj::reading::Fingerprint;

const TOKEN: &str = "correct horse battery staple";
const PASTE: &str = "Traceback (most recent call last):\n  File \"/srv/x.py\", line 9, in <module>\nwidget.GizmoError: gizmo 17 jammed";

async fn record(store: &dyn Store, fingerprint: Fingerprint, top: Option<(&str, f64)>) {
    let record = QueryRecord::new(
        Endpoint::Match,
        Lang::Fr,
        fingerprint,
        top.map(|(id, score)| (id.to_owned(), score)),
        usize::from(top.is_some()),
        Duration::from_millis(2),
    );
    store.record_query(&record).await.unwrap();
}

#[tokio::test]
async fn the_admin_page_does_not_exist_without_a_token() {
    let db = TestDb::sqlite();
    let router = router_with(db.open().await, None, None);
    let reply = send_with(
        &router,
        "GET",
        "/admin/report",
        &[("authorization", "Bearer anything")],
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_admin_page_refuses_missing_and_wrong_tokens_with_codes() {
    let db = TestDb::sqlite();
    let router = router_with(db.open().await, None, Some(TOKEN));
    let reply = send_with(&router, "GET", "/admin/report", &[], None).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert_eq!(reply.json()["error"]["code"], "admin_token_required");
    assert!(
        reply.headers["www-authenticate"]
            .to_str()
            .unwrap()
            .starts_with("Basic")
    );
    for header in ["Bearer wrong", "Bearer correct horse battery stapl"] {
        let reply = send_with(
            &router,
            "GET",
            "/admin/report",
            &[("authorization", header)],
            None,
        )
        .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{header}");
        assert_eq!(reply.json()["error"]["code"], "invalid_admin_token");
    }
}

#[tokio::test]
async fn the_admin_page_lists_gaps_and_votes_with_everything_escaped() {
    let db = TestDb::sqlite();
    let store = db.open().await;
    for _ in 0..3 {
        record(
            store.as_ref(),
            Fingerprint::of_paste(&ilaj::traceback::parse(PASTE)),
            None,
        )
        .await;
    }
    let hostile = Fingerprint {
        kind: "python_exception".into(),
        exception: "<script>alert(1)</script>".into(),
        message: "\"><img src=x onerror=alert(2)>".into(),
    };
    record(store.as_ref(), hostile, Some(("sample-fix", 0.5))).await;
    let vote = ilaj::db::NewFeedback {
        article: "sample-fix".into(),
        lang: Lang::Fr,
        section: None,
        helpful: true,
        match_id: None,
        created_at: ilaj::db::now_ms(),
    };
    store.record_feedback(&vote).await.unwrap();

    let router = router_with(store, None, Some(TOKEN));
    let reply = send_with(
        &router,
        "GET",
        "/admin/report?limit=10",
        &[("authorization", &format!("Bearer {TOKEN}"))],
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.headers["content-type"], "text/html; charset=utf-8");
    assert_eq!(reply.headers["cache-control"], "no-store");
    let html = reply.text();
    assert!(html.contains("widget.GizmoError"), "{html}");
    assert!(html.contains("gizmo &#60;n&#62; jammed"), "{html}");
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(html.contains("&#60;script&#62;alert(1)&#60;/script&#62;"));
    // The three identical pastes are the first row.
    let first_row = html.split("<tbody>").nth(1).unwrap();
    assert!(
        first_row.starts_with("<tr><td class=\"n\">3</td>"),
        "{first_row}"
    );
    assert!(
        html.contains("/articles/sample-fix\">sample-fix</a>"),
        "{html}"
    );

    // Browsers log in with Basic; the token is the password.
    let basic = "Basic YWRtaW46Y29ycmVjdCBob3JzZSBiYXR0ZXJ5IHN0YXBsZQ=="; // admin:TOKEN
    let reply = send_with(
        &router,
        "GET",
        "/admin/report",
        &[("authorization", basic)],
        None,
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
}

#[tokio::test]
async fn report_command_prints_the_gap_as_text_and_json() {
    let db = TestDb::sqlite();
    let store = db.open().await;
    for i in 0..3 {
        let text = PASTE.replace("17", &format!("{}", 17 + i));
        record(
            store.as_ref(),
            Fingerprint::of_paste(&ilaj::traceback::parse(&text)),
            None,
        )
        .await;
    }
    record(
        store.as_ref(),
        Fingerprint::of_paste(&ilaj::traceback::parse(
            "torch.OutOfMemoryError: CUDA out of memory.",
        )),
        Some(("cuda-oom-training", 30.0)),
    )
    .await;
    store.close().await;
    let url = db.url();

    let (ok, stdout, stderr) = run_ilaj(&["report", "--database", &url], &[]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("3×  low score  python_exception · widget.GizmoError: gizmo <n> jammed"),
        "{stdout}"
    );
    assert!(!stdout.contains("CUDA out of memory"), "{stdout}");

    let (ok, stdout, stderr) = run_ilaj(
        &["report", "--json", "--limit", "5"],
        &[("DATABASE_URL", &url)],
    );
    assert!(ok, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["queries_recorded"], 4);
    assert_eq!(report["unmatched"][0]["count"], 3);
    assert_eq!(report["unmatched"][0]["exception"], "widget.GizmoError");
}

#[tokio::test]
async fn keys_commands_create_list_and_revoke() {
    let db = TestDb::sqlite();
    let url = db.url();
    let (ok, key, stderr) = run_ilaj(
        &["keys", "create", "--name", "helpdesk", "--database", &url],
        &[],
    );
    assert!(ok, "{stderr}");
    let key = key.trim().to_owned();
    assert!(key.starts_with("ilaj_") && key.len() == 69, "{key}");
    assert!(stderr.contains("shown only this once"), "{stderr}");

    let (ok, _, stderr) = run_ilaj(
        &["keys", "create", "--name", "helpdesk", "--database", &url],
        &[],
    );
    assert!(!ok);
    assert!(stderr.contains("already exists"), "{stderr}");

    let (ok, list, _) = run_ilaj(&["keys", "list", "--database", &url], &[]);
    assert!(ok);
    let row = list
        .lines()
        .find(|l| l.contains("helpdesk"))
        .expect("listed");
    assert!(row.ends_with("\t-\t-"), "never used, not revoked: {row}");
    assert!(!list.contains(&key), "the key itself is never shown again");

    let (ok, out, stderr) = run_ilaj(&["keys", "revoke", "helpdesk", "--database", &url], &[]);
    assert!(ok, "{stderr}");
    assert!(out.contains("revoked"));
    let (_, list, _) = run_ilaj(&["keys", "list", "--database", &url], &[]);
    let row = list.lines().find(|l| l.contains("helpdesk")).unwrap();
    assert!(!row.ends_with("\t-"), "revocation time shown: {row}");

    let (ok, _, stderr) = run_ilaj(&["keys", "revoke", "nobody", "--database", &url], &[]);
    assert!(!ok);
    assert!(stderr.contains("no API key"), "{stderr}");

    let store = db.open().await;
    let stored = store.list_api_keys().await.unwrap();
    assert_eq!(stored.len(), 1);
    assert!(stored[0].is_revoked());
}

#[test]
fn a_bad_database_url_is_a_clear_error() {
    let (ok, _, stderr) = run_ilaj(&["keys", "list", "--database", "mysql://root:pw@h/db"], &[]);
    assert!(!ok);
    assert!(stderr.contains("unsupported database URL"), "{stderr}");
    assert!(!stderr.contains(":pw@"), "{stderr}");
}

#[test]
fn the_server_creates_its_database_on_first_start_and_keeps_feedback_across_restarts() {
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().join("ilaj-data");
    let envs = [("ILAJ_DATA_DIR", data_dir.to_str().unwrap())];
    let server = Server::start(&[], &envs);
    assert!(data_dir.join("ilaj.sqlite").exists());
    let vote = r#"{"article": "cuda-oom-training", "lang": "fr", "helpful": true}"#;
    for _ in 0..2 {
        let (status, body) = server.request("POST", "/api/v1/feedback", &[], Some(vote));
        assert_eq!(status, 201, "{body}");
    }
    server.kill();

    let server = Server::start(&[], &envs);
    let (status, body) = server.request(
        "GET",
        "/api/v1/articles/ar/cuda-oom-training/feedback",
        &[],
        None,
    );
    assert_eq!(status, 200, "{body}");
    let counts: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(counts, serde_json::json!({"helpful": 2, "not_helpful": 0}));
}

#[test]
fn the_real_server_limits_anonymous_clients_and_refuses_revoked_keys() {
    let data = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", data.path().join("db.sqlite").display());
    let (ok, key, _) = run_ilaj(
        &["keys", "create", "--name", "bot", "--database", &url],
        &[],
    );
    assert!(ok);
    let key = key.trim().to_owned();
    let server = Server::start(
        &[
            "--database",
            &url,
            "--rate-limit-anonymous",
            "2",
            "--rate-limit-key",
            "50",
        ],
        &[],
    );
    let auth = format!("Bearer {key}");
    let statuses: Vec<u16> = (0..3)
        .map(|_| {
            server
                .request("GET", "/api/v1/articles?lang=hi", &[], None)
                .0
        })
        .collect();
    assert_eq!(statuses, vec![200, 200, 429]);
    let (status, _) = server.request(
        "GET",
        "/api/v1/articles?lang=hi",
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(status, 200);

    let (ok, _, _) = run_ilaj(&["keys", "revoke", "bot", "--database", &url], &[]);
    assert!(ok);
    let (status, body) = server.request(
        "GET",
        "/api/v1/articles?lang=hi",
        &[("Authorization", &auth)],
        None,
    );
    assert_eq!(status, 401);
    assert!(body.contains("invalid_api_key"), "{body}");
}
