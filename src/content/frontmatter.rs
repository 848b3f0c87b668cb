//! YAML front matter between `---` lines, as Jekyll and Hugo write it.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_norway::Value;

/// Front-matter keys ilaj reads; anything else lands in `extra`.
#[derive(Debug, Default, Deserialize)]
pub struct FrontMatter {
    pub id: Option<String>,
    pub lang: Option<String>,
    pub title: Option<String>,
    pub summary: Option<String>,
    #[serde(default)]
    pub errors: Vec<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub calculators: Vec<String>,
    pub updated: Option<Value>,
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

/// A file split into its front matter and body.
pub struct Split<'a> {
    /// The YAML text, if the file has a front-matter block.
    pub yaml: Option<&'a str>,
    pub body: &'a str,
    /// Lines before the body starts, to turn body line numbers into file line numbers.
    pub body_line_offset: usize,
}

pub fn split(text: &str) -> Split<'_> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let no_front_matter = Split {
        yaml: None,
        body: text,
        body_line_offset: 0,
    };
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return no_front_matter;
    };
    let mut offset = 0;
    for (index, line) in rest.split_inclusive('\n').enumerate() {
        if matches!(line.trim_end(), "---" | "...") {
            return Split {
                yaml: Some(&rest[..offset]),
                body: &rest[offset + line.len()..],
                body_line_offset: index + 2,
            };
        }
        offset += line.len();
    }
    no_front_matter
}

/// Parses the YAML block; on error, the 1-based line in the YAML block where it failed.
pub fn parse(yaml: &str) -> Result<FrontMatter, (usize, String)> {
    if yaml.trim().is_empty() {
        return Ok(FrontMatter::default());
    }
    serde_norway::from_str::<FrontMatter>(yaml).map_err(|error| {
        let line = error.location().map(|l| l.line()).unwrap_or(1);
        (line, format!("bad front matter: {error}"))
    })
}

/// A scalar front-matter value as text (dates and numbers included).
pub fn value_to_string(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Null => String::new(),
        other => serde_norway::to_string(other)
            .unwrap_or_default()
            .trim()
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_finds_block_and_body_line_offset() {
        let s = split("---\ntitle: x\n---\nbody\n");
        assert_eq!(s.yaml, Some("title: x\n"));
        assert_eq!(s.body, "body\n");
        assert_eq!(s.body_line_offset, 3);
    }

    #[test]
    fn unterminated_block_is_treated_as_body() {
        let s = split("---\ntitle: x\nno end");
        assert!(s.yaml.is_none());
    }

    #[test]
    fn unknown_keys_are_kept_in_extra() {
        let fm = parse("title: t\nlayout: post\ngenerated: true\n").unwrap();
        assert_eq!(fm.title.as_deref(), Some("t"));
        assert!(fm.extra.contains_key("layout"));
        assert!(fm.extra.contains_key("generated"));
    }

    #[test]
    fn yaml_error_reports_its_line() {
        let (line, message) = parse("title: ok\nerrors: [unclosed\n").unwrap_err();
        assert!(line >= 2, "line {line}: {message}");
    }
}
