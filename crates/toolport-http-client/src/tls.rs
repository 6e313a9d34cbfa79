//! The rustls configuration of a client: the operating system's roots (and Mozilla's with the
//! `webpki-roots` feature), the roots added in the options, and the client certificate.

use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ClientConfig, RootCertStore};

use crate::NetworkOptions;

/// The client configuration for `network`, verifying every server's certificate.
pub(crate) fn client_config(network: &NetworkOptions) -> Result<ClientConfig, String> {
    let roots = roots(network)?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| format!("cannot set up TLS: {error}"))?
        .with_root_certificates(roots);
    match &network.client_identity {
        None => Ok(builder.with_no_client_auth()),
        Some(identity) => {
            let chain = certificates(&identity.cert_chain_pem)
                .map_err(|error| format!("the client certificate: {error}"))?;
            let key = PrivateKeyDer::from_pem_slice(identity.key_pem.expose().as_bytes()).map_err(
                |_| "the client key is not a PEM private key (PKCS#8, PKCS#1 or SEC1)".to_owned(),
            )?;
            builder.with_client_auth_cert(chain, key).map_err(|error| {
                format!("the client certificate and key do not make an identity: {error}")
            })
        }
    }
}

/// The roots trusted: the system's, Mozilla's (with the feature) and those added.
fn roots(network: &NetworkOptions) -> Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    // Reads `SSL_CERT_FILE` and `SSL_CERT_DIR` when set, else the system bundle. A file that
    // fails to load leaves the others; an empty store is reported below.
    let system = rustls_native_certs::load_native_certs();
    roots.add_parsable_certificates(system.certs);
    #[cfg(feature = "webpki-roots")]
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    for (index, pem) in network.root_certificates.iter().enumerate() {
        for certificate in
            certificates(pem).map_err(|error| format!("root certificate {}: {error}", index + 1))?
        {
            roots
                .add(certificate)
                .map_err(|error| format!("root certificate {}: {error}", index + 1))?;
        }
    }
    if roots.is_empty() {
        let problems: Vec<String> = system.errors.iter().map(ToString::to_string).collect();
        return Err(format!(
            "no trusted root certificates: the system has none{} (install its CA bundle, such \
             as ca-certificates, or point SSL_CERT_FILE at one), none was added (--ca-file, \
             HttpOptions::add_root_certificate), and this build has no webpki-roots feature",
            if problems.is_empty() {
                String::new()
            } else {
                format!(" ({})", problems.join("; "))
            }
        ));
    }
    Ok(roots)
}

/// Every certificate of a PEM text; at least one.
fn certificates(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>, String> {
    let certificates = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| format!("not valid PEM: {error}"))?;
    if certificates.is_empty() {
        return Err("no `BEGIN CERTIFICATE` block in the PEM text".to_owned());
    }
    Ok(certificates)
}
