//! Variable expansion in configuration values: `${VAR}`, `${VAR:-default}` and VS Code's
//! `${env:VAR}`.

/// What went wrong expanding one value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExpandError {
    /// `${NAME}` names a variable that is not set, and gives no default.
    #[error(
        "the environment variable `{0}` is not set, and `${{{0}}}` gives no default (write `${{{0}:-default}}` for one)"
    )]
    Unset(String),
    /// A `${` without its `}`.
    #[error("`${{` at byte {0} is never closed with `}}`")]
    Unclosed(usize),
    /// `${...}` holds something other than a variable name, such as VS Code's `${input:id}`.
    #[error(
        "`${{{0}}}` is not a variable this file format expands (only `${{VAR}}`, `${{VAR:-default}}` and `${{env:VAR}}`)"
    )]
    Unsupported(String),
}

/// `template` with every `${...}` replaced by the value `lookup` gives its variable, or by the
/// default after `:-` when the variable is unset or empty. A `$` not followed by `{` is kept.
pub fn expand(
    template: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, ExpandError> {
    let mut expanded = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("${") {
        expanded.push_str(&rest[..start]);
        let inner_start = start + 2;
        let Some(length) = rest[inner_start..].find('}') else {
            let offset = template.len() - rest.len() + start;
            return Err(ExpandError::Unclosed(offset));
        };
        let inner = &rest[inner_start..inner_start + length];
        expanded.push_str(&substitute(inner, lookup)?);
        rest = &rest[inner_start + length + 1..];
    }
    expanded.push_str(rest);
    Ok(expanded)
}

/// The value of one `${inner}`.
fn substitute(inner: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Result<String, ExpandError> {
    let unprefixed = inner.strip_prefix("env:").unwrap_or(inner);
    let (name, default) = match unprefixed.split_once(":-") {
        Some((name, default)) => (name, Some(default)),
        None => (unprefixed, None),
    };
    let vs_code_variable = inner == unprefixed && VS_CODE_VARIABLES.contains(&name);
    if !is_variable_name(name) || vs_code_variable {
        return Err(ExpandError::Unsupported(inner.to_owned()));
    }
    match (lookup(name), default) {
        (Some(value), Some(default)) if value.is_empty() => Ok(default.to_owned()),
        (Some(value), _) => Ok(value),
        (None, Some(default)) => Ok(default.to_owned()),
        (None, None) => Err(ExpandError::Unset(name.to_owned())),
    }
}

/// VS Code's own variables, which name no environment variable: `${workspaceFolder}` is
/// refused rather than read from the environment (`${env:workspaceFolder}` still is).
const VS_CODE_VARIABLES: [&str; 7] = [
    "workspaceFolder",
    "workspaceFolderBasename",
    "userHome",
    "cwd",
    "pathSeparator",
    "execPath",
    "file",
];

/// Whether `name` is a shell variable name: a letter or `_`, then letters, digits and `_`.
fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<String> {
        match name {
            "HOME" => Some("/home/ada".to_owned()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn every_form_expands() {
        assert_eq!(expand("${HOME}/bin", &lookup).unwrap(), "/home/ada/bin");
        assert_eq!(expand("${env:HOME}", &lookup).unwrap(), "/home/ada");
        assert_eq!(expand("${PORT:-8080}", &lookup).unwrap(), "8080");
        assert_eq!(expand("${env:PORT:-80}", &lookup).unwrap(), "80");
        assert_eq!(expand("${EMPTY:-x}", &lookup).unwrap(), "x");
        assert_eq!(expand("${EMPTY}", &lookup).unwrap(), "");
        assert_eq!(
            expand("a ${HOME} b ${HOME}", &lookup).unwrap(),
            "a /home/ada b /home/ada"
        );
        assert_eq!(
            expand("cost: $5, ${PORT:-}", &lookup).unwrap(),
            "cost: $5, "
        );
    }

    #[test]
    fn an_unset_variable_without_a_default_is_named() {
        let error = expand("Bearer ${API_TOKEN}", &lookup).unwrap_err();
        assert_eq!(error, ExpandError::Unset("API_TOKEN".to_owned()));
        assert!(
            error.to_string().contains("`API_TOKEN` is not set"),
            "{error}"
        );
    }

    #[test]
    fn malformed_references_are_errors() {
        assert_eq!(expand("x ${HOME", &lookup), Err(ExpandError::Unclosed(2)));
        assert_eq!(
            expand("${input:api-key}", &lookup),
            Err(ExpandError::Unsupported("input:api-key".to_owned()))
        );
        assert_eq!(
            expand("${workspace Folder}", &lookup),
            Err(ExpandError::Unsupported("workspace Folder".to_owned()))
        );
        assert_eq!(
            expand("${workspaceFolder}/server.js", &lookup),
            Err(ExpandError::Unsupported("workspaceFolder".to_owned()))
        );
    }
}
