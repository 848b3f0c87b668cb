//! `ilaj mcp`: the MCP server on standard input/output, for an agent that starts ilaj as a
//! local process. Nothing but the protocol goes to stdout; logs go to stderr.

use super::CmdError;
use crate::cli::McpArgs;
use crate::content;
use crate::web;

pub async fn run(args: McpArgs) -> Result<(), CmdError> {
    let report = content::load_dir(&args.content)?;
    for problem in &report.problems {
        tracing::warn!(%problem, "content problem");
    }
    let services = web::Services {
        public_url: args.public_url,
        ..web::Services::default()
    };
    let state = web::AppState::with_services(report.library, services)?;
    web::mcp::serve_stdio(state).await.map_err(CmdError::Serve)
}
