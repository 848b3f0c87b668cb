//! Languages: codes, detection, and (with fluent) the interface's localized messages.

mod detect;
mod lang;

pub use detect::detect_language;
pub use lang::{Lang, UnsupportedLanguage};
