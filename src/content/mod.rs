//! Articles: reading them from files (Markdown with YAML front matter, or reStructuredText),
//! rendering them, and holding them grouped by id in a [`Library`].

mod frontmatter;
pub mod glossary;
mod library;
mod loader;
mod markdown;
mod model;
mod rst;
pub mod style;
pub mod watch;

pub use glossary::{Glossary, Term};
pub use library::Library;
pub use loader::{ContentError, LoadReport, load_dir, parse_article};
pub use model::{Article, CALCULATORS, Problem, Section};
