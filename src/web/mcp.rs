//! The Model Context Protocol, for agents: the API's operations as tools and the articles as
//! resources, over streamable HTTP at `/mcp` (inside the router, so behind the same key check
//! and rate limits as `/api/*`) and over standard input/output (`ilaj mcp`).
//!
//! Each tool calls the function its REST endpoint calls and returns that answer as its
//! structured result, so a tool and its endpoint cannot drift apart; its input schema is
//! derived from the same request type. A refused input is a tool error (`isError`) whose
//! structured result is the REST error body, code included.

use std::sync::Arc;

use rmcp::handler::server::common::schema_for_input;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeResult, JsonObject, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ResourceTemplate, ServerCapabilities, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::articles::{self, ArticleRequest};
use super::error::{ApiError, Code};
use super::estimate;
use super::lang::requested_lang;
use super::matching::{self, MatchRequest, SearchRequest, absolute};
use super::state::AppState;
use crate::estimator::EstimateInput;
use crate::i18n::{Lang, NumberFormat, messages};
use crate::search::{AnswerState, Hit};

const RESOURCE_PREFIX: &str = "ilaj://articles/";
const RESOURCE_TEMPLATE: &str = "ilaj://articles/{lang}/{id}";
/// Results a text answer names; the structured result has them all.
const TEXT_RESULTS: usize = 3;

const INSTRUCTIONS: &str = "ilaj finds the article that fixes a neural-network training error \
    (PyTorch tracebacks, CUDA out of memory, NCCL, DataLoader, …) in Arabic, Hindi, French or \
    English. Call match_error with the whole pasted error, search_fixes with a few words, \
    get_article for a whole article, estimate_memory for a nanoGPT-style model's GPU memory. \
    Every answer says how sure it is in `answer`: quote a fix as the answer only when it is \
    `confident`; `uncertain` results are the closest reading, not a known fix; `none` means \
    no article covers the error. An answer with `ask` needs one fact from the user (where the \
    out-of-memory error struck): ask, then match again with that `situation`.";

/// The MCP server: tools and resources over one [`AppState`].
#[derive(Clone)]
pub struct IlajMcp {
    state: AppState,
}

impl IlajMcp {
    pub fn new(state: AppState) -> Self {
        IlajMcp { state }
    }

    /// The answer to one tool call: the REST answer, or the REST error, as a tool result.
    async fn call(
        &self,
        name: &str,
        arguments: JsonObject,
        accept: Option<&str>,
    ) -> CallToolResult {
        let outcome = match name {
            "match_error" => self.match_error(arguments, accept).await,
            "search_fixes" => self.search_fixes(arguments, accept).await,
            "get_article" => self.get_article(arguments),
            "estimate_memory" => estimate_memory(arguments, accept),
            _ => Err(ApiError::not_found(format!(
                "no tool named `{}`",
                name.chars().take(64).collect::<String>()
            ))),
        };
        match outcome {
            Ok((structured, text)) => {
                let mut result = CallToolResult::structured(structured);
                result.content = vec![ContentBlock::text(text)];
                result
            }
            Err(error) => {
                let text = format!("{}: {}", error.code().name(), error.message());
                let mut result = CallToolResult::structured_error(error.body());
                result.content = vec![ContentBlock::text(text)];
                result
            }
        }
    }

    async fn match_error(&self, arguments: JsonObject, accept: Option<&str>) -> ToolOutcome {
        let request: MatchRequest = arguments_as(arguments)?;
        let answer = matching::run_match(&self.state, request, accept).await?;
        let lang = answer.outcome.lang;
        let mut lines = vec![state_line(answer.outcome.answer, lang, false)];
        lines.extend(answer.outcome.diagnosis.explanation.first().cloned());
        lines.extend(result_lines(&answer.outcome.results, lang));
        if let Some(ask) = &answer.outcome.ask {
            lines.push(ask.question.clone());
            lines.extend(
                ask.choices
                    .iter()
                    .map(|c| format!("- situation={}: {}", c.situation, c.label)),
            );
        }
        Ok((to_value(&answer)?, lines.join("\n")))
    }

    async fn search_fixes(&self, arguments: JsonObject, accept: Option<&str>) -> ToolOutcome {
        let request: SearchRequest = arguments_as(arguments)?;
        let answer = matching::run_search(&self.state, request, accept).await?;
        let mut lines = vec![state_line(answer.answer, answer.lang, true)];
        lines.extend(result_lines(&answer.results, answer.lang));
        Ok((to_value(&answer)?, lines.join("\n")))
    }

    fn get_article(&self, arguments: JsonObject) -> ToolOutcome {
        let request: ArticleRequest = arguments_as(arguments)?;
        let body = articles::get_article(&self.state, &request)?;
        let text = format!(
            "{} — {}\n{}",
            body.title,
            self.link(&body.url),
            body.summary
        );
        Ok((to_value(&body)?, text))
    }

    fn base(&self) -> Option<&str> {
        self.state.public_url()
    }

    fn link(&self, path: &str) -> String {
        self.base()
            .map_or_else(|| path.to_owned(), |base| absolute(base, path))
    }

    fn resources(&self) -> Vec<Resource> {
        self.state
            .library()
            .articles()
            .iter()
            .map(|article| {
                Resource::new(
                    format!("{RESOURCE_PREFIX}{}/{}", article.lang, article.id),
                    format!("{}/{}", article.lang, article.id),
                )
                .with_title(article.title.clone())
                .with_description(article.summary.clone())
                .with_mime_type("text/markdown")
            })
            .collect()
    }

    fn read(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        let not_found = |message: String| {
            let data = ApiError::not_found(message.clone()).body();
            ErrorData::resource_not_found(message, Some(data))
        };
        let (lang, id) = uri
            .strip_prefix(RESOURCE_PREFIX)
            .and_then(|rest| rest.split_once('/'))
            .ok_or_else(|| {
                not_found(format!("not an article: resources are {RESOURCE_TEMPLATE}"))
            })?;
        let request = ArticleRequest {
            lang: lang.to_owned(),
            id: id.to_owned(),
        };
        let library = self.state.library();
        let article = articles::find(&library, &request)
            .map_err(|error| not_found(error.message().into()))?;
        let markdown = format!("# {}\n\n{}\n", article.title, article.markdown);
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(markdown, uri).with_mime_type("text/markdown"),
        ]))
    }
}

type ToolOutcome = Result<(Value, String), ApiError>;

impl ServerHandler for IlajMcp {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("ilaj", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Over HTTP the request's headers ride along; Accept-Language picks the answer's
        // language when the arguments do not, as on the REST API.
        let accept = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| super::lang::accept_language(&parts.headers))
            .map(str::to_owned);
        let arguments = request.arguments.unwrap_or_default();
        Ok(self
            .call(&request.name, arguments, accept.as_deref())
            .await
            .into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(self.resources()))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(RESOURCE_TEMPLATE, "article")
                .with_title("ilaj article")
                .with_description(
                    "An article as Markdown; lang is ar, hi, fr or en, id a group id such as \
                     cuda-oom-training",
                )
                .with_mime_type("text/markdown"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.read(&request.uri).map(Into::into)
    }
}

/// The four tools, their input schemas derived from the REST request types.
pub fn tools() -> Vec<Tool> {
    let read_only = ToolAnnotations::new()
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false);
    [
        tool::<MatchRequest>(
            "match_error",
            "Match a pasted error (a Python traceback, a log or one error line) to the article \
             that fixes it. Returns what the error means (diagnosis with the figures read from \
             it) and the articles, best first, each with the fixing section's Markdown. Quote \
             the first result only when `answer` is `confident`. When the answer has `ask`, \
             put its question and choices to the user and call again with the same text and \
             the chosen `situation`.",
        ),
        tool::<SearchRequest>(
            "search_fixes",
            "Search the fix articles with a few words or part of an error message, in Arabic, \
             Hindi, French or English. Same result shape and `answer` state as match_error.",
        ),
        tool::<ArticleRequest>(
            "get_article",
            "One whole article in one language: title, summary, the errors it fixes, its \
             sections and its HTML.",
        ),
        tool::<EstimateInput>(
            "estimate_memory",
            "Estimate the GPU memory of training or evaluating a nanoGPT-style transformer: \
             peak allocated, reserved, what nvidia-smi shows, whether it fits, the largest \
             batch size that fits (n_layer, n_head and n_embd required). Arguments naming a \
             `model` (a preset id from GET /api/v1/models) or a Hugging Face `config` object \
             estimate any decoder-only transformer instead, as POST /api/v1/estimate does.",
        ),
    ]
    .into_iter()
    .flatten()
    .map(|tool| tool.with_annotations(read_only.clone()))
    .collect()
}

fn tool<T: JsonSchema + 'static>(name: &'static str, description: &'static str) -> Option<Tool> {
    match schema_for_input::<T>() {
        Ok(schema) => Some(Tool::new(name, description, schema)),
        Err(error) => {
            tracing::error!(tool = name, %error, "cannot describe a tool's input");
            None
        }
    }
}

/// Tool arguments as a request type, refused with the code the REST API would give.
fn arguments_as<T: DeserializeOwned>(arguments: JsonObject) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(Value::Object(arguments)).map_err(|error| {
        let field = error.path().to_string();
        let inner = error.into_inner();
        let code = if inner.to_string().starts_with("missing field") {
            Code::MissingField
        } else {
            Code::InvalidField
        };
        let error = ApiError::new(code, inner.to_string());
        if field == "." {
            error
        } else {
            error.with_field(field)
        }
    })
}

fn estimate_memory(arguments: JsonObject, accept: Option<&str>) -> ToolOutcome {
    let body = serde_json::to_vec(&arguments).map_err(ApiError::internal)?;
    let answer = estimate::estimate_json(&body)?;
    let estimate = answer.summary();
    let lang = requested_lang(None, accept)?;
    let (t, n) = (
        |id: &str| messages().format(lang, id, None),
        NumberFormat::new(lang),
    );
    // French puts a (narrow no-break) space before a colon.
    let colon = if lang == Lang::Fr { "\u{202f}:" } else { ":" };
    let fits = if estimate.fits {
        "calc-fits-yes"
    } else {
        "calc-fits-no"
    };
    let text = [
        format!("{} ({})", t(fits), n.bytes(estimate.gpu_memory_bytes)),
        format!(
            "{}{colon} {}",
            t("calc-peak-allocated"),
            n.bytes(estimate.peak_allocated_bytes)
        ),
        format!(
            "{}{colon} {}",
            t("calc-reserved"),
            n.bytes(estimate.reserved_bytes)
        ),
        format!(
            "{}{colon} {}",
            t("calc-nvidia-smi"),
            n.bytes(estimate.nvidia_smi_bytes)
        ),
        format!(
            "{}{colon} {}",
            t("calc-max-batch"),
            n.int(estimate.max_batch_size)
        ),
    ]
    .join("\n");
    Ok((to_value(&answer)?, text))
}

/// The answer as the REST API sends it. Through text, not `to_value`: an `f32` score turned
/// straight into a JSON number would gain digits (0.787 → 0.7870000004768372).
fn to_value(answer: &impl Serialize) -> Result<Value, ApiError> {
    serde_json::to_string(answer)
        .and_then(|text| serde_json::from_str(&text))
        .map_err(ApiError::internal)
}

/// How sure the answer is, in the answer's language (the pages' own sentences).
fn state_line(answer: AnswerState, lang: Lang, typed: bool) -> String {
    let id = match answer {
        AnswerState::Confident => "answer-confident",
        AnswerState::Uncertain => "answer-uncertain",
        AnswerState::None if typed => "answer-none-search",
        AnswerState::None => "answer-none",
    };
    messages().format(lang, id, None)
}

/// `1. Title › Section — link` for the first results: what a bot cites (the links are
/// absolute when the server knows its public address).
fn result_lines(hits: &[Hit], lang: Lang) -> Vec<String> {
    if hits.is_empty() {
        return vec![messages().format(lang, "match-none", None)];
    }
    hits.iter()
        .take(TEXT_RESULTS)
        .enumerate()
        .map(|(rank, hit)| {
            let cited = match &hit.section {
                Some(section) => format!("{} › {} — {}", hit.title, section.title, section.url),
                None => format!("{} — {}", hit.title, hit.url),
            };
            format!("{}. {cited}", rank + 1)
        })
        .collect()
}

/// `/mcp`: streamable HTTP, stateless (every POST stands alone, so any instance can answer
/// it and no session outlives its request), answering in plain JSON.
pub fn http_service(state: AppState) -> StreamableHttpService<IlajMcp, NeverSessionManager> {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_max_request_body_bytes(super::MAX_BODY_BYTES)
        // The Host check guards local servers against DNS rebinding; this one is public and
        // serves only what `/api/*` serves to any origin, so every host may reach it.
        .disable_allowed_hosts();
    let server = IlajMcp::new(state);
    StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    )
}

/// Serves MCP on stdin/stdout until the client closes it.
pub async fn serve_stdio(state: AppState) -> std::io::Result<()> {
    let running = IlajMcp::new(state)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}
