//! Languages: codes, detection, and the interface's localized messages (Fluent).

mod detect;
mod lang;
mod messages;
mod numbers;

pub use detect::detect_language;
pub use fluent_bundle::FluentArgs;
pub use lang::{Lang, UnsupportedLanguage};
pub use messages::{Messages, messages, source_problems, sources};
pub use numbers::NumberFormat;
