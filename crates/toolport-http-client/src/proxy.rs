//! [`Proxy`]: where requests go (straight to the server, or through an HTTP proxy), and the
//! rules that pick a proxy for each destination: `*_PROXY` and `NO_PROXY`, as curl reads them.

use std::fmt;
use std::net::IpAddr;

use http::Uri;
use hyper_util::client::proxy::matcher::{Intercept, Matcher};
use toolport_core::Secret;

use crate::url::redacted_url_text;

/// Whether requests go through a proxy. The default reads the environment, as curl and
/// reqwest do.
#[derive(Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Proxy {
    /// `HTTPS_PROXY` for `https` servers, `HTTP_PROXY` for `http` ones, `ALL_PROXY` for both
    /// when the other is unset (each also in lower case), except for hosts that `NO_PROXY`
    /// lists. Loopback servers (`localhost`, `127.0.0.0/8`, `[::1]`) are never proxied.
    #[default]
    FromEnvironment,
    /// Every request goes straight to its server; the environment is not read.
    Off,
    /// Every request goes through this `http://` proxy, loopback servers included, except for
    /// hosts that `NO_PROXY` (or [`proxy_bypass`](crate::WithHttpOptions::proxy_bypass))
    /// lists. Credentials in the URL are sent as `Proxy-Authorization`.
    Url(Secret),
}

impl fmt::Debug for Proxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::FromEnvironment => f.write_str("FromEnvironment"),
            Self::Off => f.write_str("Off"),
            Self::Url(url) => f
                .debug_tuple("Url")
                .field(&redacted_url_text(url.expose()))
                .finish(),
        }
    }
}

/// The proxy rules of one client: which destinations go through which proxy.
pub(crate) struct Proxies {
    /// `None`: every request goes straight to its server.
    matcher: Option<Matcher>,
    /// Whether loopback destinations may be proxied (only a proxy set explicitly).
    loopback: bool,
    /// `NO_PROXY` is `*`: nothing is proxied (hyper-util matches `*` against names only).
    bypass_all: bool,
}

/// The proxy variables, first the upper-case name, then the lower-case one, as curl reads them.
const ALL_PROXY: [&str; 2] = ["ALL_PROXY", "all_proxy"];
const HTTPS_PROXY: [&str; 2] = ["HTTPS_PROXY", "https_proxy"];
const HTTP_PROXY: [&str; 2] = ["HTTP_PROXY", "http_proxy"];
const NO_PROXY: [&str; 2] = ["NO_PROXY", "no_proxy"];

impl Proxies {
    /// No proxy at all.
    pub(crate) fn off() -> Self {
        Self {
            matcher: None,
            loopback: false,
            bypass_all: false,
        }
    }

    /// The rules of `proxy` and `bypass` (a `NO_PROXY` list that replaces the variable), with
    /// the variables read from the process's environment.
    pub(crate) fn new(proxy: &Proxy, bypass: Option<&str>) -> Result<Self, String> {
        Self::with_variables(proxy, bypass, |name| std::env::var(name).ok())
    }

    /// [`new`](Self::new) with the variables read by `variable`.
    fn with_variables(
        proxy: &Proxy,
        bypass: Option<&str>,
        variable: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, String> {
        let first = |names: [&'static str; 2]| {
            names
                .iter()
                .find_map(|name| variable(name).filter(|value| !value.trim().is_empty()))
                .map(|value| (names[0], value))
        };
        let no = match bypass {
            Some(list) => list.to_owned(),
            None => first(NO_PROXY).map(|(_, value)| value).unwrap_or_default(),
        };
        let bypass_all = no.split(',').any(|entry| entry.trim() == "*");
        let builder = Matcher::builder().no(no);
        let (builder, loopback) = match proxy {
            Proxy::Off => return Ok(Self::off()),
            Proxy::Url(url) => (builder.all(checked("the proxy", url.expose())?), true),
            // A CGI program must not take its proxy from a request header (httpoxy).
            Proxy::FromEnvironment if variable("REQUEST_METHOD").is_some() => {
                return Ok(Self::off());
            }
            Proxy::FromEnvironment => {
                let mut builder = builder;
                if let Some((name, value)) = first(ALL_PROXY) {
                    builder = builder.all(checked(name, &value)?);
                }
                if let Some((name, value)) = first(HTTPS_PROXY) {
                    builder = builder.https(checked(name, &value)?);
                }
                if let Some((name, value)) = first(HTTP_PROXY) {
                    builder = builder.http(checked(name, &value)?);
                }
                (builder, false)
            }
        };
        Ok(Self {
            matcher: Some(builder.build()),
            loopback,
            bypass_all,
        })
    }

    /// The proxy a request to `destination` goes through, if any.
    pub(crate) fn intercept(&self, destination: &Uri) -> Option<Intercept> {
        let matcher = self.matcher.as_ref()?;
        if self.bypass_all || (!self.loopback && is_loopback(destination.host()?)) {
            return None;
        }
        matcher.intercept(destination)
    }

    /// Whether some destination may go through a proxy.
    pub(crate) fn is_on(&self) -> bool {
        self.matcher.is_some()
    }
}

impl fmt::Debug for Proxies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The matcher's own `Debug` leaves the credentials out.
        f.debug_struct("Proxies")
            .field("matcher", &self.matcher)
            .field("loopback", &self.loopback)
            .finish()
    }
}

/// `value` once it names an `http://` proxy (or a bare `host:port`, as curl takes it); the
/// error names the setting and the URL without its credentials.
fn checked(setting: &str, value: &str) -> Result<String, String> {
    let value = value.trim();
    let shown = redacted_url_text(value);
    let scheme = value.split_once("://").map(|(scheme, _)| scheme);
    if let Some(scheme) = scheme.filter(|scheme| !scheme.eq_ignore_ascii_case("http")) {
        return Err(format!(
            "{setting} is `{shown}`: a `{scheme}` proxy is not supported, only `http://host:port` \
             (https servers are reached through it with CONNECT)"
        ));
    }
    let with_scheme = match scheme {
        Some(_) => value.to_owned(),
        None => format!("http://{value}"),
    };
    match with_scheme.parse::<Uri>() {
        Ok(uri) if uri.host().is_some_and(|host| !host.is_empty()) => Ok(with_scheme),
        _ => Err(format!(
            "{setting} is `{shown}`, which is not a proxy URL: expected `http://host:port`"
        )),
    }
}

/// Whether `host` is this machine's loopback: `localhost`, a name under it, `127.0.0.0/8` or
/// `::1`.
fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = host.parse::<IpAddr>() {
        return ip.is_loopback();
    }
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn from(variables: &[(&str, &str)]) -> Proxies {
        let variables: HashMap<String, String> = variables
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect();
        Proxies::with_variables(&Proxy::FromEnvironment, None, |name| {
            variables.get(name).cloned()
        })
        .unwrap()
    }

    fn proxy_of(proxies: &Proxies, url: &str) -> Option<String> {
        proxies
            .intercept(&url.parse().unwrap())
            .map(|intercept| intercept.uri().to_string())
    }

    #[test]
    fn https_and_http_servers_take_their_own_variable_and_all_proxy_fills_in() {
        let proxies = from(&[
            ("https_proxy", "http://secure:3128"),
            ("ALL_PROXY", "http://fallback:3128"),
        ]);
        let secure = proxy_of(&proxies, "https://tools.example.com/mcp");
        assert_eq!(secure.as_deref(), Some("http://secure:3128/"));
        let plain = proxy_of(&proxies, "http://tools.example.com/mcp");
        assert_eq!(plain.as_deref(), Some("http://fallback:3128/"));
    }

    #[test]
    fn no_proxy_takes_hosts_domains_ips_and_ranges() {
        let proxies = from(&[
            ("HTTPS_PROXY", "proxy.corp:3128"),
            (
                "NO_PROXY",
                "exact.example.com, .corp.example, plain.example, 10.1.2.3, 192.168.0.0/16",
            ),
        ]);
        for bypassed in [
            "https://exact.example.com/",
            "https://deep.corp.example/",
            "https://corp.example/",
            "https://sub.plain.example/",
            "https://10.1.2.3/",
            "https://192.168.7.9:8443/",
        ] {
            assert_eq!(proxy_of(&proxies, bypassed), None, "{bypassed}");
        }
        for proxied in [
            "https://other.example.com/",
            "https://notplain.example/",
            "https://10.1.2.4/",
        ] {
            assert!(proxy_of(&proxies, proxied).is_some(), "{proxied}");
        }
    }

    #[test]
    fn a_star_in_no_proxy_bypasses_names_and_addresses() {
        let proxies = from(&[("HTTPS_PROXY", "http://proxy:3128"), ("no_proxy", "*")]);
        assert_eq!(proxy_of(&proxies, "https://tools.example.com/"), None);
        assert_eq!(proxy_of(&proxies, "https://10.0.0.1/"), None);
    }

    #[test]
    fn loopback_is_never_proxied_from_the_environment_but_is_when_asked() {
        let proxies = from(&[("ALL_PROXY", "http://proxy:3128")]);
        for loopback in [
            "http://localhost:3000/",
            "http://api.localhost/",
            "http://127.0.0.1:3000/",
            "http://127.1.2.3/",
            "http://[::1]:3000/",
        ] {
            assert_eq!(proxy_of(&proxies, loopback), None, "{loopback}");
        }
        let asked = Proxies::new(&Proxy::Url(Secret::new("http://proxy:3128")), Some("")).unwrap();
        assert!(proxy_of(&asked, "http://127.0.0.1:3000/").is_some());
    }

    #[test]
    fn a_cgi_program_takes_no_proxy_from_the_environment() {
        let proxies = from(&[("HTTP_PROXY", "http://evil:80"), ("REQUEST_METHOD", "GET")]);
        assert!(!proxies.is_on());
    }

    #[test]
    fn a_socks_proxy_is_refused_without_showing_its_credentials() {
        let error = Proxies::with_variables(&Proxy::FromEnvironment, None, |name| {
            (name == "ALL_PROXY").then(|| "socks5://user:hunter2@proxy:1080".to_owned())
        })
        .err()
        .unwrap();
        assert!(
            error.contains("ALL_PROXY is `socks5://proxy:1080`"),
            "{error}"
        );
        assert!(!error.contains("hunter2"));
    }

    #[test]
    fn credentials_become_proxy_authorization_and_stay_out_of_debug() {
        let proxy = Proxy::Url(Secret::new("http://user:hunter2@proxy:3128"));
        let proxies = Proxies::new(&proxy, Some("")).unwrap();
        let intercept = proxies
            .intercept(&"https://tools.example.com/".parse().unwrap())
            .unwrap();
        // base64("user:hunter2")
        assert_eq!(intercept.basic_auth().unwrap(), "Basic dXNlcjpodW50ZXIy");
        for shown in [format!("{proxy:?}"), format!("{proxies:?}")] {
            assert!(
                !shown.contains("hunter2") && !shown.contains("dXNlcjpodW50ZXIy"),
                "{shown}"
            );
        }
    }
}
