//! [`EndpointPolicy`]: which authorization URLs Toolport sends a request to or hands to a
//! browser, decided from the URL alone before anything is sent, and [`EndpointRefused`].

use std::net::{Ipv4Addr, Ipv6Addr};

use toolport_http_client::toolkit::redacted_url;
use url::{Host, Origin, Url};

/// What [`EndpointRefused::RestrictedAddress`] says, whatever the address: the text never
/// tells one class of address (or one answer) from another.
const RESTRICTED: &str = "it names a private, link-local, loopback or unspecified address, which \
                          is contacted only when the authorizer allows private addresses \
                          (`allow_private_addresses`)";

/// Which URLs an authorizer may contact for the MCP server it authorizes with: every
/// protected-resource and authorization-server metadata URL, and the authorization, token and
/// registration endpoints (the MCP server names them, so they are untrusted input).
///
/// A URL passes when:
///
/// 1. it is `https`, or `http` to a loopback host (`localhost`, `127.0.0.0/8`, `[::1]`) while
///    the MCP server itself is not `https`: a server served over `https` never leads to plain
///    `http`;
/// 2. it is on the MCP server's own origin (the host the user chose), or its host is a name,
///    or a literal address outside the restricted ranges: private (`10/8`, `172.16/12`,
///    `192.168/16`, `fc00::/7`), shared (`100.64/10`), link-local (`169.254/16`,
///    `fe80::/10`), unspecified (`0.0.0.0/8`, `::`), broadcast, multicast, reserved
///    (`240/4`), and loopback unless the MCP server is itself on loopback. An IPv4-mapped IPv6
///    address is judged as its IPv4 address. [`allow_private_addresses`] lifts this rule.
///
/// Host names are not resolved here: a name's addresses are what the connector resolves when
/// it connects, and a lookup made only to check them could answer differently from the one
/// the connection uses (DNS rebinding). Only literal addresses are judged.
///
/// A refusal is decided before any request, so its text is the same whatever is (or is not)
/// listening there: a server cannot use the client to probe addresses and ports.
///
/// [`allow_private_addresses`]: Self::allow_private_addresses
///
/// # Examples
///
/// ```
/// use toolport_auth::{EndpointPolicy, EndpointRefused};
/// use url::Url;
///
/// let policy = EndpointPolicy::for_resource(&Url::parse("https://mcp.example.com/mcp").unwrap());
/// assert!(policy.check(&Url::parse("https://auth.example.com/token").unwrap()).is_ok());
/// let metadata = Url::parse("http://auth.example.com/.well-known/oauth-authorization-server").unwrap();
/// assert!(matches!(policy.check(&metadata), Err(EndpointRefused::HttpsDowngrade { .. })));
/// let cloud = Url::parse("https://169.254.169.254/latest/meta-data").unwrap();
/// assert!(matches!(policy.check(&cloud), Err(EndpointRefused::RestrictedAddress { .. })));
/// assert!(policy.allow_private_addresses(true).check(&cloud).is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointPolicy {
    /// The MCP server's origin: its own URLs pass the address rule.
    resource: Origin,
    https_resource: bool,
    loopback_resource: bool,
    private_addresses: bool,
}

impl EndpointPolicy {
    /// The policy for the MCP server at `server_url`, private addresses refused.
    pub fn for_resource(server_url: &Url) -> Self {
        Self {
            resource: server_url.origin(),
            https_resource: server_url.scheme() == "https",
            loopback_resource: is_loopback(server_url),
            private_addresses: false,
        }
    }

    /// Whether URLs whose host is a private, shared, link-local, loopback, unspecified,
    /// broadcast, multicast or reserved literal address may be contacted; `false` unless set.
    /// The scheme rule holds either way.
    #[must_use]
    pub fn allow_private_addresses(mut self, allow: bool) -> Self {
        self.private_addresses = allow;
        self
    }

    /// Whether `url` may be contacted (see [`EndpointPolicy`]).
    ///
    /// # Errors
    ///
    /// [`EndpointRefused`], saying which rule refused it.
    pub fn check(&self, url: &Url) -> Result<(), EndpointRefused> {
        check_scheme(url, self.https_resource)?;
        if url.origin() == self.resource {
            return Ok(());
        }
        let allowed = match address_class(url) {
            AddressClass::Open => true,
            AddressClass::Loopback => self.loopback_resource || self.private_addresses,
            AddressClass::Restricted => self.private_addresses,
        };
        if allowed {
            Ok(())
        } else {
            Err(EndpointRefused::RestrictedAddress {
                url: redacted_url(url),
            })
        }
    }
}

/// An authorization URL was refused by the [`EndpointPolicy`] (or, for the browser, by its
/// scheme), before anything was sent to it. Each message names the URL (without its query),
/// then the rule; the text depends on the URL alone.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EndpointRefused {
    /// Neither `https` nor `http` (a `file:`, `javascript:` or `data:` URL, say).
    #[error(
        "a `{scheme}:` URL is refused: authorization uses https URLs only (http only to a \
         loopback host)"
    )]
    Scheme {
        /// The URL's scheme.
        scheme: String,
    },
    /// `http` to a host that is not loopback.
    #[error(
        "{url} is refused: plain http goes only to a loopback host (localhost, 127.0.0.1, \
         [::1]); the authorization server must use https"
    )]
    PlainHttp {
        /// The URL, without its query.
        url: String,
    },
    /// `http` on behalf of an MCP server served over `https`.
    #[error(
        "{url} is refused: the MCP server is served over https, so its authorization server \
         must be too"
    )]
    HttpsDowngrade {
        /// The URL, without its query.
        url: String,
    },
    /// A literal address in a restricted range (one text for all of them).
    #[error("{url} is refused: {RESTRICTED}")]
    RestrictedAddress {
        /// The URL, without its query.
        url: String,
    },
}

impl EndpointRefused {
    /// The refused URL without its query; `None` for [`Scheme`](Self::Scheme), which is not
    /// a web URL.
    pub fn url(&self) -> Option<&str> {
        match self {
            Self::Scheme { .. } => None,
            Self::PlainHttp { url }
            | Self::HttpsDowngrade { url }
            | Self::RestrictedAddress { url } => Some(url),
        }
    }
}

/// The scheme rule alone: `https`, or `http` to a loopback host unless `https_resource`. It is
/// all a browser opener can judge.
pub(crate) fn check_scheme(url: &Url, https_resource: bool) -> Result<(), EndpointRefused> {
    match url.scheme() {
        "https" => Ok(()),
        "http" if https_resource => Err(EndpointRefused::HttpsDowngrade {
            url: redacted_url(url),
        }),
        "http" if is_loopback(url) => Ok(()),
        "http" => Err(EndpointRefused::PlainHttp {
            url: redacted_url(url),
        }),
        scheme => Err(EndpointRefused::Scheme {
            scheme: scheme.to_owned(),
        }),
    }
}

/// Whether `url`'s host is `localhost` or a loopback address.
pub(crate) fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Domain(name)) => {
            let name = name.strip_suffix('.').unwrap_or(name);
            name.eq_ignore_ascii_case("localhost")
        }
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip
            .to_ipv4_mapped()
            .map_or(ip.is_loopback(), |ip| ip.is_loopback()),
        None => false,
    }
}

/// Where a URL's host lies, for the address rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AddressClass {
    /// A name (not resolved here), or a literal address outside the restricted ranges.
    Open,
    /// `localhost`, or a loopback address.
    Loopback,
    /// Any other restricted range.
    Restricted,
}

fn address_class(url: &Url) -> AddressClass {
    if is_loopback(url) {
        return AddressClass::Loopback;
    }
    let restricted = match url.host() {
        Some(Host::Ipv4(ip)) => restricted_v4(ip),
        Some(Host::Ipv6(ip)) => ip
            .to_ipv4_mapped()
            .map_or_else(|| restricted_v6(ip), restricted_v4),
        Some(Host::Domain(_)) | None => false,
    };
    if restricted {
        AddressClass::Restricted
    } else {
        AddressClass::Open
    }
}

fn restricted_v4(ip: Ipv4Addr) -> bool {
    let [first, second, ..] = ip.octets();
    ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        // 0.0.0.0/8, "this network": 0.0.0.0 reaches the local host.
        || first == 0
        // 100.64.0.0/10, shared address space (carrier-grade NAT).
        || (first == 100 && (64..128).contains(&second))
        // 240.0.0.0/4, reserved.
        || first >= 240
}

fn restricted_v6(ip: Ipv6Addr) -> bool {
    ip.is_unspecified()
        || ip.is_multicast()
        || ip.is_unique_local()
        || ip.is_unicast_link_local()
        // fec0::/10, site-local (deprecated, still routed privately).
        || (ip.segments()[0] & 0xffc0) == 0xfec0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    fn policy(server: &str) -> EndpointPolicy {
        EndpointPolicy::for_resource(&url(server))
    }

    #[test]
    fn https_passes_and_http_only_to_loopback_for_a_server_that_is_not_https() {
        let local = policy("http://127.0.0.1:8000/mcp");
        assert_eq!(local.check(&url("https://auth.example.com/token")), Ok(()));
        assert_eq!(local.check(&url("http://127.0.0.1:9000/token")), Ok(()));
        assert_eq!(local.check(&url("http://localhost:9000/token")), Ok(()));
        assert_eq!(local.check(&url("http://[::1]:9000/token")), Ok(()));
        assert_eq!(
            local.check(&url("http://auth.example.com/token?x=secret")),
            Err(EndpointRefused::PlainHttp {
                url: "http://auth.example.com/token".into()
            })
        );
    }

    #[test]
    fn a_server_served_over_https_never_leads_to_http_even_on_loopback() {
        let remote = policy("https://mcp.example.com/mcp");
        for target in [
            "http://auth.example.com/.well-known/oauth-authorization-server",
            "http://127.0.0.1:9000/token",
            "http://mcp.example.com/.well-known/oauth-protected-resource",
        ] {
            assert!(
                matches!(
                    remote.check(&url(target)),
                    Err(EndpointRefused::HttpsDowngrade { .. })
                ),
                "{target}"
            );
        }
    }

    #[test]
    fn other_schemes_are_refused_naming_the_scheme() {
        for (target, scheme) in [
            ("file:///etc/passwd?response_type=code", "file"),
            ("javascript:alert(1)", "javascript"),
            ("data:text/html,hi", "data"),
            ("ftp://auth.example.com/authorize", "ftp"),
        ] {
            let error = policy("http://127.0.0.1/mcp")
                .check(&url(target))
                .unwrap_err();
            assert_eq!(
                error,
                EndpointRefused::Scheme {
                    scheme: scheme.into()
                }
            );
            assert!(
                error.to_string().contains(&format!("`{scheme}:`")),
                "{error}"
            );
            assert_eq!(error.url(), None);
        }
    }

    #[test]
    fn restricted_literals_are_refused_with_one_text_whatever_the_address() {
        let remote = policy("https://mcp.example.com/mcp");
        let targets = [
            ("https://10.0.0.1/token", "https://10.0.0.1/token"),
            ("https://172.16.5.4/token", "https://172.16.5.4/token"),
            (
                "https://192.168.1.1:8443/token",
                "https://192.168.1.1:8443/token",
            ),
            (
                "https://169.254.169.254/token",
                "https://169.254.169.254/token",
            ),
            // 169.254.169.254 written as one decimal number.
            ("https://2852039166/token", "https://169.254.169.254/token"),
            ("https://100.64.0.1/token", "https://100.64.0.1/token"),
            ("https://0.0.0.0/token", "https://0.0.0.0/token"),
            ("https://127.0.0.1/token", "https://127.0.0.1/token"),
            ("https://0x7f.1/token", "https://127.0.0.1/token"),
            ("https://localhost/token", "https://localhost/token"),
            ("https://[fe80::1]/token", "https://[fe80::1]/token"),
            ("https://[fd00::1]/token", "https://[fd00::1]/token"),
            ("https://[::]/token", "https://[::]/token"),
            ("https://[::1]/token", "https://[::1]/token"),
            (
                "https://[::ffff:10.0.0.1]/token",
                "https://[::ffff:a00:1]/token",
            ),
        ];
        for (target, shown) in targets {
            let error = remote.check(&url(target)).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("{shown} is refused: {RESTRICTED}"),
                "{target}"
            );
            assert_eq!(error.url(), Some(shown));
        }
        let allowing = remote.allow_private_addresses(true);
        for (target, _) in targets {
            assert_eq!(allowing.check(&url(target)), Ok(()), "{target}");
        }
    }

    #[test]
    fn public_literals_and_names_pass() {
        let remote = policy("https://mcp.example.com/mcp");
        for target in [
            "https://8.8.8.8/token",
            "https://[2001:4860:4860::8888]/token",
            "https://auth.internal.example/token",
        ] {
            assert_eq!(remote.check(&url(target)), Ok(()), "{target}");
        }
    }

    #[test]
    fn loopback_passes_when_the_server_is_on_loopback_and_the_servers_own_origin_always() {
        let local = policy("http://127.0.0.1:8000/mcp");
        assert_eq!(local.check(&url("http://127.0.0.1:9000/token")), Ok(()));
        assert!(local.check(&url("http://10.0.0.1/token")).is_err());
        assert!(local.check(&url("https://0.0.0.0/token")).is_err());
        let intranet = policy("https://10.1.2.3/mcp");
        assert_eq!(
            intranet.check(&url(
                "https://10.1.2.3/.well-known/oauth-protected-resource"
            )),
            Ok(())
        );
        assert!(intranet.check(&url("https://10.1.2.3:8443/token")).is_err());
    }

    #[test]
    fn loopback_hosts_are_recognized() {
        for host in [
            "localhost",
            "LOCALHOST.",
            "127.0.0.1",
            "127.8.9.10",
            "[::1]",
            "[::ffff:127.0.0.1]",
        ] {
            assert!(is_loopback(&url(&format!("http://{host}/"))), "{host}");
        }
        for host in [
            "localhost.example.com",
            "10.0.0.1",
            "[fe80::1]",
            "example.com",
        ] {
            assert!(!is_loopback(&url(&format!("http://{host}/"))), "{host}");
        }
    }
}
