//! [`TlsRefused`]: a TLS handshake that failed on a certificate, said in words: which host,
//! why (unknown issuer, expired, name mismatch, no client certificate), and how to fix it.

use rustls::{AlertDescription, CertificateError};

/// A certificate made the TLS handshake with `host` fail. Its source is rustls' error.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub(crate) struct TlsRefused {
    message: String,
    #[source]
    source: rustls::Error,
}

/// The certificate failure somewhere in `error`'s chain, explained for `host`.
pub(crate) fn find(host: &str, error: &(dyn std::error::Error + 'static)) -> Option<TlsRefused> {
    let mut cause = Some(error);
    while let Some(error) = cause {
        if let Some(rustls) = error.downcast_ref::<rustls::Error>() {
            return explain(host, rustls);
        }
        // `io::Error::source` skips the error it wraps (itself often an `io::Error`), so step
        // into it instead.
        cause = match error.downcast_ref::<std::io::Error>() {
            Some(io) => io
                .get_ref()
                .map(|inner| inner as &(dyn std::error::Error + 'static)),
            None => error.source(),
        };
    }
    None
}

fn explain(host: &str, error: &rustls::Error) -> Option<TlsRefused> {
    const ADD_ROOT: &str = "if it is issued by your organisation's certificate authority, trust \
        that CA with --ca-file FILE (PEM), HttpOptions::add_root_certificate or SSL_CERT_FILE";
    const ADD_IDENTITY: &str = "present one with --client-cert FILE --client-key FILE, or \
        HttpOptions::client_identity";
    let message = match error {
        rustls::Error::InvalidCertificate(certificate) => {
            let reason = match certificate {
                CertificateError::UnknownIssuer => {
                    "unknown issuer: no trusted certificate authority signed it"
                }
                CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                    "it has expired"
                }
                CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                    "it is not valid yet"
                }
                CertificateError::NotValidForName
                | CertificateError::NotValidForNameContext { .. } => {
                    return Some(TlsRefused {
                        message: format!(
                            "the TLS certificate of {host} is refused: name mismatch, it is not \
                             issued for {host}; use the host name the certificate names"
                        ),
                        source: error.clone(),
                    });
                }
                CertificateError::Revoked => "it is revoked",
                _ => "it is not valid",
            };
            format!(
                "the TLS certificate of {host} is refused: {reason} ({certificate}); {ADD_ROOT}"
            )
        }
        rustls::Error::AlertReceived(AlertDescription::CertificateRequired) => {
            format!(
                "{host} requires a client certificate (mutual TLS) and none was presented: {ADD_IDENTITY}"
            )
        }
        rustls::Error::AlertReceived(
            alert @ (AlertDescription::BadCertificate
            | AlertDescription::UnknownCA
            | AlertDescription::CertificateExpired
            | AlertDescription::CertificateRevoked
            | AlertDescription::CertificateUnknown
            | AlertDescription::UnsupportedCertificate
            | AlertDescription::AccessDenied),
        ) => format!(
            "{host} refused the client certificate ({alert:?}): check it is one {host} trusts"
        ),
        _ => return None,
    };
    Some(TlsRefused {
        message,
        source: error.clone(),
    })
}
