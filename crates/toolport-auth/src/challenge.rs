//! Reading a `WWW-Authenticate` header: [`Challenge`]s (RFC 9110 §11.6.1) and the Bearer
//! challenge's parameters MCP uses ([`BearerChallenge`], RFC 6750 §3 and RFC 9728 §5.1).

/// One challenge of a `WWW-Authenticate` header: its scheme and either a `token68` or
/// `name=value` parameters.
///
/// Scheme and parameter names are compared without regard to ASCII case; names are kept in
/// lower case. Values are unquoted (`\"` becomes `"`), never otherwise changed.
///
/// # Examples
///
/// ```
/// use toolport_auth::Challenge;
///
/// let challenges = Challenge::parse_all(r#"Basic realm="x", Bearer scope="a b", error=invalid_token"#);
/// assert_eq!(challenges.len(), 2);
/// assert!(challenges[1].is_scheme("bearer"));
/// assert_eq!(challenges[1].param("Scope"), Some("a b"));
/// assert_eq!(challenges[1].param("error"), Some("invalid_token"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    scheme: String,
    token68: Option<String>,
    params: Vec<(String, String)>,
}

impl Challenge {
    /// Every challenge in one `WWW-Authenticate` header value, in order. Malformed parts are
    /// skipped up to the next comma; an unterminated quoted string ends the header (the
    /// parameter it starts is dropped, since its value would be cut short).
    pub fn parse_all(header: &str) -> Vec<Self> {
        Parser::new(header).challenges()
    }

    /// The auth-scheme as sent, such as `Bearer`.
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// Whether the scheme is `scheme`, ignoring ASCII case.
    pub fn is_scheme(&self, scheme: &str) -> bool {
        self.scheme.eq_ignore_ascii_case(scheme)
    }

    /// The `token68` form's value (`Basic` and `Negotiate` use it), if the challenge has one.
    pub fn token68(&self) -> Option<&str> {
        self.token68.as_deref()
    }

    /// The value of parameter `name` (any case). A parameter named twice, which RFC 9110
    /// forbids, gives its first value.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// All parameters in order, names in lower case.
    pub fn params(&self) -> impl Iterator<Item = (&str, &str)> {
        self.params
            .iter()
            .map(|(key, value)| (key.as_str(), value.as_str()))
    }
}

/// The parameters of a `Bearer` challenge that MCP authorization acts on: where the
/// protected-resource metadata is (`resource_metadata`, RFC 9728 §5.1), the scopes the request
/// needs (`scope`), and why it was refused (`error`, `error_description`).
///
/// # Examples
///
/// ```
/// use toolport_auth::BearerChallenge;
///
/// let challenge = BearerChallenge::parse(
///     r#"Bearer error="insufficient_scope", scope="files:read files:write",
///        resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource""#,
/// )
/// .unwrap();
/// assert!(challenge.is_insufficient_scope());
/// assert_eq!(challenge.scopes().collect::<Vec<_>>(), ["files:read", "files:write"]);
/// assert_eq!(
///     challenge.resource_metadata(),
///     Some("https://mcp.example.com/.well-known/oauth-protected-resource")
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BearerChallenge {
    realm: Option<String>,
    resource_metadata: Option<String>,
    scope: Option<String>,
    error: Option<String>,
    error_description: Option<String>,
}

impl BearerChallenge {
    /// The first `Bearer` challenge in a `WWW-Authenticate` header value, if there is one.
    pub fn parse(header: &str) -> Option<Self> {
        Self::find(&Challenge::parse_all(header))
    }

    /// The first `Bearer` challenge among `challenges` (gather them from every
    /// `WWW-Authenticate` header of a response), if there is one.
    pub fn find(challenges: &[Challenge]) -> Option<Self> {
        challenges.iter().find_map(Self::from_challenge)
    }

    /// The Bearer parameters of `challenge`, or `None` when its scheme is not `Bearer`.
    pub fn from_challenge(challenge: &Challenge) -> Option<Self> {
        challenge
            .is_scheme("Bearer")
            .then(|| Self::params_of(challenge))
    }

    /// The same parameters of a `DPoP` challenge (RFC 9449 §7.1), which a server that takes
    /// DPoP-bound tokens may send instead of a Bearer one; `None` for another scheme.
    pub(crate) fn from_dpop_challenge(challenge: &Challenge) -> Option<Self> {
        challenge
            .is_scheme("DPoP")
            .then(|| Self::params_of(challenge))
    }

    /// The parameters MCP acts on, whatever the scheme.
    fn params_of(challenge: &Challenge) -> Self {
        let get = |name: &str| challenge.param(name).map(str::to_owned);
        Self {
            realm: get("realm"),
            resource_metadata: get("resource_metadata"),
            scope: get("scope"),
            error: get("error"),
            error_description: get("error_description"),
        }
    }

    /// `realm`, if given.
    pub fn realm(&self) -> Option<&str> {
        self.realm.as_deref()
    }

    /// `resource_metadata`: the URL of the server's protected-resource metadata, as sent.
    pub fn resource_metadata(&self) -> Option<&str> {
        self.resource_metadata.as_deref()
    }

    /// `scope` as sent: scope tokens separated by spaces.
    pub fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }

    /// The scope tokens of `scope` (none when it is absent).
    pub fn scopes(&self) -> impl Iterator<Item = &str> {
        self.scope
            .as_deref()
            .unwrap_or_default()
            .split(' ')
            .filter(|scope| !scope.is_empty())
    }

    /// `error`, such as `invalid_token` or `insufficient_scope`.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// `error_description`: words for a person, from the server.
    pub fn error_description(&self) -> Option<&str> {
        self.error_description.as_deref()
    }

    /// Whether `error` is `insufficient_scope`: the token is valid but needs more scopes
    /// (a step-up).
    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// A cursor over the header's bytes. The header is ASCII in practice; any other byte is never
/// a delimiter, so slicing at delimiters stays on `char` boundaries.
struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }

    fn challenges(mut self) -> Vec<Challenge> {
        let mut challenges = Vec::new();
        loop {
            self.skip_separators();
            if self.at_end() {
                return challenges;
            }
            let Some(scheme) = self.token() else {
                self.skip_past_comma();
                continue;
            };
            let mut challenge = Challenge {
                scheme: scheme.to_owned(),
                token68: None,
                params: Vec::new(),
            };
            if self.skip_whitespace() && !self.at_end() && self.peek() != Some(b',') {
                if self.param_ahead(false) {
                    if !self.param_into(&mut challenge) {
                        challenges.push(challenge);
                        return challenges;
                    }
                } else if let Some(token68) = self.token68() {
                    challenge.token68 = Some(token68.to_owned());
                } else {
                    self.skip_past_comma();
                }
            }
            if !self.more_params_into(&mut challenge) {
                challenges.push(challenge);
                return challenges;
            }
            challenges.push(challenge);
        }
    }

    /// Reads `, name=value` pairs into `challenge` until what follows a comma is not a
    /// parameter (the next challenge) or the header ends. False when an unterminated quoted
    /// string ended the header.
    fn more_params_into(&mut self, challenge: &mut Challenge) -> bool {
        loop {
            self.skip_whitespace();
            match self.peek() {
                None => return true,
                Some(b',') => {}
                Some(_) => {
                    // Junk after a value: skip to the next comma and carry on.
                    self.skip_to_comma();
                    continue;
                }
            }
            let before = self.at;
            self.skip_separators();
            if !self.param_ahead(true) {
                self.at = before;
                return true;
            }
            if !self.param_into(challenge) {
                return false;
            }
        }
    }

    /// Reads one `name BWS = BWS (token / quoted-string)`. False when the value is an
    /// unterminated quoted string; the parameter is then dropped and the header is over.
    fn param_into(&mut self, challenge: &mut Challenge) -> bool {
        let name = self.token().unwrap_or_default().to_ascii_lowercase();
        self.skip_whitespace();
        self.at += 1; // '='
        self.skip_whitespace();
        let value = if self.peek() == Some(b'"') {
            match self.quoted_string() {
                Some(value) => value,
                None => {
                    self.at = self.text.len();
                    return false;
                }
            }
        } else {
            self.token().unwrap_or_default().to_owned()
        };
        challenge.params.push((name, value));
        true
    }

    /// Whether a parameter starts here: a token, optional whitespace and `=`, and then (unless
    /// `lenient`) a token or a quoted string. Right after the scheme the value must be there,
    /// so that a `token68` ending in `=` is not taken for a parameter.
    fn param_ahead(&self, lenient: bool) -> bool {
        let bytes = self.text.as_bytes();
        let mut at = self.at;
        let start = at;
        while at < bytes.len() && is_tchar(bytes[at]) {
            at += 1;
        }
        if at == start {
            return false;
        }
        while at < bytes.len() && is_whitespace(bytes[at]) {
            at += 1;
        }
        if bytes.get(at) != Some(&b'=') {
            return false;
        }
        at += 1;
        while at < bytes.len() && is_whitespace(bytes[at]) {
            at += 1;
        }
        lenient || bytes.get(at).is_some_and(|&b| b == b'"' || is_tchar(b))
    }

    fn token(&mut self) -> Option<&'a str> {
        self.take_while(is_tchar)
    }

    fn token68(&mut self) -> Option<&'a str> {
        let start = self.at;
        self.take_while(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))?;
        self.take_while(|b| b == b'=');
        Some(&self.text[start..self.at])
    }

    /// A quoted string starting at `"`, unescaped; `None` when it never ends.
    fn quoted_string(&mut self) -> Option<String> {
        let bytes = self.text.as_bytes();
        let mut value = Vec::new();
        let mut at = self.at + 1;
        while at < bytes.len() {
            match bytes[at] {
                b'"' => {
                    self.at = at + 1;
                    return Some(String::from_utf8_lossy(&value).into_owned());
                }
                b'\\' if at + 1 < bytes.len() => {
                    value.push(bytes[at + 1]);
                    at += 2;
                }
                byte => {
                    value.push(byte);
                    at += 1;
                }
            }
        }
        None
    }

    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> Option<&'a str> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() && keep(bytes[self.at]) {
            self.at += 1;
        }
        (self.at > start).then(|| &self.text[start..self.at])
    }

    /// Skips spaces and tabs; true if there were any.
    fn skip_whitespace(&mut self) -> bool {
        self.take_while(is_whitespace).is_some()
    }

    fn skip_separators(&mut self) {
        self.take_while(|b| b == b',' || is_whitespace(b));
    }

    fn skip_to_comma(&mut self) {
        self.take_while(|b| b != b',');
    }

    fn skip_past_comma(&mut self) {
        self.skip_to_comma();
        if !self.at_end() {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn at_end(&self) -> bool {
        self.at >= self.text.len()
    }
}

/// Spaces and tabs, and the line breaks of a folded header (obs-fold, RFC 9112 §5.2), which
/// a recipient reads as spaces.
fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

/// RFC 9110's `tchar`.
fn is_tchar(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(challenge: &Challenge) -> Vec<(&str, &str)> {
        challenge.params().collect()
    }

    #[test]
    fn the_mcp_example_401_is_read() {
        let header = "Bearer resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource\",\n                         scope=\"files:read\"";
        let challenge = BearerChallenge::parse(header).unwrap();
        assert_eq!(
            challenge.resource_metadata(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(challenge.scope(), Some("files:read"));
        assert_eq!(challenge.error(), None);
    }

    #[test]
    fn the_mcp_example_403_is_an_insufficient_scope() {
        let header = r#"Bearer error="insufficient_scope", scope="files:read files:write user:profile", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="Additional file write permission required""#;
        let challenge = BearerChallenge::parse(header).unwrap();
        assert!(challenge.is_insufficient_scope());
        assert_eq!(
            challenge.scopes().collect::<Vec<_>>(),
            ["files:read", "files:write", "user:profile"]
        );
        assert_eq!(
            challenge.error_description(),
            Some("Additional file write permission required")
        );
    }

    #[test]
    fn scheme_and_names_ignore_case_and_values_keep_theirs() {
        let challenge =
            BearerChallenge::parse(r#"bEaReR SCOPE="Read", Error=Invalid_Token"#).unwrap();
        assert_eq!(challenge.scope(), Some("Read"));
        assert_eq!(challenge.error(), Some("Invalid_Token"));
        assert!(!challenge.is_insufficient_scope());
    }

    #[test]
    fn quoted_strings_unescape_and_may_hold_commas_and_equals() {
        let all = Challenge::parse_all(r#"Bearer error_description="a \"b\", c=d \\ e", realm=x"#);
        assert_eq!(all.len(), 1);
        assert_eq!(
            params(&all[0]),
            [("error_description", r#"a "b", c=d \ e"#), ("realm", "x")]
        );
    }

    #[test]
    fn several_challenges_in_one_header_are_told_apart() {
        let all = Challenge::parse_all(
            r#"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple", DPoP algs="ES256 PS256", Bearer scope="s""#,
        );
        let schemes: Vec<_> = all.iter().map(Challenge::scheme).collect();
        assert_eq!(schemes, ["Newauth", "Basic", "DPoP", "Bearer"]);
        assert_eq!(
            params(&all[0]),
            [
                ("realm", "apps"),
                ("type", "1"),
                ("title", r#"Login to "apps""#)
            ]
        );
        assert_eq!(all[2].param("algs"), Some("ES256 PS256"));
        assert_eq!(BearerChallenge::find(&all).unwrap().scope(), Some("s"));
    }

    #[test]
    fn a_token68_is_kept_and_does_not_swallow_the_next_challenge() {
        let all = Challenge::parse_all("Negotiate abc+/d==, Bearer realm=r");
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].token68(), Some("abc+/d=="));
        assert!(all[0].params().next().is_none());
        assert_eq!(all[1].param("realm"), Some("r"));
    }

    #[test]
    fn a_bare_scheme_and_empty_list_elements_are_fine() {
        let all = Challenge::parse_all(" , Bearer ,, Basic realm=x ,");
        let schemes: Vec<_> = all.iter().map(Challenge::scheme).collect();
        assert_eq!(schemes, ["Bearer", "Basic"]);
        assert!(BearerChallenge::parse("Bearer").unwrap().scope().is_none());
        assert!(Challenge::parse_all("").is_empty());
    }

    #[test]
    fn whitespace_around_equals_is_allowed() {
        let challenge = BearerChallenge::parse("Bearer scope = \"a\" , error =\tx").unwrap();
        assert_eq!(challenge.scope(), Some("a"));
        assert_eq!(challenge.error(), Some("x"));
    }

    #[test]
    fn the_first_of_a_repeated_parameter_wins() {
        let challenge = BearerChallenge::parse(r#"Bearer scope="a", scope="b""#).unwrap();
        assert_eq!(challenge.scope(), Some("a"));
    }

    #[test]
    fn an_unterminated_quoted_string_drops_its_parameter_and_ends_the_header() {
        let all = Challenge::parse_all(r#"Bearer realm="r", scope="a b, Basic realm=x"#);
        assert_eq!(all.len(), 1);
        assert_eq!(params(&all[0]), [("realm", "r")]);
    }

    #[test]
    fn junk_is_skipped_up_to_the_next_comma() {
        let all = Challenge::parse_all(r#"Bearer realm="r" junk here, scope="s", "odd", Basic"#);
        let schemes: Vec<_> = all.iter().map(Challenge::scheme).collect();
        assert_eq!(schemes, ["Bearer", "Basic"]);
        assert_eq!(params(&all[0]), [("realm", "r"), ("scope", "s")]);
    }

    #[test]
    fn no_bearer_challenge_gives_none() {
        assert_eq!(BearerChallenge::parse(r#"Basic realm="x""#), None);
        assert_eq!(BearerChallenge::parse(""), None);
    }

    #[test]
    fn scopes_skip_repeated_spaces() {
        let challenge = BearerChallenge::parse(r#"Bearer scope="  a   b ""#).unwrap();
        assert_eq!(challenge.scopes().collect::<Vec<_>>(), ["a", "b"]);
    }

    #[test]
    fn non_ascii_text_does_not_panic() {
        let all = Challenge::parse_all("Bearer error_description=\"déjà vu\", ü=1, Basic");
        assert_eq!(all[0].param("error_description"), Some("déjà vu"));
    }
}
